"""Load ``template.json`` (the manifest) and ``template.schema.json`` (the picker)
as the Wendy CLI decodes them.

Go's ``encoding/json`` into the CLI's structs (``manifest_model.py``), through
:mod:`wendy_llm.render.gojson`: unknown keys ignored, keys matched
case-insensitively, a value of the wrong JSON type the only shape error
(``ManifestError`` with file, line and JSON path). Decoding rules, error
texts and what is assumed: docs/wendy-init-semantics.md, section 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal, cast

from wendy_llm.bounded import json_loads
from wendy_llm.errors import ManifestError
from wendy_llm.render.gojson import Decoded, GoJsonSyntaxError, Struct, decode_parsed, parse
from wendy_llm.render.jsonpos import JsonPath, LazyPositions, format_json_path
from wendy_llm.render.manifest_model import (
    MANIFEST_MODEL,
    OPTION_MODEL,
    PICKER_MODEL,
    VALIDATE_MODEL,
    WHEN_MODEL,
)

MANIFEST_FILE = "template.json"
PICKER_FILE = "template.schema.json"

Scalar = str | float | bool
#: A variable's default: any JSON value, numbers as float64 (an ``interface{}``).
Default = Scalar | list[object] | dict[str, object]
#: The question types the CLI lists; any other is collected as an input.
QuestionType = Literal["radio", "checkbox", "input"]
QUESTION_TYPES: Final[tuple[QuestionType, ...]] = ("radio", "checkbox", "input")
WhenKind = Literal["equals", "in", "contains"]
WHEN_KINDS: Final[tuple[WhenKind, ...]] = ("equals", "in", "contains")


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
    default: Default | None
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
    """One picker question.  ``type`` is as written; see :attr:`kind`."""

    id: str
    label: str
    type: str
    options: tuple[Option, ...]
    default: str
    required: bool
    secret: bool
    when: When | None
    json_path: JsonPath

    @property
    def kind(self) -> QuestionType:
        """How the CLI collects the answer: a type it does not list is an input."""
        if self.type == "radio":
            return "radio"
        return "checkbox" if self.type == "checkbox" else "input"

    @property
    def known_type(self) -> bool:
        return self.type in QUESTION_TYPES

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


Positions = Mapping[JsonPath, tuple[int, int]]


def _load(data: bytes, file: str, model: Struct) -> tuple[dict[str, Any], Decoded, Positions]:
    """(the document as Python reads it, Go's decode, value positions); raises on errors."""
    text = data.decode("utf-8", errors="replace")  # as Go: U+FFFD inside strings
    try:
        raw = parse(text)
    except GoJsonSyntaxError as exc:
        where = file if exc.line is None else f"{file}:{exc.line}:{exc.column}"
        raise ManifestError(
            f"{where}: invalid JSON: {exc.message}", file=file, line=exc.line, column=exc.column
        ) from None
    decoded = decode_parsed(model, raw)
    positions = LazyPositions(text)
    if decoded.errors:
        # Go reports the first decode error; errors are in document order.
        first = decoded.errors[0]
        _raise_at(str(first), file, first.path, decoded, positions)
    document = json_loads(text)
    return (document if isinstance(document, dict) else {}), decoded, positions


def _raise_at(
    message: str, file: str, path: JsonPath, decoded: Decoded, positions: Positions
) -> None:
    line, column = positions.get(decoded.raw_path(path), (None, None))
    raise ManifestError(
        f"{file}: {message}",
        file=file,
        json_path=format_json_path(path),
        line=line,
        column=column,
    )


def _int_rule(
    value: object, file: str, path: JsonPath, decoded: Decoded, positions: Positions
) -> int | None:
    if not isinstance(value, float):
        return None
    where = format_json_path(path)
    if not value.is_integer():
        _raise_at(f"{where}: {value} is not an integer", file, path, decoded, positions)
    number = int(value)
    if not -(2**63) <= number < 2**63:
        _raise_at(f"{where}: {number} does not fit a Go int", file, path, decoded, positions)
    return number


def _items(value: object) -> list[Mapping[str, Any]]:
    """A decoded slice of structs (nil: empty)."""
    return cast(list[Mapping[str, Any]], value or [])


def _raw_at(document: object, path: JsonPath) -> object:
    for key in path:
        if isinstance(key, int) and isinstance(document, list) and key < len(document):
            document = document[key]
        elif isinstance(key, str) and isinstance(document, dict):
            document = document.get(key)
        else:
            return None
    return document


def load_manifest(data: bytes, file: str = MANIFEST_FILE) -> Manifest:
    """Decode ``template.json`` as the CLI does (raises ManifestError on its errors)."""
    document, decoded, positions = _load(data, file, MANIFEST_MODEL)
    config = cast(Mapping[str, Any], decoded.value)
    variables: list[Variable] = []
    for index, raw in enumerate(_items(config["variables"])):
        path: JsonPath = ("variables", index, "validate")
        rules = cast(Mapping[str, Any] | None, raw["validate"])
        validate = Validate()
        if rules is not None:
            validate = Validate(
                min=_int_rule(rules["min"], file, (*path, "min"), decoded, positions),
                max=_int_rule(rules["max"], file, (*path, "max"), decoded, positions),
                pattern=rules["pattern"] or None,
                ignored=tuple(
                    k for k in decoded.keys.get(path, ()) if VALIDATE_MODEL.field_for(k) is None
                ),
            )
        variables.append(
            Variable(
                name=raw["name"],
                type=raw["type"],
                default=raw["default"],
                description=raw["description"] if isinstance(raw["description"], str) else "",
                validate=validate,
                index=index,
            )
        )
    return Manifest(
        variables=tuple(variables),
        data=MappingProxyType(document),
        positions=positions,  # read-only, walked on first use
        file=file,
    )


def _when(
    raw: Mapping[str, Any] | None, path: JsonPath, file: str, decoded: Decoded, positions: Positions
) -> When | None:
    if raw is None:
        return None
    given = [
        found.name
        for key in decoded.keys.get(path, ())
        if (found := WHEN_MODEL.field_for(key)) is not None and found.name in WHEN_KINDS
    ]
    kinds = [kind for kind in WHEN_KINDS if kind in given]
    if len(kinds) != 1:
        message = f"{format_json_path(path)}: needs exactly one of equals, in and contains"
        _raise_at(message, file, path, decoded, positions)
    kind = kinds[0]
    values = tuple(raw["in"] or ()) if kind == "in" else (raw[kind],)
    return When(question_id=raw["questionId"], kind=kind, values=values)


def load_picker(data: bytes, file: str = PICKER_FILE) -> Picker:
    """Decode ``template.schema.json`` as the CLI does (raises ManifestError on its errors)."""
    document, decoded, positions = _load(data, file, PICKER_MODEL)
    config = cast(Mapping[str, Any], decoded.value)
    phases: list[Phase] = []
    for p_index, raw_phase in enumerate(_items(config["phases"])):
        p_path: JsonPath = ("phases", p_index)
        questions: list[Question] = []
        for q_index, raw in enumerate(_items(raw_phase["questions"])):
            q_path: JsonPath = (*p_path, "questions", q_index)
            options = []
            for o_index, option in enumerate(_items(raw["options"])):
                written = _raw_at(document, decoded.raw_path((*q_path, "options", o_index)))
                extra = {
                    k: v
                    for k, v in (written.items() if isinstance(written, dict) else ())
                    if OPTION_MODEL.field_for(k) is None
                }
                options.append(
                    Option(
                        value=option["value"], label=option["label"], extra=MappingProxyType(extra)
                    )
                )
            questions.append(
                Question(
                    id=raw["id"],
                    label=raw["label"],
                    type=raw["type"],
                    options=tuple(options),
                    default=raw["default"],
                    required=raw["required"],
                    secret=raw["secret"],
                    when=_when(raw["when"], (*q_path, "when"), file, decoded, positions),
                    json_path=decoded.raw_path(q_path),
                )
            )
        phases.append(
            Phase(
                when=_when(raw_phase["when"], (*p_path, "when"), file, decoded, positions),
                questions=tuple(questions),
                json_path=decoded.raw_path(p_path),
            )
        )
    return Picker(
        phases=tuple(phases),
        data=MappingProxyType(document),
        positions=positions,  # read-only, walked on first use
        file=file,
    )
