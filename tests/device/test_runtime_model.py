"""The container's runtime in the device view (Wendy run facts, section 9).

The environment list in the order the agent sets it (the image's ENV, then
PATH, TERM, WENDY_HOSTNAME, OTEL with host networking, the gpu variables,
runc's HOME), the winner of each name; the GPU granted or not and what
stays open; the network; persist mounts; the process.
"""

from __future__ import annotations

import json

from _device_helpers import view

from wendy_llm.device import Service
from wendy_llm.device.runtime.model import Runtime
from wendy_llm.validate.checks.device import build_view
from wendy_llm.wendycli.runtime import AGENT_PATH

DOCKERFILE = """FROM ubuntu:24.04
ENV PATH=/opt/app/bin:$PATH TERM=dumb APP_MODE=prod
WORKDIR /srv
USER nobody
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/bin/sleep", "infinity"]
"""


def runtime(service: Service | None) -> Runtime:
    assert service is not None and service.runtime is not None
    return service.runtime


def names(rt: Runtime) -> list[tuple[str, str, bool]]:
    return [(e.name, e.source, e.wins) for e in rt.environment]


def test_the_agents_entries_follow_the_image_env_and_win() -> None:
    found = view(
        "services:\n  a:\n    build: ./a\n    ports: ['80:80']\n", {"a/Dockerfile": DOCKERFILE}
    )
    rt = runtime(found.service("a"))
    assert names(rt) == [
        ("(unknown)", "base image", False),
        ("TERM", "image", False),
        ("APP_MODE", "image", True),
        ("PATH", "image", False),
        ("PATH", "agent", True),
        ("TERM", "agent", True),
        ("WENDY_HOSTNAME", "agent", True),
        ("OTEL_EXPORTER_OTLP_ENDPOINT", "agent", True),
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "agent", True),
        ("HOME", "runc", True),
    ]
    path = [e for e in rt.environment if e.name == "PATH"]
    assert path[0].value is None and path[-1].value == AGENT_PATH
    assert rt.base_env_unknown == ("ubuntu:24.04",)
    # ubuntu's ENV is unseen: whether it sets OTEL or HOME is not known.
    otel = next(e for e in rt.environment if e.name == "OTEL_EXPORTER_OTLP_ENDPOINT")
    assert not otel.certain and "unless the base image's unseen ENV sets it" in otel.note


def test_no_network_means_no_otel_and_loopback_only() -> None:
    found = view("services:\n  a:\n    build: ./a\n", {"a/Dockerfile": DOCKERFILE})
    rt = runtime(found.service("a"))
    assert not [e for e in rt.environment if e.name.startswith("OTEL_")]
    assert (rt.network.mode, rt.network.reachable_ports) == ("none", ())
    assert "only loopback" in rt.network.note


def test_host_networking_serves_the_container_side() -> None:
    found = view(
        "services:\n  a:\n    build: ./a\n    ports: ['8080:80', '9000:9000']\n",
        {"a/Dockerfile": DOCKERFILE},
    )
    net = runtime(found.service("a")).network
    assert (net.mode, net.reachable_ports, net.unpublished) == ("host", (80, 9000), ("8080:80",))


def test_the_compose_path_grants_no_gpu_and_says_what_is_open() -> None:
    gpu_image = 'FROM scratch\nENV NVIDIA_VISIBLE_DEVICES=all\nENTRYPOINT ["/x"]\n'
    found = view("services:\n  a:\n    build: ./a\n", {"a/Dockerfile": gpu_image})
    gpu = runtime(found.service("a")).gpu
    assert (gpu.granted, gpu.entitlement) == (False, None)
    assert gpu.open is not None and "the image sets NVIDIA_VISIBLE_DEVICES" in gpu.open
    assert "not in the CLI's code: unknown" in gpu.open
    # scratch sets nothing unseen, and the image no NVIDIA variable: nothing open.
    plain = view(
        "services:\n  a:\n    build: ./a\n", {"a/Dockerfile": 'FROM scratch\nCMD ["/x"]\n'}
    )
    assert runtime(plain.service("a")).gpu.open is None


def test_a_gpu_entitlement_on_the_multi_service_path_is_granted_with_its_variables() -> None:
    wendy = {
        "appId": "demo",
        "services": {"a": {"context": "./a", "entitlements": [{"type": "gpu"}]}},
    }
    tree = {"wendy.json": json.dumps(wendy).encode(), "a/Dockerfile": DOCKERFILE.encode()}
    found = build_view(tree, "demo")
    rt = runtime(found.service("a"))
    assert (rt.gpu.granted, rt.gpu.entitlement) == (True, "wendy.json services.a.entitlements")
    agent = [e.name for e in rt.environment if e.source == "agent"]
    assert agent == [
        "PATH",
        "TERM",
        "WENDY_HOSTNAME",
        "(CDI)",
        "NVIDIA_VISIBLE_DEVICES",
        "NVIDIA_DRIVER_CAPABILITIES",
    ]


def test_persist_is_an_empty_noexec_bind_shared_by_name() -> None:
    found = view(
        "services:\n  a:\n    build: ./a\n    volumes: ['demo-data:/data']\n",
        {"a/Dockerfile": DOCKERFILE},
    )
    (mount,) = runtime(found.service("a")).mounts
    assert (mount.name, mount.path, mount.host_folder) == (
        "demo-data",
        "/data",
        "/var/lib/wendy/volumes/demo-data",
    )
    assert mount.options == ("nosuid", "noexec")
    assert (mount.filled_from_image, mount.shared_by_name) == (False, True)


def test_the_process_runs_as_root_with_the_images_workdir() -> None:
    found = view("services:\n  a:\n    build: ./a\n", {"a/Dockerfile": DOCKERFILE})
    process = runtime(found.service("a")).process
    assert process.user.startswith("root") and process.ignored_user == "nobody"
    assert (process.workdir, process.hostname, process.shm_mib) == ("/srv", "wendy", 64)
    assert (process.stop_grace_seconds, process.ignored_stopsignal) == (10, "SIGINT")
    assert process.restart.startswith("unless-stopped")
    # No WORKDIR on an unseen base: its WORKDIR is unknown.
    bare = view("services:\n  a:\n    build: ./a\n", {"a/Dockerfile": 'FROM ubuntu\nCMD ["/x"]\n'})
    assert runtime(bare.service("a")).process.workdir is None


def test_the_single_container_path_takes_the_top_level_entitlements() -> None:
    wendy = {"appId": "demo", "entitlements": [{"type": "gpu"}]}
    tree = {"wendy.json": json.dumps(wendy).encode(), "Dockerfile": DOCKERFILE.encode()}
    rt = runtime(build_view(tree, "demo").service("demo"))
    assert (rt.gpu.granted, rt.gpu.entitlement) == (True, "wendy.json entitlements")
    assert rt.network.mode == "none"
    assert rt.network.note.endswith("(wendy run --debug gives it host networking)")
