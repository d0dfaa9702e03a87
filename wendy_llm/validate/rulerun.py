"""Evaluating a template's rules on its renders: what ``check`` runs, and a library call.

``check`` makes each piece once and hands it in: the render, its parsed
documents, the compose check's result (findings and normalised models from
one ``docker-compose config`` run per distinct compose file), the device
view of the ``device`` check.  The rules that read the baseline also need
the template's stored baseline rendered with the pick's answers
(:func:`baseline_render`); ``check`` renders those first, so their compose
files join the same batch of Compose runs.

:func:`subject_for` does it all for one render (the library, the tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from wendy_llm.device import DeviceView
from wendy_llm.errors import EngineError, ToolchainError, WendyLlmError
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import Template, load_template
from wendy_llm.repo.layout import baseline_dir, display_path
from wendy_llm.validate.checks.compose import ComposeValidator
from wendy_llm.validate.checks.device import build_view
from wendy_llm.validate.checks.picker import check_sentinel_renders
from wendy_llm.validate.checks.topology import check_topology
from wendy_llm.validate.documents.parse import Documents, parse_documents
from wendy_llm.validate.findings import Finding
from wendy_llm.validate.rules.file import Rules
from wendy_llm.validate.rules.subject import Subject, make_subject
from wendy_llm.validate.tools.compose_run import ComposeResult

_Key = TypeVar("_Key")


@dataclass(frozen=True)
class BaselineRender:
    """The stored baseline rendered with a pick's answers, or why it could not be."""

    label: str  # "the baseline golden/baseline/python/llm with OLLAMA_MODEL=..."
    tree: Mapping[str, bytes] | None
    values: Mapping[str, object]
    problem: str | None = None


def needs_baseline(rules: Rules, slug: str, values: Mapping[str, object]) -> bool:
    """Does any rule that selects this pick read the baseline render?"""
    return any(r.uses_baseline and r.picks.selects(slug, values) for r in rules.rules)


def load_baseline(golden_root: Path, template_id: str) -> Template | str:
    """The template's stored baseline, or why there is none to read."""
    directory = baseline_dir(golden_root, template_id)
    if not directory.is_dir():
        return f"the template has no stored baseline ({display_path(directory)})"
    try:
        return load_template(directory, id=template_id)
    except WendyLlmError as exc:
        return f"the stored baseline {display_path(directory)} does not load: {exc}"


def baseline_render(
    baseline: Template | str, app_id: str, answers: Mapping[str, str]
) -> BaselineRender:
    """``baseline`` rendered as ``wendy init --var`` would with the pick's ``answers``
    (its ``--var`` overrides: the answers, and the input's other values).

    Non-strict, as the CLI: a radio answer outside the baseline's options is
    accepted, so a new pick is compared with what the baseline makes of it.
    """
    shown = ", ".join(f"{k}={v}" for k, v in answers.items()) or "no answers"
    if app_id != CANONICAL_APP_ID:
        shown += f" (app id {app_id})"
    if isinstance(baseline, str):
        return BaselineRender("the baseline", None, {}, baseline)
    where = display_path(baseline.root) if baseline.root is not None else baseline.id
    label = f"the baseline {where} rendered with {shown}"
    try:
        values = baseline.values(app_id, dict(answers), strict=False)
        tree = baseline.render_values(values)
    except (EngineError, ToolchainError):
        raise  # the machine's fault, not the template's
    except WendyLlmError as exc:
        return BaselineRender(label, None, {}, f"{label} fails: {exc}")
    return BaselineRender(label, tree, values)


def baseline_renders(
    rules: Rules,
    golden_root: Path,
    template_id: str,
    wanted: Mapping[_Key, tuple[str, Mapping[str, object], str, Mapping[str, str]]],
) -> dict[_Key, BaselineRender]:
    """For each render (by its key: slug, values, app id, ``--var`` overrides): the
    baseline rendered with the same app id and overrides, where a rule selecting
    it reads the baseline (the others have no entry)."""
    out: dict[_Key, BaselineRender] = {}
    baseline: Template | str | None = None
    for key, (slug, values, app_id, overrides) in wanted.items():
        if not needs_baseline(rules, slug, values):
            continue
        if baseline is None:
            baseline = load_baseline(golden_root, template_id)
        out[key] = baseline_render(baseline, app_id, overrides)
    return out


def rule_subject(
    rules: Rules,
    slug: str,
    values: Mapping[str, object],
    tree: Mapping[str, bytes],
    docs: Documents,
    *,
    compose: ComposeResult | None,
    view: DeviceView | None,
    baseline: BaselineRender | None = None,
    baseline_compose: ComposeResult | None = None,
    project: str | None = None,
) -> Subject:
    """The subject of one render; ``baseline`` (with its compose result) when rules read it."""
    subject = make_subject(
        slug,
        values,
        tree,
        docs,
        named=rules.selectors,
        declared=rules.documents,
        compose=compose,
        view=view,
    )
    if baseline is None:
        return subject
    if baseline.tree is None:
        subject.baseline_problem = baseline.problem
        return subject
    base_docs = parse_documents(baseline.tree)
    base_view = None if project is None else build_view(baseline.tree, project, base_docs)
    subject.baseline = make_subject(
        slug,
        baseline.values,
        baseline.tree,
        base_docs,
        named=rules.selectors,
        declared=rules.documents,
        compose=baseline_compose,
        view=base_view,
        label=baseline.label,
    )
    return subject


def check_rules(rules: Rules, subject: Subject) -> tuple[list[Finding], list[Finding]]:
    """The ``topology`` and the per-pick ``picker`` (sentinel) findings of one render."""
    return check_topology(rules, subject), check_sentinel_renders(rules, subject.documents)


def subject_for(
    rules: Rules,
    slug: str,
    values: Mapping[str, object],
    tree: Mapping[str, bytes],
    *,
    golden_root: Path | None = None,
    template_id: str | None = None,
    answers: Mapping[str, str] | None = None,
    compose: ComposeValidator | None = None,
) -> Subject:
    """Everything rules read about one render, made here (Compose runs for it).

    The baseline is rendered when a rule selecting the pick reads it and
    ``golden_root`` and ``template_id`` say where it is.
    """
    validator = compose if compose is not None else ComposeValidator()
    project = str(values.get("APP_ID", "app"))
    docs = parse_documents(tree)
    base = None
    trees = [tree]
    if needs_baseline(rules, slug, values):
        if golden_root is None or template_id is None:
            base = BaselineRender("the baseline", None, {}, "no stored baseline was given")
        else:
            base = baseline_render(load_baseline(golden_root, template_id), project, answers or {})
        if base.tree is not None:
            trees.append(base.tree)
    results = validator.run_many(trees)
    return rule_subject(
        rules,
        slug,
        values,
        tree,
        docs,
        compose=results[0],
        view=build_view(tree, project, docs),
        baseline=base,
        baseline_compose=results[1] if len(results) > 1 else None,
        project=project,
    )
