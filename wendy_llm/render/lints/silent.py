"""Lints for what `wendy init` accepts without a word, though the author may not mean it.

``unknown-question-type``, ``unnamed`` and ``binary-content``
(docs/wendy-init-semantics.md, section 7); :func:`binary_content` is also
what the library uses to decide that a file is not text.
"""

from __future__ import annotations

from collections.abc import Iterable

from wendy_llm.errors import quoted
from wendy_llm.record import Record
from wendy_llm.render.lints.warning import LintWarning, line_of
from wendy_llm.render.manifest.load import MANIFEST_FILE, PICKER_FILE, QUESTION_TYPES

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final

    from wendy_llm.render.files.source import TemplateSource


class BinaryContent(Record):
    """Why a file is not text, and where that first shows (byte offset, 1-based line).

    A value (a :class:`~wendy_llm.record.Record`).
    """

    __slots__ = ("line", "offset", "reason")
    _fields = ("reason", "offset", "line")

    def __init__(self, reason: str, offset: int, line: int) -> None:
        self.reason: Final = reason
        self.offset: Final = offset
        self.line: Final = line


def binary_content(data: bytes) -> BinaryContent | None:
    """The first NUL byte or invalid UTF-8 sequence in ``data`` (None: it is text)."""
    nul = data.find(b"\0")
    try:
        data.decode("utf-8")
        invalid = -1
    except UnicodeDecodeError as exc:
        invalid = exc.start
    found = [(at, why) for at, why in ((nul, "a NUL byte"), (invalid, "invalid UTF-8")) if at >= 0]
    if not found:
        return None
    offset, reason = min(found)
    return BinaryContent(reason, offset, line_of(data, offset))


def silent_lints(template: TemplateSource) -> Iterable[LintWarning]:
    """Every warning of this module for ``template``."""
    yield from _unnamed(template)
    yield from _question_types(template)
    yield from _binary(template)


def _unnamed(template: TemplateSource) -> Iterable[LintWarning]:
    manifest = template.manifest
    for variable in manifest.variables:
        if not variable.name:
            yield LintWarning(
                MANIFEST_FILE,
                manifest.line_of(variable.json_path),
                "unnamed",
                f"variables[{variable.index}] has no name: wendy init stores its value under "
                "the empty name, which no template can read",
            )
    picker = template.picker
    for question in () if picker is None else picker.questions:
        if not question.id:
            yield LintWarning(
                PICKER_FILE,
                picker.line_of(question.json_path) if picker is not None else None,
                "unnamed",
                "a question has no id: wendy init stores its answer under the empty name, "
                "which no template can read",
            )


def _question_types(template: TemplateSource) -> Iterable[LintWarning]:
    picker = template.picker
    if picker is None:
        return
    for question in picker.questions:
        if question.known_type:
            continue
        what = f"type {quoted(question.type)}" if question.type else "no type"
        default = f"its default {quoted(question.default)}" if question.default else '""'
        yield LintWarning(
            PICKER_FILE,
            picker.line_of((*question.json_path, "type")) or picker.line_of(question.json_path),
            "unknown-question-type",
            f"question {question.id} has {what}, which wendy init does not list "
            f"({', '.join(QUESTION_TYPES)}): it is collected as an input (free text; "
            f"unanswered: {default})",
        )


def _binary(template: TemplateSource) -> Iterable[LintWarning]:
    rendered = [(s.path, s.data) for s in template.sources if s.rendered]
    manifests = [
        (p, template.files[p]) for p in (MANIFEST_FILE, PICKER_FILE) if p in template.files
    ]
    for path, data in rendered + manifests:
        found = binary_content(data)
        if found is None:
            continue
        if path in (MANIFEST_FILE, PICKER_FILE):
            effect = "wendy init reads it with U+FFFD in place of the bad bytes"
        else:
            effect = (
                "wendy init still renders it as a Go template because of its name, so it "
                "stays intact only while it holds no '{{'; is it meant to be a template?"
            )
        yield LintWarning(
            path,
            found.line,
            "binary-content",
            f"{found.reason} at byte {found.offset}: {effect}",
        )
