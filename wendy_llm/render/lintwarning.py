"""One lint warning: a file, a line, a code and a message (see ``lint.py`` for the codes)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final


class LintWarning:
    """One finding.  ``line`` is 1-based, None when it cannot be located.

    A value (equal and hashing by its fields, immutable); a plain class, as
    every class on the render path: a dataclass costs the command line more
    to create than a render takes (README, Performance).
    """

    __slots__ = ("code", "file", "line", "message")

    def __init__(self, file: str, line: int | None, code: str, message: str) -> None:
        self.file: Final = file
        self.line: Final = line
        self.code: Final = code
        self.message: Final = message

    def _key(self) -> tuple[str, int | None, str, str]:
        return (self.file, self.line, self.code, self.message)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LintWarning):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"LintWarning(file={self.file!r}, line={self.line!r}, code={self.code!r}, "
            f"message={self.message!r})"
        )

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.code}: {self.message}"


def line_of(data: bytes, index: int) -> int:
    """The 1-based line of byte ``index`` in ``data``."""
    return data.count(b"\n", 0, index) + 1
