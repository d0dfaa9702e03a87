"""Render templates through the real Go ``text/template`` engine.

A :class:`Renderer` owns one long-lived Go helper process (built by
:mod:`wendy_llm.toolchain`) and talks to it over a framed binary protocol on
its stdin/stdout.  The helper renders as ``wendy init`` does: ``text/template``
with ``Option("missingkey=error")``, default delimiters, no extra functions,
the template named by ``name``.

Data types: the data map reaches Go with the types the Wendy CLI would hold.

================================  ==========================  ===============================
Python                            Go                          note
================================  ==========================  ===============================
``str``                           ``string``                  UTF-8 (``surrogateescape``)
``bytes``, ``bytearray``          ``string``                  the bytes verbatim
``bool``                          ``bool``
``int``                           ``int`` (64-bit)            beyond int64: an error
``float``                         ``float64``                 ``8080.0`` stays float64
``None``                          ``nil``                     ``{{.X}}`` prints ``<no value>``
``list``, ``tuple``, sequences    ``[]interface{}``
``dict``, other mappings          ``map[string]interface{}``  keys must be ``str``
================================  ==========================  ===============================

``8080`` (a ``--var`` override, Go ``int``) and ``8080.0`` (a JSON default,
Go ``float64``) stay distinct, so ``{{if eq .PORT 8080}}`` fails for the
latter exactly as in the CLI.  Any other type raises :class:`DataTypeError`
naming the offending key path.

Templates may be ``str`` (encoded as UTF-8) or ``bytes`` (passed verbatim:
Go strings are bytes, so non-UTF-8 input renders as Go would); output is
always ``bytes``.

Timeouts: ``timeout`` applies to each render on its own.  The helper streams
results back as they finish, and a batch fails with :class:`RenderTimeout`
only when no render finished (and no request bytes moved) for ``timeout``
seconds, so a large batch of quick renders never times out as a whole.  On
timeout the helper is killed and the next call starts a new one.

Crashes: if the helper dies (or the pipe breaks) during a call, it is
restarted and the request retried once; a second failure raises
:class:`EngineError` with the tail of the helper's stderr.

Output cap: a render producing more than ``max_output_bytes`` is stopped
inside the helper and raises :class:`OutputTooLarge` (for ``render_many``, the
whole batch raises it, naming the template).

The helper is POSIX-only (it relies on ``poll`` over pipes).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import select
import signal
import struct
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Final

from wendy_llm.errors import (
    DataTypeError,
    EngineError,
    OutputTooLarge,
    RenderTimeout,
    TemplateError,
    TemplateExecError,
    TemplateParseError,
    WendyLlmError,
)

__all__ = ["RenderJob", "Renderer", "shared_renderer"]

MiB: Final = 1 << 20
DEFAULT_TIMEOUT: Final = 10.0
DEFAULT_MAX_OUTPUT_BYTES: Final = 64 * MiB
# Records carry a u32 length; leave room for the kind byte.
_MAX_OUTPUT_LIMIT: Final = (1 << 32) - 64
_MAX_REQUEST_BYTES: Final = (1 << 32) - 1
_MAX_DEPTH: Final = 200

_OP_RENDER: Final = b"R"
_OP_BENCH: Final = b"B"
_KIND_OK: Final = 0
_KIND_PARSE_ERROR: Final = 1
_KIND_EXEC_ERROR: Final = 2
_KIND_TOO_LARGE: Final = 3
_KIND_BENCH: Final = 4
_KIND_BAD_REQUEST: Final = 5

_U32 = struct.Struct(">I").pack
_I64 = struct.Struct(">q").pack
_F64 = struct.Struct(">d").pack
_TAG_LEN = struct.Struct(">BI").pack
_JOB_REF = struct.Struct(">II").pack
_RECORD_HEADER = struct.Struct(">IB")
_BENCH_RESULT = struct.Struct(">QQ")
# Below malloc's mmap threshold: a bigger read buffer costs a mmap per call.
_READ_SIZE: Final = 1 << 16
_PIPE_SIZE: Final = 1 << 20
_CHUNK_JOBS: Final = 64
_STDERR_TAIL_BYTES: Final = 4000


@dataclass(frozen=True)
class RenderJob:
    """One template to render: its text, its data map and its name.

    ``name`` is the Go template name, i.e. the file's path relative to the
    template root; Go error messages quote it.
    """

    text: str | bytes
    data: Mapping[str, object]
    name: str = "template"


# --- encoding ---------------------------------------------------------------


class _Unsupported(Exception):
    """A value Go cannot hold; ``path`` is filled in while unwinding."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path: list[str] = []


