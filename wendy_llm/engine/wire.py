"""The bytes between Python and the Go helper: requests.

The frame format is defined once, in the comment at the top of
``gohelper/main.go``; this module writes requests (``encode_request`` for
renders, ``encode_call`` and ``encode_calls`` for Go function calls);
:mod:`wendy_llm.engine.answers` splits the answers into records.  Data
values are tagged, so ``8080`` and ``8080.0`` stay an ``int`` and a
``float64`` (:mod:`wendy_llm.engine.client`: the Python-to-Go type table).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence

from wendy_llm.engine.job import RenderJob as RenderJob  # where callers have found it
from wendy_llm.engine.kept import KeptTexts
from wendy_llm.errors import DataTypeError, EngineError, TemplateParseError, quoted

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final

MAX_REQUEST_BYTES: Final = (1 << 32) - 1
# Records carry a u32 length that also counts the kind byte.
MAX_OUTPUT_LIMIT: Final = (1 << 32) - 64
_MAX_DEPTH: Final = 200

_OP_RENDER: Final = b"R"
_OP_BENCH: Final = b"B"
_OP_EVALUATE: Final = b"E"
KIND_OK: Final = 0
KIND_PARSE_ERROR: Final = 1
KIND_EXEC_ERROR: Final = 2
KIND_TOO_LARGE: Final = 3
KIND_BENCH: Final = 4
KIND_BAD_REQUEST: Final = 5
KIND_CALL_ERROR: Final = 6
KIND_SAME: Final = 7

_U32 = struct.Struct(">I").pack
_TAG_LEN = struct.Struct(">BI").pack
_JOB_REF = struct.Struct(">II").pack
_TEXT_DEF = struct.Struct(">II").pack
_U64 = struct.Struct(">Q").pack
_TAGGED_I64 = struct.Struct(">Bq").pack
_TAGGED_F64 = struct.Struct(">Bd").pack
# A one-job render request of a kept text, up to its data map: frame length
# (filled in last), 'R', max output, nothing forgotten, 1 text: 'r' id, 1 map.
_KEPT_ONE_HEAD = struct.Struct(">IBQBIBII").pack
# The job section of a one-job request, by template name (see encode_request).
_ONE_JOB_TAILS: dict[str, bytes] = {}
# Map keys as framed on the wire (u32 length, UTF-8), by key: data maps
# repeat a handful of keys in every render.
_FRAMED_KEYS: dict[str, bytes] = {}
_FRAMED_KEYS_MAX: Final = 4096
# Str values as framed (b"s", u32 length, UTF-8), by value: the picks' values
# repeat too; a 3-entry data map took 0.82 us, not 1.11 (timeit best of 9).
_TAGGED_STRS: dict[str, bytes] = {}

Record = tuple[int, bytes]


# --- encoding ---------------------------------------------------------------


class _Unsupported(Exception):
    """A value Go cannot hold; ``path`` is filled in while unwinding."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path: list[str] = []


def _utf8(value: str) -> bytes:
    # surrogateescape brings smuggled bytes (U+DC80..U+DCFF) back verbatim;
    # any other lone surrogate has no UTF-8 form Go could receive.
    if not isinstance(value, str):  # a caller's wrong type: say so, never AttributeError
        raise _Unsupported(f"has type {type(value).__name__}, not str")
    try:
        return value.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as exc:
        raise _Unsupported(
            f"holds {quoted(value[exc.start])} at index {exc.start}, a lone surrogate "
            "that UTF-8 cannot encode"
        ) from None


def _encode_str(value: str, out: bytearray) -> None:
    raw = _utf8(value)
    out += _TAG_LEN(115, len(raw))  # b"s"
    out += raw


def _encode_value(value: object, out: bytearray, depth: int) -> None:
    # Exact-type checks first: this is the hot path for every render.
    kind = type(value)
    if kind is str:
        _encode_str(value, out)  # type: ignore[arg-type]
    elif kind is bool:
        out += b"t" if value else b"f"
    elif kind is int:
        _encode_int(value, out)  # type: ignore[arg-type]
    elif kind is float:
        out += _TAGGED_F64(100, value)  # b"d"
    elif value is None:
        out += b"n"
    elif kind is dict:
        _encode_map(value, out, depth)  # type: ignore[arg-type]
    elif kind is list or kind is tuple:
        _encode_list(value, out, depth)  # type: ignore[arg-type]
    else:
        _encode_other(value, out, depth)


def _encode_other(value: object, out: bytearray, depth: int) -> None:
    """Subclasses and abstract containers (``StrEnum``, ``MappingProxyType``, ...)."""
    if isinstance(value, bool):
        out += b"t" if value else b"f"
    elif isinstance(value, int):
        _encode_int(int(value), out)
    elif isinstance(value, float):
        out += _TAGGED_F64(100, float(value))  # b"d"
    elif isinstance(value, str):
        _encode_str(str(value), out)
    elif isinstance(value, bytes | bytearray | memoryview):
        raw = bytes(value)
        out += b"s"
        out += _U32(len(raw))
        out += raw
    elif isinstance(value, Mapping):
        _encode_map(value, out, depth)
    elif isinstance(value, Sequence):
        _encode_list(value, out, depth)
    else:
        raise _Unsupported(f"has type {type(value).__name__}, which Go's engine cannot hold")


