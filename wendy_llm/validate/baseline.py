"""The ``baseline`` check: picks the stored baseline has still render as it does.

A template may have a stored baseline, ``<golden>/baseline/<template id>/``
(``golden/baseline/python/llm/``): a complete template directory holding
the template as it was before a change, which defines "today's output"
(README, "The stored baseline").  For every pick of the template whose slug
the baseline also has, both are rendered with the canonical inputs and the
gate-scope files (the rules file's ``gate.files``, else every file) must be
byte for byte equal, exactly as ``wendy-llm diff --baseline DIR
--expect-unchanged`` judges them: the comparison, the diffs and their cuts
are :mod:`wendy_llm.compare.diff`'s.

- a pick on both sides that changed fails with the diff; a change identical
  in several picks (one template line renders into every Ollama pick) is
  shown once on the template-wide row, naming the picks, and each of those
  picks fails with a pointer to it (``grouped.py``, as for ``golden``);
- a pick the baseline does not have (a new option) has nothing to be held
  to: it gets no ``baseline`` result (``-`` in the table), and
  :attr:`BaselineResult.new` names it;
- a baseline pick the template no longer has fails the template-wide row;
- a template without a stored baseline: no ``baseline`` results at all.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from wendy_llm.compare.diff import DiffGroup, PickComparison, Side, compare_renders, group_diffs
from wendy_llm.compare.scope import FileScope, scope_from_rules
from wendy_llm.compare.textdiff import DEFAULT_MAX_LINES, counted, name_picks
from wendy_llm.errors import WendyLlmError
from wendy_llm.render.canonical import render_picks
from wendy_llm.render.manifest import MANIFEST_FILE
from wendy_llm.render.template import load_template
from wendy_llm.repo.layout import baseline_dir, display_path, rules_path
from wendy_llm.repo.selection import templates_dir_argument
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.grouped import GroupedChange, grouped_findings

if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.template import Template
    from wendy_llm.render.tree import RenderedTree

CHECK = "baseline"

_HOW_TO_MOVE = (
    "The baseline only moves deliberately: {fix}; if the new output is intended, update "
    '{baseline} in a commit of its own that says why (README: "The stored baseline"). '
    "See it all: {command}"
)


@dataclass(frozen=True)
class BaselineResult:
    """Findings of one template's comparison with its stored baseline.

    ``template`` holds the template-wide findings; ``picks`` has an entry
    (empty when the pick holds) for every compared pick; ``new`` names the
    selected picks the baseline does not have (not compared).
    """

    template: list[Finding] = field(default_factory=list)
    picks: dict[str, list[Finding]] = field(default_factory=dict)
    new: tuple[str, ...] = ()


def baseline_findings(
    template: Template,
    golden_root: Path,
    *,
    pick_slugs: Collection[str] | None = None,
    trees: Mapping[str, RenderedTree] | None = None,
    scope: FileScope | None = None,
    renderer: Renderer | None = None,
    max_diff_lines: int | None = DEFAULT_MAX_LINES,
    sample_values: Mapping[str, str] | None = None,
    rules_file: Path | None = None,
) -> BaselineResult | None:
    """Compare ``template`` with its stored baseline; None when it has none.

    ``pick_slugs`` narrows the compared picks (removed picks are judged
    against all of the template's picks either way); ``trees`` (slug ->
    canonical render) are renders the caller already made; ``scope``
    defaults to the ``gate.files`` of the template's rules file
    (``rules_file``, else the one in ``golden_root``).  Both sides render
    with ``sample_values``.
    """
    directory = baseline_dir(golden_root, template.id)
    shown = display_path(directory)
    if not directory.exists():
        return None
    if not (directory / MANIFEST_FILE).is_file():
        message = f"the stored baseline {shown} is not a template directory (no {MANIFEST_FILE})"
        return BaselineResult([error(CHECK, message, shown)])
    try:
        baseline = load_template(directory, id=template.id)
        if scope is None:
            scope = scope_from_rules(rules_file or rules_path(golden_root, template.id))
        base_slugs = [p.slug for p in baseline.picks()]
    except WendyLlmError as exc:
        return BaselineResult([error(CHECK, f"the stored baseline {shown}: {exc}", shown)])
    try:
        head_slugs = [p.slug for p in template.picks()]
    except WendyLlmError as exc:
        return BaselineResult([error(CHECK, f"cannot list the template's picks: {exc}")])
    selected = [s for s in head_slugs if pick_slugs is None or s in pick_slugs]
    compared = [s for s in selected if s in base_slugs]
    new = tuple(s for s in selected if s not in base_slugs)
    result = BaselineResult(new=new)
    removed = [s for s in base_slugs if s not in head_slugs]
    if removed:
        result.template.append(_removed(template.id, removed, shown))
    if not compared:
        return result
    base_side = Side("baseline", shown, shown)
    head_path = display_path(template.root) if template.root is not None else template.id
    head_side = Side("working-tree", head_path, head_path)
    try:
        base = render_picks(
            baseline, slugs=compared, renderer=renderer, sample_values=sample_values
        )
    except WendyLlmError as exc:
        message = f"the stored baseline {shown} does not render: {exc}"
        result.template.append(error(CHECK, message, shown))
        return result
    try:
        head = render_picks(
            template, slugs=compared, renderer=renderer, trees=trees, sample_values=sample_values
        )
    except WendyLlmError as exc:
        result.template.append(error(CHECK, f"the template does not render: {exc}"))
        return result
    comparisons = compare_renders(
        base,
        head,
        base_label=base_side.describe(),
        head_label=head_side.describe(),
        scope=scope,
        max_diff_lines=max_diff_lines,
    )
    for comparison in comparisons:
        result.picks[comparison.slug] = []
    command = f"wendy-llm diff --baseline {shown} --template {template.id} --expect-unchanged"
    if template.root is not None:
        # The template's directory minus its <language>/<name>: TEMPLATES_DIR.
        where = templates_dir_argument(template.root.parent.parent)
        command += f" {where}" if where is not None else ""
    _attach_diffs(result, template.id, comparisons, shown, command, max_diff_lines)
    return result


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
    return error(CHECK, message, shown)


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
    grouped: list[GroupedChange] = []
    for group in diffs.groups:
        fix = "fix the template so that " + (
            "this pick renders as before"
            if len(group.picks) == 1
            else "these picks render as before"
        )
        what = _what_happened(group, shown)
        lines = [f"template {template_id}, {name_picks(group.picks)}: {what}", *group.diff]
        lines += [
            f"(pick {slug}: the baseline's answers are {dict(moved[slug].base_answers or {})}, "
            f"the template's {dict(moved[slug].answers)})"
            for slug in group.picks
            if slug in moved
        ]
        how = _HOW_TO_MOVE.format(fix=fix, baseline=shown, command=command)
        message = "\n".join(lines)
        grouped.append(GroupedChange(template_id, group.picks, message, how, group.path, what))
    for finding in grouped_findings(CHECK, grouped, diffs.omitted_lines):
        bucket = result.picks[finding.pick] if finding.pick else result.template
        bucket.append(finding)
