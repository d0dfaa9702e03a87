"""Annotations, SARIF and the Markdown summary's grouping and diagrams, on findings
made in the tests (the whole command on real templates: tests/cli/test_github_cli.py)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from _sarif_helpers import mermaid_blocks, mermaid_errors, sarif_errors

from wendy_llm.reports.github.annotations import MAX_PER_KIND, workflow_annotations
from wendy_llm.reports.github.located import LocatedFinding, rule_id
from wendy_llm.reports.github.sarif import FINGERPRINT_KEY, MAX_MESSAGE_CHARS, check_sarif
from wendy_llm.reports.github.sources import SourceLocation
from wendy_llm.reports.github.topology import ServiceShape, TopologyGroup, label, mermaid
from wendy_llm.reports.markdown import check_markdown
from wendy_llm.reports.workflow import command
from wendy_llm.validate.codes import CodeInfo
from wendy_llm.validate.findings import CheckResult, Finding, Report

REGISTRY = {
    "DEV001": CodeInfo(
        code="DEV001",
        check="device",
        severity="warning",
        title="wendy.json is not read on the compose path",
        rationale="wendy run deploys docker-compose.yml; wendy.json never reaches the device.",
        fact="Wendy CLI, wendy run",
        example="a render with docker-compose.yml and wendy.json",
    ),
    "DEV999": CodeInfo(
        code="DEV999",
        check="device",
        severity="error",
        title="retired",
        rationale="",
        fact="",
        example="",
        retired=True,
    ),
}


def located(severity: str, n: int, *, code: str = "", suppressed: bool = False) -> LocatedFinding:
    finding = Finding(
        check="compose",
        severity=severity,  # type: ignore[arg-type]
        message=f"services.s{n}: wrong",
        file="docker-compose.yml",
        line=n,
        template="python/llm",
        pick="p1",
        code=code,
        suppressed=suppressed,
    )
    place = SourceLocation("templates/python/llm/docker-compose.yml", n + 10)
    return LocatedFinding(finding, ("p1",), "p1", rule_id(finding, REGISTRY), place, 1)


def test_annotations_put_errors_first_and_count_what_github_would_drop() -> None:
    found = [located("warning", n) for n in range(11)] + [located("error", n) for n in range(12)]
    found.append(located("error", 99, suppressed=True))
    found.append(located("note", 98))
    out = workflow_annotations(found, elsewhere=["the job log", "the SARIF report"])
    kinds = [a.command for a in out]
    assert kinds == ["error"] * MAX_PER_KIND + ["warning"] * MAX_PER_KIND + ["notice"]
    assert out[0].properties == {
        "file": "templates/python/llm/docker-compose.yml",
        "line": "10",
        "title": "wendy-llm/compose",
    }
    assert out[0].message == "python/llm p1: services.s0: wrong (rendered docker-compose.yml:0)"
    assert out[-1].message.startswith("2 more error(s) and 1 more warning(s) not annotated")
    assert out[-1].message.endswith("every finding is in the job log, the SARIF report")
    # Neither the suppressed failure nor the note is annotated.
    assert not any("s99" in a.message or "s98" in a.message for a in out)


def test_a_registered_code_is_the_rule_and_an_unknown_one_falls_back() -> None:
    assert located("warning", 1, code="DEV001").rule == "DEV001"
    assert located("warning", 1, code="XYZ123").rule == "wendy-llm/compose"
    assert located("warning", 1).rule == "wendy-llm/compose"


def test_sarif_rules_results_suppressions_and_fingerprints_follow_the_schema() -> None:
    found = [
        located("warning", 1, code="DEV001"),
        located("error", 2, suppressed=True),
        located("note", 3),
    ]
    document = check_sarif(found, registry=REGISTRY, version="1.2.3")
    assert sarif_errors(document) == []
    runs: Any = document["runs"]
    (run,) = runs
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rules == ["DEV001", "wendy-llm/compose"]  # the retired code is not offered
    assert run["tool"]["driver"]["name"] == "wendy-llm"
    assert run["tool"]["driver"]["version"] == "1.2.3"
    first, second, third = run["results"]
    assert (first["ruleId"], first["ruleIndex"], first["level"]) == ("DEV001", 0, "warning")
    assert first["locations"][0]["physicalLocation"] == {
        "artifactLocation": {
            "uri": "templates/python/llm/docker-compose.yml",
            "uriBaseId": "%SRCROOT%",
        },
        "region": {"startLine": 11},
    }
    assert second["suppressions"][0]["kind"] == "external"
    assert "suppressions" not in first and third["level"] == "note"
    # The fingerprint holds no line: the same finding on another line keeps it.
    original = found[0]
    assert original.location is not None
    moved = dataclasses.replace(
        original,
        finding=dataclasses.replace(original.finding, line=40),
        location=dataclasses.replace(original.location, line=50),
    )
    assert moved.fingerprint() == original.fingerprint()
    assert first["partialFingerprints"] == {FINGERPRINT_KEY: original.fingerprint()}


def test_sarif_leaves_out_a_finding_without_a_place_and_says_so() -> None:
    nowhere = dataclasses.replace(located("error", 1), location=None)
    document = check_sarif([nowhere, located("error", 2)], version="1")
    assert sarif_errors(document) == []
    runs: Any = document["runs"]
    (run,) = runs
    assert [r["locations"][0]["physicalLocation"]["region"] for r in run["results"]] == [
        {"startLine": 12}
    ]
    (note,) = run["invocations"][0]["toolExecutionNotifications"]
    assert note["message"]["text"].startswith("1 finding(s) name no file of the repository")


def test_a_long_sarif_message_is_cut_and_says_so() -> None:
    long = located("error", 1)
    finding = dataclasses.replace(long.finding, message="x" * (MAX_MESSAGE_CHARS * 2))
    document = check_sarif([dataclasses.replace(long, finding=finding)], version="1")
    runs: Any = document["runs"]
    text = runs[0]["results"][0]["message"]["text"]
    assert len(text) < MAX_MESSAGE_CHARS + 100 and re.search(
        r"… \[cut: [0-9,]+ more characters\]$", text
    )


def test_sarif_past_githubs_result_limit_is_cut_and_says_so() -> None:
    document = check_sarif([located("error", n) for n in range(3)], version="1", max_results=2)
    assert sarif_errors(document) == []
    runs: Any = document["runs"]
    (run,) = runs
    assert len(run["results"]) == 2
    (note,) = run["invocations"][0]["toolExecutionNotifications"]
    assert note["message"]["text"].startswith("1 result(s) left out")


def finding(pick: str, line: int = 3, message: str = "services.a: broken") -> Finding:
    return Finding(
        check="compose",
        severity="error",
        message=message,
        file="docker-compose.yml",
        line=line,
        template="python/llm",
        pick=pick,
    )


def report(*found: Finding) -> Report:
    picks = dict.fromkeys(f.pick for f in found)
    results = [
        CheckResult("python/llm", p, "compose", tuple(f for f in found if f.pick == p))
        for p in picks
    ]
    return Report(tuple(results))


HOSTILE = 'a"] --> x[<img src=x>`#1;\n```'


def test_the_summary_has_one_row_per_distinct_finding_and_counts_per_code() -> None:
    found = [finding("p1"), finding("p2"), finding("p3"), finding("p2", 9, "volumes: bad")]
    text = check_markdown(report(*found), sources=lambda f: f"templates/x.yml:{f.line}")
    rows = [line for line in text.split("\n") if line.startswith("| `compose` | python/llm |")]
    assert rows == [
        "| `compose` | python/llm | every pick (3) | `docker-compose.yml:3` | "
        "`templates/x.yml:3` | services.a: broken |",
        "| `compose` | python/llm | p2 | `docker-compose.yml:9` | `templates/x.yml:9` | "
        "volumes: bad |",
    ]
    assert (
        "| code | kind | distinct | occurrences |\n|---|---|---|---|\n| `compose` | error | 2 | 4 |"
        in text
    )


def test_diagrams_draw_the_topology_and_escape_hostile_names() -> None:
    shape = (
        ServiceShape(HOSTILE, ("8080:8080",), ((HOSTILE, True), ("./data", False)), True, ()),
        ServiceShape("web", (), (), False, (HOSTILE, "missing")),
    )
    lines = mermaid(shape)
    assert mermaid_errors(lines) == []
    assert not any(c in label(HOSTILE)[1:-1] for c in '"<>`\n')
    group = TopologyGroup("python/llm", ("p1",), shape, before=shape[1:])
    text = check_markdown(report(finding("p1")), topologies=[group])
    before, after = mermaid_blocks(text)
    assert mermaid_errors(before) == [] and mermaid_errors(after) == []
    assert after == lines
    assert "Before (the stored baseline): web" in text
    assert re.search(r"s1 -->\|depends on\| s0$", "\n".join(after), re.M)
    # A hostile name never leaves its label: no raw fence, tag or quote in the block.
    assert "<img" not in text and text.count("```") == 4


def test_the_summary_stays_under_its_byte_cap_and_says_what_was_cut() -> None:
    shape = tuple(ServiceShape(f"s{n}", (), (), False, ()) for n in range(200))
    groups = [TopologyGroup("python/llm", (f"p{n}",), shape) for n in range(40)]
    text = check_markdown(report(finding("p1")), topologies=groups, max_bytes=20_000)
    assert len(text.encode()) < 20_000
    assert "cut to stay under 20000 bytes: the device topology of python/llm" in text
    assert "| `compose` | python/llm | p1 |" in text  # the findings come before the pictures


def test_an_annotation_of_hostile_text_stays_one_command() -> None:
    hostile = located("error", 1)
    place = SourceLocation("templates/a,b:c/%x\n::error::y.yml", 3)
    finding = dataclasses.replace(hostile.finding, message="m\n::error::forged %0A\r")
    (annotation,) = workflow_annotations(
        [dataclasses.replace(hostile, finding=finding, location=place)]
    )
    line = command(annotation.command, annotation.message, annotation.properties)
    # One line; the properties hold no "::" of their own, so the message starts where
    # the runner looks for it, and a "::" inside the message is data.
    assert "\n" not in line and "\r" not in line
    assert line.split("::", 2)[2].startswith("python/llm p1: m%0A::error::forged %250A%0D")
    assert "file=templates/a%2Cb%3Ac/%25x%0A%3A%3Aerror%3A%3Ay.yml,line=3," in line
