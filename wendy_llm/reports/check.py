"""Formatting a check :class:`~wendy_llm.validate.findings.Report`: text, JSON and JUnit XML.

Only formatting lives here; the functions return strings, and the CLI
decides where they go.

Text: a compact table (one row per template x pick, plus one
``(template)`` row per template for template-wide checks; one column per
check: ``ok`` / ``FAIL`` / ``warn``, ``-`` where the check does not apply
at that level), then the details of every failure (and warning), each as
``template pick check file:line: message``.

JSON (``--json``), version 1::

    {
      "version": 1,
      "ok": true,                   # passed (under the run's --strict setting)
      "strict": false,
      "summary": {"results": 120, "ok": 118, "fail": 0, "warn": 2,
                  "errors": 0, "warnings": 3},
      "checks": ["compose", ...],   # the check ids that ran, in column order
      "results": [                  # one per template x pick x check
        {"template": "python/llm", "pick": "gemma4-e2b",   # pick null: template-wide
         "check": "compose", "status": "ok",               # ok | fail | warn
         "findings": [{"severity": "error", "message": "...",
                       "file": "docker-compose.yml", "line": 12}]}
      ],
      "timings": {"render": 0.41, "compose": 0.52, ..., "total": 1.9}  # seconds
    }

JUnit XML (``--junit FILE``): one ``<testsuite>`` per template, one
``<testcase>`` per template x pick x check (``classname`` = the template
id, ``name`` = ``<pick> <check>``, pick ``(template)`` for template-wide
ones); errors become ``<failure>`` (message = the first finding, text =
all of them), warnings go to ``<system-out>``.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TextIO

from wendy_llm.validate.findings import TEMPLATE_WIDE, CheckResult, Finding, Report, Status

JSON_VERSION = 1
TEMPLATE_ROW = "(template)"

_LABELS: dict[Status, str] = {"ok": "ok", "fail": "FAIL", "warn": "warn"}

# The ANSI colours of every coloured report (here and in wendy_llm.cli.style).
RED = "\x1b[31m"
GREEN = "\x1b[32m"
YELLOW = "\x1b[33m"
CYAN = "\x1b[36m"
BOLD = "\x1b[1m"
BOLD_RED = "\x1b[1;31m"
RESET = "\x1b[0m"

_COLOURS: dict[Status, str] = {"ok": GREEN, "fail": BOLD_RED, "warn": YELLOW}


def is_terminal(stream: TextIO) -> bool:
    """True when ``stream`` is a terminal (streams without ``isatty`` are not)."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


