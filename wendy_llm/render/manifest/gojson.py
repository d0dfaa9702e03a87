"""Go's ``encoding/json``: what a Go program sees when it decodes a JSON file into a struct.

The Wendy CLI reads ``wendy.json``, ``meta.json``, ``template.json`` and
``template.schema.json`` with ``json.Unmarshal`` into structs.  A Go type is
described as data (:mod:`wendy_llm.render.manifest.gotypes`) and :func:`decode`
reproduces what ``Unmarshal`` does with it:

- a key that names no field is ignored (recorded in ``ignored``, never an
  error); a key matches a field exactly, else case-insensitively;
- a value of the wrong JSON kind for its field (a string for an ``int``,
  an object for a ``string``) is a decode error; so is a number that is not
  an ``int`` (``8080.5``, ``1e3``, ``8080.0``) for an ``int`` field, one
  outside 0..65535 for a ``uint16`` (a port), or that overflows
  (``1e400``) a ``float64``; Go keeps decoding the rest and reports the
  first, :func:`decode` reports each;
- ``null`` leaves a string, number, bool or struct field as it was (zero)
  and makes a pointer, slice, map or ``interface{}`` nil (None);
- repeated keys: the last wins; an object decoded into a struct that
  already holds values (a repeated key) merges into it, as Go does;
- numbers decoded into ``interface{}`` are ``float64`` (Python ``float``).

Values come back as Python data: a struct is a ``dict`` holding every field
(zero when absent: ``""``, ``0``, ``0.0``, ``False``, None for nil), a
slice a ``list``, a map a ``dict``.  Syntax errors raise
:class:`GoJsonSyntaxError` (``NaN``/``Infinity``, which Python would accept,
included).  Paths are :data:`~wendy_llm.render.jsonpos.JsonPath` tuples of
the keys as written in the file.

The decode's records are :class:`~wendy_llm.record.Record` s, as the Go types of
:mod:`~wendy_llm.render.manifest.gotypes` are (README, Performance).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence

from wendy_llm.bounded import json_loads
from wendy_llm.record import Record
from wendy_llm.render.manifest.gotypes import (
    ANY,
    BOOL,
    FLOAT,
    INT,
    STRING,
    UINT16,
    GoType,
    Map,
    Pointer,
    Scalar,
    Slice,
    Struct,
    go_type_name,
    zero,
)
from wendy_llm.render.manifest.jsonpos import JsonPath, format_json_path

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final

_GO_INT = re.compile(r"-?[0-9]+")
_INT_RANGE = (-(2**63), 2**63)
_GO_UINT = re.compile(r"[0-9]+")  # strconv.ParseUint: no sign at all


class GoJsonSyntaxError(ValueError):
    """Text Go's ``json.Unmarshal`` rejects before decoding anything."""

    def __init__(self, message: str, line: int | None, column: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class DecodeError(Record):
    """A value Go cannot store in its field (``json: cannot unmarshal ...``)."""

    __slots__ = ("message", "path")
    _fields = ("path", "message")

    def __init__(self, path: JsonPath, message: str) -> None:
        self.path: Final = path
        self.message: Final = message

    def __str__(self) -> str:
        where = format_json_path(self.path)
        return f"{where}: {self.message}" if where else self.message


class Decoded:
    """The decoded value, the decode errors, and what was read past."""

    __slots__ = ("errors", "ignored", "keys", "raw_paths", "repeated", "value")

    def __init__(self, value: object) -> None:
        self.value = value
        self.errors: list[DecodeError] = []
        #: (path of the object, key) for every key that names no struct field.
        self.ignored: list[tuple[JsonPath, str]] = []
        #: (path of the object, key) for every field or map key set a second time.
        self.repeated: list[tuple[JsonPath, str]] = []
        #: The keys of every JSON object decoded into a struct, as written, by path.
        self.keys: dict[JsonPath, tuple[str, ...]] = {}
        #: Where each decoded value is in the file: its path with the keys as
        #: written (``"AppID"`` sets field ``appId``), for line numbers.
        self.raw_paths: dict[JsonPath, JsonPath] = {}

    def raw_path(self, path: JsonPath) -> JsonPath:
        """``path`` (field names) as written in the file (its longest decoded prefix)."""
        for end in range(len(path), -1, -1):
            found = self.raw_paths.get(path[:end])
            if found is not None:
                return (*found, *path[end:])
        return path


class _Number(str):
    """A JSON number, kept as its literal text (Go parses it per target type)."""


class _Object(tuple[tuple[str, object], ...]):
    """A JSON object's (key, value) pairs in file order, repeats kept."""


def _reject_constant(name: str) -> object:
    raise ValueError(f"invalid character {name[0]!r} looking for beginning of value")


def parse(text: str | bytes) -> object:
    """JSON text as Go's decoder accepts it, numbers and repeated keys kept.

    Invalid UTF-8 inside strings becomes U+FFFD, as in Go; outside strings
    it is a syntax error there as here.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    try:
        return json_loads(
            text,
            object_pairs_hook=_Object,
            parse_int=_Number,
            parse_float=_Number,
            parse_constant=_reject_constant,
        )
    except json.JSONDecodeError as exc:
        raise GoJsonSyntaxError(exc.msg, exc.lineno, exc.colno) from None
    except ValueError as exc:
        raise GoJsonSyntaxError(str(exc), None, None) from None


def decode(go_type: GoType, text: str | bytes) -> Decoded:
    """``json.Unmarshal(text, &v)`` for a ``v`` of ``go_type`` (raises GoJsonSyntaxError)."""
    return decode_parsed(go_type, parse(text))


def decode_parsed(go_type: GoType, raw: object) -> Decoded:
    """:func:`decode` for a value :func:`parse` returned."""
    out = Decoded(None)
    out.value = _Decoder(out).value(go_type, raw, zero(go_type), _Where((), ()))
    return out


def _kind(raw: object) -> str:
    if isinstance(raw, _Object):
        return "object"
    if isinstance(raw, list):
        return "array"
    if isinstance(raw, bool):
        return "bool"
    if isinstance(raw, _Number):
        return "number"
    return "string"


class _Where:
    """A value's path by field names (what rules name) and as written (for lines)."""

    __slots__ = ("path", "raw")

    def __init__(self, path: JsonPath, raw: JsonPath) -> None:
        self.path: Final = path
        self.raw: Final = raw

    def child(self, name: str | int, raw: str | int) -> _Where:
        return _Where((*self.path, name), (*self.raw, raw))


class _Decoder:
    """One decode's walk; its errors and notes go to ``out``."""

    def __init__(self, out: Decoded) -> None:
        self.out = out

    def mismatch(self, what: str, go_type: GoType, where: _Where) -> None:
        message = f"json: cannot unmarshal {what} into Go value of type {go_type_name(go_type)}"
        self.out.errors.append(DecodeError(where.path, message))

    def value(self, go_type: GoType, raw: object, current: object, where: _Where) -> object:
        self.out.raw_paths[where.path] = where.raw
        if raw is None:
            # null: nil for pointers, slices, maps and interfaces; a no-op otherwise.
            return current if isinstance(go_type, Scalar | Struct) and go_type != ANY else None
        if isinstance(go_type, Pointer):
            inner = zero(go_type.elem) if current is None else current
            return self.value(go_type.elem, raw, inner, where)
        if isinstance(go_type, Scalar):
            return self.scalar(go_type, raw, current, where)
        if isinstance(go_type, Struct):
            return self.struct(go_type, raw, current, where)
        if isinstance(go_type, Slice):
            return self.slice(go_type, raw, current, where)
        return self.map(go_type, raw, current, where)

    def scalar(self, go_type: Scalar, raw: object, current: object, where: _Where) -> object:
        if go_type == ANY:
            return self.any(raw, where)
        kind = _kind(raw)
        if go_type == STRING and kind == "string":
            return raw
        if go_type == BOOL and kind == "bool":
            return raw
        if go_type in (INT, UINT16, FLOAT) and isinstance(raw, _Number):
            number = _go_number(raw, go_type)
            if number is None:
                self.mismatch(f"number {raw}", go_type, where)
                return current
            return number
        self.mismatch(kind, go_type, where)
        return current

    def any(self, raw: object, where: _Where) -> object:
        if isinstance(raw, _Object):
            return {key: self.any(item, where.child(key, key)) for key, item in raw}
        if isinstance(raw, list):
            return [self.any(item, where.child(i, i)) for i, item in enumerate(raw)]
        if isinstance(raw, _Number):
            number = _go_number(raw, FLOAT)
            if number is None:
                self.mismatch(f"number {raw}", FLOAT, where)
            return number
        return raw

    def struct(self, go_type: Struct, raw: object, current: object, where: _Where) -> object:
        if not isinstance(raw, _Object):
            self.mismatch(_kind(raw), go_type, where)
            return current
        fields = dict(current) if isinstance(current, Mapping) else zero(go_type)
        assert isinstance(fields, dict)
        self.out.keys[where.path] = tuple(key for key, _ in raw)
        seen: set[str] = set()
        for key, item in raw:
            target = go_type.field_for(key)
            if target is None:
                self.out.ignored.append((where.path, key))
                continue
            name = target.name
            if name in seen:
                self.out.repeated.append((where.path, key))
            seen.add(name)
            fields[name] = self.value(target.type, item, fields[name], where.child(name, key))
        return fields

    def slice(self, go_type: Slice, raw: object, current: object, where: _Where) -> object:
        if not isinstance(raw, list):
            self.mismatch(_kind(raw), go_type, where)
            return current
        # Go decodes element i into the slice's existing element i (a repeated
        # key merges), then cuts the slice to the array's length.
        old = list(current) if isinstance(current, Sequence) else []
        return [
            self.value(
                go_type.elem,
                item,
                old[i] if i < len(old) else zero(go_type.elem),
                where.child(i, i),
            )
            for i, item in enumerate(raw)
        ]

    def map(self, go_type: Map, raw: object, current: object, where: _Where) -> object:
        if not isinstance(raw, _Object):
            self.mismatch(_kind(raw), go_type, where)
            return current
        entries = dict(current) if isinstance(current, Mapping) else {}
        seen: set[str] = set()
        for key, item in raw:
            if key in seen:
                self.out.repeated.append((where.path, key))
            seen.add(key)
            # Each entry is decoded into a fresh element: a repeated key replaces.
            entries[key] = self.value(go_type.elem, item, zero(go_type.elem), where.child(key, key))
        return entries


def _go_number(text: str, go_type: Scalar) -> int | float | None:
    """The number as Go parses it for ``int`` (``strconv.ParseInt``), ``uint16``
    (``strconv.ParseUint`` then the overflow check: ``-1`` and ``70000`` fail) or ``float64``."""
    if go_type == UINT16:
        return int(text) if _GO_UINT.fullmatch(text) and int(text) < 2**16 else None
    if go_type == INT:
        if not _GO_INT.fullmatch(text):
            return None
        number = int(text)
        return number if _INT_RANGE[0] <= number < _INT_RANGE[1] else None
    value = float(text)
    return None if math.isinf(value) else value
