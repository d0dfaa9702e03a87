"""Which template source line wrote a rendered line: the map a finding is reported through.

A finding names a line of a rendered file; a pull request's reviewer needs
the line of the template that wrote it.  The Go helper renders the file
once more with every node of the parse tree marked (``'m'`` in
``gohelper/sourcemap.go``) and answers, for each byte range of the output,
the node that wrote it: a text node (output byte *k* is source byte
*offset + k*: exact) or an action (its value, written at the action's
position).  The map is asked for only when an output needs it
(annotations, SARIF): a check never pays for it.

:meth:`SourceMap.line` maps one rendered line:

- every byte of it written by text nodes of one source line, or by actions
  on that line: that line, **exact**;
- bytes from several source lines (a line assembled across a trimmed
  action): the line of its first non-blank byte, with a note naming them all;
- bytes that are a later line of an action's value (a value holding a
  newline): the action's line, with a note saying the value spans lines.
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wendy_llm import options
from wendy_llm.engine.wire import KIND_CALL_ERROR, KIND_OK, encode_call, encode_value_call
from wendy_llm.errors import EngineError, OutputTooLarge, TemplateError

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer

_U32 = struct.Struct(">I")
_SPAN = struct.Struct(">IIBI")

TEXT = ord("t")  # a text node: byte-exact
ACTION = ord("a")  # an action's value: at the action's position
MOVED = ord("c")  # a text node whose text is not at its position (never seen: approximate)


@dataclass(frozen=True)
class Span:
    """Output bytes ``start:end`` were written by the node at source byte ``offset``."""

    start: int
    end: int
    kind: int  # TEXT, ACTION or MOVED
    offset: int


@dataclass(frozen=True)
class SourceLine:
    """Where a rendered line comes from in the template source (1-based)."""

    line: int
    exact: bool
    note: str = ""  # when not exact: why, and which line is pointed at


class SourceMap:
    """A rendered file's bytes, each traced to its template source line."""

    def __init__(self, source: bytes, output: bytes, spans: Sequence[Span]) -> None:
        self.source = source
        self.output = output
        self.spans = tuple(spans)
        self._source_lines = _line_starts(source)
        self._output_lines = _line_starts(output)
        self._span_starts = [s.start for s in self.spans]

    @classmethod
    def identity(cls, data: bytes) -> SourceMap:
        """A file copied as it is: rendered line *n* is source line *n*."""
        return cls(data, data, [Span(0, len(data), TEXT, 0)] if data else [])

    def _source_line(self, offset: int) -> int:
        return bisect.bisect_right(self._source_lines, offset)

    def _span_at(self, index: int) -> Span:
        return self.spans[bisect.bisect_right(self._span_starts, index) - 1]

    def _after_action(self, index: int) -> bool:
        """Output byte ``index`` is the first of a text span that follows another node."""
        span = self._span_at(index)
        return span.kind == TEXT and span.start == index and index > 0

    def _picked(self, start: int, end: int, blank: bool) -> list[int]:
        """One byte of each span in output ``start:end`` that judges the line (its
        first non-blank one; any, on a blank line), or the line's newline when it is
        empty.  Every byte of one span on one line has the same source line (a text
        span there holds no newline), so a 40 MB line costs a walk of its spans,
        not of its bytes."""
        if start == end:
            return [min(end, len(self.output) - 1)]
        out: list[int] = []
        at = bisect.bisect_right(self._span_starts, start) - 1
        while at < len(self.spans) and self.spans[at].start < end:
            span = self.spans[at]
            low, high = max(span.start, start), min(span.end, end)
            part = self.output[low:high]
            skipped = 0 if blank else len(part) - len(part.lstrip(b" \t"))
            if low < high and skipped < len(part):
                out.append(low + skipped if not blank else high - 1)
            at += 1
        return out or [min(end, len(self.output) - 1)]

    def line(self, rendered: int) -> SourceLine | None:
        """The source line of rendered line ``rendered`` (None: the output has no such line)."""
        if not 1 <= rendered <= len(self._output_lines) or not self.spans:
            return None
        start = self._output_lines[rendered - 1]
        end = self._output_lines[rendered] if rendered < len(self._output_lines) else None
        end = len(self.output) if end is None else end
        if start >= len(self.output):
            return None
        body = self.output[start:end].rstrip(b"\n")
        # A blank line is judged by its newline; any other by its non-blank bytes.
        picked = self._picked(start, start + len(body), not body.strip())
        lines: dict[int, None] = {}
        spanning: int | None = None
        moved = False
        for index in picked:
            span = self._span_at(index)
            if span.kind == TEXT:
                lines.setdefault(self._source_line(span.offset + index - span.start))
                continue
            at = self._source_line(span.offset)
            lines.setdefault(at)
            moved = moved or span.kind == MOVED
            if span.kind == ACTION and span.start < start:
                spanning = at  # a later line of a value that holds newlines
        first = next(iter(lines))
        if spanning is not None:
            return SourceLine(
                spanning,
                False,
                f"rendered line {rendered} is part of the value of the action at source line "
                f"{spanning}, which spans lines",
            )
        if moved:
            return SourceLine(first, False, f"rendered line {rendered} is near source line {first}")
        if not body.strip() and self._after_action(picked[-1]):
            # Which newlines an action leaves is decided by the trim markers around it.
            return SourceLine(
                first,
                False,
                f"rendered line {rendered} is blank: its newline, at source line {first}, is "
                "the first text after an action, kept or trimmed by the {{- / -}} markers near it",
            )
        if len(lines) > 1:
            shown = ", ".join(str(n) for n in lines)
            return SourceLine(
                first,
                False,
                f"rendered line {rendered} is assembled from source lines {shown}",
            )
        return SourceLine(first, True)


