"""The device view of each service: its restart policy, command, image and
names, build args, creation order, which compose file is read, and keys
without a value.

Each test writes the smallest compose file showing one fact of wendy-run.md
section 3 and checks the view (what the device gets) and the finding (file,
line, severity, words a reviewer understands); ``tests/_device_helpers.py``
builds the view.
"""

from __future__ import annotations

import pytest
from _device_helpers import COMPOSE, DOCKERFILE, only, view

from wendy_llm.device import PROFILES, profiles
from wendy_llm.validate.checks.device import build_view
from wendy_llm.wendycli.compose import WENDY_BUILD_ARGS, WENDY_BUILD_ARGS_ALWAYS


@pytest.mark.parametrize(
    ("written", "policy"),
    [
        ("always", "unless-stopped"),
        ("unless-stopped", "unless-stopped"),
        ("on-failure", "on-failure"),
        ('"no"', "never"),
        ('""', "default"),
        (None, "default"),
        ("on-failure:5", "default"),
    ],
)
def test_restart_mapping(written: str | None, policy: str) -> None:
    restart = "" if written is None else f"    restart: {written}\n"
    found = view(f"services:\n  web:\n    image: nginx\n{restart}")
    got = found.services[0].restart
    default = policy == "default"
    assert got.policy == ("unless-stopped" if default else policy)
    assert got.device_default == default
    unknown = [f for f in found.findings if "not one the Wendy CLI knows" in f.message]
    assert len(unknown) == (default and written is not None)


def test_messages_name_the_restart_values_and_build_keys_the_cli_reads() -> None:
    found = view(
        "services:\n  app:\n    build:\n      context: ./app\n      network: host\n"
        "    restart: sometimes\n",
        {"app/Dockerfile": DOCKERFILE},
    )
    only(found, "warning", "not one the Wendy CLI knows (always, unless-stopped, on-failure, no)")
    only(
        found,
        "warning",
        "services.app.build.network: ignored on a device "
        "(the Wendy CLI reads context, dockerfile and args)",
    )


def test_a_command_string_is_split_with_quotes_and_no_backslash_escapes() -> None:
    found = view(
        "services:\n  app:\n    build: ./app\n"
        '    command: sh -c \'echo "hi there"\' --name "a b"\n',
        {"app/Dockerfile": DOCKERFILE},
    )
    command = found.services[0].command
    assert command.compose == ("sh", "-c", 'echo "hi there"', "--name", "a b")
    assert command.source == "compose"
    # The command replaces the image's ENTRYPOINT (Docker Compose would keep /run.sh).
    assert command.argv == ("sh", "-c", 'echo "hi there"', "--name", "a b")
    only(found, "warning", "ENTRYPOINT ['/run.sh'] does not run on a device")


def test_a_backslash_in_a_command_is_literal_on_a_device() -> None:
    found = view("services:\n  app:\n    image: busybox\n    command: echo a\\ b\n")
    assert found.services[0].command.argv == ("echo", "a\\", "b")
    only(found, "warning", "splits differently on a device", "['echo', 'a b']")


def test_a_command_list_is_used_verbatim() -> None:
    found = view("services:\n  app:\n    image: busybox\n    command: ['echo', 'a  b']\n")
    assert found.services[0].command.argv == ("echo", "a  b")  # replaces busybox's own


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
    assert (api.app, api.image) == ("my-shop-api", "localhost:5000/my-shop-api:latest")
    assert (cache.app, cache.image) == ("my-shop-cache", "docker.io/library/redis:latest")
    assert found.project == "my-shop"


def test_an_image_beside_a_build_is_not_used() -> None:
    found = view(
        "services:\n  api:\n    build: ./api\n    image: shop/api:1\n",
        {"api/Dockerfile": DOCKERFILE},
    )
    only(found, "warning", 'services.api.image "shop/api:1" is not used')
    assert found.services[0].image == "localhost:5000/demo-api:latest"


def test_every_profile_passes_the_always_args_and_only_wendy_build_args() -> None:
    for profile in PROFILES:
        assert set(WENDY_BUILD_ARGS_ALWAYS) <= set(profile.build_args), profile.name
        assert set(profile.build_args) <= set(WENDY_BUILD_ARGS), profile.name
        assert list(profile.build_args)[:2] == list(WENDY_BUILD_ARGS_ALWAYS), profile.name


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
    # Listed in file order; only dependencies outside a cycle are ordered.
    assert [s.name for s in found.services] == ["web", "api", "db", "lone"]
    assert [s.created_after for s in found.services] == [("api",), (), (), ()]
    assert found.creation_order == "dependencies-first"
    finding = only(found, "warning", "services.db.depends_on is part of a dependency cycle")
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


def test_keys_without_a_value_are_go_zero_values_not_errors() -> None:
    found = view(
        "services:\n  web:\n    image: nginx\n    ports:\n    volumes:\n    command:\n"
        "    depends_on:\n    restart:\n    environment:\n"
    )
    assert found.findings == ()
    web = found.services[0]
    # An empty command is no command: the image's ENTRYPOINT + CMD (unknown here).
    assert (web.ports, web.volumes, web.command.source) == ((), (), "unknown")
    assert (web.restart.policy, web.restart.device_default) == ("unless-stopped", True)
