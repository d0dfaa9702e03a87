"""Every finding of the bundled template, and of failing variants of it, carries a
registered code whose check and severity are its own (issue 27); one defect is
reported once (a wendy.json or compose file that does not load: by its own check,
the device check noting it could not judge)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _cli_helpers import copy_llm_project, edit, unregistered_codes, validate_report
from _golden_helpers import run_cli

LLM_DIR = "templates/python/llm"
PICK = "gemma4-e2b"


def check_json(root: Path) -> dict[str, Any]:
    code, out, err = run_cli(
        "check", "--json", "--pick", PICK, "--templates-dir", str(root / "templates"),
        "--golden-dir", str(root / "golden"),
    )  # fmt: skip
    assert code in (0, 1), err
    return validate_report(out, "check")


def findings(report: dict[str, Any], check: str) -> list[dict[str, Any]]:
    return [f for r in report["results"] if r["check"] == check for f in r["findings"]]


@pytest.mark.parametrize(
    ("file", "old", "new"),
    [
        pytest.param(None, "", "", id="bundled"),
        pytest.param("docker-compose.yml", "services:", "services: [", id="compose-yaml"),
        pytest.param("wendy.json", '"appId"', '"appId": 7, "x"', id="wendy-json"),
        pytest.param("docker-compose.yml", '"{{.PORT}}:{{.PORT}}"', '"8080:80"', id="port"),
    ],
)
def test_every_finding_has_a_registered_code_of_its_check(
    tmp_path: Path, file: str | None, old: str, new: str
) -> None:
    root = copy_llm_project(tmp_path)
    if file is not None:
        edit(root / LLM_DIR / file, old, new)
    report = check_json(root)
    assert report["results"] and not unregistered_codes(report)
    assert all(f["code"] for r in report["results"] for f in r["findings"])


def test_a_compose_file_that_does_not_load_is_one_error_and_a_device_note(
    tmp_path: Path,
) -> None:
    root = copy_llm_project(tmp_path)
    edit(root / LLM_DIR / "docker-compose.yml", "services:", "services: [")
    report = check_json(root)
    refused = [f for f in findings(report, "compose") if f["severity"] == "error"]
    assert [f["code"] for f in refused] == ["CMP006"]
    device = findings(report, "device")
    assert not [f for f in device if f["severity"] == "error"]
    [note] = [f for f in device if f["code"] == "DEV037"]
    assert note["severity"] == "note" and "compose reports it as CMP006" in note["message"]
