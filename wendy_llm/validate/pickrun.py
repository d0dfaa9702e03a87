"""One pick of a ``check`` run, rendered with every input the gate uses.

(And :class:`TemplateRun`, the template that holds the picks.)

A :class:`PickRun` is a pick rendered with one input: its values, its
render, its parsed documents and what each check found.  The canonical run
(app id ``llm-app``, defaults) holds its variants' runs
(:mod:`wendy_llm.render.variants`), so every check that depends on values
runs on each of them; :func:`merged_findings` then joins a variant's
findings to the pick's row, naming the variant, where the canonical input
found nothing for that check and file (one problem, one message).
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
from wendy_llm.codes.tools import RENDER_FAILED, RENDER_RUNAWAY, RENDER_STOPPED, RENDER_VALUES
from wendy_llm.device import DeviceView
from wendy_llm.errors import OutputTooLarge, RenderError, RenderTimeout, WendyLlmError
from wendy_llm.render.files.tree import RenderedTree
from wendy_llm.render.picks import Pick
from wendy_llm.render.template import Template
from wendy_llm.render.variants import CANONICAL, Inputs
from wendy_llm.validate.checks.device import (
    build_view,
    device_findings,
    load_problems,
    not_repeated,
)
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
from wendy_llm.validate.findings import Finding, error, warning
from wendy_llm.validate.rulerun import BaselineRender, check_rules, rule_subject
from wendy_llm.validate.rules.file import Rules
from wendy_llm.validate.tools.compose_run import ComposeResult

_T = TypeVar("_T")


def _no_findings() -> Mapping[str, tuple[Finding, ...]]:
    return MappingProxyType({})


#: Which render: (template id, pick slug, input label), what stages join by.
RenderKey = tuple[str, str, str]


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


@dataclass
class PickRun:
    """A pick rendered with one input; the canonical run holds its ``variants``."""

    template: Template
    pick: Pick
    values: dict[str, object]
    tree: RenderedTree | None = None
    docs: Documents | None = None
    findings: dict[str, list[Finding]] = field(default_factory=dict)
    inputs: Inputs = CANONICAL
    variants: list[PickRun] = field(default_factory=list)  # the same pick, other inputs
    view: DeviceView | None = None  # the device view (the pure stage's, recorded with it)
    baseline: BaselineRender | None = None  # the stored baseline, for rules that read it

    @property
    def key(self) -> RenderKey:
        """Which render this is (template id, pick slug, input label): what the
        tool stage's answers are joined by."""
        return (self.template.id, self.pick.slug, self.inputs.label)

    def every_input(self) -> list[PickRun]:
        """This run and its variants' (canonical first)."""
        return [self, *self.variants]

    def renders(self) -> dict[tuple[str, str], RenderedTree]:
        """(slug, input label) -> render, for every input that rendered."""
        return {
            (e.pick.slug, e.inputs.label): e.tree for e in self.every_input() if e.tree is not None
        }


@dataclass
class TemplateRun:
    """One template of a ``check`` run: its rules, its picks, its template-wide findings."""

    template_id: str
    template: Template | None
    rules: Rules | None = None
    rules_file: Path | None = None  # where the rules are (or would be)
    sample_values: dict[str, str] = field(default_factory=dict)  # wendy-llm.toml's
    picks: list[PickRun] = field(default_factory=list)
    findings: dict[str, list[Finding]] = field(default_factory=dict)
    #: Why the template's renders were stopped (:func:`render_template`), or None.
    stopped: str | None = None


def prepare_pick(template: Template, pick: Pick, inputs: Inputs) -> PickRun:
    """The pick's values for these inputs (a value error fails its ``render``)."""
    try:
        values = template.values(inputs.app_id, inputs.with_answers(pick.answers))
    except WendyLlmError as exc:
        pick_run = PickRun(template, pick, {}, inputs=inputs)
        pick_run.findings[Check.RENDER] = [error(RENDER_VALUES, str(exc))]
        return pick_run
    return PickRun(template, pick, values, inputs=inputs)


def render_template(run: TemplateRun) -> None:
    """Render every pick of ``run`` with every input, until one render runs away.

    A render that times out or exceeds the output cap fails its own pick;
    the template's later renders are not attempted (each would take as
    long again: a stuck template once cost a ``check`` a timeout per pick
    and input) and fail ``render`` saying why. Other templates are not
    affected.
    """
    for pick_run in run.picks:
        for each in pick_run.every_input():
            if run.stopped is not None:
                if Check.RENDER not in each.findings:
                    each.findings[Check.RENDER] = [
                        error(RENDER_STOPPED, f"not rendered: {run.stopped}")
                    ]
                continue
            runaway = render_pick(each)
            if runaway is not None:
                what = "timed out" if isinstance(runaway, RenderTimeout) else "outgrew the cap"
                slug = pick_run.pick.slug
                run.stopped = f"an earlier render of {run.template_id} (pick {slug}) {what}"


def lint_template_run(run: TemplateRun) -> list[Finding]:
    """The template's ``lint`` findings; an error (not an abort) when linting fails."""
    if run.template is None:
        return []
    if run.stopped is not None:
        # The lints render every pick again: they would run away too.
        return [warning(LINT_STOPPED, f"not linted: {run.stopped}")]
    try:
        return lint_findings(run.template, values=run.sample_values)
    except WendyLlmError as exc:
        return [error(LINT_FAILED, f"cannot lint {run.template_id}: {exc}")]


