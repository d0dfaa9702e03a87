"""The device view, one compose file per fact of wendy-run.md section 3.

Each test writes the smallest compose file showing one fact and checks the
view (what the device gets) and the finding (file, line, severity, words a
reviewer understands).
"""

from __future__ import annotations

import pytest

from wendy_llm.device import DeviceFinding, DeviceView, Entitlement, Port, profiles
from wendy_llm.validate.device import build_view
from wendy_llm.wendycli.compose import IGNORED_SERVICE_KEYS

COMPOSE = "docker-compose.yml"
DOCKERFILE = 'FROM ubuntu:24.04\nENV GREETING=hello\nENTRYPOINT ["/run.sh"]\n'


def view(compose: str, files: dict[str, str] | None = None, project: str = "demo") -> DeviceView:
    tree = {COMPOSE: compose.encode()}
    tree.update({path: text.encode() for path, text in (files or {}).items()})
    return build_view(tree, project)


def only(found: DeviceView, severity: str, *words: str) -> DeviceFinding:
    """The one finding of ``severity`` whose message holds every word."""
    matches = [
        f for f in found.findings if f.severity == severity and all(w in f.message for w in words)
    ]
    assert len(matches) == 1, found.findings
    return matches[0]


# --- what makes `wendy run` fail ------------------------------------------------


def test_long_syntax_ports_fail_the_whole_file() -> None:
    found = view(
        "services:\n  web:\n    image: nginx\n    ports:\n"
        "      - target: 80\n        published: 8080\n"
    )
    finding = only(found, "error", "services.web.ports[0]", "long syntax", "fails to load")
    assert (finding.file, finding.line) == (COMPOSE, 5)


def test_long_syntax_volumes_fail_the_whole_file() -> None:
    found = view(
        "services:\n  db:\n    image: postgres\n    volumes:\n"
        "      - type: volume\n        source: data\n        target: /var/lib/postgresql\n"
    )
    finding = only(found, "error", "services.db.volumes[0]", "long syntax", "source:target")
    assert finding.line == 5


def test_a_dockerfile_other_than_dockerfile_fails() -> None:
    found = view(
        "services:\n  app:\n    build:\n      context: ./app\n      dockerfile: Dockerfile.dev\n",
        {"app/Dockerfile.dev": DOCKERFILE},
    )
    finding = only(found, "error", '"Dockerfile.dev"', "not yet supported")
    assert finding.line == 5


def test_an_unknown_depends_on_fails() -> None:
    found = view("services:\n  web:\n    image: nginx\n    depends_on: [db]\n")
    finding = only(found, "error", "services.web.depends_on names db", "not a service")
    assert finding.line == 4


def test_a_mapping_depends_on_is_read_and_its_conditions_ignored() -> None:
    found = view(
        "services:\n  web:\n    image: nginx\n    depends_on:\n"
        "      db: {condition: service_healthy}\n  db:\n    image: postgres\n"
    )
    assert found.errors == ()
    assert [s.name for s in found.services] == ["db", "web"]


def test_a_service_without_image_or_build_fails() -> None:
    found = view("services:\n  web:\n    ports: ['80']\n")
    finding = only(found, "error", "service web has neither image nor build")
    assert finding.line == 2


@pytest.mark.parametrize("compose", ["services: {}\n", "version: '3'\n", ""])
def test_a_file_without_services_fails(compose: str) -> None:
    found = view(compose)
    only(found, "error", "has no services", "wendy run fails")
    assert found.services == ()


@pytest.mark.parametrize(("value", "kind"), [("[./app]", "list"), ("42", "scalar")])
def test_a_build_of_another_yaml_kind_fails(value: str, kind: str) -> None:
    found = view(f"services:\n  app:\n    build: {value}\n")
    if kind == "list":
        only(found, "error", "services.app.build is a list", "a string (the context) or a mapping")
    else:
        # A scalar is read as its text, a context directory that is not there.
        assert found.errors == ()
        assert found.services[0].build is not None
        assert found.services[0].build.context == "42"


