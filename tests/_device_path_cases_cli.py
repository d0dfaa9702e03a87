"""More cases of ``test_device_paths.py``: wendy.json decoded as the CLI decodes it
(section 2), the build args per path (sections 4, 5) and the images ``wendy run``
makes without a render's Dockerfile (section 5), each naming its fact."""

from __future__ import annotations

from _device_path_cases import MS_TWO, SERVE, Case, ms, sc, wendy

from wendy_llm.wendycli.project import UNKNOWN_PROJECT

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


CLI_CASES: dict[str, Case] = {
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
        # About the file as a whole: at its line 1, saying so (issue 37).
        [("warning", "installs dependencies only from requirements.txt", "pyproject.toml", 1)],
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
                1,
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
    "single-container-swift-executable-target-is-the-product": Case(
        "s5: the plugin's image is named after the product; with no product declared, "
        "SwiftPM's product is the one executable target",
        {
            "Package.swift": b'let package = Package(name: "x", targets: [\n'
            b'  .executableTarget(name: "My.Api", path: "Sources/My.Api")])\n',
            "wendy.json": wendy(),
        },
        "single-container",
        "swift",
        [{**sc(dockerfile=""), "image": "localhost:5000/my.api:latest"}],
    ),
    "single-container-swift-product-unknown": Case(
        "s5: two executable products: which one the plugin builds is not in the facts",
        {
            "Package.swift": b'products: [.executable(name: "A", targets: ["A"]),\n'
            b'  .executable(name: "B", targets: ["B"])]\n',
            "wendy.json": wendy(),
        },
        "single-container",
        "swift",
        [{**sc(dockerfile=""), "image": None}],
        not_modelled=("the image the swift container plugin pushes",),
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
        # s9 (issue 35): the ports are sent as written and never applied: plan shows them.
        at={
            "services/0/entitlements/0/ports/0/host": 65535,
            "services/0/entitlements/0/ports/0/container": 80,
            "services/0/runtime/network/reachable_ports": [80],
            "services/0/runtime/network/unpublished": ['{"host": 65535, "container": 80}'],
        },
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
