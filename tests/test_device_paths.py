"""The device view off the compose path: only what the CLI's source says."""

from __future__ import annotations

from wendy_llm.device import Entitlement
from wendy_llm.validate.device import build_view

WENDY = '{"appId": "demo", "entitlements": [{"type": "gpu"}, {"type": "network", "mode": "host"}]}'


def test_the_docker_path_builds_the_root_dockerfile_with_wendy_json() -> None:
    tree = {
        "Dockerfile": b'FROM python:3.12\nENV MODE=serve\nCMD ["python", "app.py"]\n',
        "wendy.json": WENDY.encode(),
        "app.py": b"print('hi')\n",
    }
    view = build_view(tree, "Demo")
    assert (view.path, view.path_file) == ("docker", "Dockerfile")
    (app,) = view.services
    assert app.entitlements == (Entitlement("gpu"), Entitlement("network", mode="host"))
    assert app.environment.values == {"MODE": "serve"}
    assert app.command.cmd == ("python", "app.py")
    assert app.command.argv is None  # python:3.12's own ENTRYPOINT is not seen
    assert app.build is not None and app.build.base_images == ("python:3.12",)
    assert view.findings == () and view.ignored == ()
    # What the spec does not say is said, not guessed.
    assert "the docker path's build args" in view.not_modelled
    assert "the docker path's app and image names" in view.not_modelled


def test_wendy_json_is_read_as_the_cli_reads_it() -> None:
    """Through wendycli.wendy_json (Go's decoding): keys match case-insensitively,
    and a compose path's lost settings are located where they are written."""
    tree = {
        "Dockerfile": b"FROM python:3.12\n",
        "wendy.json": b'{"appId": "demo", "Entitlements": [{"Type": "gpu"}]}',
    }
    (app,) = build_view(tree, "demo").services
    assert app.entitlements == (Entitlement("gpu"),)
    compose = {
        "compose.yml": b"services:\n  a:\n    image: x\n",
        "wendy.json": b'{\n  "appId": "demo",\n  "Readiness": {"tcpSocket": {"port": 80}}\n}',
    }
    view = build_view(compose, "demo")
    lost = [i for i in view.ignored if i.reason.startswith("the readiness")]
    assert [(i.line, i.reason) for i in lost] == [
        (3, "the readiness check is lost on a device (wendy.json is not read on the compose path)")
    ]


def test_a_compose_file_wins_over_a_root_dockerfile() -> None:
    tree = {"Dockerfile": b"FROM scratch\n", "compose.yml": b"services:\n  a:\n    image: x\n"}
    assert build_view(tree, "demo").path == "compose"


def test_the_swift_path_is_not_modelled_beyond_wendy_json() -> None:
    view = build_view({"Package.swift": b"// swift\n", "wendy.json": WENDY.encode()}, "demo")
    assert (view.path, view.services, view.findings) == ("swift", (), ())
    assert view.not_modelled == (
        "the swift path: the spec says only that it loads and validates wendy.json",
    )


def test_a_render_without_a_known_path_is_not_modelled_and_not_judged() -> None:
    # A wendy.json with services only (no compose file, no root Dockerfile) is ordinary.
    wendy = b'{"appId": "demo", "services": {"store": {"context": "./store"}}}'
    view = build_view({"wendy.json": wendy, "store/Dockerfile": b"FROM redis\n"}, "demo")
    assert (view.path, view.services, view.findings) == ("none", (), ())
    assert view.not_modelled == (
        "no compose file, Dockerfile, Package.swift, *.xcodeproj or Python project at the top "
        "of the render (wendy.json services: store): the spec does not say what wendy run does "
        "with it",
    )
