"""``policy``: what a change does to the policy it is judged by (``--base``).

With a base revision the verdict follows the base's policy
(:mod:`wendy_llm.repo.policy`); each policy file the work tree changes, adds
or removes is one finding on the row of what it governs (a rules file: its
template's; ``wendy-llm.toml`` and the suppressions file: the repository's),
carrying the diff from the base.  Unaccepted it is an error (POL001): the
change waits for the maintainers, as a render change waits for
``picks-may-change``.  Accepted (``--accept-policy-change``) it is a note
(POL002) and the work tree's policy judges the run.  These findings are
added after the selection and the suppressions are applied: the policy they
are about can neither ignore nor suppress them.
"""

from __future__ import annotations

from collections.abc import Sequence

from wendy_llm import options
from wendy_llm.codes import Check
from wendy_llm.codes.stored import POLICY_CHANGE_ACCEPTED, POLICY_CHANGED
from wendy_llm.compare.textdiff import split_lines, unified_diff
from wendy_llm.repo.pinned import Pinned
from wendy_llm.repo.policy import PolicyFile
from wendy_llm.validate.findings import REPOSITORY, TEMPLATE_WIDE, CheckResult, Finding, error, note

#: The flag that accepts a policy change (the action passes it for its label).
ACCEPT_FLAG = "--accept-policy-change"

#: What each kind of policy file decides, as the message says it.
_DECIDES = {
    "settings": "the [findings] selection, the templates ignored, rules-files and the places",
    "rules": "the template's rules, gate.files and sentinels",
    "suppressions": "the failures accepted for now",
}


def policy_findings(
    changes: Sequence[PolicyFile],
    pinned: Pinned,
    *,
    accepted: bool,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
) -> list[Finding]:
    """One finding per changed policy file, attributed to its row."""
    return [_finding(each, pinned, accepted, max_diff_lines) for each in changes if each.changed]


def policy_results(findings: Sequence[Finding]) -> tuple[CheckResult, ...]:
    """The ``policy`` results of ``findings``, one per row, in the findings' order."""
    rows: dict[str, list[Finding]] = {}
    for finding in findings:
        rows.setdefault(finding.template, []).append(finding)
    return tuple(
        CheckResult(template, TEMPLATE_WIDE, Check.POLICY, tuple(found))
        for template, found in rows.items()
    )


def _finding(
    changed: PolicyFile, pinned: Pinned, accepted: bool, max_diff_lines: int | None
) -> Finding:
    base = pinned.describe()
    if changed.base is None:
        what = f"is new since {base}"
    elif changed.head is None:
        what = f"is gone since {base} (deleted, or no regular file)"
    else:
        what = f"changed since {base}"
    decides = _DECIDES[changed.kind]
    if accepted:
        verdict = f"accepted ({ACCEPT_FLAG}): this run is judged by the work tree's"
    else:
        verdict = (
            f"this run is judged by the base's; the change fails until the maintainers "
            f"accept it ({ACCEPT_FLAG}; in the action, the policy-may-change label)"
        )
    lines = unified_diff(
        changed.base or b"",
        changed.head or b"",
        old_label=f"{changed.shown} at {base}",
        new_label=f"{changed.shown} in the work tree",
        max_lines=max_diff_lines,
    )
    message = f"policy file {changed.shown} {what}: it decides {decides}; {verdict}"
    message = "\n".join([message, *lines])
    code = POLICY_CHANGE_ACCEPTED if accepted else POLICY_CHANGED
    make = note if accepted else error
    row = changed.template or REPOSITORY
    return make(code, message, changed.shown, _first_change(changed), subject=changed.kind).at(
        row, TEMPLATE_WIDE
    )


def _first_change(changed: PolicyFile) -> int | None:
    """The work tree's first changed line (None when the file is gone there)."""
    if changed.head is None:
        return None
    old, new = split_lines(changed.base or b""), split_lines(changed.head)
    same = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), None)
    first = same if same is not None else min(len(old), len(new))
    return min(first + 1, max(len(new), 1))