def _line_starts(data: bytes) -> list[int]:
    starts = [0]
    at = data.find(b"\n")
    while at >= 0:
        starts.append(at + 1)
        at = data.find(b"\n", at + 1)
    if starts[-1] == len(data) and len(starts) > 1:
        starts.pop()  # the final newline ends the last line; it starts none
    return starts


def source_map(
    text: bytes,
    data: Mapping[str, object],
    name: str,
    *,
    renderer: Renderer | None = None,
    max_output_bytes: int = options.RENDER_MAX_OUTPUT_BYTES,
) -> SourceMap:
    """Render ``text`` (a template file named ``name``) with ``data`` and map its output.

    Raises :class:`~wendy_llm.errors.TemplateError` when the render fails (as
    the render itself does), :class:`~wendy_llm.errors.EngineError` when the
    helper answers out of protocol.
    """
    call = encode_call(
        b"m", name, text.decode("utf-8", "surrogateescape"), str(max_output_bytes)
    ) + encode_value_call(b"", dict(data))
    if renderer is None:
        # lazy: the engine's process handling costs a command 5 ms to import.
        from wendy_llm.engine.client import shared_renderer

        renderer = shared_renderer()
    ((kind, payload),) = renderer.evaluate([call])
    if kind == KIND_CALL_ERROR:
        raise TemplateError(payload.decode("utf-8", "replace"), name=name)
    if kind != KIND_OK:
        raise EngineError(f"the Go helper answered a source map with record kind {kind}")
    return _decode(text, payload)


def _decode(text: bytes, payload: bytes) -> SourceMap:
    (size,) = _U32.unpack_from(payload, 0)
    output = payload[4 : 4 + size]
    (count,) = _U32.unpack_from(payload, 4 + size)
    if count > options.SOURCE_MAP_MAX_SPANS:
        raise OutputTooLarge(
            f"the source map has {count:,} spans, more than the "
            f"{options.SOURCE_MAP_MAX_SPANS:,} traced (a loop of that many turns)"
        )
    at = 8 + size
    spans = []
    for _ in range(count):
        spans.append(Span(*_SPAN.unpack_from(payload, at)))
        at += _SPAN.size
    if at != len(payload):
        raise EngineError("the Go helper's source map has trailing bytes")
    return SourceMap(text, output, spans)
