"""The data map `wendy init` renders with: its non-interactive value assembly.

``build_values`` assembles ``APP_ID``, the ``template.json`` variables
(overrides converted and validated by the CLI's rules, Go's own functions
answered by the helper), the other overrides and the picker walk, with the
CLI's error texts; strict mode (the default) adds the project-name and
YAML-string rules for the app id and option-only answers. Step by step,
with what is assumed: docs/wendy-init-semantics.md, section 3.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence

from wendy_llm.engine import gofuncs
from wendy_llm.errors import AppIdError, DataTypeError, MissingValueError, ValuesError
from wendy_llm.render.manifest.load import Manifest, Picker, Question, Variable, When
from wendy_llm.render.overrides import check_names, known_names, override_texts

APP_ID = "APP_ID"

_PROJECT_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*")
# PyYAML resolves YAML 1.1; these are what it misses: the YAML 1.1 booleans
# y/n and YAML 1.2 core-schema numbers (1e5, 0o17), which go-yaml (used by
# docker compose) reads as numbers.
_YAML_BOOL = re.compile(r"[yYnN]")
_YAML_NUMBER = re.compile(
    r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+"
)
# PyYAML picks a scalar's implicit type by its first character
# (SafeLoader.yaml_implicit_resolvers): an app id starting with any other
# character is a string without asking PyYAML, which costs more to import
# than a render.
_YAML_TYPED_FIRST = frozenset("!&*+-.0123456789<=FNOTYfnoty~")
_NO_STRICT_HINT = "pass strict=False to render exactly as wendy init would"
_NO_STRICT_CLI_HINT = "pass --no-strict to render exactly as wendy init would"
_SHOWN_CHARS = 64


def shown(text: str) -> str:
    """``text`` quoted by Go's ``strconv.Quote`` for a message; a long one is cut."""
    if len(text) <= _SHOWN_CHARS:
        return gofuncs.quote(text)
    return f"{gofuncs.quote(text[:_SHOWN_CHARS])}... ({len(text)} characters)"


def check_app_id(app_id: str, *, strict: bool = True) -> str:
    """The app id as the CLI uses it (trimmed); raises ``AppIdError``."""
    if not isinstance(app_id, str):
        raise AppIdError(f"invalid app id: expected a string, got {type(app_id).__name__}")
    try:
        trimmed = gofuncs.trim_space(app_id)
    except DataTypeError as exc:
        raise AppIdError(f"invalid app id: {exc}") from None
    if not trimmed:
        raise AppIdError("app id (APP_ID) must not be empty")
    if not strict:
        return trimmed
    if not _PROJECT_NAME.fullmatch(trimmed):
        raise AppIdError(
            f"invalid app id {shown(trimmed)}: use ASCII letters, digits, '.', '_' and '-', "
            "not starting with '-' or '.' (wendy's project-name rule)",
            advice=_NO_STRICT_HINT,
            cli_advice=_NO_STRICT_CLI_HINT,
        )
    kind = _yaml_kind(trimmed)
    if kind is not None:
        raise AppIdError(
            f"app id {shown(trimmed)} reads as {kind} in YAML, so an unquoted {{{{.APP_ID}}}} "
            f"would change the structure of a rendered YAML or JSON file; use an id YAML reads "
            f"as a string (e.g. {trimmed}-app)",
            advice=_NO_STRICT_HINT,
            cli_advice=_NO_STRICT_CLI_HINT,
        )
    return trimmed


@functools.lru_cache(maxsize=1024)
def _yaml_kind(text: str) -> str | None:
    """What YAML reads ``text`` as, when that is not a string."""
    if _YAML_BOOL.fullmatch(text):
        return "a boolean"
    if _YAML_NUMBER.fullmatch(text):
        return "a number"
    if text[:1] not in _YAML_TYPED_FIRST:
        return None
    import yaml  # lazy: only ids that may not be strings (see _YAML_TYPED_FIRST)

    try:
        parsed = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if isinstance(parsed, str):
        return None
    if parsed is None:
        return "null"
    if isinstance(parsed, bool):
        return "a boolean"
    if isinstance(parsed, int | float):
        return "a number"
    return f"a {type(parsed).__name__}"


