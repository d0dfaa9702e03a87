"""The helper's answers: records split from its output, and what they mean.

The record format is defined with the rest of the protocol, at the top of
``gohelper/main.go``; :mod:`wendy_llm.engine.wire` writes the requests.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from wendy_llm.engine.wire import KIND_BAD_REQUEST, KIND_PARSE_ERROR, Record
from wendy_llm.errors import EngineError, TemplateError, TemplateExecError, TemplateParseError

_RECORD_HEADER = struct.Struct(">IB")
_BENCH_RESULT = struct.Struct(">QQ")


def error_location(message: str, name: str) -> tuple[int | None, int | None]:
    """Line and column from Go's ``template: NAME:LINE:COL: ...`` (or ``NAME:LINE:``)."""
    rest: str | None = None
    prefix = f"template: {name}:"
    if message.startswith(prefix):
        rest = message[len(prefix) :]
    elif message.startswith("template: "):
        # An error inside a {{define}}d template names that template; its
        # line numbers still count from the top of the same file.
        body = message[len("template: ") :]
        for start in range(len(body)):
            if body[start] == ":" and body[start + 1 : start + 2].isdigit():
                rest = body[start + 1 :]
                break
    if rest is None:
        return None, None
    numbers: list[int] = []
    while len(numbers) < 2:
        digits, sep, tail = rest.partition(":")
        if not sep or not digits.isdigit():
            break
        numbers.append(int(digits))
        rest = tail
    if not numbers:
        return None, None
    return numbers[0], numbers[1] if len(numbers) > 1 else None


def same_output(results: Sequence[bytes | TemplateError], payload: bytes) -> bytes:
    """The output a ``KIND_SAME`` record refers back to among ``results`` (the
    batch's results so far): ``payload`` says how many jobs back it is."""
    back = int.from_bytes(payload, "big") if len(payload) == 4 else 0
    found = results[-back] if 0 < back <= len(results) else None
    if not isinstance(found, bytes):
        raise EngineError(f"the Go helper referred to no earlier output ({payload.hex()})")
    return found


def template_error(kind: int, message: str, name: str) -> TemplateError:
    line, column = error_location(message, name)
    cls = TemplateParseError if kind == KIND_PARSE_ERROR else TemplateExecError
    return cls(message, name=name, line=line, column=column)


def parse_records(buf: bytearray, pos: int, records: list[Record]) -> int:
    """Append the complete records in ``buf[pos:]``; return where the rest starts."""
    size = len(buf)
    if size - pos < 5:
        return pos
    length, _ = _RECORD_HEADER.unpack_from(buf, pos)
    if length and pos + 4 + length > size:
        return pos  # not one whole record yet: nothing copied (a large one comes in pieces)
    # One copy of the complete part, then each payload is a slice of it: a
    # third less time a record than slicing a memoryview and copying that.
    data = bytes(memoryview(buf)[pos:])
    unpack, append = _RECORD_HEADER.unpack_from, records.append
    size, at = len(data), 0
    while size - at >= 5:
        length, kind = unpack(data, at)
        if length == 0:
            raise EngineError("the Go helper sent an empty record")
        end = at + 4 + length
        if end > size:
            break
        append((kind, data[at + 5 : end]))
        at = end
        if kind == KIND_BAD_REQUEST:
            break
    return pos + at


def whole_record(chunk: bytes) -> Record | None:
    """The record ``chunk`` holds when it is exactly one (a single render's
    answer, read at once: no buffer, no parsing loop), else None."""
    if len(chunk) < 5:
        return None
    length, kind = _RECORD_HEADER.unpack_from(chunk)
    return (kind, chunk[5:]) if length and length + 4 == len(chunk) else None


def bench_ns_per_render(payload: bytes) -> float:
    """Nanoseconds per render from a bench record."""
    count, elapsed_ns = _BENCH_RESULT.unpack(payload)
    return float(elapsed_ns) / float(count)