# --- what the device silently drops ---------------------------------------------


def test_environment_is_parsed_but_not_sent() -> None:
    found = view(
        "services:\n  app:\n    build: ./app\n    environment:\n"
        "      GREETING: hello\n      MODEL: big\n      EMPTY:\n",
        {"app/Dockerfile": DOCKERFILE},
    )
    finding = only(found, "warning", "services.app.environment", "not sent to the device")
    assert finding.line == 4
    assert "its image sets GREETING to the same value" in finding.message
    assert "its Dockerfile does not set MODEL, EMPTY" in finding.message
    app = found.services[0]
    assert app.environment.values == {"GREETING": "hello"}
    assert [(d.name, d.compose, d.outcome) for d in app.dropped_environment] == [
        ("GREETING", "hello", "same"),
        ("MODEL", "big", "absent"),
        ("EMPTY", None, "absent"),
    ]


def test_environment_differing_from_the_image_is_named() -> None:
    # A contradiction is a failure (tests/test_device_env_checks.py); the
    # ignored item still says what the image has.
    found = view(
        "services:\n  app:\n    build: ./app\n    environment: [GREETING=bye]\n",
        {"app/Dockerfile": DOCKERFILE},
    )
    only(found, "error", "services.app.environment.GREETING", '"bye"', '"hello"')
    (item,) = [i for i in found.ignored if i.what == "services.app.environment"]
    assert 'its image has GREETING="hello", not "bye"' in item.reason


@pytest.mark.parametrize("key", [*IGNORED_SERVICE_KEYS, "container_name", "expose"])
def test_every_unread_service_key_is_ignored_with_a_warning(key: str) -> None:
    found = view(f"services:\n  web:\n    image: nginx\n    {key}: something\n")
    finding = only(found, "warning", f"services.web.{key}", "ignored on a device")
    assert finding.line == 4
    assert found.services[0].ignored_keys == (key,)
    assert IGNORED_SERVICE_KEYS.get(key, "not read by the Wendy CLI") in finding.message


def test_healthcheck_says_only_compose_runs_it() -> None:
    found = view("services:\n  web:\n    image: nginx\n    healthcheck:\n      test: [CMD, true]\n")
    only(found, "warning", "services.web.healthcheck", "only Docker Compose runs it")


def test_extension_fields_and_version_are_ignored_silently() -> None:
    found = view("version: '3.8'\nx-common: &c {}\nservices:\n  web:\n    image: nginx\n")
    assert found.findings == ()
    assert [i.what for i in found.ignored] == ["version", "x-common"]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("image", "nginx:${TAG}"),
        ("command", "serve --port $PORT"),
        ("restart", "${RESTART:-always}"),
    ],
)
def test_variables_are_not_interpolated(key: str, value: str) -> None:
    found = view(f'services:\n  web:\n    image: nginx\n    {key}: "{value}"\n')
    finding = only(found, "warning", f"services.web.{key}", "not interpolated", "literal text")
    assert finding.line == 4


def test_variables_in_ports_volumes_and_build_args_are_not_interpolated() -> None:
    found = view(
        "services:\n  app:\n    build:\n      context: ./app\n      args:\n"
        '        V: "${VERSION}"\n    ports: ["${PORT}:80"]\n    volumes: ["$$HOME:/h"]\n',
        {"app/Dockerfile": DOCKERFILE},
    )
    for where in ("build.args.V", "ports[0]", "volumes[0]"):
        only(found, "warning", f"services.app.{where}", "not interpolated")


def test_a_bind_mount_is_not_mounted() -> None:
    found = view("services:\n  web:\n    image: nginx\n    volumes:\n      - ./site:/usr/share\n")
    finding = only(found, "warning", '"./site:/usr/share"', "bind mount", "does not mount it")
    assert finding.line == 5
    volume = found.services[0].volumes[0]
    assert (volume.kind, volume.mounted) == ("bind", False)
    assert found.services[0].entitlements == ()


