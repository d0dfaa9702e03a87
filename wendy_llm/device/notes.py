"""What the view builder reads (parsed documents) and what it collects (findings, ignored).

:class:`Document` is any parsed YAML/JSON document that can locate a key
path (``validate.documents.Parsed`` is one), so the device view reuses what
``check`` has already parsed.  :class:`Notes` collects findings and ignored
items, located by key path in one document or by an explicit file and line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from wendy_llm.codes import CodeInfo
from wendy_llm.device.model import DeviceFinding, Ignored, Severity


class Document(Protocol):
    """A parsed document: its path in the render, its data (``ok``: it parsed), a key's line."""

    @property
    def path(self) -> str: ...

    @property
    def data(self) -> object: ...

    @property
    def ok(self) -> bool: ...

    def line(self, *path: str | int) -> int | None: ...


def dotted(path: Sequence[str | int]) -> str:
    """``("services", "vllm", "ports", 0)`` -> ``services.vllm.ports[0]``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


class Notes:
    """Findings and ignored items of one view, in the order they were found."""

    def __init__(self) -> None:
        self.findings: list[DeviceFinding] = []
        self.ignored: list[Ignored] = []
        self.not_modelled: list[str] = []

    @staticmethod
    def _finding(
        severity: Severity,
        code: CodeInfo,
        message: str,
        file: str | None,
        line: int | None,
        subject: str,
    ) -> DeviceFinding:
        """A finding of ``code``, which must be of ``severity``."""
        return DeviceFinding(
            severity, message, file, line, code.as_severity(severity).code, subject
        )

    def _add(self, finding: DeviceFinding) -> None:
        if finding.file is not None and finding.line is None:
            # About the file as a whole: at its line 1, saying so (issue 37), so that
            # every finding that names a file names a line of it.
            message = f"{finding.message} (line 1: {finding.file} as a whole)"
            finding = dataclasses.replace(finding, message=message, line=1)
        # Two services built from one Dockerfile would report its lines twice.
        if finding not in self.findings:
            self.findings.append(finding)

    def error(
        self,
        code: CodeInfo,
        message: str,
        file: str | None = None,
        line: int | None = None,
        *,
        subject: str = "",
    ) -> None:
        self._add(
            DeviceFinding("error", message, file, line, code.as_severity("error").code, subject)
        )

    def warn(
        self,
        code: CodeInfo,
        message: str,
        file: str | None = None,
        line: int | None = None,
        *,
        subject: str = "",
    ) -> None:
        self._add(
            DeviceFinding("warning", message, file, line, code.as_severity("warning").code, subject)
        )

    def ignore(
        self,
        code: CodeInfo,
        what: str,
        reason: str,
        file: str | None = None,
        line: int | None = None,
        *,
        warn: bool = True,
    ) -> None:
        """Record something the device never gets; a warning (``code``) too unless
        ``warn`` is off."""
        self.ignored.append(Ignored(what, reason, file, line))
        if warn:
            self.warn(code, f"{what}: {reason}", file, line, subject=what)

    def unknown(self, what: str) -> None:
        if what not in self.not_modelled:
            self.not_modelled.append(what)


class Located:
    """Notes about one document, located by key path."""

    def __init__(self, notes: Notes, document: Document) -> None:
        self.notes = notes
        self.document = document

    @property
    def file(self) -> str:
        return self.document.path

    def line(self, *path: str | int) -> int | None:
        return self.document.line(*path)

    def error(self, code: CodeInfo, message: str, *path: str | int) -> None:
        self.notes.error(code, message, self.file, self.line(*path), subject=dotted(path))

    def warn(self, code: CodeInfo, message: str, *path: str | int) -> None:
        self.notes.warn(code, message, self.file, self.line(*path), subject=dotted(path))

    def ignore(self, code: CodeInfo, reason: str, *path: str | int, warn: bool = True) -> None:
        self.notes.ignore(code, dotted(path), reason, self.file, self.line(*path), warn=warn)