def _override_calls(variable: Variable, raw: str) -> Iterator[bytes]:
    """The Go calls converting and checking ``raw`` will make (to prefetch)."""
    if variable.type == "integer":
        yield gofuncs.call_atoi(raw)
    elif variable.type == "boolean":
        yield gofuncs.call_parse_bool(raw)
    elif variable.validate.pattern is not None:
        yield gofuncs.call_regexp_error(variable.validate.pattern)
        yield gofuncs.call_match(variable.validate.pattern, raw)


def parse_override(variable: Variable, raw: str) -> str | int | bool:
    """An override converted by the variable's ``type`` (no rule checks)."""
    name = variable.name
    try:
        if variable.type == "integer":
            number = gofuncs.atoi(raw)
            if number is None:
                raise ValuesError(
                    f"invalid value for {name}: expected integer, got {shown(raw)}", variable=name
                )
            return number
        if variable.type == "boolean":
            flag = gofuncs.parse_bool(raw)
            if flag is None:
                raise ValuesError(
                    f"invalid value for {name}: expected boolean, got {shown(raw)}", variable=name
                )
            return flag
    except DataTypeError as exc:
        raise ValuesError(f"invalid value for {name}: {exc}", variable=name) from None
    return raw


def check_rules(variable: Variable, value: str | int | bool) -> None:
    """``validate.min``/``max`` for ints, ``validate.pattern`` for strings."""
    name = variable.name
    rules = variable.validate
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if rules.min is not None and value < rules.min:
            raise ValuesError(f"{name} must be at least {rules.min}", variable=name)
        if rules.max is not None and value > rules.max:
            raise ValuesError(f"{name} must be at most {rules.max}", variable=name)
        return
    if rules.pattern is None:
        return
    try:
        error = gofuncs.regexp_error(rules.pattern)
        if error is not None:
            raise ValuesError(f"invalid validate.pattern for {name}: {error}", variable=name)
        if not gofuncs.match_string(rules.pattern, value):
            raise ValuesError(
                f"invalid value for {name}: {shown(value)} does not match the pattern "
                f"{rules.pattern}",
                variable=name,
            )
    except DataTypeError as exc:
        raise ValuesError(f"invalid value for {name}: {exc}", variable=name) from None


def convert_override(variable: Variable, raw: str) -> str | int | bool:
    """An override converted by the variable's type and validated."""
    value = parse_override(variable, raw)
    check_rules(variable, value)
    return value


def evaluate_when(when: When, values: Mapping[str, object]) -> bool:
    """Whether a phase/question ``when`` holds for the map so far."""
    if when.question_id not in values:
        return False
    answer = gofuncs.format_value(values[when.question_id])
    if when.kind == "contains":
        return when.values[0] in gofuncs.comma_parts(answer)
    return answer in when.values


def walk_calls(
    picker: Picker,
    values: Mapping[str, object],
    answers: Mapping[str, Sequence[str]] | None = None,
) -> Iterator[bytes]:
    """The Go calls a walk of ``picker`` will make (to prefetch), starting from
    ``values``, with ``answers`` the extra answers a question may get."""
    questions = {q.id: q for q in picker.questions}
    for question in picker.questions:
        if question.type == "checkbox":
            yield gofuncs.call_comma_parts(question.default)
    whens = [p.when for p in picker.phases] + [q.when for q in picker.questions]
    for when in whens:
        if when is None:
            continue
        qid = when.question_id
        stored: list[object] = [values[qid]] if qid in values else []
        if qid in questions:
            stored += [questions[qid].default, *questions[qid].option_values]
        stored += (answers or {}).get(qid, ())
        for value in stored:
            if type(value) is not str:
                yield gofuncs.call_format(value)
            elif when.kind == "contains":
                yield gofuncs.call_comma_parts(value)