def test_a_named_volume_becomes_a_persist_entitlement() -> None:
    found = view("services:\n  db:\n    image: postgres\n    volumes: ['data:/var/lib/pg']\n")
    assert found.findings == ()
    assert found.services[0].entitlements == (
        Entitlement("persist", name="data", path="/var/lib/pg"),
    )


def test_a_named_volume_mode_is_not_applied() -> None:
    found = view("services:\n  db:\n    image: postgres\n    volumes: ['data:/d:ro']\n")
    only(found, "warning", 'the mode "ro" is not applied')


def test_network_mode_host_gives_the_host_network_entitlement() -> None:
    found = view(
        "services:\n  web:\n    image: nginx\n    network_mode: host\n    ports: ['80:80']\n"
    )
    assert found.services[0].entitlements == (Entitlement("network", mode="host"),)
    assert found.findings == ()


def test_another_network_mode_is_ignored() -> None:
    found = view("services:\n  web:\n    image: nginx\n    network_mode: bridge\n")
    only(found, "warning", "services.web.network_mode", 'only "host" matters')
    assert found.services[0].entitlements == ()


def test_ports_give_a_network_entitlement_with_the_mappings() -> None:
    found = view("services:\n  web:\n    image: nginx\n    ports: ['8080:80', '9000', 443]\n")
    ports = (Port(8080, 80, "8080:80"), Port(9000, 9000, "9000"), Port(443, 443, "443"))
    assert found.services[0].ports == ports
    assert found.services[0].entitlements == (Entitlement("network", ports=ports),)


def test_ports_that_do_not_parse_are_dropped() -> None:
    found = view(
        "services:\n  web:\n    image: nginx\n    ports:\n"
        "      - '127.0.0.1:8080:80'\n      - '53:53/udp'\n      - '8080:80'\n"
    )
    first = only(found, "warning", '"127.0.0.1:8080:80"', "the device drops it")
    only(found, "warning", '"53:53/udp"', "the device drops it")
    assert first.line == 5
    web = found.services[0]
    assert web.dropped_ports == ("127.0.0.1:8080:80", "53:53/udp")
    assert web.ports == (Port(8080, 80, "8080:80"),)


def test_no_gpu_entitlement_on_the_compose_path() -> None:
    found = view(
        "services:\n  llm:\n    image: vllm/vllm-openai\n    gpus: all\n    runtime: nvidia\n"
        "    deploy:\n      resources:\n        reservations:\n          devices:\n"
        "            - capabilities: [gpu]\n    ports: ['8000:8000']\n"
    )
    only(found, "warning", "services.llm.gpus", "grants no gpu entitlement")
    only(found, "warning", "services.llm.runtime", "grants no gpu entitlement")
    only(found, "warning", "services.llm.deploy", "device reservations (a GPU)")
    assert {e.type for e in found.services[0].entitlements} == {"network"}


def test_wendy_json_is_ignored_on_the_compose_path_with_what_it_held() -> None:
    wendy = (
        '{\n  "appId": "demo",\n  "services": {\n    "llm": {\n      "context": "./llm",\n'
        '      "entitlements": [{"type": "gpu"}]\n    }\n  },\n'
        '  "readiness": {"tcpSocket": {"port": 80}},\n'
        '  "hooks": {"postStart": {"cli": "echo"}}\n}\n'
    )
    found = view("services:\n  llm:\n    image: vllm/vllm-openai\n", {"wendy.json": wendy})
    head = only(found, "warning", "wendy.json: not read on the compose path")
    assert (head.file, head.line) == ("wendy.json", 1)
    gpu = only(found, "warning", "the gpu entitlement of service llm is lost", "no GPU")
    assert (gpu.file, gpu.line) == ("wendy.json", 6)
    only(found, "warning", "the readiness check is lost")
    only(found, "warning", "the post-start hook is lost")
    assert all(e.type != "gpu" for s in found.services for e in s.entitlements)


