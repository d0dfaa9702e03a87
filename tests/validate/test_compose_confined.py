"""The gate reads only the repository: compose paths that lead out of the render (issue 29)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _check_helpers import COMPOSE, good_tree, with_files

from wendy_llm.validate.checks.compose import ComposeValidator
from wendy_llm.validate.checks.confined import leads_out

CANARY = "canary-7f3c1e-host-secret"


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    """A file of the host, outside any render, that nothing may ever quote."""
    path = tmp_path / "host" / "canary.yml"
    path.parent.mkdir()
    path.write_text(f"services:\n  x:\n    image: {CANARY}\n    ports: ['{CANARY}']\n")
    return path


def compose_with(extra_service: str = "", top: str = "") -> str:
    """The sample compose file with a service added and top-level keys before it."""
    assert "\nvolumes:\n" in COMPOSE
    text = COMPOSE.replace("\nvolumes:\n", f"\n{extra_service}\nvolumes:\n", 1)
    return top + text


@pytest.mark.parametrize(
    ("top", "service", "key", "why"),
    [
        ("include:\n  - {canary}\n", "", "include[0]", "absolute"),
        ("include:\n  - path: {canary}\n", "", "include[0].path", "absolute"),
        ("", "    env_file: {canary}\n", "env_file", "absolute"),
        ("", "    env_file:\n      - path: ../../x.env\n", "env_file[0]", "(..)"),
        ("", "    extends:\n      file: {canary}\n      service: x\n", "extends.file", "absolute"),
        ("", "    build:\n      context: /etc\n", "build.context", "absolute"),
        ("", "    build:\n      context: .\n      dockerfile: ../D\n", "build.dockerfile", ".."),
        ("configs:\n  c:\n    file: {canary}\n", "", "configs.c.file", "absolute"),
        ("secrets:\n  s:\n    file: ~/.ssh/id\n", "", "secrets.s.file", "home directory"),
        ("", "    env_file: ${{HOME}}/x.env\n", "env_file", "interpolated"),
    ],
)
def test_a_path_out_of_the_app_fails_and_no_tool_reads_it(
    canary: Path, top: str, service: str, key: str, why: str
) -> None:
    services = "  extra:\n    image: busybox\n" + service.format(canary=canary)
    compose = compose_with(services, top.format(canary=canary))
    validator = ComposeValidator()
    findings = validator.validate(with_files(good_tree(), **{"docker-compose.yml": compose}))
    assert validator.runs == 0  # Compose never ran: no file of the host was read
    assert len(findings) == 1, findings
    finding = findings[0]
    assert finding.severity == "error" and finding.file == "docker-compose.yml"
    assert key in finding.message and why in finding.message
    assert "wendy init copies only the template's directory" in finding.message
    assert finding.line is not None
    assert CANARY not in repr(findings)


def test_an_included_file_of_the_render_is_read_in_turn(canary: Path) -> None:
    top = "include:\n  - more/extra.yml\n"
    extra = f"services:\n  extra:\n    image: busybox\n    env_file: {canary}\n"
    tree = with_files(
        good_tree(),
        **{"docker-compose.yml": compose_with("", top), "more/extra.yml": extra},
    )
    validator = ComposeValidator()
    findings = validator.validate(tree)
    assert validator.runs == 0
    assert [(f.file, f.line) for f in findings] == [("more/extra.yml", 4)]
    assert "services.extra.env_file" in findings[0].message


def test_paths_inside_the_app_and_device_mounts_stay_legitimate() -> None:
    service = (
        "  extra:\n    image: busybox\n    env_file: [open-webui/../x.env]\n"
        "    volumes:\n      - /dev/video0:/dev/video0\n      - /var/run/x.sock:/x.sock\n"
    )
    tree = with_files(
        good_tree(), **{"docker-compose.yml": compose_with(service), "x.env": "A=1\n"}
    )
    assert ComposeValidator().validate(tree) == []


@pytest.mark.parametrize(
    ("path", "base", "out"),
    [
        ("a/../b", "", False),
        ("../b", "sub", False),
        ("../../b", "sub", True),
        ("/abs", "", True),
        ("$$literal", "", False),
        ("${X:-.}", "", True),
        ("~user/x", "", True),
        ("", "", False),
    ],
)
def test_leads_out(path: str, base: str, out: bool) -> None:
    assert (leads_out(path, base) is not None) is out
