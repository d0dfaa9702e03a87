"""The Go standard-library functions behind the Wendy CLI's value rules, run in Go.

The CLI converts ``--var`` values with ``strconv.Atoi`` and
``strconv.ParseBool``, compares ``when`` answers as ``fmt``'s ``%v`` prints
them, splits ``contains`` lists and trims the app id with
``strings.TrimSpace``, checks ``validate.pattern`` with ``regexp`` and
quotes with ``strconv.Quote``.  Each function here is answered by that very
Go function inside the helper (``evaluate`` in ``gohelper/calls.go``), so the
rules hold by construction, not by a Python copy.

Answers never change, so they are cached for the process.  ``prefetch``
asks for every uncached call of a list in one round trip: a value assembly
or a pick enumeration prefetches what it will need and then reads the
cache.  A call not prefetched costs a round trip of its own.  Calls go
through :func:`~wendy_llm.engine.client.shared_renderer`'s helper.

A text UTF-8 cannot encode (a lone surrogate other than the
``surrogateescape`` bytes) raises ``DataTypeError``, as it would in data.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

from wendy_llm import options
from wendy_llm.engine.wire import (
    KIND_CALL_ERROR,
    KIND_OK,
    Record,
    encode_call,
    encode_value_call,
)
from wendy_llm.errors import DataTypeError, EngineError

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final

_I64: Final = struct.Struct(">q")
_U32: Final = struct.Struct(">I")

_answers: dict[bytes, Record] = {}

# --- calls (for prefetch) ---------------------------------------------------------


def call_atoi(text: str) -> bytes:
    return encode_call(b"a", text)


def call_parse_bool(text: str) -> bytes:
    return encode_call(b"b", text)


def call_format(value: object) -> bytes:
    return encode_value_call(b"v", value)


def call_quote(text: str) -> bytes:
    return encode_call(b"q", text)


def call_trim_space(text: str) -> bytes:
    return encode_call(b"t", text)


def call_comma_parts(text: str) -> bytes:
    return encode_call(b"s", text)


def call_regexp_error(pattern: str) -> bytes:
    return encode_call(b"c", pattern)


def call_match(pattern: str, text: str) -> bytes:
    return encode_call(b"r", pattern, text)


def call_find_all(pattern: str, text: str) -> bytes:
    return encode_call(b"g", pattern, text)


def prefetch(calls: Iterable[bytes]) -> None:
    """Answer every call not yet cached, in one round trip.

    ``calls`` may stop with ``DataTypeError`` (a text Go cannot receive):
    what came before is still fetched, and the call itself raises later,
    where the caller can name the variable.
    """
    missing: dict[bytes, None] = {}
    try:
        for call in calls:
            if call not in _answers:
                missing[call] = None
    except DataTypeError:
        pass
    if missing:
        _ask(list(missing))


def _ask(calls: list[bytes]) -> list[Record]:
    # lazy: the engine's process handling costs a command 5 ms to import, and
    # listing picks asks Go nothing for most templates.
    from wendy_llm.engine.client import shared_renderer

    records = shared_renderer().evaluate(calls)
    if len(_answers) + len(calls) > options.GO_CALL_CACHE_ENTRIES:
        _answers.clear()  # wholesale: simple, and only costs a round trip
    for call, record in zip(calls, records, strict=True):
        if len(call) <= options.GO_CALL_CACHE_MAX_BYTES:
            _answers[call] = record
    return records


def _answer(call: bytes) -> tuple[bytes, str | None]:
    """The result of ``call``, or None and Go's error text."""
    record = _answers.get(call)
    if record is None:
        (record,) = _ask([call])
    kind, payload = record
    if kind == KIND_OK:
        return payload, None
    if kind == KIND_CALL_ERROR:
        return b"", payload.decode("utf-8", "replace")
    raise EngineError(f"the Go helper answered a call with an unknown record kind {kind}")


def _text(payload: bytes) -> str:
    return payload.decode("utf-8", "surrogateescape")


# --- the functions ------------------------------------------------------------------