def _encode_int(value: int, out: bytearray) -> None:
    try:
        out += _TAGGED_I64(105, value)  # b"i"
    except struct.error:
        raise _Unsupported(f"{value} does not fit in a Go int (64-bit)") from None


def _encode_list(value: Sequence[object], out: bytearray, depth: int) -> None:
    if depth >= _MAX_DEPTH:
        raise _Unsupported(f"is nested more than {_MAX_DEPTH} levels deep (a cycle?)")
    out += b"l"
    out += _U32(len(value))
    for index, item in enumerate(value):
        try:
            _encode_value(item, out, depth + 1)
        except _Unsupported as exc:
            exc.path.append(f"[{index}]")
            raise


def _encode_map(value: Mapping[str, object], out: bytearray, depth: int) -> None:
    if depth >= _MAX_DEPTH:
        raise _Unsupported(f"is nested more than {_MAX_DEPTH} levels deep (a cycle?)")
    out += _TAG_LEN(109, len(value))  # b"m"
    framed_keys, tagged_strs = _FRAMED_KEYS, _TAGGED_STRS
    for key, item in value.items():
        framed = framed_keys.get(key) if type(key) is str else None
        out += framed if framed is not None else _framed_key(key)
        # Flat strings and numbers are by far the most common: inline them.
        kind = type(item)
        try:
            if kind is str:
                tagged = tagged_strs.get(item)  # type: ignore[call-overload]
                out += tagged if tagged is not None else _tagged_str(item)  # type: ignore[arg-type]
            elif kind is float:
                out += _TAGGED_F64(100, item)  # b"d"
            else:
                _encode_value(item, out, depth + 1)
        except _Unsupported as exc:
            exc.path.append(f".{key}")
            raise


def _tagged_str(value: str) -> bytes:
    """A str value as the wire frames it (b"s", u32 length, UTF-8), remembered if short."""
    try:
        raw = value.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = _utf8(value)  # raises, saying why
    tagged = _TAG_LEN(115, len(raw)) + raw  # b"s"
    if len(raw) <= 256:
        if len(_TAGGED_STRS) >= _FRAMED_KEYS_MAX:
            _TAGGED_STRS.clear()
        _TAGGED_STRS[value] = tagged
    return tagged


def _framed_key(key: object) -> bytes:
    """A map key as the wire frames it (u32 length, UTF-8), remembered if a str."""
    if not isinstance(key, str):
        raise _Unsupported(f"has key {key!r} of type {type(key).__name__}; keys must be str")
    try:
        raw = _utf8(key)
    except _Unsupported as exc:
        raise _Unsupported(f"has key {quoted(key)} that {exc.reason}") from None
    framed = _U32(len(raw)) + raw
    if type(key) is str and len(raw) <= 256:
        if len(_FRAMED_KEYS) >= _FRAMED_KEYS_MAX:
            _FRAMED_KEYS.clear()
        _FRAMED_KEYS[key] = framed
    return framed


def _text_bytes(text: str | bytes, name: str) -> bytes:
    if isinstance(text, bytes | bytearray | memoryview):
        return bytes(text)
    if not isinstance(text, str):
        kind = type(text).__name__
        raise TemplateParseError(f"template: {name}: the text is a {kind}, not str", name=name)
    try:
        return _utf8(text)
    except _Unsupported as exc:
        raise TemplateParseError(
            f"template: {name}: the template text {exc.reason}", name=name
        ) from None


