"""Load ``template.json`` (the manifest) and ``template.schema.json`` (the picker)
as the Wendy CLI decodes them.

Go's ``encoding/json`` into the CLI's structs (``manifest_model.py``), through
:mod:`wendy_llm.render.manifest.gojson`: unknown keys ignored, keys matched
case-insensitively, a value of the wrong JSON type the only shape error
(``ManifestError`` with file, line and JSON path). Decoding rules, error
texts and what is assumed: docs/wendy-init-semantics.md, section 2. The
records it builds are :mod:`~wendy_llm.render.manifest.records`' (re-exported
here, where their callers have always found them).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from wendy_llm.bounded import json_loads
from wendy_llm.errors import ManifestError
from wendy_llm.render.manifest.gojson import Decoded, GoJsonSyntaxError, decode_parsed, parse
from wendy_llm.render.manifest.gotypes import Struct
from wendy_llm.render.manifest.jsonpos import JsonPath, LazyPositions, format_json_path
from wendy_llm.render.manifest.model import (
    MANIFEST_MODEL,
    OPTION_MODEL,
    PICKER_MODEL,
    VALIDATE_MODEL,
    WHEN_MODEL,
)
from wendy_llm.render.manifest.records import MANIFEST_FILE as MANIFEST_FILE
from wendy_llm.render.manifest.records import PICKER_FILE as PICKER_FILE
from wendy_llm.render.manifest.records import QUESTION_TYPES as QUESTION_TYPES
from wendy_llm.render.manifest.records import WHEN_KINDS as WHEN_KINDS
from wendy_llm.render.manifest.records import Manifest as Manifest
from wendy_llm.render.manifest.records import Option as Option
from wendy_llm.render.manifest.records import Phase as Phase
from wendy_llm.render.manifest.records import Picker as Picker
from wendy_llm.render.manifest.records import Positions as Positions
from wendy_llm.render.manifest.records import Question as Question
from wendy_llm.render.manifest.records import Validate as Validate
from wendy_llm.render.manifest.records import Variable as Variable
from wendy_llm.render.manifest.records import When as When

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Any


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


def _struct(value: object) -> Mapping[str, Any]:
    """A decoded struct: a dict holding every field (:func:`decode_parsed`)."""
    assert isinstance(value, dict)
    return value


def _items(value: object) -> list[Mapping[str, Any]]:
    """A decoded slice of structs (nil: empty)."""
    items = value or []
    assert isinstance(items, list)
    return items


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
    config = _struct(decoded.value)
    variables: list[Variable] = []
    for index, raw in enumerate(_items(config["variables"])):
        path: JsonPath = ("variables", index, "validate")
        rules: Mapping[str, Any] | None = raw["validate"]
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
    config = _struct(decoded.value)
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
