"""A baseline comparison (``wendy-llm diff``) as text; the CLI prints what these return.

A table of the picks (status, files in scope, or why a pick was not
compared), the files the scope leaves out, each distinct change's diff once
(naming the picks that share it, capped as a run), then the summary and the
policy's verdict. ``--quiet`` prints only what breaks the policy.
Every text from the templates (ids, slugs, paths, answers, diff lines) is
escaped (:mod:`~wendy_llm.escape`); colour is added after.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from wendy_llm.compare.changes import name_group
from wendy_llm.compare.diff import (
    PICK_STATUSES,
    PickComparison,
    PolicyResult,
    ShownDiffs,
    TemplateDiff,
)
from wendy_llm.compare.textdiff import counted
from wendy_llm.escape import text as safe
from wendy_llm.render.variants import Inputs
from wendy_llm.reports.terminal import Style


def omitted_note(shown: ShownDiffs) -> str:
    return (
        f"{counted(shown.omitted_lines, 'diff line')} not shown (the run's diffs are capped; "
        "narrow it with --files, or --max-diff-lines 0)"
    )


def _diff_blocks(shown: ShownDiffs, which: str, style: Style) -> list[str]:
    lines: list[str] = []
    for g in shown.groups:
        title = safe(f"=== {name_group(g.picks, shown.considered, which)}: {g.describe()}")
        lines += ["", title, *style.diff(g.diff)]
    if shown.omitted_lines:
        lines += ["", f"diff: {omitted_note(shown)}"]
    return lines


def _status(status: str, failing: bool, style: Style) -> str:
    if failing:
        return style.fail(status)
    paint = {
        "changed": style.warn,
        "added": style.ok,
        "removed": style.removed,
        "exempt": style.ok,
    }
    return paint[status](status) if status in paint else status


def describe_inputs(inputs: Sequence[Inputs]) -> str:
    """``canonical (app id llm-app, defaults); variant app-id=my.app-2 PORT=9080``."""
    return "; ".join(
        f"canonical (app id {i.app_id}, defaults)" if i.canonical else f"variant {i.label}"
        for i in inputs
    )


def pick_files(pick: PickComparison) -> str:
    """The table's last column: the files that changed, else why the pick was not compared."""
    note = pick.table_note()
    return f"({note})" if note else ", ".join(f.describe() for f in pick.files)


def diff_text(diff: TemplateDiff, result: PolicyResult, *, colour: bool = False) -> str:
    style = Style(colour)
    lines = [
        _heading(diff),
        f"scope: {safe(diff.scope.describe())}",
        f"inputs: {safe(describe_inputs(diff.inputs))}",
        "",
    ]
    width = max([len("PICK"), *(len(safe(p.slug)) for p in diff.picks)])
    lines.append(f"  {'PICK':<{width}}  {'STATUS':<9}  FILES")
    for p in diff.picks:
        files = safe(pick_files(p))
        failing = p.slug in result.failing_picks
        mark = "  [allowed by --allow-changed]" if p.slug in result.exempted else ""
        if failing:
            mark = "  [FAILS the policy]"
        # Padding stays outside the colour, so the columns line up.
        status = _status(p.status, failing, style) + " " * (9 - len(p.status))
        lines.append(f"  {safe(p.slug):<{width}}  {status}  {files}{mark}".rstrip())
    if not diff.picks:
        lines.append("  (no picks on either side)")

    outside: dict[tuple[str, str], int] = defaultdict(int)
    for p in diff.picks:
        for f in p.outside_scope:
            outside[(f.path, f.status)] += 1
    if outside:
        lines += ["", "outside the scope (not compared by the gate):"]
        lines += [
            f"  {safe(path)} ({status} in {counted(n, 'pick')})"
            for (path, status), n in sorted(outside.items())
        ]

    lines += _diff_blocks(diff.shown_diffs(), "changed", style)
    moved = [p for p in diff.with_status("changed") if p.base_answers is not None]
    new = [p for p in diff.with_status("changed") if p.compared_with == "answers"]
    if moved or new:
        lines.append("")
    lines += [
        safe(f"(pick {p.slug}: answers were {dict(p.base_answers or {})}, now {dict(p.answers)})")
        for p in moved
    ]
    lines += [
        safe(
            f"(pick {p.slug} is new: compared with the base rendered with its answers, "
            f"{dict(p.answers)})"
        )
        for p in new
    ]
    skipped = [(p.slug, label, why) for p in diff.picks for label, why in p.skipped]
    if skipped:
        lines.append("")
    lines += [
        safe(f"(pick {slug}: variant {label} not compared: {why})") for slug, label, why in skipped
    ]

    counts = diff.counts()
    lines += ["", "summary: " + ", ".join(f"{counts[s]} {s}" for s in PICK_STATUSES)]
    lines += [style.warn(f"warning: {safe(w)}") for w in result.warnings]
    lines.append(_policy_line(result, style))
    lines += [f"  {safe(v)}" for v in result.violations]
    return "\n".join(lines) + "\n"


def _heading(diff: TemplateDiff) -> str:
    sides = f"{diff.base.describe()} -> {diff.head.describe()}"
    return safe(f"template {diff.template_id}: {sides}")


def diff_failures_text(diff: TemplateDiff, result: PolicyResult, *, colour: bool = False) -> str:
    """``--quiet``: only what breaks the policy (the failing picks' diffs, the
    verdict and the violations); empty when the policy holds."""
    if result.holds:
        return ""
    style = Style(colour)
    lines = [_heading(diff)]
    lines += _diff_blocks(diff.shown_diffs(result.failing_picks), "failing", style)
    lines += ["", _policy_line(result, style)]
    lines += [f"  {safe(v)}" for v in result.violations]
    return "\n".join(lines) + "\n"


def _policy_line(result: PolicyResult, style: Style) -> str:
    policy = result.policy
    rules = []
    if policy.expect_unchanged:
        allowed = [safe(slug) for slug in sorted(policy.allow_changed)]
        rules.append(
            "expect unchanged" + (f" (allowed to change: {', '.join(allowed)})" if allowed else "")
        )
    if policy.forbid_removed:
        rules.append("no removed picks")
    if not rules:
        return style.ok("policy: none (report only; use --expect-unchanged to gate)")
    verdict = "holds" if result.holds else f"FAILS ({len(result.violations)})"
    return style.verdict(f"policy: {'; '.join(rules)}: {verdict}", result.holds)
