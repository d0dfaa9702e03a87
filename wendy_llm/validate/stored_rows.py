"""``check``'s comparisons with what is stored, as stage results by row key.

The golden fixtures (:mod:`wendy_llm.validate.stored.golden`: the canonical
render of every pick) and the stored baseline
(:mod:`wendy_llm.validate.stored.baseline`: every pick, canonical and variant
inputs) are compared with the renders ``check`` already made (the render
stage's values); their findings go to the pick's row, or to the template's
when they span picks, each returned as a frozen stage value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from wendy_llm.codes import Check
from wendy_llm.codes.builds import TOP_RULES_FILE
from wendy_llm.codes.stored import GOLDEN_UNREADABLE
from wendy_llm.compare.scope import ALL_FILES
from wendy_llm.errors import WendyLlmError
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.pickrun import (
    RenderKey,
    RenderStage,
    StageRows,
    TemplateRun,
    stage_rows,
    template_key,
)
from wendy_llm.validate.stored import golden as golden_check
from wendy_llm.validate.stored.baseline import baseline_findings, declared_sentinels


def golden_stage(
    runs: Sequence[TemplateRun],
    rendered: Mapping[str, RenderStage],
    golden_root: Path,
    picks: Sequence[str],
    existing: Sequence[str],
    complete: bool,
    max_diff_lines: int | None,
    full: bool = False,
) -> StageRows:
    """The ``golden`` findings of every run (canonical renders only, ``rendered``:
    each template's render stage); ``full``: the fixtures copy every rendered
    file (else lean)."""
    # A template with a pick that does not render cannot be compared (the
    # render check already fails); the others are.
    comparable = [
        run
        for run in runs
        if run.template is not None
        and all(rendered[run.template_id].tree(p) is not None for p in run.picks)
    ]
    loaded = [run.template for run in comparable if run.template is not None]
    trees = {
        run.template_id: {
            p.pick.slug: tree
            for p in run.picks
            if (tree := rendered[run.template_id].tree(p)) is not None
        }
        for run in comparable
    }
    by_id = {run.template_id: run for run in runs}
    rows: dict[RenderKey, dict[str, list[Finding]]] = {}
    for run in comparable:
        rows[template_key(run.template_id)] = {Check.GOLDEN: []}
        for pick_run in run.picks:
            rows[pick_run.key] = {Check.GOLDEN: []}
    slugs = {slug for run_trees in trees.values() for slug in run_trees}
    wanted = [slug for slug in picks if slug in slugs]
    if not loaded or (picks and not wanted):
        return stage_rows(rows)
    try:
        found = golden_check.golden_findings(
            loaded,
            golden_root,
            pick_slugs=wanted or None,
            existing=existing,
            complete=complete,
            trees=trees,
            max_diff_lines=max_diff_lines,
            sample_values={run.template_id: run.sample_values for run in comparable},
            full=full,
        )
    except WendyLlmError as exc:
        for run in comparable:
            rows[template_key(run.template_id)][Check.GOLDEN].append(
                error(GOLDEN_UNREADABLE, str(exc))
            )
        return stage_rows(rows)
    for finding in found:
        # Fixtures of a template that no longer exists have no row of their
        # own: they are shown on the first template's row.
        owner = by_id.get(finding.template, runs[0])
        target = next((p for p in owner.picks if p.pick.slug == finding.pick), None)
        key = target.key if target is not None else template_key(owner.template_id)
        rows.setdefault(key, {}).setdefault(Check.GOLDEN, []).append(finding)
    return stage_rows(rows)


def baseline_stage(
    run: TemplateRun, rendered: RenderStage, golden_root: Path, max_diff_lines: int | None
) -> StageRows:
    """The ``baseline`` findings of one template with a stored baseline (both
    inputs), compared with its renders (``rendered``)."""
    template = run.template
    if template is None:
        return stage_rows({})
    # The picks that rendered with every input are compared, with the
    # renders made above; the others already fail `render`.
    complete = [p for p in run.picks if len(rendered.trees(p)) == len(p.every_input())]
    trees = {key: tree for p in complete for key, tree in rendered.trees(p).items()}
    # The rules read once (_load; at the base revision with --base). None: a
    # rules file that did not load, which the baseline check reports without
    # comparing (its gate is unknown); no rules file at all: every file.
    topology = run.loaded.findings.get(Check.TOPOLOGY, ())
    unread = any(f.code == TOP_RULES_FILE.code for f in topology)
    scope = run.rules.gate if run.rules is not None else None if unread else ALL_FILES
    result = baseline_findings(
        template,
        golden_root,
        pick_slugs={p.pick.slug for p in complete},
        trees=trees,
        # the inputs the picks were rendered with (``_load`` derived them once)
        inputs=[each.inputs for each in run.picks[0].every_input()] if run.picks else None,
        scope=scope,
        sentinels=declared_sentinels(run.rules),
        max_diff_lines=max_diff_lines,
        rules_file=run.rules_file,
    )
    if result is None:
        return stage_rows({})
    rows: dict[RenderKey, dict[str, list[Finding]]] = {
        template_key(run.template_id): {Check.BASELINE: result.template}
    }
    for pick_run in run.picks:
        found = result.picks.get(pick_run.pick.slug)
        if found is not None:
            rows[pick_run.key] = {Check.BASELINE: found}
    return stage_rows(rows)
