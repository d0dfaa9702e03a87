"""Load and validate ``template.json`` (the manifest) and ``template.schema.json``
(the picker).

Both files are checked against JSON Schemas shipped in
``wendy_llm/schemas/`` (``template.schema.json`` for the manifest,
``picker.schema.json`` for the picker), written from the CLI's behaviour:
strict about the shapes the CLI relies on, permissive about fields it does
not read (option ``size``/``parameters``/``comments``, phase titles, ...).

Errors (``ManifestError``) read:

- ``template.json:3:17: invalid JSON: Expecting ',' delimiter`` (syntax;
  line and column 1-based);
- ``template.schema.json: phases[0].questions[0].options[3]: 'value' is a
  required property`` (shape; the JSON path of the offending value; when a
  value has several problems, the first one by path is reported).

Decoding follows Go's ``encoding/json`` where the CLI would see a
difference: ``NaN``/``Infinity`` literals and numbers beyond float64 are
errors (Python would accept them), and every number in a variable's
``default`` becomes a float (Go decodes JSON numbers into ``interface{}`` as
``float64``: ``8080`` -> ``8080.0``, ``-0`` -> ``-0.0``).  ``validate.min`` /
``validate.max`` stay Python ints.

Assumptions where the spec is silent (each matches what the CLI's Go
structs most plausibly do):

- ``variables`` is a list (file order matters) and may be absent; a
  variable needs only ``name``; a missing ``type`` is the raw-string type.
- ``"default": null`` means no default.  Defaults are scalars (string,
  number, bool): an array or object default is a shape error.
- ``validate.min``/``max`` are integers (JSON ``1.0`` counts as 1);
  ``pattern`` is a string.  Its Go syntax is only checked when an override
  is validated against it (the CLI compiles it then); ``lint`` reports a
  bad one earlier.
- A picker question needs ``id`` and ``type`` (``radio``, ``checkbox`` or
  ``input``); an option needs a string ``value``; ``default`` is a string.
  A ``when`` holds ``questionId`` and exactly one of ``equals`` (string),
  ``in`` (list of strings) and ``contains`` (string).
- Files must be UTF-8 (Go would replace invalid bytes; a manifest that
  is not UTF-8 is surely a mistake, so it is an error here).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal, cast

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from wendy_llm.bounded import json_loads
from wendy_llm.errors import ManifestError
from wendy_llm.render.jsonpos import JsonPath, format_json_path, value_positions
from wendy_llm.render.schemawords import violation_text

MANIFEST_FILE = "template.json"
PICKER_FILE = "template.schema.json"

Scalar = str | float | bool
QuestionType = Literal["radio", "checkbox", "input"]
WhenKind = Literal["equals", "in", "contains"]


@dataclass(frozen=True)
class Validate:
    """A variable's ``validate`` object.  ``ignored`` lists the keys the CLI
    does not check (e.g. ``enum``), for the linter."""

    min: int | None = None
    max: int | None = None
    pattern: str | None = None
    ignored: tuple[str, ...] = ()


@dataclass(frozen=True)
class Variable:
    """One ``template.json`` variable.  ``default`` is None when absent."""

    name: str
    type: str
    default: Scalar | None
    description: str
    validate: Validate
    index: int

    @property
    def json_path(self) -> JsonPath:
        return ("variables", self.index)


@dataclass(frozen=True)
class Manifest:
    """A loaded ``template.json``.  ``data`` is the decoded document and
    ``positions`` maps JSON paths to (line, column)."""

    variables: tuple[Variable, ...]
    data: Mapping[str, object] = field(repr=False)
    positions: Mapping[JsonPath, tuple[int, int]] = field(repr=False)
    file: str = MANIFEST_FILE

    def line_of(self, path: JsonPath) -> int | None:
        """The line where the value at ``path`` starts, or None."""
        found = self.positions.get(path)
        return None if found is None else found[0]


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    extra: Mapping[str, object] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class When:
    """``{questionId, equals | in | contains}``; ``values`` holds the one
    string of ``equals``/``contains`` or the list of ``in``."""

    question_id: str
    kind: WhenKind
    values: tuple[str, ...]


@dataclass(frozen=True)
class Question:
    id: str
    label: str
    type: QuestionType
    options: tuple[Option, ...]
    default: str
    required: bool
    secret: bool
    when: When | None
    json_path: JsonPath

    @property
    def option_values(self) -> tuple[str, ...]:
        return tuple(option.value for option in self.options)


@dataclass(frozen=True)
class Phase:
    when: When | None
    questions: tuple[Question, ...]
    json_path: JsonPath


@dataclass(frozen=True)
class Picker:
    """A loaded ``template.schema.json``."""

    phases: tuple[Phase, ...]
    data: Mapping[str, object] = field(repr=False)
    positions: Mapping[JsonPath, tuple[int, int]] = field(repr=False)
    file: str = PICKER_FILE

    @property
    def questions(self) -> tuple[Question, ...]:
        """Every question, in walk order."""
        return tuple(q for phase in self.phases for q in phase.questions)

    def line_of(self, path: JsonPath) -> int | None:
        found = self.positions.get(path)
        return None if found is None else found[0]


@cache
def _validator(schema_name: str) -> jsonschema.protocols.Validator:
    text = resources.files("wendy_llm.schemas").joinpath(schema_name).read_text("utf-8")
    schema = json.loads(text)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator: jsonschema.protocols.Validator = cls(schema)
    return validator


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"number {text} is out of the float64 range")
    return value


def _float_int(text: str) -> float:
    value = float(text)  # float("1" + "0" * 400) is inf, not an exception
    if math.isinf(value):
        raise ValueError(f"number {text[:40]} is out of the float64 range")
    return value


def _decode(data: bytes, file: str) -> tuple[Any, Any, Mapping[JsonPath, tuple[int, int]]]:
    """(document, document with every number a float, positions)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ManifestError(f"{file}: not valid UTF-8 (byte {exc.start})", file=file) from None
    try:
        document = json_loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
        floaty = json_loads(
            text,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
            parse_int=_float_int,
        )
    except json.JSONDecodeError as exc:
        raise ManifestError(
            f"{file}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}",
            file=file,
            line=exc.lineno,
            column=exc.colno,
        ) from None
    except ValueError as exc:
        raise ManifestError(f"{file}: invalid JSON: {exc}", file=file) from None
    return document, floaty, value_positions(text)


