"""The table of small projects of ``test_device_paths.py``: one fact of the Wendy CLI each.

Each case names the fact of ``wendy-run.md`` (section number) it tests,
holds the render, and the device view the facts give, projected onto the
fields that fact decides (:func:`projection`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from wendy_llm.wendycli.project import UNKNOWN_PROJECT, WENDY_JSON_NOT_FOUND
from wendy_llm.wendycli.single_builds import MACOS_SWIFTPM_PATH, XCODE_PATH

SERVE = b'FROM python:3.12-slim\nENTRYPOINT ["/srv/serve"]\nCMD ["--port", "80"]\n'
#: The profiles the cases are evaluated for: one per WENDY_PLATFORM value.
DEVICES = ("thor", "orin")


def wendy(**config: object) -> bytes:
    """A ``wendy.json``, one key per line (so a key's line is predictable)."""
    return json.dumps({"appId": "Demo.App", **config}, indent=1).encode()


def service(
    name: str,
    app: str,
    image: str,
    argv: list[str] | None = None,
    *,
    dockerfile: str,
    after: tuple[str, ...] = (),
    entitlements: tuple[str, ...] = (),
) -> dict[str, Any]:
    return {
        "name": name,
        "app": app,
        "image": image,
        "dockerfile": dockerfile,
        "argv": argv,
        "restart": "unless-stopped",
        "depends_on": list(after),
        "entitlements": list(entitlements),
    }


def ms(name: str, argv: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    """A multi-service app of ``Demo.App`` built from ``<name>/Dockerfile``."""
    kw.setdefault("dockerfile", f"{name}/Dockerfile")
    image = f"localhost:5000/demo.app-{name.lower()}:latest"
    return service(name, f"Demo.App-{name}", image, argv, **kw)


def sc(argv: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    """The single-container app of ``Demo.App``."""
    kw.setdefault("dockerfile", "Dockerfile")
    return service("Demo.App", "Demo.App", "localhost:5000/demo.app:latest", argv, **kw)


@dataclass(frozen=True)
class Case:
    fact: str  # the fact of wendy-run.md this case tests
    tree: Mapping[str, bytes]
    deploy: str | None
    path: str
    services: list[dict[str, Any]]
    findings: list[tuple[str, str, str | None, int | None]] = field(default_factory=list)
    readiness: tuple[int, int] | None = None
    post_start: dict[str, str | None] | None = None
    not_modelled: tuple[str, ...] = ()  # a substring of each expected entry
    # More of the plan's view: "services/0/build/generated" (a path of keys and list
    # indexes in ``plan --json``'s ``view``) -> the value there.
    at: Mapping[str, object] = field(default_factory=dict)


def value_at(view: Mapping[str, Any], path: str) -> object:
    """The value at a ``/``-separated path of keys and list indexes of ``view``."""
    found: Any = view
    for part in path.split("/"):
        found = found[int(part)] if isinstance(found, list) else found[part]
    return found


def projection(view: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a ``plan --json`` view the facts of this table decide."""
    services = []
    for s in view["services"]:
        services.append(
            {
                "name": s["name"],
                "app": s["app"],
                "image": s["image"],
                "dockerfile": s["build"]["dockerfile"] if s["build"] else None,
                "argv": s["command"]["argv"],
                "restart": s["restart"]["policy"],
                "depends_on": s["depends_on"],
                "entitlements": [e["type"] for e in s["entitlements"]],
            }
        )
    readiness = view["readiness"]
    return {
        "deploy": view["deploy"],
        "path": view["path"],
        "services": services,
        "readiness": None
        if readiness is None
        else (readiness["port"], readiness["timeout_seconds"]),
        "post_start": None
        if view["post_start"] is None
        else {k: view["post_start"][k] for k in ("open_url", "cli", "agent")},
    }


MS_TWO = {
    "api/Dockerfile": SERVE,
    "db/Dockerfile": b"FROM postgres:16\n",
}
READY = {"tcpSocket": {"port": 8080}, "timeoutSeconds": 90}


HOOK = {"postStart": {"openURL": "http://${WENDY_HOSTNAME}:8080"}}

CASES: dict[str, Case] = {
    "multi-service-apps-and-images": Case(
        "s4: app <appId>-<name>; image localhost:5000/<lower appId>-<lower name>:latest; "
        "argv the image's ENTRYPOINT+CMD; restart the device default",
        {
            **MS_TWO,
            "Web/Dockerfile": SERVE,
            "wendy.json": wendy(services={"Web": {"context": "./Web"}}),
        },
        "multi-service",
        "unknown",
        [ms("Web", ["/srv/serve", "--port", "80"])],
    ),
    "multi-service-gpu-is-honoured": Case(
        "s4: each service gets its own entitlements; a gpu entitlement is honoured",
        {
            **MS_TWO,
            "wendy.json": wendy(
                services={
                    "api": {"context": "api", "entitlements": [{"type": "gpu"}]},
                    "db": {"context": "db", "entitlements": [{"type": "network"}]},
                }
            ),
        },
        "multi-service",
        "unknown",
        [
            ms("api", ["/srv/serve", "--port", "80"], entitlements=("gpu",)),
            ms("db", entitlements=("network",)),
        ],
    ),
    "multi-service-loses-top-level-settings": Case(
        "s4: the top-level entitlements, readiness and hooks are applied to no service",
        {
            **MS_TWO,
            "wendy.json": wendy(
                entitlements=[{"type": "gpu"}],
                services={"db": {"context": "db"}},
                readiness=READY,
                hooks=HOOK,
            ),
        },
        "multi-service",
        "unknown",
        [ms("db")],
        [
            ("warning", "the gpu entitlement of the app is lost on a device", "wendy.json", 4),
            ("warning", "the readiness check (wendy run waiting", "wendy.json", 13),
            ("warning", "the post-start hook is lost on a device", "wendy.json", 19),
        ],
    ),
    "multi-service-creation-order": Case(
        "s4: creation order topological over dependsOn, names sorted",
        {
            "api/Dockerfile": SERVE,
            "db/Dockerfile": b"FROM postgres:16\n",
            "web/Dockerfile": b"FROM nginx:1.27\n",
            "wendy.json": wendy(
                services={
                    "web": {"context": "web", "dependsOn": ["db"]},
                    "api": {"context": "api", "dependsOn": ["web"]},
                    "db": {"context": "db"},
                }
            ),
        },
        "multi-service",
        "unknown",
        [
            ms("db"),
            ms("web", after=("db",)),
            ms("api", ["/srv/serve", "--port", "80"], after=("web",)),
        ],
    ),
    "multi-service-cycle-fails": Case(
        "s4: a dependsOn cycle fails with the CLI's message",
        {
            **MS_TWO,
            "wendy.json": wendy(
                services={
                    "api": {"context": "api", "dependsOn": ["db"]},
                    "db": {"context": "db", "dependsOn": ["api"]},
                }
            ),
        },
        "multi-service",
        "unknown",
        [],
        [
            (
                "error",
                'wendy run fails: cycle detected in dependsOn graph involving service "api"',
                "wendy.json",
                6,
            )
        ],
    ),
    "multi-service-unknown-dependency-fails": Case(
        "s2/s4: every dependsOn name must be a service; wendy run refuses the file",
        {**MS_TWO, "wendy.json": wendy(services={"db": {"context": "db", "dependsOn": ["x"]}})},
        None,
        "unknown",
        [],
        [
            (
                "error",
                'wendy run refuses wendy.json: services.db.dependsOn[0]: service "db"',
                "wendy.json",
                7,
            )
        ],
    ),
    "multi-service-whatever-the-root-holds": Case(
        "s1: non-empty services -> multi-service whatever the markers; a root Dockerfile "
        "is not built",
        {
            **MS_TWO,
            "Dockerfile": b"FROM alpine\n",
            "requirements.txt": b"flask\n",
            "wendy.json": wendy(services={"db": {"context": "db"}}),
        },
        "multi-service",
        "docker",
        [ms("db")],
        [("warning", "Dockerfile: not built: wendy.json has services", "Dockerfile", 1)],
    ),
    "multi-service-context-without-dockerfile": Case(
        "s4: the image is built from <project>/<context> with its Dockerfile",
        {"wendy.json": wendy(services={"db": {"context": "./data"}})},
        "multi-service",
        "unknown",
        [],
        [("error", "service db: data/ has no Dockerfile: wendy run fails", "wendy.json", 5)],
    ),
    "multi-service-uninjected-wendy-arg": Case(
        "s6: no build arg but the Wendy ones is passed: an ARG WENDY_* the CLI never "
        "passes keeps its default",
        {
            "db/Dockerfile": b"FROM postgres:16\nARG WENDY_JETPACK_MAJOR=0\n",
            "wendy.json": wendy(services={"db": {"context": "db"}}),
        },
        "multi-service",
        "unknown",
        [ms("db")],
        [("warning", "ARG WENDY_JETPACK_MAJOR looks like a Wendy build arg", "db/Dockerfile", 2)],
    ),
    "single-container-docker": Case(
        "s5: app <appId>, image localhost:5000/<lower appId>:latest, top-level entitlements "
        "(gpu honoured), argv the image's ENTRYPOINT+CMD, readiness then postStart",
        {
            "Dockerfile": SERVE,
            "wendy.json": wendy(entitlements=[{"type": "gpu"}], readiness=READY, hooks=HOOK),
        },
        "single-container",
        "docker",
        [sc(["/srv/serve", "--port", "80"], entitlements=("gpu",))],
        readiness=(8080, 90),
        post_start={"open_url": "http://${WENDY_HOSTNAME}:8080", "cli": None, "agent": None},
    ),
    "single-container-readiness-default-timeout": Case(
        "s2/s5: readiness timeoutSeconds 0 or absent is the default, 30",
        {"Dockerfile": SERVE, "wendy.json": wendy(readiness={"tcpSocket": {"port": 9000}})},
        "single-container",
        "docker",
        [sc(["/srv/serve", "--port", "80"])],
        readiness=(9000, 30),
    ),
    "single-container-uninjected-wendy-arg": Case(
        "s6: the ARG WENDY_* warning on the single-container path too",
        {"Dockerfile": b"ARG WENDY_ARCH=arm64\nFROM alpine\n", "wendy.json": wendy()},
        "single-container",
        "docker",
        [sc()],
        [("warning", "ARG WENDY_ARCH looks like a Wendy build arg", "Dockerfile", 1)],
    ),
    "unknown-project-fails": Case(
        "s1: an unknown project without services fails with the CLI's message",
        {"main.c": b"int main(void) { return 0; }\n", "wendy.json": wendy()},
        None,
        "unknown",
        [],
        [("error", f"wendy run fails: {UNKNOWN_PROJECT}", None, None)],
    ),
    "wendy-json-missing-fails-without-a-terminal": Case(
        "s1: every non-compose path loads wendy.json; missing (no terminal), the CLI's message",
        {"Dockerfile": SERVE},
        None,
        "docker",
        [],
        [("warning", f"without a terminal, wendy run fails: {WENDY_JSON_NOT_FOUND}", None, None)],
    ),
    "wendy-lite-is-no-wendyos-app": Case(
        "s7: a wendy-lite app runs on a microcontroller; nothing is judged",
        {"Cargo.toml": b"[package]\n", "wendy.json": wendy(platform="wendy-lite")},
        None,
        "unknown",
        [],
        not_modelled=("a Wendy Lite app",),
    ),
    "xcode-is-not-single-container": Case(
        "s5: an Xcode project goes to the macOS path, not to a device",
        {"App.xcodeproj/project.pbxproj": b"", "wendy.json": wendy()},
        None,
        "xcode",
        [],
        not_modelled=("goes to the macOS path",),
        at={"deploy_reason": "project type xcode (App.xcodeproj): " + XCODE_PATH},
    ),
    # Issue 35: run.args was reported "ignored on a device" for a project no device runs.
    "xcode-run-args-is-no-device-finding": Case(
        "s5: the Xcode path passes run.args to the app on the Mac: no WendyOS-device finding",
        {"App.xcodeproj/project.pbxproj": b"", "wendy.json": wendy(run={"args": ["--refresh"]})},
        None,
        "xcode",
        [],
        not_modelled=("goes to the macOS path",),
    ),
    "macos-swift-package-is-no-wendyos-app": Case(
        "s5/s7: a Swift package with platform darwin (a menu-bar app) is a Mac app: the macOS "
        "SwiftPM path reads run.args; nothing is judged for a WendyOS device",
        {
            "Package.swift": b"// swift-tools-version:5.10\n",
            "wendy.json": wendy(platform="darwin", xcode={"scheme": "App"}, run={"args": ["-v"]}),
        },
        None,
        "swift",
        [],
        not_modelled=("goes to the macOS SwiftPM path",),
        at={"deploy_reason": "project type swift (Package.swift): " + MACOS_SWIFTPM_PATH},
    ),
}