def _check_options(picker: Picker, overrides: Mapping[str, str], taken: set[str]) -> None:
    """Strict mode: radio/checkbox answers given as --var must be options."""
    valid: dict[str, tuple[str, list[str]]] = {}
    for question in picker.questions:
        if question.type in ("radio", "checkbox") and question.options:
            kind, values = valid.setdefault(question.id, (question.type, []))
            values.extend(v for v in question.option_values if v not in values)
    for key, raw in overrides.items():
        if key in taken or key not in valid:
            continue
        kind, values = valid[key]
        parts = (raw,) if kind == "radio" else gofuncs.comma_parts(raw)
        if kind == "checkbox" and parts == ("",):
            continue  # nothing selected
        bad = [part for part in parts if part not in values]
        if bad:
            raise ValuesError(
                f"invalid value for {key}: {shown(bad[0])} is not an option of {kind} question "
                f"{key} (valid: {', '.join(values)})",
                variable=key,
                advice=_NO_STRICT_HINT,
                cli_advice=_NO_STRICT_CLI_HINT,
            )


def answer_with_default(question: Question, values: dict[str, object]) -> None:
    """Store the picker's own answer to an unanswered question."""
    qid = question.id
    if question.type == "radio":
        if question.default:
            values[qid] = question.default
        elif question.options:
            values[qid] = question.options[0].value
        elif question.required:
            raise _missing_answer(qid)
    elif question.type == "checkbox":
        chosen = set(gofuncs.comma_parts(question.default))
        values[qid] = question.default
        for option in question.options:
            values[f"{qid}_{option.value}"] = option.value in chosen
    elif question.default:
        values[qid] = question.default
    elif question.required:
        raise _missing_answer(qid)
    else:
        values[qid] = ""


def _missing_answer(qid: str) -> ValuesError:
    return ValuesError(
        f"missing answer for picker question {qid}",
        variable=qid,
        advice=f"give it in the overrides ({{{gofuncs.quote(qid)}: ...}})",
        cli_advice=f"pass --var {qid}=VALUE",
    )


def walk_picker(picker: Picker, values: dict[str, object]) -> None:
    """Step 4: answer every reachable, unanswered question with its default."""
    for phase in picker.phases:
        if phase.when is not None and not evaluate_when(phase.when, values):
            continue
        for question in phase.questions:
            if question.when is not None and not evaluate_when(question.when, values):
                continue
            if question.id in values:
                continue
            answer_with_default(question, values)


def template_variables(manifest: Manifest) -> tuple[Variable, ...]:
    """The variables step 2 processes (``APP_ID`` excluded)."""
    return tuple(v for v in manifest.variables if v.name != APP_ID)


def _assembly_calls(
    manifest: Manifest, picker: Picker | None, app_id: str, overrides: Mapping[str, str]
) -> Iterator[bytes]:
    """The Go calls ``build_values`` makes before the picker walk."""
    if isinstance(app_id, str):  # else check_app_id says what is wrong
        yield gofuncs.call_trim_space(app_id)
    for variable in template_variables(manifest):
        if variable.name in overrides:
            yield from _override_calls(variable, overrides[variable.name])
    if picker is not None:
        for question in picker.questions:
            if question.type == "checkbox" and question.id in overrides:
                yield gofuncs.call_comma_parts(overrides[question.id])


def build_values(
    manifest: Manifest,
    picker: Picker | None,
    app_id: str,
    overrides: Mapping[str, object] | None = None,
    *,
    strict: bool = True,
) -> dict[str, object]:
    """The data map for one render (see the module docstring); typed
    overrides and unknown names as :mod:`~wendy_llm.render.overrides` says."""
    overrides = override_texts(manifest, overrides)
    check_names(overrides, known_names(manifest, picker), strict=strict)
    gofuncs.prefetch(_assembly_calls(manifest, picker, app_id, overrides))
    values: dict[str, object] = {APP_ID: check_app_id(app_id, strict=strict)}
    taken: set[str] = set()
    for variable in template_variables(manifest):
        name = variable.name
        taken.add(name)
        if name in overrides:
            values[name] = convert_override(variable, overrides[name])
        elif variable.default is not None:
            values[name] = variable.default
        else:
            raise MissingValueError(
                f"missing value for {name}",
                variable=name,
                advice=f"give it in the overrides ({{{gofuncs.quote(name)}: ...}})",
                cli_advice=f"pass --var {name}=VALUE",
            )
    if strict and picker is not None:
        _check_options(picker, overrides, taken | {APP_ID})
    for key, raw in overrides.items():
        if key not in values:
            values[key] = raw
    if picker is not None:
        gofuncs.prefetch(walk_calls(picker, values))
        walk_picker(picker, values)
    return values
