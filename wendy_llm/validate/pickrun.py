"""One pick of a ``check`` run, rendered with every input the gate uses.

(And :class:`TemplateRun`, the template that holds the picks.)

A :class:`PickRun` is what a pick is checked with: its template, its
answers and one input's values, frozen once loaded.  The canonical run (app
id ``llm-app``, defaults) holds its variants' runs
(:mod:`wendy_llm.render.variants`), so every check that depends on values
runs on each of them.  Each phase of the check is a function that returns a
frozen value, joined to the renders by :attr:`PickRun.key` (never by
position): :func:`render_template` a :class:`RenderStage` (each render's
files, parsed documents and ``render`` findings), :func:`pick_checks`,
:func:`input_checks` and :func:`rule_checks` a :class:`StageResult` each;
:mod:`wendy_llm.validate.rows` assembles the report's rows once, from them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TypeVar

from wendy_llm.codes import Check
from wendy_llm.codes.stored import LINT_FAILED, LINT_STOPPED
from wendy_llm.codes.tools import (
    RENDER_FAILED,
    RENDER_MISSING_VALUE,
    RENDER_RUNAWAY,
    RENDER_STOPPED,
    RENDER_VALUES,
)
from wendy_llm.device import DeviceView
from wendy_llm.errors import OutputTooLarge, RenderError, RenderTimeout, WendyLlmError
from wendy_llm.render.files.tree import RenderedTree
from wendy_llm.render.lints.warning import variable_line
from wendy_llm.render.manifest.load import MANIFEST_FILE
from wendy_llm.render.picks import Pick
from wendy_llm.render.template import Template
from wendy_llm.render.variants import CANONICAL, Inputs
from wendy_llm.repo.config import SETTINGS_FILE
from wendy_llm.repo.layout import Layout
from wendy_llm.validate.checks.device import build_view, device_findings, load_problems
from wendy_llm.validate.checks.leftovers import unrendered_actions
from wendy_llm.validate.checks.lint import lint_findings
from wendy_llm.validate.checks.runtime_files import runtime_etc_findings
from wendy_llm.validate.checks.wendy_json import (
    is_app_id_finding,
    same_app_id,
    validate_wendy_json,
)
from wendy_llm.validate.dockerfiles.check import validate_dockerfiles
from wendy_llm.validate.documents.parse import Documents, parse_documents
from wendy_llm.validate.findings import TEMPLATE_WIDE, Finding, error, warning
from wendy_llm.validate.rulerun import BaselineRender, check_rules, rule_subject
from wendy_llm.validate.rules.file import Rules
from wendy_llm.validate.tools.compose_run import ComposeResult

_T = TypeVar("_T")


def _no_findings() -> Mapping[str, tuple[Finding, ...]]:
    return MappingProxyType({})


#: Which row: (template id, pick slug, input label), what stages join by.  A
#: render's key names its pick and input; a template's own row is
#: :func:`template_key`.
RenderKey = tuple[str, str, str]


def template_key(template_id: str) -> RenderKey:
    """The key of a template's own row (findings spanning its picks)."""
    return (template_id, TEMPLATE_WIDE, "")


@dataclass
class Timer:
    """Seconds of work per phase; safe to use from several threads (GIL-atomic adds).

    A phase timed inside another (``variants`` while loading) is counted
    as its own phase only: the enclosing one gets the rest of its time, so
    every second is named once, by the phase that spent it.  Each thread
    has its own nesting (Compose and ShellCheck run beside the rest).
    """

    seconds: dict[str, float] = field(default_factory=dict)
    _local: threading.local = field(default_factory=threading.local, repr=False)

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        stack: list[float] = self._local.__dict__.setdefault("nested", [])
        stack.append(0.0)  # seconds spent by phases nested in this one
        start = time.perf_counter()
        try:
            yield
        finally:
            spent = time.perf_counter() - start
            inner = stack.pop()
            if stack:
                stack[-1] += spent
            self.seconds[name] = self.seconds.get(name, 0.0) + spent - inner

    def run(self, name: str, fn: Callable[[], _T]) -> _T:
        with self(name):
            return fn()


