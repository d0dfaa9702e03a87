"""Compose cases, part 2: image references and ports (wendy-run.md 3)."""

from __future__ import annotations

from _compose_cases import Case, built, case, svc

R = "restart table"
C = "command row + argv consequence"
I = "image row"  # noqa: E741
P = "ports row"

TOP_LEVEL_NETWORK = '{"appId": "a", "entitlements": [{"type": "network"}]}\n'
TOP_LEVEL_HOST_NETWORK = '{"appId": "a", "entitlements": [{"type": "network", "mode": "host"}]}\n'

IMAGE: list[Case] = [
    case(
        "img-latest",
        f"{I}: python -> docker.io/library/python:latest",
        svc("image: python"),
        image="docker.io/library/python:latest",
    ),
    case(
        "img-ghcr",
        f"{I}: ghcr.io/x/y -> :latest",
        svc("image: ghcr.io/x/y"),
        image="ghcr.io/x/y:latest",
    ),
    case(
        "img-localhost",
        f"{I}: localhost:5000/a -> :latest",
        svc("image: localhost:5000/a"),
        image="localhost:5000/a:latest",
    ),
    case(
        "img-tag-kept",
        f"{I}: a tag is kept",
        svc("image: python:3.11-slim"),
        image="docker.io/library/python:3.11-slim",
    ),
    case(
        "img-digest",
        f"{I}: a digest gets no tag",
        svc("image: 'a@sha256:" + "0" * 64 + "'"),
        image="docker.io/library/a@sha256:" + "0" * 64,
    ),
    case(
        "img-namespace",
        f"{I}: user/repo on Docker Hub",
        svc("image: ollama/ollama"),
        image="docker.io/ollama/ollama:latest",
    ),
    case(
        "img-trimmed",
        f"{I}: surrounding spaces trimmed",
        svc("image: '  redis  '"),
        image="docker.io/library/redis:latest",
    ),
    case(
        "img-upper-as-written",
        f"{I}: upper case does not parse: sent as written",
        svc("image: ' Python'"),
        image=" Python",
    ),
    case(
        "img-variable",
        f"{I}: ${{IMG}} does not parse: sent as written",
        svc("image: ${IMG}"),
        image="${IMG}",
        warning="not interpolated",
    ),
    case(
        "img-legacy-index",
        f"{I}: index.docker.io is docker.io",
        svc("image: index.docker.io/foo"),
        image="docker.io/library/foo:latest",
    ),
    case(
        "img-built-ignored",
        f"{I}: used only without build",
        built("image: shop/api:1"),
        image="localhost:5000/demo-a:latest",
        warning='image "shop/api:1" is not used',
    ),
    case(
        "img-number",
        f"{I}: an int scalar is its text",
        svc("image: 42"),
        image="docker.io/library/42:latest",
    ),
    case(
        "img-empty-fails",
        "a service with neither build nor image fails",
        svc("image: ''"),
        error="service a has neither image nor build",
    ),
]

