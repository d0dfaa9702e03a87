"""Immutable values written as plain classes: equal, hashed and shown by their fields.

What ``@dataclass(frozen=True)`` gives, without its cost: the command line
creates these classes at every start, and a dataclass imports ``inspect``
and compiles its methods when created (README, Performance).  A subclass
declares its ``__slots__``, assigns its fields once in ``__init__`` and
names in ``_fields`` those that make the value (equality, hash, repr);
``_shown`` narrows the repr of a record that holds a whole document.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import ClassVar


class Record:
    __slots__ = ()

    #: The fields that make the value, in the order the repr shows them.
    _fields: ClassVar[tuple[str, ...]] = ()
    #: The fields the repr shows, when not all of them (None: all).
    _shown: ClassVar[tuple[str, ...] | None] = None

    def _key(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        # Equal only to a record of the same class, as a dataclass is.
        if not isinstance(other, Record) or type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = self._fields if self._shown is None else self._shown
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{type(self).__name__}({fields})"
