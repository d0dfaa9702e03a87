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
from wendy_llm.wendycli.single_builds import XCODE_PATH

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
GENERATED_HEAD = "FROM python:3.11-slim\nWORKDIR /app\n"
SWIFT_PACKAGE = (
    b"// swift-tools-version:6.0\nimport PackageDescription\n"
    b'let package = Package(name: "hello", products: [.executable(name: "HelloServer", '
    b'targets: ["HelloServer"])], targets: [.executableTarget(name: "HelloServer")])\n'
)
DEBUG_DOCKERFILE = b"FROM alpine\nARG WENDY_DEBUG=true\nENV DEBUG=${WENDY_DEBUG}\n"


def network_port(host: object) -> dict[str, object]:
    """A network entitlement publishing ``host`` -> 80."""
    return {"type": "network", "ports": [{"host": host, "container": 80}]}


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
    "single-container-python-generated-dockerfile": Case(
        "s5: a python project without a Dockerfile gets the generated one: FROM "
        "python:3.11-slim, WORKDIR /app, requirements.txt copied and installed, COPY . ., "
        'CMD ["python", "app.py"] (app.py first); built with WENDY_DEBUG=false',
        {"requirements.txt": b"flask\n", "app.py": b"", "main.py": b"", "wendy.json": wendy()},
        "single-container",
        "python",
        [sc()],
        at={
            "services/0/command/cmd": ["python", "app.py"],
            "services/0/build/generated": GENERATED_HEAD
            + "COPY requirements.txt .\nRUN pip install --no-cache-dir -r requirements.txt\n"
            'COPY . .\nCMD ["python", "app.py"]\n',
            "services/0/build/base_images": ["python:3.11-slim"],
        },
    ),
    "single-container-python-generated-main-py-no-requirements": Case(
        "s5: the generated Dockerfile copies requirements.txt only when it exists, and runs "
        "main.py when there is no app.py",
        {"pyproject.toml": b"[project]\n", "main.py": b"", "wendy.json": wendy()},
        "single-container",
        "python",
        [sc()],
        [("warning", "installs dependencies only from requirements.txt", "pyproject.toml", None)],
        at={
            "services/0/command/cmd": ["python", "main.py"],
            "services/0/build/generated": GENERATED_HEAD + 'COPY . .\nCMD ["python", "main.py"]\n',
        },
    ),
    "single-container-python-generated-cmd-file-missing": Case(
        "s5: the generated CMD runs app.py when neither app.py nor main.py exists: the "
        "container has nothing to run",
        {"requirements.txt": b"flask\n", "server.py": b"", "wendy.json": wendy()},
        "single-container",
        "python",
        [sc()],
        [
            (
                "error",
                'CMD ["python", "app.py"], and the render has no app.py',
                "requirements.txt",
                None,
            )
        ],
    ),
    "single-container-swift": Case(
        "s5: a swift project without a Dockerfile is built by the swift container plugin: "
        "image localhost:5000/<lowercased product name>:latest, no Wendy build args",
        {"Package.swift": SWIFT_PACKAGE, "wendy.json": wendy()},
        "single-container",
        "swift",
        [{**sc(dockerfile=""), "image": "localhost:5000/helloserver:latest"}],
        not_modelled=("the swift container plugin builds this Swift package's image",),
        at={"services/0/build/builder": "swift-container-plugin", "services/0/build/args": []},
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
    "unknown-project-without-wendy-json-fails": Case(
        "s1/s5: nothing detected and no wendy.json: wendy run fails with or without a "
        "terminal (unable to detect project type), an error",
        {"README.md": b"# notes\n"},
        None,
        "unknown",
        [],
        [("error", f"wendy run fails: {UNKNOWN_PROJECT}", None, None)],
    ),
    "run-args-ignored-on-a-device": Case(
        "s5: run.args is never added on a device (only the macOS SwiftPM and Xcode paths "
        "read it): the argv is the image's ENTRYPOINT + CMD",
        {"Dockerfile": SERVE, "wendy.json": wendy(run={"args": ["--verbose"]})},
        "single-container",
        "docker",
        [sc(["/srv/serve", "--port", "80"])],
        [("warning", "run.args: never added to the argv on a device (--verbose)", "wendy.json", 4)],
    ),
    "single-container-always-sends-wendy-debug": Case(
        "s5: the single-container path always sends WENDY_DEBUG (false unless debugging), "
        "so an ARG WENDY_DEBUG=true default never applies",
        {"Dockerfile": DEBUG_DOCKERFILE, "wendy.json": wendy()},
        "single-container",
        "docker",
        [sc()],
        at={"services/0/environment/values/DEBUG": "false"},
    ),
    "multi-service-sends-wendy-debug-only-when-debugging": Case(
        "s4: the multi-service path sends WENDY_DEBUG only when debugging: absent, so an "
        "ARG WENDY_DEBUG=true default applies",
        {
            "api/Dockerfile": DEBUG_DOCKERFILE,
            "wendy.json": wendy(services={"api": {"context": "api"}}),
        },
        "multi-service",
        "unknown",
        [ms("api")],
        at={"services/0/environment/values/DEBUG": "true"},
    ),
    "decode-port-string-is-refused": Case(
        "s2: network ports values decode into uint16: a string is a decode error, the CLI "
        "refuses to run",
        {"Dockerfile": SERVE, "wendy.json": wendy(entitlements=[network_port("8080")])},
        None,
        "docker",
        [],
        [
            (
                "error",
                "ports[0].host: json: cannot unmarshal string into Go value of type uint16",
                "wendy.json",
                8,
            )
        ],
    ),
    "decode-port-above-65535-is-refused": Case(
        "s2: network ports values decode into uint16: 65536 overflows, a decode error",
        {"Dockerfile": SERVE, "wendy.json": wendy(entitlements=[network_port(65536)])},
        None,
        "docker",
        [],
        [("error", "cannot unmarshal number 65536 into Go value of type uint16", "wendy.json", 8)],
    ),
    "decode-port-negative-is-refused": Case(
        "s2: network ports values decode into uint16: -1 is a decode error",
        {"Dockerfile": SERVE, "wendy.json": wendy(entitlements=[network_port(-1)])},
        None,
        "docker",
        [],
        [("error", "cannot unmarshal number -1 into Go value of type uint16", "wendy.json", 8)],
    ),
    "decode-port-65535-is-accepted": Case(
        "s2: network ports values decode into uint16: 65535 is the largest",
        {"Dockerfile": SERVE, "wendy.json": wendy(entitlements=[network_port(65535)])},
        "single-container",
        "docker",
        [sc(["/srv/serve", "--port", "80"], entitlements=("network",))],
    ),
    "decode-context-cleaned-dotdot-prefix-is-refused": Case(
        "s2: a service context is refused when Go's filepath.Clean of it starts with "
        '"..": a folder named ..data too',
        {"..data/Dockerfile": SERVE, "wendy.json": wendy(services={"db": {"context": "..data"}})},
        None,
        "unknown",
        [],
        [
            (
                "error",
                'context "..data" is refused: cleaned ("..data") it starts with ".."',
                "wendy.json",
                5,
            )
        ],
    ),
    "decode-context-cleaned-inside-is-accepted": Case(
        's2: a/../db cleans to db, which does not start with "..": accepted',
        {"db/Dockerfile": SERVE, "wendy.json": wendy(services={"db": {"context": "x/../db"}})},
        "multi-service",
        "unknown",
        [ms("db", ["/srv/serve", "--port", "80"])],
    ),
    "decode-duplicate-object-keys-merge": Case(
        "s2: a key given twice is accepted; an object given twice is merged field by field "
        "(readiness: tcpSocket from the first, timeoutSeconds from the second)",
        {
            "Dockerfile": SERVE,
            "wendy.json": b'{"appId": "Demo.App",\n "readiness": {"tcpSocket": {"port": 80}},\n'
            b' "readiness": {"timeoutSeconds": 5}}\n',
        },
        "single-container",
        "docker",
        [sc(["/srv/serve", "--port", "80"])],
        readiness=(80, 5),
    ),
    "decode-duplicate-list-of-objects-reuses-items": Case(
        "s2: a list of objects given twice reuses the earlier items and overwrites only the "
        'fields set later ([{"type":"network","mode":"host"}] then [{"type":"gpu"}]: gpu); '
        "a plain value takes the last (appId)",
        {
            "Dockerfile": SERVE,
            "wendy.json": b'{"appId": "Old",\n'
            b' "entitlements": [{"type": "network", "mode": "host"}],\n'
            b' "entitlements": [{"type": "gpu"}],\n "appId": "Demo.App"}\n',
        },
        "single-container",
        "docker",
        [sc(["/srv/serve", "--port", "80"], entitlements=("gpu",))],
        at={"services/0/entitlements/0/mode": "host"},
    ),
    "decode-duplicate-maps-keep-both": Case(
        "s2: a map (services) given twice keeps the keys of both",
        {
            **MS_TWO,
            "wendy.json": b'{"appId": "Demo.App",\n "services": {"api": {"context": "api"}},\n'
            b' "services": {"db": {"context": "db"}}}\n',
        },
        "multi-service",
        "unknown",
        [ms("api", ["/srv/serve", "--port", "80"]), ms("db")],
    ),
    "decode-keys-match-case-insensitively": Case(
        "s2: key names match case-insensitively (AppId is appId, Readiness is readiness)",
        {
            "Dockerfile": SERVE,
            "wendy.json": b'{"AppId": "Demo.App", "Readiness": {"TcpSocket": {"PORT": 81}}}\n',
        },
        "single-container",
        "docker",
        [sc(["/srv/serve", "--port", "80"])],
        readiness=(81, 30),
    ),
    "readiness-without-tcp-socket-is-valid": Case(
        "s2: a readiness without tcpSocket is valid and waits for nothing",
        {"Dockerfile": SERVE, "wendy.json": wendy(readiness={"timeoutSeconds": 5})},
        "single-container",
        "docker",
        [sc(["/srv/serve", "--port", "80"])],
        readiness=None,
    ),
}
