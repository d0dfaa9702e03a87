"""Go types as data: what :mod:`wendy_llm.render.manifest.gojson` decodes JSON into.

:class:`Struct` (built with :func:`struct` from ``json-name=type`` pairs),
:class:`Slice`, :class:`Map`, :class:`Pointer` and the scalars
(``STRING``, ``INT``, ``FLOAT``, ``BOOL``, ``ANY``), their names as Go's
errors print them and their zero values.  They are values (equal and
hashing by their parts): :class:`~wendy_llm.record.Record` s, not
dataclasses, which cost more to create than a render (README, Performance).
"""

from __future__ import annotations

from wendy_llm.record import Record

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final


class Scalar(Record):
    """``string``, ``int``, ``uint16``, ``float64``, ``bool`` or ``interface{}`` (``any``)."""

    __slots__ = ("name",)
    _fields = ("name",)

    def __init__(self, name: str) -> None:
        self.name: Final = name


STRING = Scalar("string")
INT = Scalar("int")
#: An unsigned 16-bit integer (a port): a number 0..65535 (``strconv.ParseUint``).
UINT16 = Scalar("uint16")
FLOAT = Scalar("float64")
BOOL = Scalar("bool")
ANY = Scalar("interface {}")


class Field(Record):
    """A struct field: its JSON name (the tag) and its type."""

    __slots__ = ("name", "type")
    _fields = ("name", "type")

    def __init__(self, name: str, type: GoType) -> None:
        self.name: Final = name
        self.type: Final = type


class Struct(Record):
    __slots__ = ("fields", "name")
    _fields = ("name", "fields")

    def __init__(self, name: str, fields: tuple[Field, ...]) -> None:
        self.name: Final = name
        self.fields: Final = fields

    def field_for(self, key: str) -> Field | None:
        """The field a JSON key sets: exact name first, else case-insensitive (Go's rule)."""
        for candidate in self.fields:
            if candidate.name == key:
                return candidate
        folded = _fold(key)
        return next((f for f in self.fields if _fold(f.name) == folded), None)


def struct(go_name: str, /, **fields: GoType) -> Struct:
    """A struct type from ``json-name=type`` pairs, in field order."""
    return Struct(go_name, tuple(Field(key, value) for key, value in fields.items()))


class _Composite(Record):
    """A type built on one element type (``[]elem``, ``map[string]elem``, ``*elem``):
    equal when of the same kind and element."""

    __slots__ = ("elem",)
    _fields = ("elem",)

    def __init__(self, elem: GoType) -> None:
        self.elem: Final = elem


class Slice(_Composite):
    __slots__ = ()


class Map(_Composite):
    """``map[string]elem``."""

    __slots__ = ()


class Pointer(_Composite):
    __slots__ = ()


GoType = Scalar | Struct | Slice | Map | Pointer


def go_type_name(go_type: GoType) -> str:
    """The type as Go's error messages print it (``int``, ``[]string``, ``*Readiness``)."""
    if isinstance(go_type, Scalar | Struct):
        return go_type.name
    if isinstance(go_type, Slice):
        return "[]" + go_type_name(go_type.elem)
    if isinstance(go_type, Map):
        return "map[string]" + go_type_name(go_type.elem)
    return "*" + go_type_name(go_type.elem)


def _fold(name: str) -> str:
    if name.isascii():  # every key of a real manifest: one call, not one per letter
        return name.lower()
    # Go folds with Unicode simple folding; the long s and the Kelvin sign
    # are the non-ASCII letters that fold onto ASCII field names.
    return "".join("s" if ch == "\u017f" else ch.lower() for ch in name)


def zero(go_type: GoType) -> object:
    """Go's zero value of ``go_type``, as decoded values are held."""
    if isinstance(go_type, Scalar):
        return {"string": "", "int": 0, "uint16": 0, "float64": 0.0, "bool": False}.get(
            go_type.name
        )
    if isinstance(go_type, Struct):
        return {f.name: zero(f.type) for f in go_type.fields}
    return None