def use_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (non-empty)."""
    return not os.environ.get("NO_COLOR") and is_terminal(stream)


def _pick_label(pick: str) -> str:
    return TEMPLATE_ROW if pick == TEMPLATE_WIDE else pick


def _rows(report: Report) -> list[tuple[str, str, dict[str, CheckResult]]]:
    rows: dict[tuple[str, str], dict[str, CheckResult]] = {}
    for result in report.results:
        rows.setdefault((result.template, result.pick), {})[result.check] = result
    return [(t, p, cells) for (t, p), cells in rows.items()]


def format_table(report: Report, *, colour: bool = False) -> str:
    """The compact status table and a summary line."""
    checks = report.checks()
    rows = _rows(report)
    if not rows:
        return "no templates to check\n"
    headers = ["template", "pick", *checks]
    body = [
        [t, _pick_label(p), *(_LABELS[c[k].status] if k in c else "-" for k in checks)]
        for t, p, c in rows
    ]
    widths = [max(len(r[i]) for r in [headers, *body]) for i in range(len(headers))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    for row in body:
        cells = []
        for index, (text, width) in enumerate(zip(row, widths, strict=True)):
            padded = text.ljust(width)
            if colour and index >= 2 and text != "-":
                status = next(s for s, label in _LABELS.items() if label == text)
                padded = f"{_COLOURS[status]}{text}{RESET}" + " " * (width - len(text))
            cells.append(padded)
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def summary_line(report: Report) -> str:
    counts = {s: sum(1 for r in report.results if r.status == s) for s in ("ok", "fail", "warn")}
    picks = {(r.template, r.pick) for r in report.results if r.pick != TEMPLATE_WIDE}
    templates = {r.template for r in report.results}
    total = report.timings.get("total")
    took = f" in {total:.2f} s" if total is not None else ""
    return (
        f"{len(templates)} template(s), {len(picks)} pick(s), {len(report.results)} checks: "
        f"{counts['ok']} ok, {counts['fail']} FAIL, {counts['warn']} warn{took}"
    )


def _finding_line(finding: Finding) -> str:
    where = f"{finding.location}: " if finding.location else ""
    head, *rest = finding.message.splitlines() or [""]
    text = f"{finding.template} {_pick_label(finding.pick)} [{finding.check}] {where}{head}"
    return "\n".join([text, *("    " + line for line in rest)])


def format_details(report: Report, *, warnings: bool = True, colour: bool = False) -> str:
    """Every failure (then every warning), one finding per entry."""
    out: list[str] = []
    sections: list[tuple[str, Sequence[Finding], Status]] = [("Failures", report.errors, "fail")]
    if warnings:
        sections.append(("Warnings", report.warnings, "warn"))
    for title, findings, status in sections:
        if not findings:
            continue
        heading = f"{title} ({len(findings)}):"
        if colour:
            heading = f"{_COLOURS[status]}{heading}{RESET}"
        out.append(heading)
        out += ["  " + _finding_line(f).replace("\n", "\n  ") for f in findings]
        out.append("")
    return "\n".join(out)


def format_timings(report: Report) -> str:
    """Seconds per validator, slowest first, then the total."""
    items = sorted(
        ((k, v) for k, v in report.timings.items() if k != "total"), key=lambda kv: -kv[1]
    )
    width = max((len(k) for k, _ in items), default=5)
    lines = [f"  {k.ljust(width)}  {v:7.3f} s" for k, v in items]
    if "total" in report.timings:
        lines.append(f"  {'total'.ljust(width)}  {report.timings['total']:7.3f} s (wall)")
    return "\n".join(lines) + "\n"


def _finding_json(finding: Finding) -> dict[str, object]:
    return {
        "severity": finding.severity,
        "message": finding.message,
        "file": finding.file,
        "line": finding.line,
    }


def to_json(report: Report, *, strict: bool = False) -> str:
    """The versioned JSON document (see the module docstring)."""
    counts = {s: sum(1 for r in report.results if r.status == s) for s in ("ok", "fail", "warn")}
    document = {
        "version": JSON_VERSION,
        "ok": report.passed(strict=strict),
        "strict": strict,
        "summary": {
            "results": len(report.results),
            **counts,
            "errors": len(report.errors),
            "warnings": len(report.warnings),
        },
        "checks": report.checks(),
        "results": [
            {
                "template": r.template,
                "pick": None if r.pick == TEMPLATE_WIDE else r.pick,
                "check": r.check,
                "status": r.status,
                "findings": [_finding_json(f) for f in r.findings],
            }
            for r in report.results
        ],
        "timings": {k: round(v, 4) for k, v in report.timings.items()},
    }
    return json.dumps(document, indent=2) + "\n"


def to_junit(report: Report, *, strict: bool = False) -> str:
    """JUnit XML: one test case per template x pick x check.

    With ``strict``, warnings are failures too (as they are for the exit code).
    """
    root = ET.Element("testsuites", name="wendy-llm check")
    by_template: dict[str, list[CheckResult]] = {}
    for result in report.results:
        by_template.setdefault(result.template, []).append(result)
    total_tests = total_failures = 0
    for template, results in by_template.items():
        suite = ET.SubElement(root, "testsuite", name=template)
        failures = 0
        for result in results:
            # Slugs hold dots (llama3.2-3b), which JUnit viewers read as
            # package separators in a classname, so the pick goes in the name.
            case = ET.SubElement(
                suite,
                "testcase",
                classname=template,
                name=f"{_pick_label(result.pick)} {result.check}",
                time="0",
            )
            failing = [f for f in result.findings if f.severity == "error" or strict]
            warned = [f for f in result.findings if f not in failing]
            if failing:
                failures += 1
                failure = ET.SubElement(
                    case,
                    "failure",
                    message=_finding_line(failing[0]).splitlines()[0],
                    type=failing[0].severity,
                )
                failure.text = "\n".join(_finding_line(f) for f in failing)
            if warned:
                out = ET.SubElement(case, "system-out")
                out.text = "\n".join("warning: " + _finding_line(f) for f in warned)
        suite.set("tests", str(len(results)))
        suite.set("failures", str(failures))
        suite.set("errors", "0")
        suite.set("skipped", "0")
        total_tests += len(results)
        total_failures += failures
    root.set("tests", str(total_tests))
    root.set("failures", str(total_failures))
    root.set("errors", "0")
    if "total" in report.timings:
        root.set("time", f"{report.timings['total']:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