def atoi(text: str) -> int | None:
    """``strconv.Atoi`` (64-bit ``int``): the integer, or None where Go errors."""
    result, error = _answer(call_atoi(text))
    return None if error is not None else int(_I64.unpack(result)[0])


def parse_bool(text: str) -> bool | None:
    """``strconv.ParseBool``: the bool, or None where Go errors."""
    result, error = _answer(call_parse_bool(text))
    return None if error is not None else result == b"\x01"


def format_value(value: object) -> str:
    """``fmt.Sprintf("%v", value)``, the value passed as it would be in data.

    ``8080.0`` prints ``8080``, ``1e6`` ``1e+06``, ``None`` ``<nil>``.  A
    ``str`` prints as itself (what ``%v`` does with a Go string), without a
    round trip.
    """
    if type(value) is str:
        return value
    return _text(_answer(call_format(value))[0])


def quote(text: str) -> str:
    """``strconv.Quote`` (what ``%q`` prints): for error messages."""
    return _text(_answer(call_quote(text))[0])


def trim_space(text: str) -> str:
    """``strings.TrimSpace`` (which keeps U+001C..U+001F, unlike ``str.strip``)."""
    return _text(_answer(call_trim_space(text))[0])


def comma_parts(text: str) -> tuple[str, ...]:
    """The CLI's ``contains`` list: ``text`` split on commas, each part trimmed."""
    result, _ = _answer(call_comma_parts(text))
    parts: list[str] = []
    pos = 0
    while pos < len(result):
        (length,) = _U32.unpack_from(result, pos)
        parts.append(_text(result[pos + 4 : pos + 4 + length]))
        pos += 4 + length
    return tuple(parts)


def regexp_error(pattern: str) -> str | None:
    """Go's ``regexp.Compile`` error for ``pattern`` (``error parsing regexp: ...``), or None."""
    return _answer(call_regexp_error(pattern))[1]


def match_string(pattern: str, text: str) -> bool:
    """``regexp.MatchString``: whether ``pattern`` matches anywhere in ``text``.

    A pattern that does not compile matches nothing (check ``regexp_error``
    first to report it).
    """
    result, _ = _answer(call_match(pattern, text))
    return result == b"\x01"


def find_all(pattern: str, text: str) -> list[tuple[int, int, int]]:
    """Every match of ``pattern`` in ``text`` (Go's ``FindAllStringSubmatchIndex``):
    the UTF-8 byte offsets of the match's start and of its first group (the
    whole match when it has none), a group that took no part left out.

    A pattern that does not compile matches nothing (check ``regexp_error``
    first to report it).
    """
    result, _ = _answer(call_find_all(pattern, text))
    triples = struct.iter_unpack(">III", result)
    return [(int(at), int(start), int(end)) for at, start, end in triples]


# --- the compose reader's Go calls (gohelper/compose_calls.go) -------------------------

_U16: Final = struct.Struct(">H")


def call_scan_port(text: str) -> bytes:
    return encode_call(b"p", text)


def call_fields(text: str) -> bytes:
    return encode_call(b"f", text)


def call_join(base: str, path: str) -> bytes:
    return encode_call(b"j", base, path)


def scan_port(text: str) -> int:
    """``var n uint16; fmt.Sscanf(text, "%d", &n)``: the number read, 0 when Sscanf fails
    (no leading number, overflow): how the Wendy CLI reads a compose port."""
    return int(_U16.unpack(_answer(call_scan_port(text))[0])[0])


def _parts(result: bytes) -> tuple[str, ...]:
    parts: list[str] = []
    pos = 0
    while pos < len(result):
        (length,) = _U32.unpack_from(result, pos)
        parts.append(_text(result[pos + 4 : pos + 4 + length]))
        pos += 4 + length
    return tuple(parts)


def fields(text: str) -> tuple[str, ...]:
    """``strings.Fields``: ``text`` split around runs of Unicode white space."""
    return _parts(_answer(call_fields(text))[0])


def join_path(base: str, path: str) -> str:
    """``filepath.Join(base, path)`` (on Linux): joined and cleaned, an absolute ``path``
    included (``/srv/app`` under ``p`` is ``p/srv/app``)."""
    return _text(_answer(call_join(base, path))[0])