@dataclass(frozen=True)
class StageResult:
    """What one stage of a row's check found, per check: a frozen value that
    the next stage receives (never a field filled in later).

    ``view``: the pure stage's device view, which the rules read.
    """

    findings: Mapping[str, tuple[Finding, ...]] = field(default_factory=_no_findings)
    view: DeviceView | None = None

    @classmethod
    def of(
        cls, found: Mapping[str, Sequence[Finding]], view: DeviceView | None = None
    ) -> StageResult:
        frozen = {check: tuple(items) for check, items in found.items()}
        return cls(MappingProxyType(frozen), view)

    def with_findings(self, check: str, found: Sequence[Finding]) -> StageResult:
        """This result with ``check``'s findings replaced (a new value)."""
        changed = {name: list(items) for name, items in self.findings.items()}
        changed[check] = list(found)
        return StageResult.of(changed, self.view)


#: One stage's results over a whole run, by row key.
StageRows = Mapping[RenderKey, StageResult]


def stage_rows(found: Mapping[RenderKey, Mapping[str, Sequence[Finding]]]) -> StageRows:
    """Per-row findings, frozen into a stage's rows."""
    return MappingProxyType({key: StageResult.of(checks) for key, checks in found.items()})


@dataclass(frozen=True)
class PickRun:
    """A pick with one input's values; the canonical run holds its ``variants``.

    ``values``: the data map (read-only); ``unrenderable``: the ``render``
    findings known before rendering (the values could not be made), which
    stand for the render.
    """

    template: Template
    pick: Pick
    values: Mapping[str, object]
    inputs: Inputs = CANONICAL
    variants: tuple[PickRun, ...] = ()  # the same pick, other inputs
    unrenderable: tuple[Finding, ...] = ()

    @property
    def key(self) -> RenderKey:
        """Which render this is (template id, pick slug, input label): what every
        stage's answers are joined by."""
        return (self.template.id, self.pick.slug, self.inputs.label)

    def every_input(self) -> tuple[PickRun, ...]:
        """This run and its variants' (canonical first)."""
        return (self, *self.variants)


@dataclass(frozen=True)
class TemplateRun:
    """One template of a ``check`` run: its rules, its picks, what loading it found."""

    template_id: str
    template: Template | None
    rules: Rules | None = None
    rules_file: Path | None = None  # where the rules are (or would be)
    sample_values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    picks: tuple[PickRun, ...] = ()
    loaded: StageResult = field(default_factory=StageResult)  # the template row's, from loading

    def renders(self) -> tuple[PickRun, ...]:
        """Every pick with every input (canonical first, pick by pick)."""
        return tuple(each for pick_run in self.picks for each in pick_run.every_input())


@dataclass(frozen=True)
class Rendered:
    """One render's outcome: its files and parsed documents, or none, and its
    ``render`` findings (why it has none, or leftovers of the template)."""

    tree: RenderedTree | None
    docs: Documents | None
    result: StageResult


@dataclass(frozen=True)
class RenderStage:
    """Every render of one template, by key; ``stopped``: why its later renders
    were not attempted (a render ran away), or None."""

    renders: Mapping[RenderKey, Rendered]
    stopped: str | None = None

    def tree(self, pick_run: PickRun) -> RenderedTree | None:
        """The render of ``pick_run`` (its input), or None when it did not render."""
        found = self.renders.get(pick_run.key)
        return None if found is None else found.tree

    def trees(self, pick_run: PickRun) -> dict[tuple[str, str], RenderedTree]:
        """(slug, input label) -> render, for every input of the pick that rendered."""
        out: dict[tuple[str, str], RenderedTree] = {}
        for each in pick_run.every_input():
            tree = self.tree(each)
            if tree is not None:
                out[(each.pick.slug, each.inputs.label)] = tree
        return out

    def rows(self) -> StageRows:
        """Each render's ``render`` findings, as a stage's rows."""
        return MappingProxyType({key: found.result for key, found in self.renders.items()})


