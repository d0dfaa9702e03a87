"""A run that stops on an error still writes each report it was asked for (issue 38)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from _sarif_helpers import sarif_errors

from wendy_llm.cli import main
from wendy_llm.reports.failed import failed_junit, failed_markdown, failed_sarif

MESSAGE = "wendy-llm.toml: not valid TOML: nested too deep <b>|x|</b>\x1b[2K"


def test_each_failed_report_is_a_valid_document_holding_the_error() -> None:
    markdown = failed_markdown("check", MESSAGE)
    assert markdown.startswith("## wendy-llm check: error\n")
    assert r"&lt;b&gt;\|x\|&lt;/b&gt;\\x1b\[2K" in markdown  # HTML, pipes, controls escaped
    case = ET.fromstring(failed_junit("check", MESSAGE).encode()).find("testsuite/testcase/error")
    assert case is not None and case.get("message", "").startswith("wendy-llm.toml: not valid")
    document = failed_sarif(MESSAGE, version="1")
    assert sarif_errors(document) == []
    runs: Any = document["runs"]
    (run,) = runs
    assert run["invocations"][0]["executionSuccessful"] is False
    assert run["results"] == []


def test_check_stopped_by_a_settings_error_still_writes_every_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "wendy-llm.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    monkeypatch.chdir(tmp_path)
    reports = tmp_path / "reports"
    argv = ["check", "--markdown", f"{reports}/c.md", "--junit", f"{reports}/c.xml"]
    assert main([*argv, "--sarif", f"{reports}/c.sarif"]) == 2
    assert "nested too deep" in (reports / "c.md").read_text()
    ET.parse(reports / "c.xml")
    assert sarif_errors(json.loads((reports / "c.sarif").read_text())) == []
