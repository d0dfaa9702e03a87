"""Text and JSON for golden results (the CLI prints what these return).

JSON shapes (``"version": 1``)::

    check:  {"version": 1, "mode": "check", "ok": bool, "golden_dir": str,
             "checked": [{"template": str, "picks": [slug, ...]}],
             "problems": [{"kind": "changed"|"missing"|"stale"|"invalid",
                           "template": str, "picks": [slug, ...],
                           "path": str|null, "fixture": str, "summary": str,
                           "diff": [line, ...], "command": str}],
             "omitted_diff_lines": int}
    update: {"version": 1, "mode": "update", "golden_dir": str, "written": bool,
             "templates": [{"template": str, "fixture_dir": str, "deleted": bool,
                            "added": [...], "changed": [...], "removed": [...]}]}

Paths in ``added``/``changed``/``removed`` are relative to the fixture dir.
"""

from __future__ import annotations

from wendy_llm.golden.check import GoldenCheck
from wendy_llm.golden.update import GoldenUpdate
from wendy_llm.repo.dirs import display_path

JSON_VERSION = 1


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def check_text(result: GoldenCheck) -> str:
    blocks = [problem.message() for problem in result.problems]
    picks = sum(len(c.picks) for c in result.checked)
    scope = ", ".join(c.template_id for c in result.checked) or "no templates"
    if result.ok:
        verb = "matches its" if picks == 1 else "match their"
        blocks.append(f"golden: {scope}: {_count(picks, 'pick')} {verb} fixtures")
    else:
        commands = {p.command for p in result.problems}
        fix = commands.pop() if len(commands) == 1 else result.command
        if result.omitted_diff_lines:
            blocks.append(
                f"golden: {_count(result.omitted_diff_lines, 'diff line')} not shown (the run's "
                "diffs are capped; narrow it with --template/--pick, or --max-diff-lines 0)"
            )
        blocks.append(
            f"golden: {_count(len(result.problems), 'problem')} in {scope} "
            f"({_count(picks, 'pick')} checked). Review the diffs above; if the change "
            f"is intended, refresh the fixtures and commit them. Run: {fix}"
        )
    return "\n\n".join(blocks) + "\n"


def check_json(result: GoldenCheck) -> dict[str, object]:
    return {
        "version": JSON_VERSION,
        "mode": "check",
        "ok": result.ok,
        "golden_dir": display_path(result.golden_root),
        "checked": [{"template": c.template_id, "picks": list(c.picks)} for c in result.checked],
        "problems": [
            {
                "kind": p.kind,
                "template": p.template_id,
                "picks": list(p.picks),
                "path": p.path,
                "fixture": p.fixture,
                "summary": p.summary,
                "diff": list(p.diff),
                "command": p.command,
            }
            for p in result.problems
        ],
        "omitted_diff_lines": result.omitted_diff_lines,
    }


def update_text(result: GoldenUpdate) -> str:
    lines: list[str] = []
    for t in result.templates:
        where = display_path(t.fixture_dir)
        if t.deleted:
            lines.append(
                f"golden: {t.template_id}: removed {where}/ ({_count(len(t.removed), 'file')}): "
                "the template no longer exists"
            )
            continue
        if not t.written:
            lines.append(f"golden: {t.template_id}: up to date ({where}/)")
            continue
        lines.append(
            f"golden: {t.template_id}: {len(t.added)} added, {len(t.changed)} changed, "
            f"{len(t.removed)} removed ({where}/)"
        )
        for label, paths in (("added", t.added), ("changed", t.changed), ("removed", t.removed)):
            lines.extend(f"  {label:<8} {path}" for path in paths)
    if not result.templates:
        lines.append("golden: no templates found; nothing written")
    elif result.written:
        lines.append("golden: review the fixture changes with `git diff` and commit them")
    return "\n".join(lines) + "\n"


def update_json(result: GoldenUpdate) -> dict[str, object]:
    return {
        "version": JSON_VERSION,
        "mode": "update",
        "golden_dir": display_path(result.golden_root),
        "written": result.written,
        "templates": [
            {
                "template": t.template_id,
                "fixture_dir": display_path(t.fixture_dir),
                "deleted": t.deleted,
                "added": list(t.added),
                "changed": list(t.changed),
                "removed": list(t.removed),
            }
            for t in result.templates
        ],
    }