def _encode_str(value: str, out: bytearray) -> None:
    raw = value.encode("utf-8", "surrogateescape")
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
        out += b"d"
        out += _F64(value)
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
        out += b"d"
        out += _F64(float(value))
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
        packed = _I64(value)
    except struct.error:
        raise _Unsupported(f"{value} does not fit in a Go int (64-bit)") from None
    out += b"i"
    out += packed


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
    out += b"m"
    out += _U32(len(value))
    for key, item in value.items():
        if type(key) is not str and not isinstance(key, str):
            raise _Unsupported(f"has key {key!r} of type {type(key).__name__}; keys must be str")
        raw = key.encode("utf-8", "surrogateescape")
        out += _U32(len(raw))
        out += raw
        # Flat string values are by far the most common: inline them.
        if type(item) is str:
            raw = item.encode("utf-8", "surrogateescape")
            out += _TAG_LEN(115, len(raw))  # b"s"
            out += raw
            continue
        try:
            _encode_value(item, out, depth + 1)
        except _Unsupported as exc:
            exc.path.append(f".{key}")
            raise


def _text_bytes(text: str | bytes) -> bytes:
    if isinstance(text, str):
        return text.encode("utf-8", "surrogateescape")
    return bytes(text)


def encode_request(
    jobs: Sequence[RenderJob], max_output_bytes: int, *, bench_iterations: int | None = None
) -> bytearray:
    """The framed request for ``jobs`` (see ``gohelper/main.go`` for the layout).

    Texts and data maps shared between jobs (the same objects) are sent once.
    """
    out = bytearray(b"\0\0\0\0")
    out += _OP_RENDER if bench_iterations is None else _OP_BENCH
    out += struct.pack(">Q", max_output_bytes)
    if bench_iterations is not None:
        out += _U32(bench_iterations)
    text_index: dict[str | bytes, int] = {}
    data_index: dict[int, int] = {}
    datas: list[Mapping[str, object]] = []
    refs: list[tuple[int, int]] = []
    for job in jobs:
        ti = text_index.setdefault(job.text, len(text_index))
        di = data_index.setdefault(id(job.data), len(datas))
        if di == len(datas):
            datas.append(job.data)
        refs.append((ti, di))
    out += _U32(len(text_index))
    for text in text_index:
        raw = _text_bytes(text)
        out += _U32(len(raw))
        out += raw
    out += _U32(len(datas))
    for data in datas:
        if not isinstance(data, Mapping):
            raise DataTypeError(
                f"template data must be a mapping, not {type(data).__name__}", path=""
            )
        try:
            _encode_map(data, out, 0)
        except _Unsupported as exc:
            path = "".join(reversed(exc.path))
            raise DataTypeError(f"template data {path} {exc.reason}", path=path) from None
    out += _U32(len(jobs))
    names: dict[str, bytes] = {}
    for job, (ti, di) in zip(jobs, refs, strict=True):
        name = names.get(job.name)
        if name is None:
            raw = job.name.encode("utf-8", "surrogateescape")
            name = names[job.name] = _U32(len(raw)) + raw
        out += name
        out += _JOB_REF(ti, di)
    if len(out) - 4 > _MAX_REQUEST_BYTES:
        raise EngineError(f"render request too large ({len(out)} bytes); split the batch")
    struct.pack_into(">I", out, 0, len(out) - 4)
    return out


# --- errors -----------------------------------------------------------------


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


def _template_error(kind: int, message: str, name: str) -> TemplateError:
    line, column = error_location(message, name)
    cls = TemplateParseError if kind == _KIND_PARSE_ERROR else TemplateExecError
    return cls(message, name=name, line=line, column=column)


# --- the helper process -----------------------------------------------------


def _parse_records(buf: bytearray, pos: int, records: list[tuple[int, bytes]]) -> int:
    """Append the complete records in ``buf[pos:]``; return where the rest starts."""
    with memoryview(buf) as view:
        while len(buf) - pos >= 5:
            length, kind = _RECORD_HEADER.unpack_from(buf, pos)
            if length == 0:
                raise EngineError("the Go helper sent an empty record")
            end = pos + 4 + length
            if end > len(buf):
                break
            records.append((kind, bytes(view[pos + 5 : end])))
            pos = end
            if kind == _KIND_BAD_REQUEST:
                break
    return pos