@pytest.mark.parametrize(
    ("written", "policy"),
    [
        ("always", "unless-stopped"),
        ("unless-stopped", "unless-stopped"),
        ("on-failure", "on-failure"),
        ('"no"', "never"),
        ('""', "never"),
        (None, "never"),
        ("on-failure:5", "device-default"),
    ],
)
def test_restart_mapping(written: str | None, policy: str) -> None:
    restart = "" if written is None else f"    restart: {written}\n"
    found = view(f"services:\n  web:\n    image: nginx\n{restart}")
    assert found.services[0].restart.policy == policy
    unknown = [f for f in found.findings if "not one the Wendy CLI knows" in f.message]
    assert len(unknown) == (policy == "device-default")


def test_a_command_string_is_split_with_quotes_and_no_backslash_escapes() -> None:
    found = view(
        "services:\n  app:\n    build: ./app\n"
        '    command: sh -c \'echo "hi there"\' --name "a b"\n',
        {"app/Dockerfile": DOCKERFILE},
    )
    command = found.services[0].command
    assert command.cmd == ("sh", "-c", 'echo "hi there"', "--name", "a b")
    assert command.source == "compose"
    assert command.argv == ("/run.sh", "sh", "-c", 'echo "hi there"', "--name", "a b")
    assert found.findings == ()


def test_a_backslash_in_a_command_is_literal_on_a_device() -> None:
    found = view("services:\n  app:\n    image: busybox\n    command: echo a\\ b\n")
    assert found.services[0].command.cmd == ("echo", "a\\", "b")
    only(found, "warning", "splits differently on a device", "['echo', 'a b']")


def test_a_command_list_is_used_verbatim() -> None:
    found = view("services:\n  app:\n    image: busybox\n    command: ['echo', 'a  b']\n")
    assert found.services[0].command.cmd == ("echo", "a  b")
    assert found.services[0].command.argv is None  # busybox's ENTRYPOINT is not seen


def test_without_command_the_image_entrypoint_and_cmd_run() -> None:
    found = view("services:\n  app:\n    build: ./app\n", {"app/Dockerfile": DOCKERFILE})
    assert found.services[0].command.argv == ("/run.sh",)
    assert found.services[0].command.source == "image"


def test_short_image_refs_are_qualified() -> None:
    found = view("services:\n  web:\n    image: python:3.11-slim\n")
    web = found.services[0]
    assert web.image == "docker.io/library/python:3.11-slim"
    assert web.image_written == "python:3.11-slim"
    assert not web.environment.known


def test_app_and_image_names() -> None:
    found = view(
        "services:\n  api:\n    build: ./api\n  cache:\n    image: redis\n",
        {"api/Dockerfile": DOCKERFILE},
        project="My-Shop",
    )
    api, cache = found.services
    assert (api.app, api.image) == ("my-shop-api", "my-shop-api:latest")
    assert (cache.app, cache.image) == ("my-shop-cache", "docker.io/library/redis")
    assert found.project == "my-shop"


def test_an_image_beside_a_build_is_not_used() -> None:
    found = view(
        "services:\n  api:\n    build: ./api\n    image: shop/api:1\n",
        {"api/Dockerfile": DOCKERFILE},
    )
    only(found, "warning", 'services.api.image "shop/api:1" is not used')
    assert found.services[0].image == "demo-api:latest"


