"""The ``baseline`` check: every pick renders as the stored baseline does.

A template may have a stored baseline, ``<golden>/baseline/<template id>/``
(``golden/baseline/python/llm/``): a complete template directory holding
the template as it was before a change, which defines "today's output"
(README, "The stored baseline").  Every pick is held to it exactly as
``wendy-llm diff --baseline DIR --expect-unchanged`` holds it
(:mod:`wendy_llm.compare.diff`: pairing, inputs, comparison, diffs and
cuts): the gate-scope files (the rules file's ``gate.files``, else every
file) must be byte for byte equal, for the canonical input and the variant.

- a pick the baseline also has is compared with that pick; a new pick
  with the baseline rendered with its answers (as ``--var`` answers: a
  radio answer outside the baseline's options is accepted), so a new
  Ollama tag is held to the Ollama topology of today;
- a pick that changed fails with the diff; a change identical in several
  picks (one template line renders into every Ollama pick) is shown once
  on the template-wide row, naming the picks, and each of those picks
  fails with a pointer to it (``grouped.py``, as for ``golden``);
- a new pick answering a declared sentinel (the rules file's
  ``sentinels:``) is exempt: its rules check it; it gets no ``baseline``
  result (``-`` in the table) and :attr:`BaselineResult.exempt` names it;
- a new pick the baseline cannot render with its answers (a variable or
  question it does not have, a value it rejects, a failing render) warns,
  with the reason: nothing holds it to today's output;
- a baseline pick the template no longer has fails the template-wide row;
- a template without a stored baseline: no ``baseline`` results at all.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from wendy_llm import options
from wendy_llm.codes import Check
from wendy_llm.codes.stored import (
    BASELINE_DIFFERS,
    BASELINE_FAILED,
    BASELINE_NOT_COMPARABLE,
    BASELINE_NOT_TEMPLATE,
    BASELINE_PICKS_REMOVED,
    BASELINE_RULES_UNREAD,
    BASELINE_SAME_CHANGE,
)
from wendy_llm.compare.diff import (
    DiffGroup,
    PickComparison,
    Side,
    TemplateDiff,
    compare_templates,
    group_diffs,
)
from wendy_llm.compare.scope import ALL_FILES, FileScope
from wendy_llm.compare.textdiff import counted, name_picks
from wendy_llm.errors import EngineError, RulesError, ToolchainError, WendyLlmError
from wendy_llm.render.manifest.load import MANIFEST_FILE
from wendy_llm.render.template import load_template
from wendy_llm.repo.layout import Layout, baseline_dir, display_path, rules_path
from wendy_llm.repo.selection import templates_dir_argument
from wendy_llm.safe_read import ReadRefused, resolve_inside
from wendy_llm.validate.findings import Finding, error, warning
from wendy_llm.validate.rules.file import Rules, load_rules, parse_rules
from wendy_llm.validate.stored.grouped import GroupedChange, first_line, grouped_findings

if TYPE_CHECKING:
    from wendy_llm.compare.pairing import Sentinels
    from wendy_llm.compare.sides import Key
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.files.tree import RenderedTree
    from wendy_llm.render.template import Template
    from wendy_llm.render.variants import Inputs

CHECK = Check.BASELINE

_HOW_TO_MOVE = (
    "The baseline only moves deliberately: {fix}; if the new output is intended, update "
    '{baseline} in a commit of its own that says why (README: "The stored baseline"). '
    "See it all: {command}"
)


@dataclass(frozen=True)
class BaselineResult:
    """Findings of one template's comparison with its stored baseline.

    ``template`` holds the template-wide findings; ``picks`` has an entry
    (empty when the pick holds) for every compared pick and every new pick
    the baseline cannot render (a warning); ``exempt`` maps the selected
    sentinel picks to why they are exempt, ``not_comparable`` the new picks
    the baseline cannot render to why.
    """

    template: list[Finding] = field(default_factory=list)
    picks: dict[str, list[Finding]] = field(default_factory=dict)
    exempt: dict[str, str] = field(default_factory=dict)
    not_comparable: dict[str, str] = field(default_factory=dict)


def baseline_findings(
    template: Template,
    golden_root: Path,
    *,
    pick_slugs: Collection[str] | None = None,
    trees: Mapping[Key, RenderedTree] | None = None,
    inputs: Sequence[Inputs] | None = None,
    scope: FileScope | None = None,
    sentinels: Sentinels | None = None,
    renderer: Renderer | None = None,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
    rules_file: Path | None = None,
) -> BaselineResult | None:
    """Compare ``template`` with its stored baseline; None when it has none.

    ``pick_slugs`` narrows the compared picks (removed picks are judged
    against all of the template's picks either way); ``trees`` ((slug,
    input label) -> render) are renders the caller already made;
    ``inputs`` default to the template's gate inputs (canonical and
    variant; pass the repository's sample values through them); ``scope``
    and ``sentinels`` to the ``gate`` and ``sentinels`` of the template's
    rules file (``rules_file``, else the one in ``golden_root``), read once;
    a rules file that does not load leaves the gate unknown: the template
    row fails saying so, and no pick is compared (``topology`` says why).
    """
    rules = rules_file if rules_file is not None else rules_path(golden_root, template.id)
    directory = baseline_dir(golden_root, template.id)
    shown = display_path(directory)
    if not os.path.lexists(directory):
        return None
    try:  # a baseline folder linked out of the golden directory is never read
        resolve_inside(directory, golden_root, shown=shown)
    except ReadRefused as exc:
        return BaselineResult([error(BASELINE_NOT_TEMPLATE, str(exc), shown)])
    if not (directory / MANIFEST_FILE).is_file():
        message = f"the stored baseline {shown} is not a template directory (no {MANIFEST_FILE})"
        return BaselineResult([error(BASELINE_NOT_TEMPLATE, message, shown)])
    try:
        baseline = load_template(directory, id=template.id)
        baseline.picks()
    except WendyLlmError as exc:
        return BaselineResult(
            [error(BASELINE_NOT_TEMPLATE, f"the stored baseline {shown}: {exc}", shown)]
        )
    if scope is None or sentinels is None:
        try:
            model = rules_of(rules, root=golden_root if rules_file is None else None)
        except RulesError as exc:
            return BaselineResult([_rules_unread(shown, exc)])
        scope = scope if scope is not None else gate_of(model)
        sentinels = sentinels if sentinels is not None else declared_sentinels(model)
    head_path = display_path(template.root) if template.root is not None else template.id
    try:
        diff = compare_templates(
            template.id,
            baseline,
            template,
            base_side=Side("baseline", shown, shown),
            head_side=Side("working-tree", head_path, head_path),
            scope=scope,
            sentinels=sentinels,
            inputs=inputs,
            slugs=pick_slugs,
            head_trees=trees,
            renderer=renderer,
            max_diff_lines=max_diff_lines,
        )
    except (EngineError, ToolchainError):
        raise
    except WendyLlmError as exc:
        return BaselineResult([error(BASELINE_FAILED, str(exc), shown)])
    command = f"wendy-llm diff --baseline {shown} --template {template.id} --expect-unchanged"
    if template.root is not None:
        # The template's directory minus its <language>/<name>: TEMPLATES_DIR.
        where = templates_dir_argument(template.root.parent.parent)
        command += f" {where}" if where is not None else ""
    return _result(diff, shown, command, max_diff_lines)


def _rules_unread(shown: str, exc: RulesError) -> Finding:
    message = (
        f"not compared with the stored baseline {shown}: the rules file {exc.file} does not "
        "load, so the files the gate compares (gate.files) are unknown; the topology check "
        "says why"
    )
    return error(BASELINE_RULES_UNREAD, message, exc.file, exc.line)


def declared_sentinels(rules: Rules | None) -> Sentinels:
    """The sentinel values a rules file declares, per picker question."""
    if rules is None:
        return {}
    return {question: s.values for question, s in rules.sentinels.items()}


def rules_of(path: Path, *, root: Path | None = None) -> Rules | None:
    """The rules file at ``path`` inside ``root`` (default: its folder), read (None
    when there is no file); raises :class:`RulesError` for a file that does not
    load, or that is a link out of ``root``, a device or a FIFO."""
    if not os.path.lexists(path):
        return None
    return load_rules(path, display=display_path(path), root=root)


def rules_in(layout: Layout, template_id: str) -> Rules | None:
    """The rules ``template_id`` is judged by: its rules file as the base revision
    holds it when ``layout`` pins the policy (``--base``, :mod:`wendy_llm.repo.policy`),
    else the work tree's; None when there is none.  Raises :class:`RulesError`
    for a file that does not load."""
    path = layout.rules_path(template_id)
    pinned = layout.pinned
    if pinned is None or not pinned.covers(path):
        return rules_of(path, root=layout.root)
    data = pinned.data(path)
    if data is None:
        return None
    # Named as the work tree's file: the findings point at its lines.
    shown = display_path(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"{shown} at {pinned.describe()}"
        raise RulesError(f"{where}: not valid UTF-8 (byte {exc.start})", file=shown) from exc
    return parse_rules(text, shown)


def gate_of(rules: Rules | None) -> FileScope:
    """The files the baseline gate compares: the rules file's ``gate``, else every file."""
    return ALL_FILES if rules is None else rules.gate


