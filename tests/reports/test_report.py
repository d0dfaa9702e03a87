"""Report formatting: the text table, details, JSON and JUnit XML."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET

import pytest

from wendy_llm.codes.builds import TOP_RULE_FAILED
from wendy_llm.codes.device import WENDY_JSON_UNREAD
from wendy_llm.codes.stored import GOLDEN_DIFFERS, LINT_CODES
from wendy_llm.codes.tools import COMPOSE_PORT_CLASH, WENDY_JSON_UNKNOWN_KEY
from wendy_llm.reports.check import format_details, format_table, format_timings
from wendy_llm.reports.json import check_json, dumps
from wendy_llm.reports.junit import check_junit
from wendy_llm.reports.markdown import check_markdown
from wendy_llm.reports.terminal import use_colour
from wendy_llm.validate.findings import CheckResult, Finding, Report, error, note, warning

T = "python/llm"


def at(finding: Finding, pick: str) -> Finding:
    return finding.at(T, pick)


BROKEN = at(
    error(TOP_RULE_FAILED, "rule 'x': compose.volumes.a is present (must be absent)", "c.yml", 7),
    "dflash",
)
LINT = at(
    warning(LINT_CODES["large-number"], "large-number: PORT renders as 1e+06", "template.json", 3),
    "",
)
MULTI = at(
    error(GOLDEN_DIFFERS, "changed: wendy.json\n-a\n+b\nRun: wendy-llm golden --update"), "e2b"
)

REPORT = Report(
    (
        CheckResult(T, "", "picker"),
        CheckResult(T, "", "lint", (LINT,)),
        CheckResult(T, "e2b", "compose"),
        CheckResult(T, "e2b", "topology"),
        CheckResult(T, "e2b", "golden", (MULTI,)),
        CheckResult(T, "dflash", "compose"),
        CheckResult(T, "dflash", "topology", (BROKEN,)),
        CheckResult(T, "dflash", "golden"),
    ),
    {"compose": 0.5, "topology": 0.01, "total": 1.25},
)


def test_statuses() -> None:
    assert [r.status for r in REPORT.results] == [
        "ok", "warn", "ok", "ok", "fail", "ok", "fail", "ok",
    ]  # fmt: skip
    assert not REPORT.passed()
    ok_with_warning = Report((CheckResult(T, "", "lint", (LINT,)),))
    assert ok_with_warning.passed()
    assert not ok_with_warning.passed(strict=True)


def test_table() -> None:
    assert format_table(REPORT) == (
        "template    pick        compose  topology  picker  lint  golden\n"
        "python/llm  (template)  -        -         ok      warn  -\n"
        "python/llm  e2b         ok       ok        -       -     FAIL\n"
        "python/llm  dflash      ok       FAIL      -       -     ok\n"
        "\n"
        "1 template(s), 2 pick(s), 8 checks: 5 ok, 2 FAIL, 1 warn in 1.25 s\n"
    )


def test_table_colour() -> None:
    text = format_table(REPORT, colour=True)
    assert "\x1b[1;31mFAIL\x1b[0m" in text and "\x1b[32mok\x1b[0m" in text
    # Colour codes do not shift the columns.
    plain = [line.replace("\x1b[1;31m", "").replace("\x1b[32m", "") for line in text.splitlines()]
    plain = [line.replace("\x1b[33m", "").replace("\x1b[0m", "") for line in plain]
    assert "\n".join(plain) + "\n" == format_table(REPORT)


def test_details_list_failures_then_warnings_with_locations() -> None:
    assert format_details(REPORT) == (
        "Failures (2):\n"
        "  python/llm e2b [golden] GLD001 changed: wendy.json\n"
        "      -a\n"
        "      +b\n"
        "      Run: wendy-llm golden --update\n"
        "  python/llm dflash [topology] c.yml:7: TOP001 rule 'x': compose.volumes.a is present "
        "(must be absent)\n"
        "\n"
        "Warnings (1):\n"
        "  python/llm (template) [lint] template.json:3: LNT005 large-number: PORT renders "
        "as 1e+06\n"
    )
    assert "Warnings" not in format_details(REPORT, warnings=False)
    assert format_details(Report(())) == ""


def test_timings_slowest_first() -> None:
    assert format_timings(REPORT).splitlines() == [
        "  compose     0.500 s",
        "  topology    0.010 s",
        "  total       1.250 s (wall)",
    ]


def test_json_shape() -> None:
    doc = json.loads(dumps(check_json(REPORT)))
    assert doc["version"] == 1
    assert (doc["ok"], doc["strict"]) == (False, False)
    assert doc["summary"] == {
        "results": 8, "ok": 5, "fail": 2, "warn": 1, "errors": 2, "warnings": 1, "notes": 0,
        "codes": {"GLD001": 1, "LNT005": 1, "TOP001": 1},
    }  # fmt: skip
    assert doc["checks"] == ["compose", "topology", "picker", "lint", "golden"]
    assert doc["results"][1] == {
        "template": T,
        "pick": None,
        "check": "lint",
        "status": "warn",
        "findings": [
            {
                "severity": "warning",
                "message": "large-number: PORT renders as 1e+06",
                "file": "template.json",
                "line": 3,
                "code": "LNT005",
                "subject": "",
            }
        ],
    }
    assert doc["timings"] == {"compose": 0.5, "topology": 0.01, "total": 1.25}


def test_junit_one_case_per_template_pick_check() -> None:
    root = ET.fromstring(check_junit(REPORT))
    assert (root.tag, root.get("tests"), root.get("failures")) == ("testsuites", "8", "2")
    [suite] = root.findall("testsuite")
    assert (suite.get("name"), suite.get("tests"), suite.get("failures")) == (T, "8", "2")
    cases = [(c.get("classname"), c.get("name")) for c in suite.findall("testcase")]
    assert cases[:3] == [(T, "(template) picker"), (T, "(template) lint"), (T, "e2b compose")]
    failed = {
        c.get("name"): c.find("failure")
        for c in suite.findall("testcase")
        if c.find("failure") is not None
    }
    assert set(failed) == {"e2b golden", "dflash topology"}
    topology = failed["dflash topology"]
    assert topology is not None
    assert topology.get("message") == (
        "python/llm dflash [topology] c.yml:7: TOP001 rule 'x': compose.volumes.a is present "
        "(must be absent)"
    )
    lint_case = suite.findall("testcase")[1]
    assert lint_case.find("failure") is None
    out = lint_case.find("system-out")
    assert out is not None and out.text is not None and out.text.startswith("warning: ")


def test_junit_strict_turns_warnings_into_failures() -> None:
    root = ET.fromstring(check_junit(REPORT, strict=True))
    assert root.get("failures") == "3"


NOTE = at(
    note(
        WENDY_JSON_UNKNOWN_KEY,
        "foo: not a key the Wendy CLI reads (it ignores it)",
        "wendy.json",
        4,
    ),
    "e2b",
)
NOTED = Report((CheckResult(T, "e2b", "wendy-json", (NOTE,)),))


def test_a_note_is_ok_and_never_fails_a_run() -> None:
    assert NOTED.results[0].status == "ok"
    assert (NOTED.errors, NOTED.warnings, NOTED.notes) == ([], [], [NOTE])
    assert NOTED.passed(strict=True)


def test_notes_are_shown_in_every_report_without_failing() -> None:
    assert format_details(NOTED).endswith(
        "Notes (1):\n  python/llm e2b [wendy-json] wendy.json:4: WJS006 foo: not a key the "
        "Wendy CLI reads (it ignores it)\n"
    )
    assert format_details(NOTED, warnings=False) == ""  # --quiet: failures only
    doc = json.loads(dumps(check_json(NOTED, strict=True)))
    assert (doc["ok"], doc["summary"]["notes"], doc["results"][0]["status"]) == (True, 1, "ok")
    assert doc["results"][0]["findings"][0]["severity"] == "note"
    root = ET.fromstring(check_junit(NOTED, strict=True))
    assert root.get("failures") == "0"
    out = root.find("testsuite/testcase/system-out")
    assert out is not None and out.text is not None and out.text.startswith("note: ")
    assert "passed" in check_markdown(NOTED, strict=True)


@pytest.mark.parametrize(
    ("tty", "no_color", "expected"), [(True, None, True), (True, "1", False), (False, None, False)]
)
def test_colour_only_on_a_terminal_without_no_color(
    monkeypatch: pytest.MonkeyPatch, tty: bool, no_color: str | None, expected: bool
) -> None:
    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return tty

    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert use_colour(Stream()) is expected


def test_a_finding_shared_by_picks_is_shown_once_naming_them() -> None:
    shared = warning(WENDY_JSON_UNREAD, "wendy.json: not read on the compose path", "wendy.json", 1)
    partly = error(COMPOSE_PORT_CLASH, "port 80 published twice", "docker-compose.yml", 7)
    own = error(COMPOSE_PORT_CLASH, "port 81 published twice", "docker-compose.yml", 7)
    picks = ("a", "b", "c")
    results = [CheckResult("t/x", p, "device", (shared.at("t/x", p),)) for p in picks]
    results += [
        CheckResult("t/x", "a", "compose", (partly.at("t/x", "a"),)),
        CheckResult("t/x", "b", "compose", (partly.at("t/x", "b"),)),
        CheckResult("t/x", "c", "compose", (own.at("t/x", "c"),)),
    ]
    text = format_details(Report(tuple(results), {}))
    assert text.splitlines() == [
        "Failures (3, 2 distinct):",
        "  t/x picks a, b [compose] docker-compose.yml:7: CMP009 port 80 published twice",
        "  t/x c [compose] docker-compose.yml:7: CMP009 port 81 published twice",
        "",
        "Warnings (3, 1 distinct):",
        "  t/x every pick (3) [device] wendy.json:1: DEV007 wendy.json: not read on the "
        "compose path",
    ]
