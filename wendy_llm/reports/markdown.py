"""Markdown summaries of a ``check`` run and a ``diff``, for a CI job page.

``wendy-llm check --markdown FILE`` and ``wendy-llm diff --markdown FILE``
write these; the GitHub workflow appends them to ``$GITHUB_STEP_SUMMARY``,
so a reviewer sees which picks changed and what failed without opening the
log. Functions return strings; the CLI writes them.

Job summaries are limited in size (1 MiB per step on GitHub), so the diff
blocks stop after :data:`~wendy_llm.options.MARKDOWN_MAX_DIFF_CHARS` characters with a
note pointing to the log and the JSON report. Before that, a change identical in several
picks is one block naming them, and all blocks together hold at most the
run's total diff budget (as in the text report).

Every text from the templates goes through :mod:`~wendy_llm.escape`:
a finding stays one table row (:func:`~wendy_llm.escape.markdown_cell`),
and a diff line cannot close its fence or carry a control character.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from wendy_llm import escape, options
from wendy_llm.compare.changes import name_group
from wendy_llm.compare.diff import PICK_STATUSES, PolicyResult, TemplateDiff
from wendy_llm.compare.model import describe_change
from wendy_llm.repo.suppressions_file import SUPPRESSIONS_FILE
from wendy_llm.reports.check import summary_line, suppressed_counts
from wendy_llm.reports.diff import describe_inputs, omitted_note
from wendy_llm.validate.findings import TEMPLATE_WIDE, Finding, Report

#: A table cell holds at most this many characters of a message (a baseline
#: diff can be long): the rest is in the job log, and the cut says so.
CELL_MAX_CHARS = 2000

_cell = escape.markdown_cell
_code = escape.markdown_code


def _message_cell(text: str) -> str:
    """A finding's message as one cell: every line (``<br>``), cut past
    :data:`CELL_MAX_CHARS` with a note, never silently."""
    if len(text) <= CELL_MAX_CHARS:
        return _cell(text)
    return _cell(text[:CELL_MAX_CHARS]) + " … (cut: the whole message is in the job log)"


def _fenced(lines: Sequence[str], language: str = "") -> list[str]:
    lines = [escape.text(line) for line in lines]
    longest = max((len(line) - len(line.lstrip("`")) for line in lines), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{language}", *lines, fence]


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


def check_markdown(report: Report, *, strict: bool = False) -> str:
    """A verdict line, the counts, and a table of the failures (and, with ``strict``, warnings)."""
    passed = report.passed(strict=strict)
    verdict = "passed" if passed else "FAILED"
    lines = [f"### wendy-llm check: {verdict}", "", summary_line(report), ""]
    held = suppressed_counts(report)
    if held:
        lines += [f"Failures suppressed by {_code(SUPPRESSIONS_FILE)}:", ""]
        lines += _table(["template", "suppressed"], [(_cell(t), str(n)) for t, n in held])
        lines.append("")
    failing: list[Finding] = list(report.errors)
    if strict:
        failing += report.warnings
    if failing:
        rows = [
            (
                _cell(f.template),
                _cell("(template)" if f.pick == TEMPLATE_WIDE else f.pick),
                _cell(f.check),
                _code(f.code),
                _code(f.location) if f.location else "",
                _message_cell(f.message),
            )
            for f in failing[: options.MARKDOWN_MAX_FINDINGS]
        ]
        lines += _table(["template", "pick", "check", "code", "where", "problem"], rows)
        if len(failing) > options.MARKDOWN_MAX_FINDINGS:
            more = len(failing) - options.MARKDOWN_MAX_FINDINGS
            lines += ["", f"... and {more} more: see the job log."]
        lines.append("")
    elif report.warnings:
        lines += [f"{len(report.warnings)} warning(s), not failing the run: see the job log.", ""]
    if report.ignored:
        codes = ", ".join(_code(c) for c in dict.fromkeys(f.code for f in report.ignored))
        lines += [f"{len(report.ignored)} finding(s) ignored by the run's selection: {codes}.", ""]
    return "\n".join(lines)


def diff_markdown(diff: TemplateDiff, result: PolicyResult) -> str:
    """The policy verdict, the picks that are not unchanged, and their diffs (collapsed)."""
    counts = diff.counts()
    policy = result.policy
    if not (policy.expect_unchanged or policy.forbid_removed):
        verdict = "report only"
    else:
        verdict = "policy holds" if result.holds else "policy FAILS"
    lines = [
        f"### wendy-llm diff {_cell(diff.template_id)}: {verdict}",
        "",
        _cell(
            f"{diff.base.describe()} → {diff.head.describe()}; scope: {diff.scope.describe()}; "
            f"inputs: {describe_inputs(diff.inputs)}"
        ),
        "",
        "Picks: " + ", ".join(f"{counts[s]} {s}" for s in PICK_STATUSES),
        "",
    ]
    moved = [p for p in diff.picks if p.status != "unchanged"]
    if moved:
        rows = []
        for p in moved:
            note = ""
            if p.slug in result.failing_picks:
                note = "**fails the policy**"
            elif p.slug in result.exempted:
                note = "allowed (`--allow-changed`)"
            files = ", ".join(describe_change(_code(f.path), f.status, f.variant) for f in p.files)
            why = p.table_note()
            rows.append((_code(p.slug), p.status, files or _cell(why or ""), note))
        lines += _table(["pick", "status", "files in scope", "gate"], rows)
        lines.append("")
    lines += [f"- {_cell(v)}" for v in result.violations]
    lines += [f"- warning: {_cell(w)}" for w in result.warnings]
    if result.violations or result.warnings:
        lines.append("")
    budget = options.MARKDOWN_MAX_DIFF_CHARS
    shown = diff.shown_diffs()
    for g in shown.groups:
        title = f"{name_group(g.picks, shown.considered, 'changed')}: {g.describe()}"
        title = html.escape(escape.text(title))
        block = [f"<details><summary>{title}</summary>", "", *_fenced([*g.diff], "diff")]
        block += ["", "</details>", ""]
        size = sum(len(line) + 1 for line in block)
        if size > budget:
            lines.append("(more diffs left out of this summary: see the job log or --json)")
            break
        budget -= size
        lines += block
    else:
        if shown.omitted_lines:
            lines += [omitted_note(shown), ""]
    return "\n".join(lines)
