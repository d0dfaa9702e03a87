"""``check``: every validator over every pick of every template, into a Report.

For each template under the templates directory, each selected pick is
rendered with the canonical inputs (app id ``llm-app``, defaults, the
pick's answers) and with the template's variant (``render/variants.py``),
and each render's compose file and ``wendy.json`` parsed once.  Then:

- per pick and input: ``render`` (the pick renders at all), ``compose``,
  ``wendy-json``, ``shell``, ``dockerfile``, ``device`` (what ``wendy run``
  would do with it on a WendyOS device), ``topology``, ``picker`` (no
  sentinel reaches an Ollama pull), the variant's findings joined to the
  pick's row (``pickrun.py``); ``baseline`` compares both inputs;
- per pick, canonical only: ``golden`` (fixtures are the canonical render);
- per template (the ``(template)`` row): ``picker`` (load + lint),
  ``catalog`` (the repository's ``meta.json`` lists it, for its platform;
  ``validate/checks/catalog.py``; with a ``(repository)`` row for the rest),
  ``topology`` (the rules file itself, and rules naming unknown picks or
  selecting none), ``lint`` (``Template.lint()``, warnings) and ``golden``
  (problems spanning picks: shared files, layout, stale fixtures) and
  ``baseline`` (the baseline itself, removed picks, diffs shared by picks).

The validators that run external tools go first and in the background
(``toolstage.py``): Compose (one process per distinct project, that is per
distinct render) and the shell checks (``bash -n`` per distinct script,
ShellCheck on shares of them), all on one pool of one thread per core,
their results kept on disk between runs (``tools/cache.py``) and joined to
the renders by key, never by position; the pure-Python validators run
meanwhile.  Each stage returns a frozen value joined to the renders by key
(``pickrun.py``), and the report's rows are assembled once, from all of
them (``rows.py``).  The rules (``topology``, and the ``picker``'s
per-pick sentinel check) come last: they read the normalised Compose model
that the same Compose runs print, and the device view.  A rule that reads
the baseline gets the stored baseline rendered with the pick's inputs and
answers; those renders join the batch of Compose runs.

Where things are looked for (templates, fixtures, rules files, stored
baselines, ``meta.json``, sample values) is the rule every command shares,
:mod:`wendy_llm.repo.layout`.  Every input gives a variable without a
default the repository's sample value; a template lacking one fails
``render`` saying which line to add to ``wendy-llm.toml``.  A template that
fails to load fails its own ``picker`` check; the others are checked all
the same.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

from wendy_llm import options, phases
from wendy_llm.codes import Check
from wendy_llm.codes.builds import TOP_RULES_FILE
from wendy_llm.codes.template import PICKER_LOAD, PICKS_UNLISTED, SENTINELS_NO_PICKER
from wendy_llm.errors import CheckSelectionError, RulesError, WendyLlmError
from wendy_llm.render.canonical import canonical_overrides
from wendy_llm.render.manifest.load import PICKER_FILE
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import Template, load_template
from wendy_llm.render.variants import gate_inputs, missing_values
from wendy_llm.repo.layout import Layout, TemplateDir, find_layout
from wendy_llm.repo.unseen import UnseenFolder, unseen_template_dirs
from wendy_llm.validate.checks.catalog import check_catalog, unseen_folder_findings
from wendy_llm.validate.checks.picker import lint_picker
from wendy_llm.validate.checks.topology import rule_coverage
from wendy_llm.validate.findings import REPOSITORY, Finding, Report, error
from wendy_llm.validate.pickrun import (
    PickRun,
    RenderKey,
    RenderStage,
    StageResult,
    StageRows,
    TemplateRun,
    Timer,
    input_checks,
    lint_template_run,
    missing_value,
    pick_checks,
    prepare_pick,
    render_template,
    rule_checks,
    stage_rows,
    template_key,
)
from wendy_llm.validate.rows import check_results
from wendy_llm.validate.rulerun import BaselineRender, baseline_renders
from wendy_llm.validate.rules.file import Rules
from wendy_llm.validate.stored.baseline import rules_in
from wendy_llm.validate.stored_rows import baseline_stage, golden_stage
from wendy_llm.validate.tools.cache import ResultCache
from wendy_llm.validate.tools.pool import ToolRunner
from wendy_llm.validate.toolstage import ToolStage, ToolVerdicts


def run_check(
    templates_dir: str | Path | None = None,
    *,
    templates: Sequence[str] = (),
    picks: Sequence[str] = (),
    golden_dir: str | Path | None = None,
    golden: bool = True,
    compose_workers: int | None = options.COMPOSE_WORKERS,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
    cache: ResultCache | bool = True,
    layout: Layout | None = None,
    tool_runner: ToolRunner | None = None,
) -> Report:
    """Check the selected templates and picks (all by default).

    The places come from ``layout``, else from :func:`find_layout` with
    ``templates_dir`` and ``golden_dir``.  ``templates`` selects by id
    (``python/llm``) or name (``llm``); ``picks`` by slug.  An unknown
    template or pick, or no template at all, raises
    :class:`CheckSelectionError`; every problem in the templates themselves
    is a finding in the report.  ``max_diff_lines`` cuts each golden diff
    (and all of them together to three times that; None: no limit).
    ``cache``: where Compose and ShellCheck results are kept between runs
    (True: the per-user cache, ``tools/cache.py``; False: nowhere).
    ``tool_runner``: where the tool processes run (default: a pool of
    ``compose_workers`` threads, None: one per core).
    """
    started = time.perf_counter()
    timer = Timer()
    where = layout if layout is not None else find_layout(templates_dir, golden_dir)
    golden_root = where.golden_dir
    with timer("load"):
        found = where.find_templates()
        runs = [_load(t, where, timer) for t in where.select(templates)]
        runs = _select_picks(runs, picks)
    with timer("render"):
        # Each template's renders stop at its first runaway render.
        rendered = {run.template_id: render_template(run) for run in runs}
        baselines = {
            key: found
            for run in runs
            for key, found in _baseline_renders(run, rendered[run.template_id], golden_root).items()
        }
    trees = {
        key: each.tree
        for stage in rendered.values()
        for key, each in stage.renders.items()
        if each.tree is not None
    }
    baseline_trees = {key: b.tree for key, b in baselines.items() if b.tree}
    results = cache if isinstance(cache, ResultCache) else ResultCache.default() if cache else None
    with contextlib.ExitStack() as owned:
        runner = tool_runner or owned.enter_context(ToolRunner(compose_workers))
        tools = ToolStage(trees, baseline_trees, timer=timer, results=results, runner=runner)
        try:
            phases.reached("check-tools")
            pure = {
                key: stage
                for run in runs
                for key, stage in _pure_checks(run, rendered[run.template_id], timer).items()
            }
            verdicts = tools.verdicts()
        except BaseException:
            # Interrupted (Ctrl-C, SIGTERM): the tools are killed and the queued
            # jobs dropped at once, not each run to the end first.
            tools.cancel()
            raise
    # Each stage's result is a frozen value the next receives, joined to the
    # render by its key; the report's rows are assembled once all have returned.
    stages: list[StageRows] = [
        stage_rows({template_key(run.template_id): run.loaded.findings for run in runs}),
        *(stage.rows() for stage in rendered.values()),
        MappingProxyType(pure),
        verdicts.rows(trees),
        _rule_rows(runs, rendered, pure, verdicts, baselines, timer),
    ]
    if golden:
        with timer("golden"):
            existing = [t.id for t in found]
            complete = not templates and not picks
            full = where.settings.full_fixtures
            stages.append(
                golden_stage(
                    runs, rendered, golden_root, picks, existing, complete, max_diff_lines, full
                )
            )
    with timer("baseline"):
        for run in runs:
            if rendered[run.template_id].stopped is None:  # ran away: comparing would too
                stages.append(
                    baseline_stage(run, rendered[run.template_id], golden_root, max_diff_lines)
                )
    with timer("catalog"):
        unseen = unseen_template_dirs(
            where.templates_root, settings=where.settings, golden_dir=where.golden_dir
        )
        catalog, repository = _catalog(
            runs, rendered, where.meta_json(), [t.id for t in found], not templates, unseen
        )
        stages.append(catalog)
    timings = dict(timer.seconds)
    timings["total"] = time.perf_counter() - started
    return Report(check_results([*runs, *repository], stages, golden), timings)


def _rule_rows(
    runs: Sequence[TemplateRun],
    rendered: Mapping[str, RenderStage],
    pure: Mapping[RenderKey, StageResult],
    verdicts: ToolVerdicts,
    baselines: Mapping[RenderKey, BaselineRender],
    timer: Timer,
) -> StageRows:
    """The rule stage of every render: it receives the pure stage's device view,
    the tools' verdicts and the baseline renders, all by the render's key."""
    ruled: dict[RenderKey, StageResult] = {}
    for run in runs:
        for each in run.renders():
            key = each.key
            ruled[key] = rule_checks(
                each,
                rendered[run.template_id].renders.get(key),
                run.rules,
                timer,
                view=pure.get(key, StageResult()).view,
                compose=verdicts.compose.get(key),
                baseline=baselines.get(key),
                baseline_compose=verdicts.baseline_compose.get(key),
            )
    return MappingProxyType(ruled)


def _load(found: TemplateDir, layout: Layout, timer: Timer) -> TemplateRun:
    template_id = found.id
    try:
        template = load_template(found.path, id=template_id)
    except WendyLlmError as exc:
        # The loader validates template.json / template.schema.json against
        # the package's schemas; its message is the finding.
        failed = {Check.PICKER.value: [error(PICKER_LOAD, exc.describe(), _file_of(exc))]}
        return TemplateRun(template_id, None, loaded=StageResult.of(failed))
    samples = layout.sample_values(template_id)
    loaded: dict[str, list[Finding]] = {}
    location = layout.rules_path(template_id)
    rules: Rules | None = None
    try:  # the base revision's rules when the layout pins the policy (--base)
        rules = rules_in(layout, template_id)
    except RulesError as exc:
        loaded[Check.TOPOLOGY] = [error(TOP_RULES_FILE, str(exc), exc.file, exc.line)]
    run = TemplateRun(template_id, template, rules, location, samples)
    try:
        all_picks = template.picks()
    except WendyLlmError as exc:
        unlisted = error(PICKS_UNLISTED, f"cannot list picks: {exc}")
        loaded.setdefault(Check.PICKER, []).append(unlisted)
        return dataclasses.replace(run, loaded=StageResult.of(loaded))
    missing = missing_values(template, samples)
    with timer("variants"):  # the numbers the variant avoids are looked for here
        inputs = gate_inputs(template, samples)
    pick_runs: list[PickRun] = []
    for pick in all_picks:
        if missing:  # no pick renders: each row says which line to add, to which file
            why = tuple(missing_value(layout, template, v) for v in missing)
            pick_runs.append(PickRun(template, pick, MappingProxyType({}), unrenderable=why))
            continue
        pick_run, *variants = [prepare_pick(template, pick, each) for each in inputs]
        pick_runs.append(dataclasses.replace(pick_run, variants=tuple(variants)))
    return dataclasses.replace(run, picks=tuple(pick_runs), loaded=StageResult.of(loaded))


def _file_of(exc: WendyLlmError) -> str | None:
    for name in ("file", "path"):
        value = getattr(exc, name, None)
        if isinstance(value, str):
            return value
    return None


def _select_picks(runs: list[TemplateRun], wanted: Sequence[str]) -> list[TemplateRun]:
    if not wanted:
        return runs
    known = {p.pick.slug for run in runs for p in run.picks}
    unknown = sorted(set(wanted) - known)
    if unknown:
        raise CheckSelectionError(
            f"no pick {', '.join(unknown)} in the selected templates "
            f"(picks: {', '.join(sorted(known)) or 'none'})"
        )
    kept = []
    for run in runs:
        chosen = tuple(p for p in run.picks if p.pick.slug in wanted)
        if chosen:
            kept.append(dataclasses.replace(run, picks=chosen))
    return kept


def _pure_checks(
    run: TemplateRun, rendered: RenderStage, timer: Timer
) -> dict[RenderKey, StageResult]:
    """The template's own checks (its row's), and each render's pure stage."""
    template = run.template
    if template is None:
        return {}
    rules = run.rules
    mine: dict[str, list[Finding]] = {}
    with timer("picker"):
        picker_text = template.files.get(PICKER_FILE)
        found = mine.setdefault(Check.PICKER, [])
        if picker_text is not None:
            found += lint_picker(picker_text, rules)
        elif rules is not None and rules.sentinels:
            message = f"sentinels are declared, but the template has no {PICKER_FILE}"
            found.append(error(SENTINELS_NO_PICKER, message, rules.path))
    with timer("topology"):
        mine[Check.TOPOLOGY] = []
        if rules is not None and run.picks:  # none listed: PICKS_UNLISTED says why
            every = [(p.pick.slug, p.values) for p in run.picks]
            questions = [] if template.picker is None else [q.id for q in template.picker.questions]
            mine[Check.TOPOLOGY] += rule_coverage(
                rules, _all_pick_values(template, every, run.sample_values), questions
            )
    with timer("lint"):
        mine[Check.LINT] = lint_template_run(run, rendered.stopped)
    stages = {
        each.key: pick_checks(each, rendered.renders.get(each.key), timer) for each in run.renders()
    }
    for pick_run in run.picks:
        stages.update(input_checks(pick_run, rendered, stages))
    stages[template_key(run.template_id)] = StageResult.of(mine)
    return stages


