"""GitHub workflow annotations of a check: a finding shown at its template source line.

``::error file=templates/python/llm/wendy.json,line=17,title=CODE::message``
(warnings as ``::warning``) puts a finding in the pull request's "Files
changed" view, at the template line a reviewer edits
(:mod:`~wendy_llm.reports.github.located`).  One annotation per distinct
finding, naming the picks it applies to; suppressed failures and notes are
not annotated (they fail nothing).

GitHub shows at most 10 error and 10 warning annotations per step and
drops the rest silently (actions/toolkit PR 734): the errors come
first, then the warnings, each kind cut at its limit, and one final
``::notice`` (a kind of its own, so not dropped by those limits) counts
what was left out and says where the rest is.  The commands are built here
and written by :func:`wendy_llm.cli.output.emit_command`, escaped by
:mod:`wendy_llm.escape`, outside any stop-commands block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wendy_llm.reports.github.located import LocatedFinding

#: What GitHub shows per step, per kind (actions/toolkit PR 734).
MAX_PER_KIND = 10
#: The command of each annotated severity.
COMMANDS = {"error": "error", "warning": "warning"}


@dataclass(frozen=True)
class Annotation:
    """One workflow command: its name, properties and message (unescaped)."""

    command: str
    properties: dict[str, str]
    message: str


def workflow_annotations(
    located: Sequence[LocatedFinding], *, elsewhere: Sequence[str] = ("the job log",)
) -> list[Annotation]:
    """The annotations of ``located`` (errors first), within GitHub's limits,
    and a final notice counting the ones left out; ``elsewhere`` names where
    every finding is (the job log, the step summary, the SARIF, the JUnit file)."""
    out: list[Annotation] = []
    left: dict[str, int] = {}
    for severity, command in COMMANDS.items():
        chosen = [f for f in located if f.severity == severity and not f.finding.suppressed]
        out += [_annotation(command, f) for f in chosen[:MAX_PER_KIND]]
        if len(chosen) > MAX_PER_KIND:
            left[severity] = len(chosen) - MAX_PER_KIND
    if left:
        counted = " and ".join(f"{n} more {kind}(s)" for kind, n in left.items())
        message = (
            f"{counted} not annotated: GitHub shows {MAX_PER_KIND} error and {MAX_PER_KIND} "
            f"warning annotations per step; every finding is in {', '.join(elsewhere)}"
        )
        out.append(Annotation("notice", {"title": "wendy-llm: more findings"}, message))
    return out


def _annotation(command: str, found: LocatedFinding) -> Annotation:
    properties: dict[str, str] = {}
    if found.location is not None:
        properties["file"] = found.location.path
        if found.location.line is not None:
            properties["line"] = str(found.location.line)
    properties["title"] = found.rule
    return Annotation(command, properties, found.message)