def prepare_pick(template: Template, pick: Pick, inputs: Inputs) -> PickRun:
    """The pick's values for these inputs (a value error fails its ``render``)."""
    try:
        values = template.values(inputs.app_id, inputs.with_answers(pick.answers))
    except WendyLlmError as exc:
        failed = (error(RENDER_VALUES, str(exc)),)
        return PickRun(template, pick, MappingProxyType({}), inputs=inputs, unrenderable=failed)
    return PickRun(template, pick, MappingProxyType(values), inputs=inputs)


def render_template(run: TemplateRun) -> RenderStage:
    """Render every pick of ``run`` with every input, until one render runs away.

    A render that times out or exceeds the output cap fails its own pick;
    the template's later renders are not attempted (each would take as
    long again: a stuck template once cost a ``check`` a timeout per pick
    and input) and fail ``render`` saying why. Other templates are not
    affected.
    """
    stopped: str | None = None
    renders: dict[RenderKey, Rendered] = {}
    for pick_run in run.picks:
        for each in pick_run.every_input():
            if stopped is not None:
                why = each.unrenderable or (error(RENDER_STOPPED, f"not rendered: {stopped}"),)
                renders[each.key] = Rendered(None, None, StageResult.of({Check.RENDER: why}))
                continue
            renders[each.key], runaway = render_pick(each)
            if runaway is not None:
                what = "timed out" if isinstance(runaway, RenderTimeout) else "outgrew the cap"
                slug = pick_run.pick.slug
                stopped = f"an earlier render of {run.template_id} (pick {slug}) {what}"
    return RenderStage(MappingProxyType(renders), stopped)


def lint_template_run(run: TemplateRun, stopped: str | None = None) -> list[Finding]:
    """The template's ``lint`` findings; an error (not an abort) when linting fails.
    ``stopped``: why its renders were stopped (then it is not linted)."""
    if run.template is None:
        return []
    if stopped is not None:
        # The lints render every pick again: they would run away too.
        return [warning(LINT_STOPPED, f"not linted: {stopped}")]
    try:
        return lint_findings(run.template, values=run.sample_values)
    except WendyLlmError as exc:
        return [error(LINT_FAILED, f"cannot lint {run.template_id}: {exc}")]


def render_pick(pick_run: PickRun) -> tuple[Rendered, RenderTimeout | OutputTooLarge | None]:
    """The pick rendered and its documents parsed, or why it does not render.

    With it the error when the render ran away (timed out, or exceeded the
    output cap), so that the caller stops rendering the template.
    """

    def failed(*found: Finding) -> Rendered:
        return Rendered(None, None, StageResult.of({Check.RENDER: found}))

    if pick_run.unrenderable:
        return failed(*pick_run.unrenderable), None
    try:
        tree = pick_run.template.render_values(pick_run.values)
    except (RenderTimeout, OutputTooLarge) as exc:
        return failed(error(RENDER_RUNAWAY, str(exc))), exc
    except RenderError as exc:
        # The check result names the template; the finding, the file and line.
        return failed(error(RENDER_FAILED, exc.describe(), exc.file, exc.line)), None
    except WendyLlmError as exc:
        return failed(error(RENDER_FAILED, str(exc))), None
    leftovers = unrendered_actions(tree, pick_run.values)
    return Rendered(tree, parse_documents(tree), StageResult.of({Check.RENDER: leftovers})), None


