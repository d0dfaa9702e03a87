"""``check``: every validator over every pick of every template, into a Report.

For each template under the templates directory, each selected pick is
rendered once with the canonical golden inputs (app id
:data:`~wendy_llm.render.picks.CANONICAL_APP_ID`, defaults, the pick's answers)
and its compose file and ``wendy.json`` parsed once.  Then:

- per pick: ``render`` (the pick renders at all), ``compose``,
  ``wendy-json``, ``shell``, ``dockerfile``, ``topology``, ``picker`` (no
  sentinel reaches an Ollama pull) and ``golden``;
- per template (the ``(template)`` row): ``picker`` (load + lint),
  ``topology`` (the rules file itself, and rules naming unknown picks or
  selecting none), ``lint`` (``Template.lint()``, warnings) and ``golden``
  (problems spanning picks: shared files, layout, stale fixtures) and
  ``baseline`` (the baseline itself, removed picks, diffs shared by picks).

The validators that run external tools go first and in the background:
Compose (one process per distinct compose render, a few in parallel) and
the shell checks (one ShellCheck process for every distinct script); the
pure-Python validators run meanwhile.

Where things are looked for (templates, fixtures, rules files, stored
baselines, sample values) is the rule every command shares,
:mod:`wendy_llm.repo.layout`.  Every pick renders with the repository's
sample values for variables without a default; a template that needs one
it lacks fails ``render`` saying which line to add to ``wendy-llm.toml``.
A template that fails to load fails its own ``picker`` check; the others
are checked all the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from wendy_llm.compare.scope import FileScope
from wendy_llm.compare.textdiff import DEFAULT_MAX_LINES
from wendy_llm.errors import (
    CheckSelectionError,
    MissingValueError,
    RenderError,
    RulesError,
    WendyLlmError,
)
from wendy_llm.render.canonical import canonical_overrides
from wendy_llm.render.manifest import PICKER_FILE
from wendy_llm.render.picks import CANONICAL_APP_ID, Pick
from wendy_llm.render.template import Template, load_template
from wendy_llm.render.tree import RenderedTree
from wendy_llm.repo.layout import Layout, TemplateDir, display_path, find_layout
from wendy_llm.validate import golden as golden_check
from wendy_llm.validate import lint as lint_check
from wendy_llm.validate.baseline import baseline_findings
from wendy_llm.validate.compose import ComposeValidator
from wendy_llm.validate.dockerfile import validate_dockerfiles
from wendy_llm.validate.documents import Documents, parse_documents
from wendy_llm.validate.findings import (
    CHECK_IDS,
    TEMPLATE_WIDE,
    CheckResult,
    Finding,
    Report,
    error,
)
from wendy_llm.validate.picker import check_sentinel_renders, lint_picker
from wendy_llm.validate.rules import Rules, load_rules
from wendy_llm.validate.shell import ShellValidator
from wendy_llm.validate.topology import check_topology, rule_coverage, rule_documents
from wendy_llm.validate.wendy_json import validate_wendy_json

_T = TypeVar("_T")


@dataclass
class _Timer:
    """Seconds of work per validator; safe to use from several threads (GIL-atomic adds)."""

    seconds: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start

    def run(self, name: str, fn: Callable[[], _T]) -> _T:
        with self(name):
            return fn()


@dataclass
class _PickRun:
    template: Template
    pick: Pick
    values: dict[str, object]
    tree: RenderedTree | None = None
    docs: Documents | None = None
    findings: dict[str, list[Finding]] = field(default_factory=dict)


@dataclass
class _TemplateRun:
    template_id: str
    template: Template | None
    rules: Rules | None = None
    rules_file: Path | None = None
    sample_values: dict[str, str] = field(default_factory=dict)
    picks: list[_PickRun] = field(default_factory=list)
    findings: dict[str, list[Finding]] = field(default_factory=dict)


def run_check(
    templates_dir: str | Path | None = None,
    *,
    templates: Sequence[str] = (),
    picks: Sequence[str] = (),
    golden_dir: str | Path | None = None,
    golden: bool = True,
    compose_workers: int = 3,
    max_diff_lines: int | None = DEFAULT_MAX_LINES,
    layout: Layout | None = None,
) -> Report:
    """Check the selected templates and picks (all by default).

    The places come from ``layout``, else from :func:`find_layout` with
    ``templates_dir`` and ``golden_dir``.  ``templates`` selects by id
    (``python/llm``) or name (``llm``); ``picks`` by slug.  An unknown
    template or pick, or no template at all, raises
    :class:`CheckSelectionError`; every problem in the templates themselves
    is a finding in the report.  ``max_diff_lines`` cuts each golden diff
    (and all of them together to three times that; None: no limit).
    """
    started = time.perf_counter()
    timer = _Timer()
    where = layout if layout is not None else find_layout(templates_dir, golden_dir)
    golden_root = where.golden_dir
    with timer("load"):
        found = where.find_templates()
        runs = [_load(t, where) for t in where.select(templates)]
        runs = _select_picks(runs, picks)
    with timer("render"):
        for run in runs:
            for pick_run in run.picks:
                _render(pick_run)
    rendered = [p for run in runs for p in run.picks if p.tree is not None]
    trees = [p.tree for p in rendered if p.tree is not None]

    compose = ComposeValidator(workers=compose_workers)
    shell = ShellValidator()
    with ThreadPoolExecutor(max_workers=2) as pool:
        compose_future = pool.submit(timer.run, "compose", lambda: compose.validate_many(trees))
        shell_future = pool.submit(timer.run, "shell", lambda: shell.validate_many(trees))
        for run in runs:
            _pure_checks(run, timer)
        _attach(rendered, "compose", compose_future)
        _attach(rendered, "shell", shell_future)
    if golden:
        with timer("golden"):
            existing = [t.id for t in found]
            complete = not templates and not picks
            _golden(runs, golden_root, picks, existing, complete, max_diff_lines)
    with timer("baseline"):
        for run in runs:
            _baseline(run, golden_root, max_diff_lines)
    timings = dict(timer.seconds)
    timings["total"] = time.perf_counter() - started
    return Report(tuple(_results(runs, golden)), timings)


def _load(found: TemplateDir, layout: Layout) -> _TemplateRun:
    template_id = found.id
    try:
        template = load_template(found.path, id=template_id)
    except WendyLlmError as exc:
        # The loader validates template.json / template.schema.json against
        # the package's schemas; its message is the finding.
        run = _TemplateRun(template_id, None)
        run.findings["picker"] = [error("picker", str(exc), _file_of(exc))]
        return run
    run = _TemplateRun(template_id, template, sample_values=layout.sample_values(template_id))
    location = run.rules_file = layout.rules_path(template_id)
    if location.is_file():
        try:
            run.rules = load_rules(location, display=_display(location))
        except RulesError as exc:
            run.findings["topology"] = [error("topology", str(exc), exc.path, exc.line)]
    try:
        all_picks = template.picks()
    except WendyLlmError as exc:
        run.findings.setdefault("picker", []).append(error("picker", f"cannot list picks: {exc}"))
        return run
    for pick in all_picks:
        try:
            values = template.values(
                CANONICAL_APP_ID, canonical_overrides(pick.answers, run.sample_values)
            )
        except MissingValueError as exc:
            message = layout.settings.missing_value_hint(template_id, exc.variable)
            _unrenderable(run, pick, error("render", message, layout.settings.shown))
            continue
        except WendyLlmError as exc:
            _unrenderable(run, pick, error("render", str(exc)))
            continue
        run.picks.append(_PickRun(template, pick, values))
    return run


def _unrenderable(run: _TemplateRun, pick: Pick, finding: Finding) -> None:
    assert run.template is not None
    pick_run = _PickRun(run.template, pick, {})
    pick_run.findings["render"] = [finding]
    run.picks.append(pick_run)


def _file_of(exc: WendyLlmError) -> str | None:
    for name in ("file", "path"):
        value = getattr(exc, name, None)
        if isinstance(value, str):
            return value
    return None


def _display(path: Path) -> str:
    return display_path(path)


def _select_picks(runs: list[_TemplateRun], wanted: Sequence[str]) -> list[_TemplateRun]:
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
        chosen = [p for p in run.picks if p.pick.slug in wanted]
        if chosen:
            run.picks = chosen
            kept.append(run)
    return kept


def _render(pick_run: _PickRun) -> None:
    if "render" in pick_run.findings:
        return
    try:
        pick_run.tree = pick_run.template.render_values(pick_run.values)
    except RenderError as exc:
        finding = error("render", str(exc), exc.path, exc.cause.line)
        pick_run.findings["render"] = [finding]
        return
    except WendyLlmError as exc:
        pick_run.findings["render"] = [error("render", str(exc))]
        return
    pick_run.docs = parse_documents(pick_run.tree)
    pick_run.findings["render"] = []


def _pure_checks(run: _TemplateRun, timer: _Timer) -> None:
    template = run.template
    if template is None:
        return
    rules = run.rules
    with timer("picker"):
        picker_text = template.files.get(PICKER_FILE)
        found = run.findings.setdefault("picker", [])
        if picker_text is not None:
            found += lint_picker(picker_text, rules)
        elif rules is not None and rules.sentinels:
            message = f"sentinels are declared, but the template has no {PICKER_FILE}"
            found.append(error("picker", message, rules.path))
    with timer("topology"):
        if rules is not None:
            every = [(p.pick.slug, p.values) for p in run.picks]
            questions = [] if template.picker is None else [q.id for q in template.picker.questions]
            run.findings.setdefault("topology", []).extend(
                rule_coverage(
                    rules, _all_pick_values(template, every, run.sample_values), questions
                )
            )
        else:
            run.findings.setdefault("topology", [])
    with timer("lint"):
        run.findings["lint"] = lint_check.lint_findings(template, values=run.sample_values)
    for pick_run in run.picks:
        tree, docs = pick_run.tree, pick_run.docs
        if tree is None or docs is None:
            continue
        with timer("wendy-json"):
            pick_run.findings["wendy-json"] = validate_wendy_json(tree, CANONICAL_APP_ID, docs)
        with timer("dockerfile"):
            pick_run.findings["dockerfile"] = validate_dockerfiles(tree, docs)
        with timer("topology"):
            pick_run.findings["topology"] = (
                []
                if rules is None
                else check_topology(rules, pick_run.pick.slug, pick_run.values, tree, docs)
            )
        with timer("picker"):
            pick_run.findings["picker"] = (
                []
                if rules is None
                else check_sentinel_renders(rules, rule_documents(rules, tree, docs))
            )


def _all_pick_values(
    template: Template,
    selected: Sequence[tuple[str, Mapping[str, object]]],
    sample_values: Mapping[str, str],
) -> list[tuple[str, Mapping[str, object]]]:
    # Coverage is judged on every pick of the template, even when the run
    # checks a subset, so `--pick X` cannot make another rule look dead.
    have = dict(selected)
    out: list[tuple[str, Mapping[str, object]]] = []
    for pick in template.picks():
        values = have.get(pick.slug)
        if values is None:
            try:
                overrides = canonical_overrides(pick.answers, sample_values)
                values = template.values(CANONICAL_APP_ID, overrides)
            except WendyLlmError:
                continue
        out.append((pick.slug, values))
    return out


def _attach(rendered: Sequence[_PickRun], check: str, future: Future[list[list[Finding]]]) -> None:
    try:
        results = future.result()
    except WendyLlmError as exc:
        # A missing tool fails the check for every pick, with the reason.
        for pick_run in rendered:
            pick_run.findings[check] = [error(check, str(exc))]
        return
    for pick_run, found in zip(rendered, results, strict=True):
        pick_run.findings[check] = found


def _golden(
    runs: Sequence[_TemplateRun],
    golden_root: Path,
    picks: Sequence[str],
    existing: Sequence[str],
    complete: bool,
    max_diff_lines: int | None,
) -> None:
    # A template with a pick that does not render cannot be compared (the
    # render check already fails); the others are.
    comparable = [
        run
        for run in runs
        if run.template is not None and all(p.tree is not None for p in run.picks)
    ]
    loaded = [run.template for run in comparable if run.template is not None]
    trees = {
        run.template_id: {p.pick.slug: p.tree for p in run.picks if p.tree is not None}
        for run in comparable
    }
    by_id = {run.template_id: run for run in runs}
    for run in comparable:
        run.findings.setdefault("golden", [])
        for pick_run in run.picks:
            pick_run.findings["golden"] = []
    slugs = {slug for run_trees in trees.values() for slug in run_trees}
    wanted = [slug for slug in picks if slug in slugs]
    if not loaded or (picks and not wanted):
        return
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
        )
    except WendyLlmError as exc:
        for run in comparable:
            run.findings["golden"].append(error("golden", str(exc)))
        return
    for finding in found:
        # Fixtures of a template that no longer exists have no row of their
        # own: they are shown on the first template's row.
        owner = by_id.get(finding.template, runs[0])
        target = next((p for p in owner.picks if p.pick.slug == finding.pick), None)
        bucket = target.findings if target is not None else owner.findings
        bucket.setdefault("golden", []).append(finding)


def _baseline(run: _TemplateRun, golden_root: Path, max_diff_lines: int | None) -> None:
    template = run.template
    if template is None:
        return
    # The picks that rendered are compared, with the renders made above;
    # the others already fail `render`.
    trees = {p.pick.slug: p.tree for p in run.picks if p.tree is not None}
    scope = None  # a rules file that did not load: the validator reads its gate itself
    if run.rules is not None:
        scope = FileScope(run.rules.gate_files, run.rules.path)
    result = baseline_findings(
        template,
        golden_root,
        pick_slugs=set(trees),
        trees=trees,
        scope=scope,
        max_diff_lines=max_diff_lines,
        sample_values=run.sample_values,
        rules_file=run.rules_file,
    )
    if result is None:
        return
    run.findings["baseline"] = result.template
    for pick_run in run.picks:
        found = result.picks.get(pick_run.pick.slug)
        if found is not None:
            pick_run.findings["baseline"] = found


def _results(runs: Sequence[_TemplateRun], golden: bool) -> list[CheckResult]:
    order = [c for c in CHECK_IDS if golden or c != "golden"]
    results: list[CheckResult] = []
    for run in runs:
        for check in order:
            if check in run.findings:
                found = tuple(f.at(run.template_id, TEMPLATE_WIDE) for f in run.findings[check])
                results.append(CheckResult(run.template_id, TEMPLATE_WIDE, check, found))
        for pick_run in run.picks:
            slug = pick_run.pick.slug
            for check in order:
                if check in pick_run.findings:
                    found = tuple(f.at(run.template_id, slug) for f in pick_run.findings[check])
                    results.append(CheckResult(run.template_id, slug, check, found))
    return results
