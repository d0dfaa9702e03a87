"""The device view: what the device silently drops (compose environment,
keys the Wendy CLI does not read, the healthcheck, extension fields, variable
interpolation).

Each test writes the smallest compose file showing one fact of wendy-run.md
section 3 and checks the view (what the device gets) and the finding (file,
line, severity, words a reviewer understands); ``tests/_device_helpers.py``
builds the view.
"""

from __future__ import annotations

import pytest
from _device_helpers import DOCKERFILE, only, view

from wendy_llm.wendycli.compose import IGNORED_SERVICE_KEYS

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
    # A contradiction is a failure (tests/device/test_device_env_checks.py); the
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
    base = "" if key == "image" else "    image: nginx\n"
    found = view(f'services:\n  web:\n{base}    {key}: "{value}"\n')
    finding = only(found, "warning", f"services.web.{key}", "not interpolated", "literal text")
    assert finding.line == (3 if key == "image" else 4)


def test_variables_in_ports_volumes_and_build_args_are_not_interpolated() -> None:
    found = view(
        "services:\n  app:\n    build:\n      context: ./app\n      args:\n"
        '        V: "${VERSION}"\n    ports: ["${PORT}:80"]\n    volumes: ["$$HOME:/h"]\n',
        {"app/Dockerfile": DOCKERFILE},
    )
    for where in ("build.args.V", "ports[0]", "volumes[0]"):
        only(found, "warning", f"services.app.{where}", "not interpolated")
