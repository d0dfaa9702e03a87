"""Compose cases, part 3: volumes, entitlements, creation order, depends_on (wendy-run.md 3)."""

from __future__ import annotations

from _compose_cases import ENTRYPOINT, Case, case, svc

V = "volumes row"
E = "entitlements consequence"
O = "creation order consequence"  # noqa: E741
B = "build row"
D = "depends_on row"
Y = "YAML-level facts"
DF = {"Dockerfile": ENTRYPOINT}
APP = {"app/Dockerfile": ENTRYPOINT}


def two(a: str, b: str) -> str:
    """Services a and b (images), with extra lines for each."""
    return f"services:\n  a:\n    image: x\n{a}  b:\n    image: y\n{b}"


VOLUMES: list[Case] = [
    case(
        "vol-named",
        f"{V}: source:target, a named volume",
        svc("image: x", "volumes: ['data:/d']"),
        volumes=["named"],
        ent=["persist data:/d"],
    ),
    case(
        "vol-named-mode",
        f"{V}: source:target:mode",
        svc("image: x", "volumes: ['data:/d:ro']"),
        volumes=["named"],
        ent=["persist data:/d"],
        warning='the mode "ro" is not applied',
    ),
    case(
        "vol-bind-dot",
        f"{E}: ./ source is a bind, not mounted",
        svc("image: x", "volumes: ['./s:/d']"),
        volumes=["bind"],
        ent=[],
        warning="Docker Compose mounts it, the device does not",
    ),
    case(
        "vol-bind-abs",
        f"{E}: / source is a bind",
        svc("image: x", "volumes: ['/srv:/d']"),
        volumes=["bind"],
        ent=[],
    ),
    case(
        "vol-anonymous",
        f"{V}: 1 part = anonymous, not mounted",
        svc("image: x", "volumes: ['/d']"),
        volumes=["anonymous"],
        ent=[],
        warning="anonymous volume at /d",
    ),
    case(
        "vol-four-parts",
        f"{V}: more than 3 parts ignored",
        svc("image: x", "volumes: ['vol:/d:ro:x']"),
        volumes=["unusable"],
        ent=[],
        warning="more than three parts",
    ),
    case(
        "vol-drive-letter",
        f"{V}: a drive letter merged",
        svc("image: x", "volumes: ['C:/s:/d']"),
        volumes=["bind"],
        ent=[],
    ),
    case(
        "vol-single-letter",
        f"{V}: a single-letter source merges: one part",
        svc("image: x", "volumes: ['a:/d']"),
        volumes=["anonymous"],
        ent=[],
    ),
    case(
        "vol-empty-source",
        f"{E}: an empty source is not named",
        svc("image: x", "volumes: [':/d']"),
        volumes=["unusable"],
        ent=[],
    ),
    case(
        "vol-empty-target",
        f"{E}: an empty target is not named",
        svc("image: x", "volumes: ['vol:']"),
        volumes=["unusable"],
        ent=[],
    ),
    case(
        "vol-tilde",
        f"{E}: ~ is not . or /: named",
        svc("image: x", "volumes: ['~/s:/d']"),
        volumes=["named"],
        ent=["persist ~/s:/d"],
        warning="mounts ~ paths from the host",
    ),
    case(
        "vol-long-syntax",
        f"{V}: long syntax fails the load",
        svc("image: x", "volumes:", "  - type: volume"),
        error="(the long syntax)",
    ),
    case(
        "vol-two-named",
        f"{E}: each named volume a persist",
        svc("image: x", "volumes: ['a1:/a', 'b1:/b']"),
        ent=["persist a1:/a", "persist b1:/b"],
    ),
]

ENTITLEMENTS: list[Case] = [
    case(
        "ent-host",
        f"{E}: network_mode host",
        svc("image: x", "network_mode: host"),
        ent=["network host"],
    ),
    case(
        "ent-bridge-ignored",
        "network_mode: only host matters",
        svc("image: x", "network_mode: bridge"),
        ent=[],
        warning='"bridge" is ignored',
    ),
    case("ent-none", f"{E}: no ports, no volumes: none", svc("image: x"), ent=[]),
    case(
        "ent-no-gpu",
        f"{E}: never gpu",
        svc("image: x", "gpus: all", "runtime: nvidia"),
        ent=[],
        warning="no GPU is granted",
    ),
    case(
        "ent-ports-and-volume",
        f"{E}: network with ports, then persist",
        svc("image: x", "ports: ['80:80']", "volumes: ['vv:/v']"),
        ent=["network 80:80", "persist vv:/v"],
    ),
    case(
        "ent-devices-ignored",
        f"{E}: devices are not passed",
        svc("image: x", "devices: ['/dev/video0']"),
        ent=[],
        warning="no device is passed",
    ),
]

ORDER: list[Case] = [
    case(
        "order-partial",
        f"{O}: dependencies first, the rest unordered",
        two("    depends_on: [b]\n", ""),
        order="dependencies-first",
        services=["a", "b"],
        **{"a.after": ["b"], "b.after": []},
    ),
    case(
        "order-none",
        f"{O}: no depends_on: nothing ordered",
        two("", ""),
        **{"a.after": [], "b.after": []},
    ),
    case(
        "order-cycle",
        f"{O}: cycles ignored (unordered)",
        two("    depends_on: [b]\n", "    depends_on: [a]\n"),
        errors=0,
        warning="part of a dependency cycle",
        **{"a.after": [], "b.after": []},
    ),
    case(
        "order-self",
        f"{O}: a self-dependency is a cycle",
        svc("image: x", "depends_on: [a]"),
        after=[],
        errors=0,
    ),
    case(
        "order-chain",
        f"{O}: a chain orders each link",
        "services:\n  a:\n    image: x\n    depends_on: [b]\n  b:\n    image: y\n"
        "    depends_on: [c]\n  c:\n    image: z\n",
        **{"a.after": ["b"], "b.after": ["c"]},
    ),
]

DEPENDS: list[Case] = [
    case("dep-sequence", f"{D}: a sequence's names", two("    depends_on: [b]\n", ""), after=["b"]),
    case(
        "dep-mapping",
        f"{D}: a mapping's keys, conditions ignored",
        two("    depends_on:\n      b: {condition: service_healthy}\n", ""),
        after=["b"],
    ),
    case(
        "dep-scalar",
        f"{D}: a scalar is ignored",
        two("    depends_on: b\n", ""),
        after=[],
        errors=0,
    ),
    case(
        "dep-alias",
        f"{D}: an alias is ignored",
        "x-d: &d [b]\nservices:\n  a:\n    image: x\n    depends_on: *d\n  b:\n    image: y\n",
        after=[],
        errors=0,
    ),
    case(
        "dep-unknown",
        f"{D}: an unknown name fails",
        svc("image: x", "depends_on: [nope]"),
        error='service "a" depends on unknown service "nope"',
    ),
    case(
        "dep-lenient",
        f"{D}: decode errors ignored",
        two("    depends_on: [b, {x: 1}]\n", ""),
        after=["b"],
        errors=0,
    ),
]

CASES: list[Case] = [*VOLUMES, *ENTITLEMENTS, *ORDER, *DEPENDS]
