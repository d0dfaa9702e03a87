"""One lint warning: a file, a line, a code and a message (see ``lint.py`` for the codes)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LintWarning:
    """One finding.  ``line`` is 1-based, None when it cannot be located."""

    file: str
    line: int | None
    code: str
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.code}: {self.message}"


def line_of(data: bytes, index: int) -> int:
    """The 1-based line of byte ``index`` in ``data``."""
    return data.count(b"\n", 0, index) + 1
