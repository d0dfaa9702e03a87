"""Lints: template constructs that make `wendy init` misbehave, with file and line.

``lint_template`` checks the manifests, the files and every pick's render
(once per typing of each number) and never raises for template problems:
it reports them as :class:`LintWarning` (the codes:
docs/wendy-init-semantics.md, section 7); what the CLI accepts silently is
:mod:`~wendy_llm.render.lints.silent`'s.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence

from wendy_llm.engine import gofuncs
from wendy_llm.errors import DataTypeError, TemplateError, ValuesError, quoted
from wendy_llm.render.files.source import (
    OverrideValue,
    SourceFile,
    TemplateSource,
    render_many_values,
)
from wendy_llm.render.lints.silent import silent_lints
from wendy_llm.render.lints.warning import LintWarning as LintWarning
from wendy_llm.render.lints.warning import line_of, variable_line
from wendy_llm.render.manifest.load import MANIFEST_FILE, PICKER_FILE, Variable
from wendy_llm.render.picks import CANONICAL_APP_ID, Pick
from wendy_llm.render.values import APP_ID, check_rules, template_variables, walk_calls

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer

_KNOWN_TYPES = frozenset({"", "string", "integer", "boolean"})


def _number_text(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


def _variable_lints(template: TemplateSource) -> Iterable[LintWarning]:
    manifest = template.manifest
    seen: set[str] = set()
    for variable in manifest.variables:
        path = variable.json_path
        name = variable.name
        if name in seen:
            yield LintWarning(
                MANIFEST_FILE,
                manifest.line_of(path),
                "duplicate-variable",
                f"variable {name} is declared more than once; wendy init keeps the last one",
            )
        seen.add(name)
        if name == APP_ID:
            continue
        if variable.type not in _KNOWN_TYPES:
            yield LintWarning(
                MANIFEST_FILE,
                manifest.line_of((*path, "type")),
                "unknown-type",
                f"type {quoted(variable.type)} of {name} is not one wendy init converts "
                "(integer, boolean): --var values for it stay strings",
            )
        yield from _rule_lints(template, variable)
        yield from _default_lints(template, variable)


def _rule_lints(template: TemplateSource, variable: Variable) -> Iterable[LintWarning]:
    manifest = template.manifest
    path = (*variable.json_path, "validate")
    rules = variable.validate
    for key in rules.ignored:
        yield LintWarning(
            MANIFEST_FILE,
            manifest.line_of((*path, key)),
            "ignored-rule",
            f"validate.{key} of {variable.name} is ignored by wendy init "
            "(it checks only min/max on integers and pattern on strings)",
        )
    is_int = variable.type == "integer"
    is_string = variable.type not in ("integer", "boolean")
    for key, active in (("min", is_int), ("max", is_int), ("pattern", is_string)):
        if getattr(rules, key) is not None and not active:
            yield LintWarning(
                MANIFEST_FILE,
                manifest.line_of((*path, key)),
                "ignored-rule",
                f"validate.{key} of {variable.name} is ignored by wendy init for a variable "
                f"of type {quoted(variable.type or 'string')}",
            )
    if rules.pattern is not None and is_string:
        try:
            error = gofuncs.regexp_error(rules.pattern)
        except DataTypeError as exc:
            error = str(exc)
        if error is not None:
            yield LintWarning(
                MANIFEST_FILE,
                manifest.line_of((*path, "pattern")),
                "invalid-pattern",
                f"validate.pattern of {variable.name} is not a Go regexp ({error}): "
                "every --var value for it is rejected",
            )


def _default_lints(template: TemplateSource, variable: Variable) -> Iterable[LintWarning]:
    default = variable.default
    if default is None:
        return
    # Lines are looked up only for a warning: finding one walks the whole file.
    line = functools.partial(template.manifest.line_of, (*variable.json_path, "default"))
    name = variable.name
    if isinstance(default, float) and math.isfinite(default):
        shown = gofuncs.format_value(default)
        if "e" in shown:
            yield LintWarning(
                MANIFEST_FILE,
                line(),
                "large-number",
                f"default of {name} ({_number_text(default)}) renders as {shown}: wendy init "
                "decodes JSON numbers as float64; use a string default or a smaller number",
            )
    typed = typed_like_override(variable)
    problem: str | None = None
    if variable.type in ("integer", "boolean") and (typed is None or isinstance(default, str)):
        written = quoted(default) if isinstance(default, str) else gofuncs.format_value(default)
        problem = f"default of {name} ({written}) is not a JSON {variable.type}"
    elif typed is not None and not isinstance(typed, bool):
        try:
            check_rules(variable, typed)
        except ValuesError as exc:
            problem = f"default of {name} breaks its own rule ({exc})"
    if problem is not None:
        yield LintWarning(
            MANIFEST_FILE, line(), "default-invalid", f"{problem}; wendy init never checks defaults"
        )


def typed_like_override(variable: Variable) -> str | int | bool | None:
    """The default as a ``--var`` of the same value would be typed, or None
    when no override can express it (e.g. ``1.5`` for an integer)."""
    default = variable.default
    if default is None:
        return None
    try:
        if variable.type == "integer":
            if isinstance(default, float) and default.is_integer() and abs(default) < 2**63:
                return int(default)
            return gofuncs.atoi(default) if isinstance(default, str) else None
        if variable.type == "boolean":
            if isinstance(default, bool):
                return default
            return gofuncs.parse_bool(default) if isinstance(default, str) else None
        return gofuncs.format_value(default)
    except DataTypeError:
        return None  # a text Go cannot receive: no --var can say it either


_GO_TYPE = {bool: "bool", int: "int", float: "float64", str: "string"}


def _picker_lints(template: TemplateSource) -> Iterable[LintWarning]:
    picker = template.picker
    if picker is None:
        return
    names = {v.name for v in template.manifest.variables} | {APP_ID}
    ids = {q.id for q in picker.questions}
    whens = [(phase.json_path, phase.when) for phase in picker.phases]
    for question in picker.questions:
        whens.append((question.json_path, question.when))
        if question.id in names:
            yield LintWarning(
                PICKER_FILE,
                picker.line_of(question.json_path),
                "shadowed-question",
                f"question {question.id} is never asked: a template.json variable "
                f"{question.id} already holds the value",
            )
        if question.type in ("radio", "checkbox") and question.options and question.default:
            parts = (
                [question.default]
                if question.type == "radio"
                else [p for p in gofuncs.comma_parts(question.default) if p]
            )
            missing = [p for p in parts if p not in question.option_values]
            if missing:
                yield LintWarning(
                    PICKER_FILE,
                    picker.line_of((*question.json_path, "default")),
                    "default-not-option",
                    f"default {quoted(missing[0])} of {question.type} question {question.id} "
                    "is not one of its options",
                )
    for path, when in whens:
        if when is not None and when.question_id not in ids | names:
            yield LintWarning(
                PICKER_FILE,
                picker.line_of((*path, "when")),
                "unknown-question",
                f"when refers to {quoted(when.question_id)}, which is neither a question nor a "
                "variable: it is always false",
            )


def _file_lints(template: TemplateSource) -> Iterable[LintWarning]:
    flags: list[tuple[re.Pattern[bytes], str, str]] = []
    if template.picker is not None:
        for question in template.picker.questions:
            if question.type == "checkbox":
                for option in question.options:
                    key = f"{question.id}_{option.value}"
                    pattern = re.compile(rb"\." + re.escape(key.encode()) + rb"(?![A-Za-z0-9_])")
                    flags.append((pattern, key, question.id))
    for source in template.sources:
        if not source.rendered:
            index = source.data.find(b"{{.")
            if index >= 0:
                yield LintWarning(
                    source.path,
                    line_of(source.data, index),
                    "copied-template",
                    "contains '{{.' but wendy init copies this file unrendered (only some "
                    "extensions and base names are rendered); rename it or drop the "
                    "template syntax",
                )
            continue
        for pattern, key, qid in flags:
            match = pattern.search(source.data)
            if match is not None:
                yield LintWarning(
                    source.path,
                    line_of(source.data, match.start()),
                    "checkbox-flags",
                    f"{key} is set only when {qid} keeps its default: `--var {qid}=...` "
                    f"skips the question, so wendy init leaves {qid}_<value> unset and this "
                    "file fails to render",
                )


def _typing_variants(
    template: TemplateSource, base: Mapping[str, object]
) -> list[tuple[str, object]]:
    """(variable, override-typed value) for every variable whose default is
    typed differently from what a ``--var`` of the same value gives."""
    out: list[tuple[str, object]] = []
    for variable in template_variables(template.manifest):
        default = base.get(variable.name)
        typed = typed_like_override(variable)
        if default is None or typed is None or default != variable.default:
            continue
        if type(typed) is not type(default):
            out.append((variable.name, typed))
    return out


def _typing_message(name: str, default: object, typed: object, default_fails: bool) -> str:
    default_type = _GO_TYPE.get(type(default), type(default).__name__)
    typed_type = _GO_TYPE.get(type(typed), type(typed).__name__)
    if default_fails:
        return (
            f"works only when {name} is set with --var (a Go {typed_type}); with its default "
            f"(a Go {default_type}) it fails"
        )
    return (
        f"works only with {name}'s default (a Go {default_type}); set with --var (a Go "
        f"{typed_type}) it fails"
    )


def _render_lints(
    template: TemplateSource,
    picks: Sequence[Pick],
    renderer: Renderer | None,
    overrides: Mapping[str, OverrideValue],
) -> Iterable[LintWarning]:
    rendered = [s for s in template.sources if s.rendered]
    if not rendered:
        return
    planned: list[LintWarning | tuple[Pick, Mapping[str, object], list[tuple[str, object]]]] = []
    maps: list[Mapping[str, object]] = []
    for pick in picks:
        try:
            base = template.values(CANONICAL_APP_ID, {**overrides, **pick.answers}, strict=False)
        except ValuesError as exc:
            line, whole = variable_line(template.manifest, exc.variable)
            message = f"pick {pick.slug}: {exc.describe()}{whole}"
            planned.append(LintWarning(MANIFEST_FILE, line, "values-error", message))
            continue
        variants = _typing_variants(template, base)
        planned.append((pick, base, variants))
        maps += [base, *({**base, name: value} for name, value in variants)]
    # Every pick and typing in one engine batch: one round trip, not one per pick.
    results = iter(render_many_values(template, maps, renderer=renderer))
    for item in planned:
        if isinstance(item, LintWarning):
            yield item
            continue
        pick, values, variants = item
        first, *others = (next(results) for _ in range(1 + len(variants)))
        yield from _pick_render_lints(pick, values, variants, rendered, first, others)


def _pick_render_lints(
    pick: Pick,
    base: Mapping[str, object],
    variants: list[tuple[str, object]],
    rendered: Sequence[SourceFile],
    results: list[bytes | TemplateError],
    variant_results: list[list[bytes | TemplateError]],
) -> Iterable[LintWarning]:
    """One pick's render lints from its canonical render and one render per typing."""
    for index, source in enumerate(rendered):
        first = results[index]
        if isinstance(first, TemplateError):
            yield LintWarning(
                source.path,
                first.line,
                "render-error",
                f"pick {pick.slug} fails to render: {first.message}",
            )
        elif b"<no value>" in first:
            yield LintWarning(
                source.path,
                None,
                "no-value",
                f"pick {pick.slug} renders '<no value>' (output line "
                f"{line_of(first, first.find(b'<no value>'))}): a key is missing from the "
                "data map (the index builtin does not fail on missing keys)",
            )
        for (name, typed), variant in zip(variants, variant_results, strict=True):
            other = variant[index]
            if isinstance(first, TemplateError) == isinstance(other, TemplateError):
                continue
            error = first if isinstance(first, TemplateError) else other
            assert isinstance(error, TemplateError)
            message = _typing_message(
                name, base[name], typed, default_fails=isinstance(first, TemplateError)
            )
            yield LintWarning(
                source.path, error.line, "number-typing", f"{message}: {error.message}"
            )