def _path_key(error: ValidationError) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, p) if isinstance(p, int) else (1, p) for p in error.absolute_path)


def _check_shape(
    document: object, schema_name: str, file: str, positions: Mapping[JsonPath, tuple[int, int]]
) -> None:
    errors = list(_validator(schema_name).iter_errors(cast(Any, document)))
    if not errors:
        return
    first_path = min(_path_key(e) for e in errors)
    error = best_match(e for e in errors if _path_key(e) == first_path)
    assert error is not None
    message = violation_text(error)
    path: JsonPath = tuple(error.absolute_path)
    where = format_json_path(path)
    line, column = positions.get(path, (None, None))
    raise ManifestError(
        f"{file}: {where}: {message}" if where else f"{file}: {message}",
        file=file,
        json_path=where,
        line=line,
        column=column,
    )


def _int_in_range(value: object, file: str, path: JsonPath) -> int | None:
    if value is None:
        return None
    number = int(cast(float, value))
    if not -(2**63) <= number < 2**63:
        raise ManifestError(
            f"{file}: {format_json_path(path)}: {value} does not fit a Go int",
            file=file,
            json_path=format_json_path(path),
        )
    return number


def load_manifest(data: bytes, file: str = MANIFEST_FILE) -> Manifest:
    """Parse and validate ``template.json``."""
    document, floaty, positions = _decode(data, file)
    _check_shape(document, "template.schema.json", file, positions)
    variables: list[Variable] = []
    raw_variables = cast(Sequence[Mapping[str, Any]], document.get("variables") or [])
    float_variables = cast(Sequence[Mapping[str, Any]], floaty.get("variables") or [])
    for index, (raw, floated) in enumerate(zip(raw_variables, float_variables, strict=True)):
        raw_validate = cast(Mapping[str, Any], raw.get("validate") or {})
        path: JsonPath = ("variables", index, "validate")
        validate = Validate(
            min=_int_in_range(raw_validate.get("min"), file, (*path, "min")),
            max=_int_in_range(raw_validate.get("max"), file, (*path, "max")),
            pattern=raw_validate.get("pattern"),
            ignored=tuple(k for k in raw_validate if k not in ("min", "max", "pattern")),
        )
        variables.append(
            Variable(
                name=raw["name"],
                type=raw.get("type", ""),
                default=floated.get("default"),
                description=raw.get("description", ""),
                validate=validate,
                index=index,
            )
        )
    return Manifest(
        variables=tuple(variables),
        data=MappingProxyType(dict(document)),
        positions=MappingProxyType(dict(positions)),
        file=file,
    )


def _when(raw: Mapping[str, Any] | None) -> When | None:
    if raw is None:
        return None
    for kind in ("equals", "in", "contains"):
        if kind in raw:
            value = raw[kind]
            values = tuple(value) if isinstance(value, list) else (value,)
            return When(question_id=raw["questionId"], kind=kind, values=values)
    raise AssertionError("the picker schema guarantees one of equals/in/contains")


def load_picker(data: bytes, file: str = PICKER_FILE) -> Picker:
    """Parse and validate ``template.schema.json``."""
    document, _, positions = _decode(data, file)
    _check_shape(document, "picker.schema.json", file, positions)
    phases: list[Phase] = []
    for p_index, raw_phase in enumerate(document.get("phases") or []):
        questions: list[Question] = []
        for q_index, raw in enumerate(raw_phase.get("questions") or []):
            options = tuple(
                Option(
                    value=o["value"],
                    label=o.get("label", ""),
                    extra=MappingProxyType(
                        {k: v for k, v in o.items() if k not in ("value", "label")}
                    ),
                )
                for o in raw.get("options") or []
            )
            questions.append(
                Question(
                    id=raw["id"],
                    label=raw.get("label", ""),
                    type=raw["type"],
                    options=options,
                    default=raw.get("default", ""),
                    required=bool(raw.get("required", False)),
                    secret=bool(raw.get("secret", False)),
                    when=_when(raw.get("when")),
                    json_path=("phases", p_index, "questions", q_index),
                )
            )
        phases.append(
            Phase(
                when=_when(raw_phase.get("when")),
                questions=tuple(questions),
                json_path=("phases", p_index),
            )
        )
    return Picker(
        phases=tuple(phases),
        data=MappingProxyType(dict(document)),
        positions=MappingProxyType(dict(positions)),
        file=file,
    )
