"""The device view: what makes ``wendy run`` fail (long syntax, another
Dockerfile, unknown dependencies, no image or build, no services, a build of
another kind, a file that does not parse).

Each test writes the smallest compose file showing one fact of wendy-run.md
section 3 and checks the view (what the device gets) and the finding (file,
line, severity, words a reviewer understands); ``tests/_device_helpers.py``
builds the view.
"""

from __future__ import annotations

import pytest
from _device_helpers import COMPOSE, DOCKERFILE, only, view

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
    assert [s.created_after for s in found.services] == [("db",), ()]


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
        only(found, "error", "services.app.build", "unsupported build directive (yaml kind 2)")
    else:
        # A scalar is read as its text, a context directory that is not there.
        assert found.errors == ()
        assert found.services[0].build is not None
        assert found.services[0].build.context == "42"


def test_a_compose_file_that_does_not_parse() -> None:
    found = view("services:\n  web: [\n")
    only(found, "error", "wendy run fails to load docker-compose.yml: yaml:")