PORTS: list[Case] = [
    case(
        "port-pair",
        f"{P}: host:container",
        svc("image: x", "ports: ['8080:80']"),
        ports=["8080:80"],
        ent=["network 8080:80"],
    ),
    case(
        "port-single",
        f"{P}: one part: host = container",
        svc("image: x", "ports: ['8000']"),
        ports=["8000:8000"],
        warning="random host port",
    ),
    case(
        "port-int",
        "YAML: - 8080 is the port string 8080",
        svc("image: x", "ports: [8080]"),
        ports=["8080:8080"],
    ),
    case(
        "port-ip",
        f"{P}: 127.0.0.1:8080:80 -> 127:8080",
        svc("image: x", "ports: ['127.0.0.1:8080:80']"),
        ports=["127:8080"],
        warning="binds host port 8080 on 127.0.0.1",
    ),
    case(
        "port-udp",
        f"{P}: 53/udp -> 53:53",
        svc("image: x", "ports: ['53/udp']"),
        ports=["53:53"],
        warning="keeps no protocol (/udp)",
    ),
    case(
        "port-tcp-suffix",
        f"{P}: 9090:90/tcp -> 9090:90",
        svc("image: x", "ports: ['9090:90/tcp']"),
        ports=["9090:90"],
        # /tcp is what the port means anyway: no protocol warning; the
        # host side is never published (wendy-run.md section 9).
        nowarn="keeps no protocol",
        warning="nothing listens on 9090",
    ),
    case(
        "port-range",
        f"{P}: a range -> its first port",
        svc("image: x", "ports: ['8000-8001:8000-8001']"),
        ports=["8000:8000"],
        warning="the whole range",
    ),
    case(
        "port-overflow",
        f"{P}: 70000:82 dropped (uint16 overflow)",
        svc("image: x", "ports: ['70000:82']"),
        ports=[],
        dropped=["70000:82"],
        ent=[],
        warning="the device drops it",
    ),
    case(
        "port-plus",
        f"{P}: +83:83 as Go's Sscanf reads it (no sign for a uint16)",
        svc("image: x", "ports: ['+83:83']"),
        ports=[],
        dropped=["+83:83"],
    ),
    case("port-zero", f"{P}: 0 is not > 0", svc("image: x", "ports: ['0:80']"), ports=[]),
    case(
        "port-name",
        f"{P}: a name reads as 0",
        svc("image: x", "ports: [web]"),
        ports=[],
        dropped=["web"],
    ),
    case(
        "port-leading-zero",
        f"{P}: Sscanf reads 080 as 80",
        svc("image: x", "ports: ['080:80']"),
        ports=["80:80"],
    ),
    case(
        "port-trailing-text",
        f"{P}: Sscanf stops at the first non-digit",
        svc("image: x", "ports: ['80abc:81']"),
        ports=["80:81"],
    ),
    case(
        "port-max",
        f"{P}: 65535 fits",
        svc("image: x", "ports: ['65535:65535']"),
        ports=["65535:65535"],
    ),
    case(
        "port-long-syntax",
        f"{P}: a mapping item fails the load",
        svc("image: x", "ports:", "  - target: 80"),
        error="(the long syntax)",
    ),
    case(
        "port-null-item",
        "YAML: a null item of a string list is dropped",
        svc("image: x", "ports: [~, '80:80']"),
        ports=["80:80"],
        errors=0,
    ),
    case(
        "port-scalar",
        "YAML: a scalar for a list fails the load",
        svc("image: x", "ports: '80'"),
        error="cannot unmarshal !!str",
    ),
    case(
        "port-host-mode",
        "entitlements: network_mode host wins over ports",
        svc("image: x", "network_mode: host", "ports: ['80:80']"),
        ent=["network host"],
    ),
    case(
        "wendy-json-top-level-network-granted-by-ports",
        "entitlements: parsed ports -> network (host networking), so wendy.json's top-level "
        "network entitlement, not read, is granted the same: not lost (issue 32)",
        (svc("image: x", "ports: ['8080:80']"), {"wendy.json": TOP_LEVEL_NETWORK}),
        ent=["network 8080:80"],
        nowarn="lost on a device",
    ),
    case(
        "wendy-json-top-level-host-network-granted-by-network-mode",
        "entitlements: network_mode host -> network host, as wendy.json's top-level asks",
        (svc("image: x", "network_mode: host"), {"wendy.json": TOP_LEVEL_HOST_NETWORK}),
        ent=["network host"],
        nowarn="lost on a device",
    ),
    case(
        "wendy-json-top-level-network-lost-where-a-service-has-none",
        "entitlements: none kept -> no network entitlement: the app's network is lost for b",
        (
            svc("image: x", "ports: ['80:80']") + "  b:\n    image: y\n",
            {"wendy.json": TOP_LEVEL_NETWORK},
        ),
        warning="the network entitlement of the app is lost on a device",
    ),
]

CASES: list[Case] = [*IMAGE, *PORTS]