def _all_pick_values(
    template: Template,
    selected: Sequence[tuple[str, Mapping[str, object]]],
    samples: Mapping[str, str],
) -> list[tuple[str, Mapping[str, object]]]:
    # Coverage is judged on every pick of the template, even when the run
    # checks a subset, so `--pick X` cannot make another rule look dead.
    have = dict(selected)
    out: list[tuple[str, Mapping[str, object]]] = []
    for pick in template.picks():
        values = have.get(pick.slug)
        if values is None:
            try:
                overrides = canonical_overrides(pick.answers, samples)
                values = template.values(CANONICAL_APP_ID, overrides)
            except WendyLlmError:
                continue
        out.append((pick.slug, values))
    return out


def _baseline_renders(
    run: TemplateRun, rendered: RenderStage, golden_root: Path
) -> dict[RenderKey, BaselineRender]:
    """The stored baseline rendered with each input's answers, by the render's key,
    where a rule reads it."""
    if run.rules is None or rendered.stopped is not None:
        return {}
    wanted = {
        e.key: (e.pick.slug, e.values, e.inputs.app_id, e.inputs.with_answers(e.pick.answers))
        for e in run.renders()
        if rendered.tree(e) is not None
    }
    return baseline_renders(run.rules, golden_root, run.template_id, wanted)


def _catalog(
    runs: Sequence[TemplateRun],
    rendered: Mapping[str, RenderStage],
    meta: Path | None,
    template_ids: Sequence[str],
    complete: bool,
    unseen: Sequence[UnseenFolder] = (),
) -> tuple[StageRows, list[TemplateRun]]:
    """Each template's ``catalog`` row, and the repository's (``meta.json``, and
    template folders without ``template.json``), with the repository's own run."""
    renders = {
        r.template_id: {
            p.pick.slug: tree
            for p in r.picks
            if (tree := rendered[r.template_id].tree(p)) is not None
        }
        for r in runs
    }
    found = check_catalog(meta, template_ids, renders, complete=complete)
    if found is None and not unseen:
        return stage_rows({}), []
    rows: dict[RenderKey, dict[str, list[Finding]]] = {}
    if found is not None:
        for run in runs:
            rows[template_key(run.template_id)] = {
                Check.CATALOG: found.templates.get(run.template_id, [])
            }
    if not complete:
        return stage_rows(rows), []
    mine = found.repository if found is not None else []
    rows[template_key(REPOSITORY)] = {Check.CATALOG: [*mine, *unseen_folder_findings(unseen)]}
    return stage_rows(rows), [TemplateRun(REPOSITORY, None)]
