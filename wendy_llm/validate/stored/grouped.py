"""Findings for changes shown once for several picks (the golden and baseline checks).

A change that concerns one pick goes to that pick's row. One shared by
several picks goes to the template-wide row with its diff, so the diff is
shown once, and each pick it names also fails with a one-line pointer to it
(a JUnit case per pick x check must fail when that pick is off). When the
run's diffs were capped, the last one says how much was left out, just
before what to do about it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from wendy_llm.codes import CodeInfo
from wendy_llm.validate.findings import TEMPLATE_WIDE, Finding, error


@dataclass(frozen=True)
class GroupedChange:
    """One change of one template, and the picks that show it (none: the template's own)."""

    template: str
    picks: tuple[str, ...]
    message: str  # what happened, diff included
    fix: str  # the last line: what to do about it
    file: str | None
    gist: str  # what happened, in a few words, for the pointers
    line: int | None = None  # in ``file``, when the change has one (issue 37)


def grouped_findings(
    codes: tuple[CodeInfo, CodeInfo], changes: Sequence[GroupedChange], omitted_lines: int = 0
) -> list[Finding]:
    """Findings attributed to (template, pick), pick ``""`` for template-wide ones.

    ``codes``: the change's code, and the pointers' (one per pick of a change
    several picks show)."""
    change_code, pointer_code = codes
    findings: list[Finding] = []
    for at, change in enumerate(changes):
        lines = [change.message, change.fix]
        if omitted_lines and at == len(changes) - 1:
            note = (
                f"({omitted_lines} more diff lines not shown: the diffs are capped; "
                "--max-diff-lines 0 shows them all)"
            )
            lines.insert(1, note)
        message = "\n".join(lines)
        pick = change.picks[0] if len(change.picks) == 1 else TEMPLATE_WIDE
        found = error(change_code, message, change.file, change.line, subject=change.gist)
        findings.append(found.at(change.template, pick))
        if len(change.picks) < 2:
            continue
        pointer = (
            f"{change.gist}, the same for {len(change.picks)} picks; "
            f"the diff is under {change.template} (template)"
        )
        findings += [
            error(pointer_code, pointer, change.file, change.line, subject=change.gist).at(
                change.template, slug
            )
            for slug in change.picks
        ]
    return findings


#: ``@@ -12,3 +14,4 @@``: where a unified diff's first hunk starts, before and after.
_HUNK = re.compile(r"^@@ -(?P<old>\d+)(?:,\d+)? \+(?P<new>\d+)")


def first_line(diff: Sequence[str], *, side: str = "new") -> int | None:
    """The first changed line of a unified diff, on its ``old`` or ``new`` side (at
    least 1: a hunk of an empty side starts at 0); None without a hunk."""
    found = next((m for m in map(_HUNK.match, diff) if m is not None), None)
    return None if found is None else max(1, int(found.group(side)))
