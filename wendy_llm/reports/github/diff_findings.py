"""``diff``'s policy failures as findings, so they are annotated where the change is.

A pick that breaks ``--expect-unchanged`` renders a file differently from
the base: its finding names that file of the head's render and the first
line the change touches (the first added or removed line of its diff), so
the annotation sits on the template line that made the difference (the
head is always the working tree, which :mod:`.sources` maps).  A removed
file has no line in the head: it is shown at the template's manifest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from wendy_llm.codes.stored import BASELINE_DIFF_POLICY
from wendy_llm.compare.diff import PolicyResult, TemplateDiff
from wendy_llm.validate.findings import CheckResult, Report, error

#: The check these findings belong to: the comparison with a base.
CHECK = BASELINE_DIFF_POLICY.check

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@")


def first_changed_line(diff: Sequence[str]) -> int | None:
    """The head's line number of the first change of a unified diff (None: no hunk)."""
    head: int | None = None
    for line in diff:
        hunk = _HUNK.match(line)
        if hunk is not None:
            head = int(hunk[1])
            continue
        if head is None:
            continue  # the file headers (--- / +++) before the first hunk
        if line.startswith(("+", "-")):
            return max(head, 1)
        head += 1
    return None


def diff_report(diff: TemplateDiff, result: PolicyResult) -> Report:
    """The changes of the picks that fail the policy, one finding per file and input."""
    results = []
    for pick in diff.picks:
        if pick.slug not in result.failing_picks:
            continue
        found = []
        for change in pick.files:
            line = first_changed_line(change.diff) if change.status == "changed" else None
            finding = error(
                BASELINE_DIFF_POLICY,
                f"{change.path} is {change.status} against {diff.base.describe()}, "
                "and the policy expects every pick unchanged",
                change.path,
                line if change.status != "added" else 1,
                subject=change.path,
            ).at(diff.template_id, pick.slug)
            found.append(
                finding if change.variant is None else finding.with_variant(change.variant)
            )
        results.append(CheckResult(diff.template_id, pick.slug, CHECK, tuple(found)))
    return Report(tuple(results))
