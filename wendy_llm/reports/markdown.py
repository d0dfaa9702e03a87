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
from collections.abc import Callable, Iterable, Sequence

from wendy_llm import escape, options
from wendy_llm.compare.changes import name_group
from wendy_llm.compare.diff import PICK_STATUSES, PolicyResult, TemplateDiff
from wendy_llm.compare.model import describe_change
from wendy_llm.repo.suppressions_file import SUPPRESSIONS_FILE
from wendy_llm.reports.check import (
    pick_label,
    picks_per_template,
    shared,
    summary_line,
    suppressed_counts,
)
from wendy_llm.reports.diff import describe_inputs, omitted_note
from wendy_llm.reports.github.topology import TopologyGroup, describe, mermaid
from wendy_llm.validate.findings import Finding, Report

#: A table cell holds at most this many characters of a message (a baseline
#: diff can be long; the summary holds 1 MiB), fewer than the job log's
#: :data:`~wendy_llm.options.REPORT_MAX_TEXT_CHARS`, and the cut says so.
CELL_MAX_CHARS = 2000

_cell = escape.markdown_cell
_code = escape.markdown_code


def _message_cell(text: str) -> str:
    """A finding's message as one cell: every line (``<br>``), cut past
    :data:`CELL_MAX_CHARS` with a note, never silently."""
    return _cell(escape.cut(text, CELL_MAX_CHARS))