def sentinels_of(path: Path) -> Sentinels:
    """The sentinels of the rules file at ``path`` (none when there is no file);
    raises :class:`RulesError` for a file that does not load."""
    return declared_sentinels(rules_of(path))


def _result(
    diff: TemplateDiff, shown: str, command: str, max_diff_lines: int | None
) -> BaselineResult:
    result = BaselineResult()
    removed = [p.slug for p in diff.with_status("removed")]
    if removed:
        result.template.append(_removed(diff.template_id, removed, shown))
    for pick in diff.picks:
        if pick.status == "exempt":
            result.exempt[pick.slug] = pick.reason or "exempt"
        elif pick.status == "added":
            reason = pick.reason or "the baseline was not rendered with its answers"
            result.not_comparable[pick.slug] = reason
            result.picks[pick.slug] = [_not_comparable(pick, reason, shown)]
        elif pick.status != "removed":
            result.picks[pick.slug] = []
    _attach_diffs(result, diff.template_id, diff.picks, shown, command, max_diff_lines)
    return result


def _not_comparable(pick: PickComparison, reason: str, shown: str) -> Finding:
    message = (
        f"new pick {pick.slug} ({_answers(pick.answers)}) cannot be compared with the stored "
        f"baseline {shown}: {reason}; nothing holds it to today's output"
    )
    return warning(BASELINE_NOT_COMPARABLE, message)