def pick_checks(pick_run: PickRun, rendered: Rendered | None, timer: Timer) -> StageResult:
    """The pure-Python checks of one pick rendered with one input (the rules: later)."""
    if rendered is None or rendered.tree is None or rendered.docs is None:
        return StageResult()
    tree, docs = rendered.tree, rendered.docs
    app_id = pick_run.inputs.app_id
    found: dict[str, list[Finding]] = {}
    with timer("wendy-json"):
        found[Check.WENDY_JSON] = validate_wendy_json(tree, app_id)
    with timer("dockerfile"):
        found[Check.DOCKERFILE] = validate_dockerfiles(tree, docs)
    with timer("device"):
        # The project directory `wendy init` makes is named after the app id.
        view = build_view(tree, app_id, docs)
        # What the wendy-json and compose checks report, the device check does not repeat.
        reported = found[Check.WENDY_JSON] + load_problems(tree, docs)
        found[Check.DEVICE] = device_findings(view, reported)
        found[Check.DEVICE] += runtime_etc_findings(view, tree)
    return StageResult.of(found, view)


def input_checks(
    pick_run: PickRun, rendered: RenderStage, stages: Mapping[RenderKey, StageResult]
) -> dict[RenderKey, StageResult]:
    """What only the canonical and variant renders together show: an ``appId`` that
    does not follow the app id (one warning on the canonical row, not one per
    input).  Returns the pure stages of the inputs it changes, each a new value."""
    tree = rendered.tree(pick_run)
    if tree is None:
        return {}
    for variant in pick_run.variants:
        variant_tree = rendered.tree(variant)
        if variant_tree is None:
            continue
        ids = (pick_run.inputs.app_id, variant.inputs.app_id)
        found = same_app_id(tree, variant_tree, ids)
        if not found:
            continue
        changed: dict[RenderKey, StageResult] = {}
        for each in (pick_run, variant):
            stage = stages.get(each.key, StageResult())
            kept = [f for f in stage.findings.get(Check.WENDY_JSON, ()) if not is_app_id_finding(f)]
            if each is pick_run:
                kept += found
            changed[each.key] = stage.with_findings(Check.WENDY_JSON, kept)
        return changed
    return {}


def rule_checks(
    pick_run: PickRun,
    rendered: Rendered | None,
    rules: Rules | None,
    timer: Timer,
    *,
    view: DeviceView | None = None,
    compose: ComposeResult | None = None,
    baseline: BaselineRender | None = None,
    baseline_compose: ComposeResult | None = None,
) -> StageResult:
    """``topology`` and the per-pick ``picker`` check: the rules, once Compose has
    run (``view``: the pure stage's device view; ``compose``: what Compose said
    of this render; ``baseline``: the stored baseline rendered for it, where a
    rule reads it, and ``baseline_compose``: what Compose said of that)."""
    if rendered is None or rendered.tree is None or rendered.docs is None:
        return StageResult()
    if rules is None:
        return StageResult.of({Check.TOPOLOGY: [], Check.PICKER: []})
    with timer("topology"):
        subject = rule_subject(
            rules,
            pick_run.pick.slug,
            pick_run.values,
            rendered.tree,
            rendered.docs,
            compose=compose,
            view=view,
            baseline=baseline,
            baseline_compose=baseline_compose,
            project=pick_run.inputs.app_id,
        )
        topology, picker = check_rules(rules, subject)
    return StageResult.of({Check.TOPOLOGY: topology, Check.PICKER: picker})


def missing_value(layout: Layout, template: Template, variable: str) -> Finding:
    """A variable without a default or a sample value, at a line (issue 37): the
    settings file's ``[sample-values."<template>"]`` table, else its line 1 (the file
    as a whole); without a settings file, the variable's line in ``template.json``."""
    settings = layout.settings
    hint = settings.missing_value_hint(template.id, variable)
    if (layout.root / SETTINGS_FILE).is_file():
        line = settings.lines.get(("sample-values", template.id))
        whole = "" if line is not None else f" (line 1: {settings.shown} as a whole)"
        return error(RENDER_MISSING_VALUE, hint + whole, settings.shown, line or 1)
    line, whole = variable_line(template.manifest, variable)
    where = f" ({settings.shown} does not exist yet: shown where {MANIFEST_FILE} declares it)"
    return error(RENDER_MISSING_VALUE, hint + where + whole, MANIFEST_FILE, line)