def _fenced(lines: Sequence[str], language: str = "") -> list[str]:
    lines = [escape.text(line) for line in lines]
    longest = max((len(line) - len(line.lstrip("`")) for line in lines), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{language}", *lines, fence]


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


def check_markdown(
    report: Report,
    *,
    strict: bool = False,
    sources: Callable[[Finding], str | None] | None = None,
    topologies: Sequence[TopologyGroup] = (),
    max_bytes: int = options.MARKDOWN_MAX_BYTES,
) -> str:
    """A verdict line, the counts per code, the suppressed counts, a table of the failures
    (and, with ``strict``, warnings; else they are a folded table of their own) with one
    row per distinct finding naming its picks (grouped as the terminal groups them), and
    a Mermaid diagram per distinct device topology of the picks (before and after, where
    the stored baseline draws another).

    ``sources`` gives a finding's template source (``path:line``) for a column of its
    own. The whole stays under ``max_bytes`` (GitHub drops a step summary over 1 MiB):
    what does not fit is left out, and the summary says what.
    """
    passed = report.passed(strict=strict)
    verdict = "passed" if passed else "FAILED"
    head = [f"### wendy-llm check: {verdict}", "", summary_line(report), ""]
    sections: list[tuple[str, list[str]]] = [("the counts per code", _code_counts(report))]
    held = suppressed_counts(report)
    if held:
        block = [f"Failures suppressed by {_code(SUPPRESSIONS_FILE)}:", ""]
        block += _table(["template", "suppressed"], [(_cell(t), str(n)) for t, n in held])
        sections.append(("the suppressed counts", [*block, ""]))
    failing: list[Finding] = list(report.errors)
    if strict:
        failing += report.warnings
    if failing:
        sections.append(("the table of findings", _findings_table(report, failing, sources)))
    if report.warnings and not strict:
        # Not failing the run: one row each too, folded away.
        distinct = len(shared(report.warnings))
        title = f"{len(report.warnings)} warning(s), {distinct} distinct, not failing the run"
        block = [f"<details><summary>{title}</summary>", ""]
        block += _findings_table(report, report.warnings, sources, "warning")
        sections.append(("the table of warnings", [*block, "</details>", ""]))
    if report.ignored:
        codes = ", ".join(_code(c) for c in dict.fromkeys(f.code for f in report.ignored))
        ignored = f"{len(report.ignored)} finding(s) ignored by the run's selection: {codes}."
        sections.append(("the ignored findings", [ignored, ""]))
    for group in topologies:
        sections.append((f"the device topology of {group.template}", _diagrams(group)))
    return _within(head, sections, max_bytes)


def _code_counts(report: Report) -> list[str]:
    """Distinct findings and occurrences per code (the check where a finding has none)."""
    counts: dict[tuple[str, str], list[int]] = {}
    for first, picks in shared(report.findings):
        kind = "suppressed" if first.suppressed else first.severity
        entry = counts.setdefault((first.code or first.check, kind), [0, 0])
        entry[0] += 1
        entry[1] += len(picks)
    if not counts:
        return []
    rows = [(_code(code), kind, str(n), str(m)) for (code, kind), (n, m) in counts.items()]
    return [*_table(["code", "kind", "distinct", "occurrences"], rows), ""]


def _findings_table(
    report: Report,
    failing: Sequence[Finding],
    sources: Callable[[Finding], str | None] | None,
    what: str = "problem",
) -> list[str]:
    picks_of = picks_per_template(report)
    groups = shared(failing)
    rows = []
    for first, picks in groups[: options.MARKDOWN_MAX_FINDINGS]:
        who = (
            pick_label(picks[0]) if len(picks) == 1 else name_group(picks, picks_of[first.template])
        )
        row = [_code(first.code or first.check), _cell(first.template), _cell(who)]
        row.append(_code(first.location) if first.location else "")
        if sources is not None:
            source = sources(first)
            row.append(_code(source) if source else "")
        row.append(_message_cell(first.message))
        rows.append(row)
    header = ["code", "template", "picks", "where"]
    header += ["template source"] if sources is not None else []
    lines = _table([*header, what], rows)
    if len(groups) > options.MARKDOWN_MAX_FINDINGS:
        more = len(groups) - options.MARKDOWN_MAX_FINDINGS
        lines += ["", f"... and {more} more distinct finding(s): see the job log."]
    return [*lines, ""]


def _diagrams(group: TopologyGroup) -> list[str]:
    picks = name_group(group.picks, ())
    lines = [f"Device topology of {_cell(group.template)}, {_cell(picks)}:", ""]
    if group.before is not None:
        lines += [f"Before (the stored baseline): {_cell(describe(group.before))}", ""]
        lines += ["```mermaid", *mermaid(group.before), "```", ""]
        lines += [f"After: {_cell(describe(group.after))}", ""]
    else:
        lines += [_cell(describe(group.after)), ""]
    return [*lines, "```mermaid", *mermaid(group.after), "```", ""]


def _within(head: list[str], sections: Sequence[tuple[str, list[str]]], max_bytes: int) -> str:
    """``head`` and the sections that fit in ``max_bytes``, in order; a note names the rest."""
    lines = list(head)
    used = sum(len(line.encode("utf-8")) + 1 for line in lines)
    reserve = 512  # room for the note on what was cut
    cut: list[str] = []
    for what, block in sections:
        size = sum(len(line.encode("utf-8")) + 1 for line in block)
        if cut or used + size > max_bytes - reserve:
            cut.append(what)
            continue
        lines += block
        used += size
    if cut:
        lines += [
            _cell(f"(cut to stay under {max_bytes} bytes: {', '.join(cut)}; see the job log)"),
            "",
        ]
    return "\n".join(lines)


def diff_summary(
    results: Sequence[tuple[TemplateDiff, PolicyResult]],
    notes: Sequence[str] = (),
    *,
    max_bytes: int = options.MARKDOWN_MAX_BYTES,
) -> str:
    """``diff --markdown``: each template's :func:`diff_markdown`, then ``notes``
    (Markdown lines), the whole under ``max_bytes`` (GitHub drops a step summary
    over 1 MiB; each template's diffs are capped, but not many templates together):
    the templates past it are named, not shown."""
    sections = [
        (f"the diff of {d.template_id}", diff_markdown(d, r).split("\n")) for d, r in results
    ]
    return _within([], [*sections, ("the notes", list(notes))], max_bytes)


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