class _HelperDied(Exception):
    """The helper exited or the pipe broke mid-request."""


class _Timeout(Exception):
    """No progress for ``timeout`` seconds; ``done`` records had arrived."""

    def __init__(self, done: int) -> None:
        super().__init__(done)
        self.done = done


def _enlarge_pipe(fd: int) -> None:
    """Grow a Linux pipe to 1 MiB: fewer wake-ups per batch (best effort elsewhere)."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None)
    if set_size is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, set_size, _PIPE_SIZE)


class _Helper:
    """One running helper process and its pipes."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary
        # A file, not a pipe: a chatty crash can never block on a full pipe.
        # It lives as long as the helper, so no context manager fits.
        self.stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(
                [str(binary)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                bufsize=0,
            )
        except OSError as exc:
            self.stderr.close()
            raise EngineError(f"cannot start the Go helper {binary}: {exc}") from exc
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin_fd = self.proc.stdin.fileno()
        self.stdout_fd = self.proc.stdout.fileno()
        os.set_blocking(self.stdin_fd, False)
        os.set_blocking(self.stdout_fd, False)
        _enlarge_pipe(self.stdin_fd)
        _enlarge_pipe(self.stdout_fd)
        self.poller = select.poll()
        self.poller.register(self.stdout_fd, select.POLLIN)
        self.owner_pid = os.getpid()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def exchange(
        self, requests: Iterator[tuple[bytearray, int]], timeout: float
    ) -> tuple[list[tuple[int, bytes]], WendyLlmError | None]:
        """Send each request (with the number of records it asks for); collect the records.

        Requests are pulled (encoded) lazily while the helper renders the
        previous ones, so Python's encoding overlaps Go's rendering.  If
        pulling one raises, the records of those already sent are still read,
        which keeps the helper in step, and the exception is returned.
        """
        records: list[tuple[int, bytes]] = []
        expected = 0
        pending: memoryview | None = None
        written = 0
        drained = False  # no more requests to pull
        failure: WendyLlmError | None = None
        polling_stdin = False
        buf = bytearray()
        pos = 0
        deadline = time.monotonic() + timeout
        try:
            while True:
                while not drained or pending is not None:
                    if pending is None:
                        try:
                            item = next(requests, None)
                        except WendyLlmError as exc:
                            failure, drained = exc, True
                            break
                        if item is None:
                            drained = True
                            break
                        pending, written = memoryview(item[0]), 0
                        expected += item[1]
                    try:
                        written += os.write(self.stdin_fd, pending[written:])
                    except BlockingIOError:
                        break
                    except OSError as exc:  # BrokenPipeError and friends
                        raise _HelperDied(str(exc)) from exc
                    deadline = time.monotonic() + timeout
                    if written == len(pending):
                        pending = None
                if (pending is not None) != polling_stdin:
                    polling_stdin = not polling_stdin
                    if polling_stdin:
                        self.poller.register(self.stdin_fd, select.POLLOUT)
                    else:
                        self.poller.unregister(self.stdin_fd)
                if drained and pending is None and len(records) >= expected:
                    break
                wait_ms = max(0, int((deadline - time.monotonic()) * 1000) + 1)
                events = self.poller.poll(wait_ms)
                if not events and time.monotonic() >= deadline:
                    raise _Timeout(len(records))
                if not any(fd == self.stdout_fd for fd, _ in events):
                    continue
                try:
                    chunk = os.read(self.stdout_fd, _READ_SIZE)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    raise _HelperDied(str(exc)) from exc
                if not chunk:
                    raise _HelperDied("the helper closed its output")
                buf += chunk
                deadline = time.monotonic() + timeout
                pos = _parse_records(buf, pos, records)
                if records and records[-1][0] == _KIND_BAD_REQUEST:
                    return records, failure
                if pos > _READ_SIZE:
                    del buf[:pos]
                    pos = 0
        finally:
            if polling_stdin:
                self.poller.unregister(self.stdin_fd)
        if len(buf) != pos or len(records) != expected:
            raise EngineError(
                f"the Go helper answered out of step ({len(records)} records for"
                f" {expected} renders, {len(buf) - pos} stray bytes)"
            )
        return records, failure

    def stderr_tail(self) -> str:
        try:
            size = self.stderr.seek(0, os.SEEK_END)
            self.stderr.seek(max(0, size - _STDERR_TAIL_BYTES))
            return self.stderr.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    def kill(self) -> str:
        """Kill and reap the process (no zombie), release the pipes; return its stderr tail."""
        if self.owner_pid != os.getpid():
            # Inherited through fork: the parent owns (and reaps) this process.
            self._close_files()
            return ""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        tail = self.stderr_tail()
        self._close_files()
        return tail

    def shutdown(self) -> None:
        """Ask the helper to exit (EOF on stdin), killing it if it lingers."""
        if self.owner_pid != os.getpid():
            self._close_files()
            return
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._close_files()

    def _close_files(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout, self.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def exit_description(self) -> str:
        code = self.proc.returncode
        if code is None:
            return "still running"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"


class _Slot:
    """Holds the current helper; shared with the finalizer, which must not see the Renderer."""

    def __init__(self) -> None:
        self.helper: _Helper | None = None

    def close(self) -> None:
        helper, self.helper = self.helper, None
        if helper is not None:
            helper.shutdown()


# --- the public renderer ----------------------------------------------------


class Renderer:
    """Renders Go templates through one long-lived helper process.

    Thread-safe: calls from many threads are serialised over the one
    helper.  The helper starts on first use.  Use it as a context manager,
    or call :meth:`close`; it is also closed when garbage collected and at
    interpreter exit.

    ``timeout`` is the time each render may take, in seconds (see the module
    docstring); ``max_output_bytes`` caps each render's output.  ``helper``
    overrides the helper binary (default: built by
    :func:`wendy_llm.toolchain.helper_path`).
    """

    def __init__(
        self,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
        helper: str | os.PathLike[str] | None = None,
    ) -> None:
        if not timeout > 0:
            raise ValueError(f"timeout must be positive, got {timeout!r}")
        if not 0 < max_output_bytes <= _MAX_OUTPUT_LIMIT:
            raise ValueError(
                f"max_output_bytes must be between 1 and {_MAX_OUTPUT_LIMIT},"
                f" got {max_output_bytes}"
            )
        self.timeout = float(timeout)
        self.max_output_bytes = max_output_bytes
        self._binary = Path(helper) if helper is not None else None
        self._lock = threading.Lock()
        self._slot = _Slot()
        self._closed = False
        self._finalizer = weakref.finalize(self, _Slot.close, self._slot)
        _live_renderers.add(self)

    # -- public API --

    def render(
        self, text: str | bytes, data: Mapping[str, object], name: str = "template"
    ) -> bytes:
        """Render one template; raise its :class:`TemplateError` on failure."""
        result = self.render_many([RenderJob(text, data, name)])[0]
        if isinstance(result, TemplateError):
            raise result
        return result

    def render_many(self, jobs: Sequence[RenderJob]) -> list[bytes | TemplateError]:
        """Render a batch in one round trip; template errors are returned in place."""
        if not jobs:
            return []
        max_output = self.max_output_bytes

        def requests() -> Iterator[tuple[bytearray, int]]:
            # Chunks let the helper start rendering while Python encodes the rest.
            for start in range(0, len(jobs), _CHUNK_JOBS):
                chunk = jobs[start : start + _CHUNK_JOBS]
                yield encode_request(chunk, max_output), len(chunk)

        records = self._request(requests, jobs)
        results: list[bytes | TemplateError] = []
        for job, (kind, payload) in zip(jobs, records, strict=True):
            if kind == _KIND_OK:
                results.append(payload)
            elif kind in (_KIND_PARSE_ERROR, _KIND_EXEC_ERROR):
                results.append(_template_error(kind, payload.decode("utf-8", "replace"), job.name))
            elif kind == _KIND_TOO_LARGE:
                raise OutputTooLarge(
                    f"rendering {job.name} produced more than {self.max_output_bytes} bytes"
                    " (the renderer's max_output_bytes); the render was stopped"
                )
            else:
                raise EngineError(f"the Go helper answered with an unknown record kind {kind}")
        return results

    def benchmark_in_go(self, job: RenderJob, iterations: int) -> float:
        """Execute ``job`` ``iterations`` times inside the helper; return ns per render.

        The in-process floor that the per-render cost of :meth:`render_many`
        is measured against (``make bench``).
        """
        if not 0 < iterations < 1 << 32:
            raise ValueError(f"iterations must be between 1 and 2**32-1, got {iterations}")
        request = encode_request([job], self.max_output_bytes, bench_iterations=iterations)
        # The timeout is per render, and this request renders `iterations` times.
        ((kind, payload),) = self._request(
            lambda: iter([(request, 1)]), [job], timeout=self.timeout * iterations
        )
        if kind == _KIND_BENCH:
            count, elapsed_ns = _BENCH_RESULT.unpack(payload)
            return float(elapsed_ns) / float(count)
        if kind in (_KIND_PARSE_ERROR, _KIND_EXEC_ERROR):
            raise _template_error(kind, payload.decode("utf-8", "replace"), job.name)
        if kind == _KIND_TOO_LARGE:
            raise OutputTooLarge(
                f"rendering {job.name} produced more than {self.max_output_bytes} bytes"
            )
        raise EngineError(f"the Go helper answered with an unknown record kind {kind}")

    @property
    def pid(self) -> int | None:
        """The helper's process id, or None when no helper is running."""
        helper = self._slot.helper
        return helper.proc.pid if helper is not None and helper.alive() else None

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Stop the helper (and reap it). Further renders raise EngineError."""
        with self._lock:
            self._closed = True
            self._finalizer()

    def __enter__(self) -> Renderer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- internals --

    def _helper(self) -> _Helper:
        helper = self._slot.helper
        if helper is not None:
            if helper.owner_pid == os.getpid() and helper.alive():
                return helper
            # Died between calls (or inherited through fork): replace silently.
            self._slot.helper = None
            helper.kill()
        if self._binary is not None:
            binary = self._binary
        else:
            # Imported here so that `python -m wendy_llm.toolchain` (which
            # imports this package first) does not find itself pre-imported.
            from wendy_llm.toolchain import helper_path

            binary = helper_path()
        helper = _Helper(binary)
        self._slot.helper = helper
        return helper

    def _request(
        self,
        requests: Callable[[], Iterator[tuple[bytearray, int]]],
        jobs: Sequence[RenderJob],
        timeout: float | None = None,
    ) -> list[tuple[int, bytes]]:
        with self._lock:
            if self._closed:
                raise EngineError("this Renderer is closed")
            failures: list[str] = []
            for attempt in (1, 2):
                helper = self._helper()
                try:
                    records, failure = helper.exchange(
                        requests(), self.timeout if timeout is None else timeout
                    )
                except _Timeout as exc:
                    self._slot.helper = None
                    helper.kill()
                    name = jobs[min(exc.done, len(jobs) - 1)].name
                    raise RenderTimeout(
                        f"rendering {name} took longer than {self.timeout:g}s; the Go helper"
                        " was stopped (pass a larger Renderer(timeout=...) if the template"
                        " is merely slow)"
                    ) from None
                except _HelperDied as exc:
                    self._slot.helper = None
                    tail = helper.kill()
                    failures.append(
                        f"attempt {attempt}: {helper.exit_description()} ({exc})"
                        + (f"; stderr: {tail}" if tail else "; no stderr output")
                    )
                    if attempt == 2:
                        raise EngineError(
                            f"the Go helper {helper.binary} failed twice in a row while"
                            f" rendering {jobs[0].name}:\n  " + "\n  ".join(failures)
                        ) from None
                    continue
                except BaseException:
                    # Interrupted or out of sync (KeyboardInterrupt, protocol
                    # error): stale records must never answer the next request.
                    self._slot.helper = None
                    helper.kill()
                    raise
                if records and records[-1][0] == _KIND_BAD_REQUEST:
                    # Requests sent after the bad one would answer the next call.
                    self._slot.helper = None
                    helper.kill()
                    raise EngineError(
                        "the Go helper rejected a request: "
                        + records[-1][1].decode("utf-8", "replace")
                    )
                if failure is not None:
                    # Raised only now: the helper answered what it was sent.
                    raise failure
                return records
            raise AssertionError("unreachable")


_shared_lock = threading.Lock()
_shared: Renderer | None = None
_live_renderers: weakref.WeakSet[Renderer] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    # A lock held by another thread at fork time would stay held forever in
    # the child; the child also must not talk to the parent's helper, which
    # each renderer notices by pid and replaces on its next call.
    global _shared_lock
    _shared_lock = threading.Lock()
    for renderer in list(_live_renderers):
        renderer._lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


def shared_renderer() -> Renderer:
    """The process-wide renderer, created on first use and closed at exit."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.closed:
            _shared = Renderer()
        return _shared


def _close_shared() -> None:
    with _shared_lock:
        if _shared is not None:
            _shared.close()


atexit.register(_close_shared)