def _dedupe(warnings: Iterable[LintWarning]) -> list[LintWarning]:
    """One warning per (file, line, code, message); render lints repeat per
    pick, so the pick name is dropped from the key of identical errors."""
    seen: set[tuple[str, int | None, str, str]] = set()
    out: list[LintWarning] = []
    for warning in warnings:
        message = re.sub(r"^pick \S+ ", "pick ", warning.message)
        key = (warning.file, warning.line, warning.code, message)
        if key not in seen:
            seen.add(key)
            out.append(warning)
    return out


def _go_calls(template: TemplateSource) -> Iterator[bytes]:
    """The Go calls the lints make before the render lints' own value assemblies."""
    yield gofuncs.call_trim_space(CANONICAL_APP_ID)
    for variable in template.manifest.variables:
        default, kind = variable.default, variable.type
        if variable.validate.pattern is not None:
            yield gofuncs.call_regexp_error(variable.validate.pattern)
        if isinstance(default, str) and kind in ("integer", "boolean"):
            yield (gofuncs.call_atoi if kind == "integer" else gofuncs.call_parse_bool)(default)
        elif default is not None and not isinstance(default, str):
            yield gofuncs.call_format(default)
    if template.picker is not None:
        yield from walk_calls(template.picker, {})  # the checkbox defaults' parts


def lint_template(
    template: TemplateSource,
    picks: Sequence[Pick],
    *,
    renderer: Renderer | None = None,
    values: Mapping[str, OverrideValue] | None = None,
) -> list[LintWarning]:
    """Every warning for ``template``, whose picks are ``picks`` (module docstring);
    ``values`` as for ``Template.lint``."""
    gofuncs.prefetch(_go_calls(template))
    found = [*_variable_lints(template), *_picker_lints(template), *silent_lints(template)]
    found += [*_file_lints(template), *_render_lints(template, picks, renderer, values or {})]
    return _dedupe(found)
