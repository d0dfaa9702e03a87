"""One defect, one finding (issue 27): what the wendy-json or compose check reports
(a file that does not load), the device check does not repeat: it notes that it
could not judge and which code reports it, so the defect counts once."""

from __future__ import annotations

import pytest

from wendy_llm.codes.tools import COMPOSE_REFUSED
from wendy_llm.validate.checks.device import (
    build_view,
    device_findings,
    load_problems,
    not_repeated,
)
from wendy_llm.validate.checks.wendy_json import validate_wendy_json
from wendy_llm.validate.documents.parse import parse_documents
from wendy_llm.validate.findings import error

DOCKERFILE = b'FROM python:3.12-slim\nCOPY main.py /main.py\nCMD ["python", "/main.py"]\n'


def test_a_refused_wendy_json_is_the_wendy_json_check_s_and_a_device_note() -> None:
    tree = {"wendy.json": b'{"appId": 7}\n', "Dockerfile": DOCKERFILE, "main.py": b"print(1)\n"}
    view = build_view(tree, "app")
    # The device view itself (what `plan` shows) still says wendy run refuses it.
    assert [f.code for f in view.findings if f.severity == "error"] == ["DEV030"]
    reported = validate_wendy_json(tree, "app")
    assert [f.code for f in reported] == ["WJS002"]
    [noted] = device_findings(view, reported)
    assert (noted.code, noted.severity, noted.subject) == ("DEV037", "note", "WJS002")
    assert noted.message.startswith("not judged: wendy run refuses wendy.json: appId")
    assert noted.message.endswith("(wendy-json reports it as WJS002)")
    # Alone (no other check ran), the device check reports it itself.
    assert [f.code for f in device_findings(view)] == ["DEV030"]


def test_a_compose_file_that_does_not_load_is_the_compose_check_s() -> None:
    tree = {"compose.yaml": b"services: [\n", "wendy.json": b'{"appId": "app"}\n'}
    docs = parse_documents(tree)
    view = build_view(tree, "app", docs)
    reported = load_problems(tree, docs)
    assert [f.code for f in reported] == ["CMP006"]
    found = device_findings(view, reported)
    assert [f.code for f in found if f.severity == "error"] == []
    assert "DEV037" in [f.code for f in found]


def test_what_only_the_device_sees_is_still_an_error() -> None:
    # Docker Compose reads this file; the Wendy CLI cannot decode it (a long-syntax port).
    compose = b"services:\n  web:\n    image: x\n    ports:\n      - target: 80\n"
    tree = {"compose.yaml": compose, "wendy.json": b'{"appId": "app"}\n'}
    docs = parse_documents(tree)
    view = build_view(tree, "app", docs)
    found = device_findings(view, load_problems(tree, docs))
    assert [f.code for f in found if f.severity == "error"] == ["DEV017"]


@pytest.mark.parametrize(
    ("compose", "code", "compose_says"),
    [
        pytest.param(
            b"services:\n  web:\n    image: x\n    depends_on: [backend]\n",
            "DEV005",
            'service "web" depends on undefined service "backend": invalid compose project',
            id="depends-on",
        ),
        pytest.param(
            b"services:\n  web:\n    command: run\n",
            "DEV004",
            'service "web" has neither an image nor a build context specified: invalid ...',
            id="no-image",
        ),
    ],
)
def test_what_docker_compose_refuses_too_is_the_compose_check_s(
    compose: bytes, code: str, compose_says: str
) -> None:
    tree = {"compose.yaml": compose, "wendy.json": b'{"appId": "app"}\n'}
    docs = parse_documents(tree)
    device = device_findings(build_view(tree, "app", docs), load_problems(tree, docs))
    assert [f.code for f in device if f.severity == "error"] == [code]
    # Compose refusing something else leaves the device's error as it is.
    other = [error(COMPOSE_REFUSED, 'docker-compose: service "db" refused')]
    assert not_repeated(device, other) == device
    kept = not_repeated(device, [error(COMPOSE_REFUSED, f"docker-compose: {compose_says}")])
    assert [f.code for f in kept if f.severity == "error"] == []
    [noted] = [f for f in kept if f.code == "DEV037"]
    assert noted.message.startswith("not judged: ")
    assert noted.message.endswith("(compose reports it as CMP001)")