def test_build_args_the_services_own_win_over_the_wendy_ones() -> None:
    dockerfile = (
        "FROM ubuntu\nARG WENDY_DEBUG\nARG WENDY_GPU_VENDOR=none\nARG EXTRA\n"
        "ENV DEBUG=$WENDY_DEBUG VENDOR=$WENDY_GPU_VENDOR EXTRA=$EXTRA\n"
    )
    compose = (
        "services:\n  app:\n    build:\n      context: ./app\n      args:\n"
        "        WENDY_DEBUG: 'true'\n        EXTRA: 1\n"
    )
    found = build_view(
        {COMPOSE: compose.encode(), "app/Dockerfile": dockerfile.encode()},
        "demo",
        devices=profiles(["thor", "pi5"]),
    )
    build = found.services[0].build
    assert build is not None
    args = {a.name: a for a in build.args}
    assert (args["WENDY_DEBUG"].value, args["WENDY_DEBUG"].source) == ("true", "compose")
    assert (args["EXTRA"].value, args["EXTRA"].assumed) == ("1", False)
    assert args["WENDY_PLATFORM"].assumed and args["WENDY_PLATFORM"].source == "wendy"
    assert args["WENDY_GPU_VENDOR"].by_device == {"thor": "nvidia", "pi5": None}
    env = found.services[0].environment
    assert env.values == {"DEBUG": "true", "EXTRA": "1"}
    assert env.by_device == {"VENDOR": {"thor": "nvidia", "pi5": "none"}}


def test_an_arg_that_looks_like_a_wendy_build_arg_but_is_not_passed() -> None:
    dockerfile = "ARG WENDY_JETPACK_MAJOR=0\nFROM ubuntu\nARG WENDY_JETPACK_VERSION\n"
    found = view("services:\n  app:\n    build: ./app\n", {"app/Dockerfile": dockerfile})
    finding = only(found, "warning", "ARG WENDY_JETPACK_MAJOR", "always takes its default 0")
    assert (finding.file, finding.line) == ("app/Dockerfile", 1)


def test_creation_order_follows_depends_on_and_ignores_a_cycle() -> None:
    found = view(
        "services:\n  web:\n    image: nginx\n    depends_on: [api]\n"
        "  api:\n    image: api\n    depends_on: [db]\n"
        "  db:\n    image: postgres\n    depends_on: [api]\n"
        "  lone:\n    image: busybox\n"
    )
    assert [s.name for s in found.services] == ["db", "api", "web", "lone"]
    finding = only(found, "warning", "services.db.depends_on: api closes a dependency cycle")
    assert finding.line == 10
    assert found.errors == ()


def test_two_compose_files_wendy_run_reads_docker_compose_yml() -> None:
    tree = {
        "docker-compose.yml": b"services:\n  a:\n    image: nginx\n",
        "compose.yaml": b"services:\n  b:\n    image: redis\n",
    }
    found = build_view(tree, "demo")
    assert (found.path, found.path_file) == ("compose", "docker-compose.yml")
    assert [s.name for s in found.services] == ["a"]
    only(found, "warning", "compose.yaml beside it is not read")


def test_a_compose_file_that_does_not_parse() -> None:
    found = view("services:\n  web: [\n")
    only(found, "error", "does not parse as YAML")


def test_a_wendy_json_entitlement_the_compose_path_grants_anyway_is_not_a_warning() -> None:
    wendy = (
        '{"appId": "demo", "services": {"db": {"context": "./db", "entitlements": [\n'
        '  {"type": "network"},\n'
        '  {"type": "persist", "name": "data", "path": "/d"},\n'
        '  {"type": "persist", "name": "logs", "path": "/l"}\n]}}}\n'
    )
    found = view(
        "services:\n  db:\n    image: postgres\n    ports: ['5432:5432']\n"
        "    volumes: ['data:/d']\n",
        {"wendy.json": wendy},
    )
    lost = [f for f in found.findings if "is lost" in f.message]
    assert [(f.line, f.message.split(":")[0]) for f in lost] == [(4, "services.db.entitlements[2]")]
    granted = [i for i in found.ignored if "grants the same" in i.reason]
    assert [i.what for i in granted] == [
        "services.db.entitlements[0]",
        "services.db.entitlements[1]",
    ]


def test_keys_without_a_value_are_go_zero_values_not_errors() -> None:
    found = view(
        "services:\n  web:\n    image: nginx\n    ports:\n    volumes:\n    command:\n"
        "    depends_on:\n    restart:\n    environment:\n"
    )
    assert found.findings == ()
    web = found.services[0]
    assert (web.ports, web.volumes, web.command.cmd, web.restart.policy) == ((), (), None, "never")
