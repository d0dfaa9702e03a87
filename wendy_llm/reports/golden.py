"""Golden results as text (the CLI prints what these return).

``check_text``: first each template that failed to render, by its cause
(template, file, line: the fixtures cannot be compared before that is
fixed), then every problem (its summary, its diff, the command that
refreshes the fixtures), then one verdict line counting both. ``update_text``: what each
template's fixture directory gained, changed and lost.
"""

from __future__ import annotations

from wendy_llm.compare.textdiff import counted
from wendy_llm.escape import text as safe
from wendy_llm.golden.check import GoldenCheck
from wendy_llm.golden.template_check import GoldenProblem
from wendy_llm.golden.update import GoldenUpdate
from wendy_llm.repo.layout import display_path
from wendy_llm.reports.terminal import Style


def _problem(problem: GoldenProblem, style: Style) -> str:
    kind, rest = problem.summary.split(":", 1)
    summary = style.fail(f"{safe(kind)}:") + safe(rest)
    return "\n".join([summary, *style.diff(problem.diff), safe(problem.fix)])


def check_text(result: GoldenCheck, *, colour: bool = False) -> str:
    style = Style(colour)
    blocks = [f"{style.fail('golden: failed to render:')} {safe(f.message)}" for f in result.failed]
    blocks += [_problem(problem, style) for problem in result.problems]
    picks = sum(len(c.picks) for c in result.checked)
    scope = safe(", ".join(c.template_id for c in result.checked)) or "no templates"
    if result.failed and not result.problems:
        ids = safe(", ".join(f.template_id for f in result.failed))
        checked = f"; {scope}: " if result.checked else "; "
        blocks.append(
            style.fail(
                f"golden: {counted(len(result.failed), 'template')} failed to render ({ids})"
                f"{checked}{counted(picks, 'pick')} checked. Fix the template first: its "
                "fixtures cannot be compared until it renders"
            )
        )
    elif not result.problems:
        verb = "matches its" if picks == 1 else "match their"
        blocks.append(style.ok(f"golden: {scope}: {counted(picks, 'pick')} {verb} fixtures"))
    else:
        commands = {p.command for p in result.problems}
        fix = safe(commands.pop() if len(commands) == 1 else result.command)
        if result.omitted_diff_lines:
            blocks.append(
                f"golden: {counted(result.omitted_diff_lines, 'diff line')} not shown (the run's "
                "diffs are capped; narrow it with --template/--pick, or --max-diff-lines 0)"
            )
        failed = f", {len(result.failed)} failed to render" if result.failed else ""
        blocks.append(
            style.fail(
                f"golden: {counted(len(result.problems), 'problem')}{failed} in {scope} "
                f"({counted(picks, 'pick')} checked). Review the diffs above; if the change "
                f"is intended, refresh the fixtures and commit them. Run: {fix}"
            )
        )
    return "\n\n".join(blocks) + "\n"


def update_text(result: GoldenUpdate, *, colour: bool = False) -> str:
    said = Style(colour).ok  # what was done; the paths under it stay plain
    lines: list[str] = []
    for t in result.templates:
        where = safe(display_path(t.fixture_dir))
        template_id = safe(t.template_id)
        if t.deleted:
            lines.append(
                said(
                    f"golden: {template_id}: removed {where}/ "
                    f"({counted(len(t.removed), 'file')}): the template no longer exists"
                )
            )
            continue
        if not t.written:
            lines.append(said(f"golden: {template_id}: up to date ({where}/)"))
            continue
        lines.append(
            said(
                f"golden: {template_id}: {len(t.added)} added, {len(t.changed)} changed, "
                f"{len(t.removed)} removed ({where}/)"
            )
        )
        for label, paths in (("added", t.added), ("changed", t.changed), ("removed", t.removed)):
            lines.extend(f"  {label:<8} {safe(path)}" for path in paths)
    if not result.templates and not result.failed:
        lines.append(said("golden: no templates found; nothing written"))
    elif result.written:
        lines.append(said("golden: review the fixture changes with `git diff` and commit them"))
    return "\n".join(lines) + "\n"
