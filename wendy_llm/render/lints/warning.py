"""One lint warning: a file, a line, a code and a message (see ``lint.py`` for the codes)."""

from __future__ import annotations

from wendy_llm.record import Record
from wendy_llm.render.manifest.load import MANIFEST_FILE
from wendy_llm.render.manifest.records import Manifest

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final


class LintWarning(Record):
    """One finding.  ``line`` is 1-based, None when it cannot be located.

    A value: a :class:`~wendy_llm.record.Record`, as every value on the
    render path (a dataclass costs the command line more to create than a
    render takes: README, Performance).
    """

    __slots__ = ("code", "file", "line", "message")
    _fields = ("file", "line", "code", "message")

    def __init__(self, file: str, line: int | None, code: str, message: str) -> None:
        self.file: Final = file
        self.line: Final = line
        self.code: Final = code
        self.message: Final = message

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.code}: {self.message}"


def line_of(data: bytes, index: int) -> int:
    """The 1-based line of byte ``index`` in ``data``."""
    return data.count(b"\n", 0, index) + 1


def variable_line(manifest: Manifest, name: str) -> tuple[int, str]:
    """The line of ``template.json`` declaring variable ``name``, and "" ; line 1 and
    words saying it is the file as a whole when it declares none (issue 37)."""
    variable = next((v for v in manifest.variables if v.name == name), None)
    line = None if variable is None else manifest.line_of(variable.json_path)
    return (line, "") if line is not None else (1, f" (line 1: {MANIFEST_FILE} as a whole)")