def render_pick(pick_run: PickRun) -> RenderTimeout | OutputTooLarge | None:
    """Render the pick and parse its documents, or record why it does not render.

    Returns the error when the render ran away (timed out, or exceeded the
    output cap), so that the caller stops rendering the template.
    """
    if Check.RENDER in pick_run.findings:
        return None
    try:
        pick_run.tree = pick_run.template.render_values(pick_run.values)
    except (RenderTimeout, OutputTooLarge) as exc:
        pick_run.findings[Check.RENDER] = [error(RENDER_RUNAWAY, str(exc))]
        return exc
    except RenderError as exc:
        # The check result names the template; the finding, the file and line.
        finding = error(RENDER_FAILED, exc.describe(), exc.file, exc.line)
        pick_run.findings[Check.RENDER] = [finding]
        return None
    except WendyLlmError as exc:
        pick_run.findings[Check.RENDER] = [error(RENDER_FAILED, str(exc))]
        return None
    pick_run.docs = parse_documents(pick_run.tree)
    pick_run.findings[Check.RENDER] = unrendered_actions(pick_run.tree, pick_run.values)
    return None


@dataclass(frozen=True)
class StageResult:
    """What one stage of a render's check found, per check: a frozen value that
    the next stage receives (never a field filled in later).

    ``view``: the pure stage's device view, which the rules read.
    """

    findings: Mapping[str, tuple[Finding, ...]] = field(default_factory=_no_findings)
    view: DeviceView | None = None

    @classmethod
    def of(cls, found: Mapping[str, list[Finding]], view: DeviceView | None = None) -> StageResult:
        frozen = {check: tuple(items) for check, items in found.items()}
        return cls(MappingProxyType(frozen), view)

    def with_findings(self, check: str, found: Sequence[Finding]) -> StageResult:
        """This result with ``check``'s findings replaced (a new value)."""
        changed = {name: list(items) for name, items in self.findings.items()}
        changed[check] = list(found)
        return StageResult.of(changed, self.view)


def pick_checks(pick_run: PickRun, timer: Timer) -> StageResult:
    """The pure-Python checks of one pick rendered with one input (the rules: later)."""
    tree, docs = pick_run.tree, pick_run.docs
    if tree is None or docs is None:
        return StageResult()
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
    pick_run: PickRun, stages: Mapping[RenderKey, StageResult]
) -> dict[RenderKey, StageResult]:
    """What only the canonical and variant renders together show: an ``appId`` that
    does not follow the app id (one warning on the canonical row, not one per
    input).  Returns the pure stages of the inputs it changes, each a new value."""
    if pick_run.tree is None:
        return {}
    for variant in pick_run.variants:
        if variant.tree is None:
            continue
        ids = (pick_run.inputs.app_id, variant.inputs.app_id)
        found = same_app_id(pick_run.tree, variant.tree, ids)
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
    rules: Rules | None,
    timer: Timer,
    *,
    view: DeviceView | None = None,
    compose: ComposeResult | None = None,
    baseline_compose: ComposeResult | None = None,
) -> StageResult:
    """``topology`` and the per-pick ``picker`` check: the rules, once Compose has
    run (``view``: the pure stage's device view; ``compose``: what Compose said
    of this render, ``baseline_compose``: of its baseline)."""
    tree, docs = pick_run.tree, pick_run.docs
    if tree is None or docs is None:
        return StageResult()
    if rules is None:
        return StageResult.of({Check.TOPOLOGY: [], Check.PICKER: []})
    with timer("topology"):
        subject = rule_subject(
            rules,
            pick_run.pick.slug,
            pick_run.values,
            tree,
            docs,
            compose=compose,
            view=view,
            baseline=pick_run.baseline,
            baseline_compose=baseline_compose,
            project=pick_run.inputs.app_id,
        )
        topology, picker = check_rules(rules, subject)
    return StageResult.of({Check.TOPOLOGY: topology, Check.PICKER: picker})


def record_stages(pick_run: PickRun, *stages: StageResult) -> None:
    """Write the stages' findings into the render's row (the one place that does),
    once every stage has returned; the pure stage's view is kept with them."""
    for stage in stages:
        for check, found in stage.findings.items():
            pick_run.findings[check] = list(found)
        if stage.view is not None:
            pick_run.view = stage.view
    # What Docker Compose refuses, the device check does not repeat (one defect, one finding).
    if Check.DEVICE in pick_run.findings and Check.COMPOSE in pick_run.findings:
        device = pick_run.findings[Check.DEVICE]
        pick_run.findings[Check.DEVICE] = not_repeated(device, pick_run.findings[Check.COMPOSE])


def merged_findings(pick_run: PickRun) -> dict[str, list[Finding]]:
    """The pick's findings per check, its variants' joined where they add something.

    A variant's finding is kept, naming the variant, unless the canonical
    input already failed that check in that file, or found the very same.
    """
    merged = {check: list(found) for check, found in pick_run.findings.items()}
    for variant in pick_run.variants:
        for check, found in variant.findings.items():
            mine = merged.setdefault(check, [])
            canonical = pick_run.findings.get(check, [])
            failed_files = {f.file for f in canonical if f.severity == "error"}
            same = {_identity(f) for f in canonical}
            mine += [
                f.with_variant(variant.inputs.label)
                for f in found
                if f.file not in failed_files and _identity(f) not in same
            ]
    return merged


def _identity(finding: Finding) -> tuple[object, ...]:
    return (finding.severity, finding.message, finding.file, finding.line)
