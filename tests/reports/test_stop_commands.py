"""Verbatim blocks under GitHub Actions: ``::stop-commands::TOKEN`` ... ``::TOKEN::`` (issue 29).

A diff or a tool's message of several lines is a user's file printed as it
is; under ``GITHUB_ACTIONS=true`` the runner is told to ignore commands in
it, with a token drawn once per run.  Elsewhere nothing changes.  JSON
carries the same text as data, unchanged.
"""

from __future__ import annotations

import json

import pytest

from wendy_llm.codes.stored import GOLDEN_DIFFERS
from wendy_llm.reports import workflow
from wendy_llm.reports.check import format_details
from wendy_llm.reports.json import check_json, dumps
from wendy_llm.reports.terminal import Style
from wendy_llm.validate.findings import CheckResult, Report, error

DIFF = ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "-old", "+::error file=x::PWNED\x1b[2K"]
HOSTILE = "changed: x\n::error::fake\n\x1b[2K\rok \u202e ##[error]legacy"
REPORT = Report(
    (CheckResult("py/t", "p", "golden", (error(GOLDEN_DIFFERS, HOSTILE).at("py/t", "p"),)),),
    {},
)


def test_a_diff_is_a_verbatim_block_under_github(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    start, end = workflow.markers()
    assert start == f"::stop-commands::{workflow.stop_token()}" and end.endswith("::")
    assert len(workflow.stop_token()) == 32 and workflow.stop_token() == workflow.stop_token()
    lines = Style(False).diff(DIFF)
    assert lines == [start, *DIFF[:4], "+::error file=x::PWNED\\x1b[2K", end]
    assert workflow.is_marker(start) and workflow.is_marker(end)
    assert not workflow.is_marker("::stop-commands::guessed")


def test_nothing_changes_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    assert Style(False).diff(DIFF[:4]) == DIFF[:4]
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    assert Style(False).diff(DIFF[:4]) == DIFF[:4]
    assert workflow.verbatim([], {"GITHUB_ACTIONS": "true"}) == []


def test_a_message_s_later_lines_are_a_block_and_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    start, end = workflow.markers()
    lines = format_details(REPORT).split("\n")
    assert lines[:6] == [
        "Failures (1):",
        "  py/t p [golden] GLD001 changed: x",
        start,
        "      \\x3a:error::fake",
        "      \\x1b[2K\\rok \\u202e #\\x23[error]legacy",
        end,
    ]
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    assert start not in format_details(REPORT)


def test_json_carries_the_text_unchanged() -> None:
    document = json.loads(dumps(check_json(REPORT)))
    [result] = document["results"]
    assert result["findings"][0]["message"] == HOSTILE
    printed = dumps(check_json(REPORT))
    assert printed.isascii() and "##[" not in printed
    assert not any(line.lstrip().startswith("::") for line in printed.split("\n"))
