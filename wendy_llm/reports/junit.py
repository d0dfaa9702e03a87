"""JUnit XML for ``check`` and ``diff`` (``--junit FILE``), through one writer.

``check``: one ``<testsuite>`` per template, one ``<testcase>`` per template
x pick x check (``classname`` = the template id, ``name`` = ``<pick>
<check>``, pick ``(template)`` for template-wide ones); errors become
``<failure>`` (message = the first finding, text = all of them), warnings
go to ``<system-out>`` (with ``strict`` they fail too), and so do errors the
suppressions file accepts (``suppressed: ...``; the suite's ``<system-out>``
counts them).

``diff``: one ``<testsuite>`` per template, one ``<testcase>`` per pick
(``name`` = ``<slug> diff``); a pick that breaks the policy is a
``<failure>`` (message = the violation, text = its diffs); every case's
``<system-out>`` says what happened to the pick; policy warnings are the
suite's ``<system-out>``.

Every name and text passes :func:`~wendy_llm.escape.xml_text` in the
one writer, :func:`junit_xml`: the file is well-formed XML 1.0 whatever a
template holds (a control byte is shown escaped, never written raw).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wendy_llm.escape import xml_text
from wendy_llm.repo.suppressions_file import SUPPRESSIONS_FILE
from wendy_llm.reports.check import finding_line, pick_label

if TYPE_CHECKING:
    from wendy_llm.compare.diff import PolicyResult, TemplateDiff
    from wendy_llm.validate.findings import CheckResult, Finding, Report


@dataclass(frozen=True)
class Failure:
    message: str
    type: str
    text: str


@dataclass(frozen=True)
class Case:
    classname: str
    name: str
    failure: Failure | None = None
    output: str | None = None  # <system-out>
    skipped: str | None = None  # <skipped message=...>: only ignored findings


@dataclass(frozen=True)
class Suite:
    name: str
    cases: Sequence[Case]
    output: str | None = None  # <system-out> of the suite


def junit_xml(name: str, suites: Sequence[Suite], *, seconds: float | None = None) -> str:
    """The document: ``<testsuites>`` with counts, a ``time`` when ``seconds`` is known."""
    x = xml_text
    root = ET.Element("testsuites", name=x(name))
    for suite in suites:
        element = ET.SubElement(root, "testsuite", name=x(suite.name))
        for case in suite.cases:
            # Slugs hold dots (llama3.2-3b), which JUnit viewers read as
            # package separators in a classname, so the pick goes in the name.
            item = ET.SubElement(
                element, "testcase", classname=x(case.classname), name=x(case.name), time="0"
            )
            if case.failure is not None:
                failure = ET.SubElement(
                    item, "failure", message=x(case.failure.message), type=x(case.failure.type)
                )
                failure.text = x(case.failure.text)
            elif case.skipped is not None:
                ET.SubElement(item, "skipped", message=x(case.skipped))
            if case.output is not None:
                ET.SubElement(item, "system-out").text = x(case.output)
        if suite.output is not None:
            ET.SubElement(element, "system-out").text = x(suite.output)
        _counts(element, [suite])
    _counts(root, suites)
    if seconds is not None:
        root.set("time", f"{seconds:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _counts(element: ET.Element, suites: Sequence[Suite]) -> None:
    cases = [case for suite in suites for case in suite.cases]
    element.set("tests", str(len(cases)))
    element.set("failures", str(sum(case.failure is not None for case in cases)))
    element.set("errors", "0")
    element.set("skipped", str(sum(c.failure is None and c.skipped is not None for c in cases)))


def check_junit(report: Report, *, strict: bool = False) -> str:
    """One test case per template x pick x check; with ``strict``, warnings fail too."""
    by_template: dict[str, list[CheckResult]] = {}
    for result in report.results:
        by_template.setdefault(result.template, []).append(result)
    suites = []
    for template, results in by_template.items():
        cases = []
        for result in results:
            failing = [
                f
                for f in result.findings
                if not f.ignored
                and (
                    (f.severity == "error" and not f.suppressed)
                    or (strict and f.severity == "warning")
                )
            ]
            # Warnings, suppressed errors (and notes, which never fail) go to the output.
            warned = [f for f in result.findings if f not in failing]
            failure = None
            if failing:
                first = finding_line(failing[0]).splitlines()[0]
                text = "\n".join(finding_line(f) for f in failing)
                failure = Failure(first, failing[0].severity, text)
            output = "\n".join(f"{_said(f)}: {finding_line(f)}" for f in warned) or None
            name = f"{pick_label(result.pick)} {result.check}"
            ignored = [f for f in result.findings if f.ignored and f.severity != "note"]
            counted = [f for f in result.findings if not f.ignored and f.severity != "note"]
            # A case whose every error and warning is ignored is skipped, saying which codes.
            skipped = None
            if ignored and not counted:
                codes = ", ".join(dict.fromkeys(f.code for f in ignored))
                skipped = f"ignored ({codes}): --ignore or wendy-llm.toml selects them away"
            cases.append(Case(template, name, failure, output, skipped))
        held = sum(f.suppressed for r in results for f in r.findings)
        note = f"{held} failure(s) suppressed by {SUPPRESSIONS_FILE}" if held else None
        suites.append(Suite(template, cases, note))
    return junit_xml("wendy-llm check", suites, seconds=report.timings.get("total"))


def _said(finding: Finding) -> str:
    if finding.ignored:
        return "ignored"
    return "suppressed" if finding.suppressed else finding.severity


def diff_junit(
    diffs: Sequence[tuple[TemplateDiff, PolicyResult]], *, removed: Sequence[str] = ()
) -> str:
    """One suite per template, one test case per pick; a pick that breaks the policy
    fails with its diffs.  ``removed`` templates (gone from the work tree while
    ``--forbid-removed`` holds) fail one case each."""
    suites = [_diff_suite(diff, result) for diff, result in diffs]
    if removed:
        cases = [
            Case(t, "template removed", Failure(f"template {t} was removed", "policy", t))
            for t in removed
        ]
        suites.append(Suite("removed templates", cases))
    return junit_xml("wendy-llm diff", suites)


def _diff_suite(diff: TemplateDiff, result: PolicyResult) -> Suite:
    violations = dict(zip(result.failing_picks, result.violations, strict=True))
    cases = []
    for p in diff.picks:
        failure = None
        if p.slug in violations:
            text = "\n".join(line for f in p.files for line in f.diff)
            failure = Failure(violations[p.slug], "policy", text)
        files = ", ".join(f.describe() for f in p.files)
        note = " (allowed by --allow-changed)" if p.slug in result.exempted else ""
        why = p.table_note()
        note += f" ({why})" if why else ""
        output = f"{p.status}{note}" + (f": {files}" if files else "")
        cases.append(Case(diff.template_id, f"{p.slug} diff", failure, output))
    warnings = "\n".join(f"warning: {w}" for w in result.warnings) or None
    return Suite(diff.template_id, cases, warnings)