def encode_request(
    jobs: Sequence[RenderJob],
    max_output_bytes: int,
    kept: KeptTexts | None = None,
    *,
    bench_iterations: int | None = None,
) -> bytearray:
    """The framed render request for ``jobs``.

    Texts and data maps shared between jobs (the same objects) are sent once;
    with ``kept`` (the helper's table), a text it keeps is referred to by id.
    """
    if len(jobs) == 1 and kept is not None and bench_iterations is None:
        # A single render of a kept text (the render loop of a property test):
        # the same frame as below, with none of its bookkeeping.
        job = jobs[0]
        text_id = kept.ids.get(job.text)
        one_tail = _ONE_JOB_TAILS.get(job.name) if type(job.name) is str else None
        if text_id is not None and one_tail is not None and type(job.data) is dict:
            out = bytearray(_KEPT_ONE_HEAD(0, 82, max_output_bytes, 0, 1, 114, text_id, 1))
            try:  # _encode_datas's work (for a dict), one call fewer: 0.2 us
                _encode_map(job.data, out, 0)
            except _Unsupported as exc:
                raise _data_type_error(exc) from None
            out += one_tail
            return _finish_frame(out)
        if text_id is not None and type(job.name) is str and len(_ONE_JOB_TAILS) < 4096:
            # Known the next time: a one-job section (1 job, its name, text 0, data 0).
            _ONE_JOB_TAILS[job.name] = _U32(1) + _framed_name(job.name) + bytes(8)
    out = bytearray(b"\0\0\0\0")
    out += _OP_RENDER if bench_iterations is None else _OP_BENCH
    out += _U64(max_output_bytes)
    if bench_iterations is not None:
        out += _U32(bench_iterations)
    # One pass over the jobs: the texts and data maps they use (each once),
    # and the job section, which follows them in the frame.
    text_index: dict[str | bytes, int] = {}
    text_names: list[str] = []  # the first job's name for each text, for errors
    data_index: dict[int, int] = {}
    datas: list[Mapping[str, object]] = []
    names: dict[str, bytes] = {}
    tail = bytearray(_U32(len(jobs)))
    for job in jobs:
        text = job.text
        ti = text_index.get(text)
        if ti is None:
            ti = text_index[text] = len(text_names)
            text_names.append(job.name)
        data = job.data
        di = data_index.get(id(data))
        if di is None:
            di = data_index[id(data)] = len(datas)
            datas.append(data)
        name = names.get(job.name)
        if name is None:
            name = names[job.name] = _framed_name(job.name)
        tail += name
        tail += _JOB_REF(ti, di)
    known = kept.ids if kept is not None else {}
    raws = _new_texts(text_index, text_names, known)
    forget, keep = False, {}
    if kept is not None and raws:
        planned = kept.plan(raws)
        if planned is None:  # they do not fit beside those kept: forget those
            forget, raws = True, _new_texts(text_index, text_names, {})
            planned = kept.plan_afresh(raws)
        keep = planned
    out += b"\1" if forget else b"\0"
    out += _U32(len(text_index))
    for text in text_index:
        text_id = keep.get(text)
        if text_id is not None:
            raw = raws[text]
            out += b"k"
            out += _TEXT_DEF(text_id, len(raw))
            out += raw
        elif not forget and text in known:
            out += b"r"
            out += _U32(known[text])
        else:
            raw = raws[text]
            out += b"t"
            out += _U32(len(raw))
            out += raw
    _encode_datas(datas, out)
    out += tail
    frame = _finish_frame(out)
    if kept is not None and (keep or forget):
        kept.commit(forget, keep, raws)
    return frame


def _framed_name(name: str) -> bytes:
    try:
        raw = _utf8(name)
    except _Unsupported as exc:
        raise TemplateParseError(f"template name {quoted(name)} {exc.reason}", name=name) from None
    return _U32(len(raw)) + raw


def _new_texts(
    text_index: Mapping[str | bytes, int], names: Sequence[str], known: Mapping[str | bytes, int]
) -> dict[str | bytes, bytes]:
    """The bytes of each text not in ``known``, in order of first use."""
    return {
        text: _text_bytes(text, names[index])
        for text, index in text_index.items()
        if text not in known
    }


def _encode_datas(
    datas: Sequence[Mapping[str, object]], out: bytearray, *, counted: bool = False
) -> None:
    """The data maps, after their count unless ``counted`` already."""
    if not counted:
        out += _U32(len(datas))
    for data in datas:
        if type(data) is not dict and not isinstance(data, Mapping):
            raise DataTypeError(
                f"template data must be a mapping, not {type(data).__name__}", key_path=""
            )
        try:
            _encode_map(data, out, 0)
        except _Unsupported as exc:
            raise _data_type_error(exc) from None


def _finish_frame(out: bytearray) -> bytearray:
    if len(out) - 4 > MAX_REQUEST_BYTES:
        raise EngineError(f"request to the Go helper too large ({len(out)} bytes); split it")
    struct.pack_into(">I", out, 0, len(out) - 4)
    return out


def _data_type_error(exc: _Unsupported, where: str = "template data") -> DataTypeError:
    path = "".join(reversed(exc.path))
    return DataTypeError(" ".join(filter(None, (where, path, exc.reason))), key_path=path)


def encode_call(function: bytes, *args: str) -> bytes:
    """One Go call: the function letter (see ``evaluate`` in ``gohelper/calls.go``)
    and its string arguments.  A string UTF-8 cannot encode raises ``DataTypeError``."""
    out = bytearray(function)
    for arg in args:
        try:
            raw = _utf8(arg)
        except _Unsupported as exc:
            raise _data_type_error(exc, "a text passed to Go") from None
        out += _U32(len(raw))
        out += raw
    return bytes(out)


def encode_value_call(function: bytes, value: object) -> bytes:
    """One Go call whose argument is a data value (``%v`` formatting)."""
    out = bytearray(function)
    try:
        _encode_value(value, out, 0)
    except _Unsupported as exc:
        raise _data_type_error(exc, "a value passed to Go") from None
    return bytes(out)


def encode_calls(calls: Sequence[bytes]) -> bytearray:
    """The framed request evaluating ``calls`` (each from ``encode_call``)."""
    out = bytearray(b"\0\0\0\0")
    out += _OP_EVALUATE
    out += _U32(len(calls))
    for call in calls:
        out += call
    return _finish_frame(out)