def _answers(answers: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in answers.items()) or "no answers"


def _removed(template_id: str, removed: list[str], shown: str) -> Finding:
    count = counted(len(removed), "pick")
    message = (
        f"template {template_id} no longer has {count} of the stored baseline {shown}: "
        f"{', '.join(removed)}; every baseline pick must still render as before. "
        + _HOW_TO_MOVE.format(
            fix="restore them in the template",
            baseline=shown,
            command=f"wendy-llm diff --baseline {shown} --template {template_id}",
        )
    )
    return error(BASELINE_PICKS_REMOVED, message, shown)


def _what_happened(group: DiffGroup, shown: str) -> str:
    if group.status == "added":
        return f"{group.path} is rendered, but the stored baseline {shown} has no such file"
    if group.status == "removed":
        return f"{group.path} is no longer rendered, but the stored baseline {shown} renders it"
    return f"{group.path} differs from the stored baseline {shown}"


def _attach_diffs(
    result: BaselineResult,
    template_id: str,
    comparisons: tuple[PickComparison, ...],
    shown: str,
    command: str,
    max_diff_lines: int | None,
) -> None:
    changed = [c for c in comparisons if c.status == "changed"]
    diffs = group_diffs(changed, max_diff_lines)
    moved = {c.slug: c for c in changed if c.base_answers is not None}
    new = {c.slug: c for c in changed if c.compared_with == "answers"}
    grouped: list[GroupedChange] = []
    for group in diffs.groups:
        fix = "fix the template so that " + (
            "this pick renders as before"
            if len(group.picks) == 1
            else "these picks render as before"
        )
        what = _what_happened(group, shown)
        variant = f", variant {group.variant}" if group.variant else ""
        lines = [f"template {template_id}, {name_picks(group.picks)}{variant}: {what}"]
        lines += group.diff
        lines += [
            f"(pick {slug}: the baseline's answers are {dict(moved[slug].base_answers or {})}, "
            f"the template's {dict(moved[slug].answers)})"
            for slug in group.picks
            if slug in moved
        ]
        lines += [
            f"(pick {slug} is new: the baseline was rendered with its answers, "
            f"{_answers(new[slug].answers)}, as wendy init --var would)"
            for slug in group.picks
            if slug in new
        ]
        how = _HOW_TO_MOVE.format(fix=fix, baseline=shown, command=command)
        message = "\n".join(lines)
        gist = what + (f" (variant {group.variant})" if group.variant else "")
        line = first_line(group.diff)  # the render's first changed line (issue 37)
        grouped.append(
            GroupedChange(template_id, group.picks, message, how, group.path, gist, line)
        )
    for finding in grouped_findings(
        (BASELINE_DIFFERS, BASELINE_SAME_CHANGE), grouped, diffs.omitted_lines
    ):
        bucket = result.picks[finding.pick] if finding.pick else result.template
        bucket.append(finding)
