"""One running Go helper process: its pipes, deadlines and clean-up.

The lifecycle policy (when to start, restart or give up) lives in
:class:`wendy_llm.engine.client.Renderer`; this module only moves bytes and reports
what happened: :class:`HelperDied` or :class:`HelperTimeout`.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from time import perf_counter

from wendy_llm import options
from wendy_llm.engine.answers import parse_records, whole_record
from wendy_llm.engine.exchange import (
    MAX_POLL_MS,
    READ_SIZE,
    Exchange,
    HelperDied,
    HelperTimeout,
    OutputOverBudget,
    out_of_step,
)
from wendy_llm.engine.kept import KeptTexts
from wendy_llm.engine.wire import KIND_BAD_REQUEST, Record
from wendy_llm.errors import EngineError, WendyLlmError

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import IO, Final

_PIPE_SIZE: Final = 1 << 20
_STDERR_TAIL_BYTES: Final = 4000
# No exchange can hold more: records carry u32 lengths, and requests are many.
MAX_EXCHANGE_BYTES: Final = 1 << 62
# The helper exits when the process with this pid stops being its parent
# (see exitWithParent in gohelper/parent_linux.go).
PARENT_PID_ENV: Final = "WENDY_LLM_PARENT_PID"


def _enlarge_pipe(fd: int) -> None:
    """Grow a Linux pipe to 1 MiB: fewer wake-ups per batch (best effort elsewhere)."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None)
    if set_size is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, set_size, _PIPE_SIZE)


def _anonymous_file() -> IO[bytes]:
    """A temporary file with no name (it lives as long as the helper, so no
    context manager fits): a memfd on Linux, else ``tempfile``'s."""
    if hasattr(os, "memfd_create"):
        return open(os.memfd_create("wendy-helper-stderr"), "w+b")
    import tempfile  # lazy: costs more to import than a render; Linux never needs it

    return tempfile.TemporaryFile()


class Helper:
    """One running helper process and its pipes."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary
        # A file, not a pipe: a chatty crash can never block on a full pipe.
        self.stderr: IO[bytes] = _anonymous_file()
        try:
            self.proc = subprocess.Popen(
                [
                    str(binary),
                    f"-parse-cache-templates={options.PARSE_CACHE_TEMPLATES}",
                    f"-parse-cache-bytes={options.PARSE_CACHE_BYTES}",
                    f"-kept-texts={options.HELPER_KEPT_TEXTS}",
                    f"-kept-text-bytes={options.HELPER_KEPT_TEXT_BYTES}",
                    f"-request-spin-us={options.HELPER_REQUEST_SPIN_US}",
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                bufsize=0,
                env={**os.environ, PARENT_PID_ENV: str(os.getpid())},
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
        self.budget = MAX_EXCHANGE_BYTES  # output bytes the exchange may still hold
        #: The texts this process keeps (a new helper keeps none).
        self.kept = KeptTexts(options.HELPER_KEPT_TEXTS, options.HELPER_KEPT_TEXT_BYTES)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def exchange(
        self,
        requests: Iterator[tuple[bytearray, int]],
        timeout: float,
        max_total: int = MAX_EXCHANGE_BYTES,
    ) -> tuple[list[Record], WendyLlmError | None]:
        """Send each request (with the number of records it asks for); collect the records.

        Raises :class:`OutputOverBudget` as soon as the records' payloads
        pass ``max_total`` bytes, which bounds the memory an exchange holds.

        Requests are pulled (encoded) lazily while the helper renders the
        previous ones, so Python's encoding overlaps Go's rendering.  If
        pulling one raises, the records of those already sent are still read,
        which keeps the helper in step, and the exception is returned.

        Raises :class:`HelperTimeout` when no byte moved for ``timeout``
        seconds (the helper flushes each finished render within a few
        milliseconds, so this bounds each render, not the batch), and
        :class:`HelperDied` when the pipe breaks or ends: that is how a
        helper that died between calls is noticed too, with no ``waitpid``
        per request.

        The common exchange, one request written whole, only waits for its
        records (a single render's round trip is a few system calls).
        """
        self.budget = max_total
        try:
            first = next(requests, None)
        except WendyLlmError as exc:
            return [], exc
        if first is None:
            return [], None
        frame, expected = first
        try:
            written = os.write(self.stdin_fd, frame)
        except BlockingIOError:
            written = 0
        except OSError as exc:  # BrokenPipeError: the helper is gone
            raise HelperDied(str(exc)) from exc
        following: tuple[bytearray, int] | None = None
        failure: WendyLlmError | None = None
        if written == len(frame):
            try:
                following = next(requests, None)
            except WendyLlmError as exc:
                failure = exc
            if following is None and failure is None:
                return self._answers(expected, timeout), None
        exchange = Exchange(self, requests, timeout, expected)
        exchange.failure = failure
        if written < len(frame):
            exchange.pending, exchange.written = memoryview(frame), written
        elif following is not None:
            exchange.pending = memoryview(following[0])
            exchange.expected += following[1]
        else:
            exchange.drained = True
        try:
            return exchange.run()
        finally:
            if exchange.polling_stdin:
                self.poller.unregister(self.stdin_fd)

    def _answers(self, expected: int, timeout: float) -> list[Record]:
        """The ``expected`` records of the requests written: the common
        exchange's only wait (what :class:`Exchange` does, without its writing)."""
        fd, poll = self.stdout_fd, self.poller.poll
        wait_ms = min(int(timeout * 1000) + 1, MAX_POLL_MS)
        records: list[Record] = []
        buf = bytearray()
        pos = 0
        # Awake for a few microseconds first (options.RENDER_ANSWER_SPIN_S): a
        # quick answer then costs no wake-up. (Reading before any wait failed
        # 1,998 times in 2,000 single renders: the helper is still at work.)
        awake_until = perf_counter() + options.RENDER_ANSWER_SPIN_S
        while len(records) < expected:
            if not poll(0):
                if perf_counter() < awake_until:
                    os.sched_yield()  # the helper may want this CPU
                    continue
                # Each read that moved bytes restarts the wait.
                if not poll(wait_ms):
                    raise HelperTimeout(len(records))
            try:
                chunk = os.read(fd, READ_SIZE)
            except BlockingIOError:
                continue
            except OSError as exc:
                raise HelperDied(str(exc)) from exc
            if not chunk:
                raise HelperDied("the helper closed its output")
            if pos == len(buf) and len(records) + 1 == expected:
                record = whole_record(chunk)
                if record is not None:
                    records.append(record)
                    self.spend(records, len(records) - 1, len(chunk) - 5)
                    return records
            buf += chunk
            done, start = len(records), pos
            pos = parse_records(buf, pos, records)
            # A record is 4 bytes of length, a kind byte and its payload.
            self.spend(records, done, pos - start - 5 * (len(records) - done))
            if records and records[-1][0] == KIND_BAD_REQUEST:
                return records
            if pos > READ_SIZE:
                del buf[:pos]
                pos = 0
        if pos != len(buf):
            raise out_of_step(len(records), expected, len(buf) - pos)
        return records

    def spend(self, records: list[Record], start: int, size: int) -> None:
        """Take ``size`` bytes, the payloads of ``records[start:]``, from this
        exchange's budget."""
        self.budget -= size
        if self.budget < 0:
            left = self.budget + size
            for index in range(start, len(records)):
                left -= len(records[index][1])
                if left < 0:
                    raise OutputOverBudget(index + 1)

    def interrupt(self) -> None:
        """Kill the process from another thread, leaving its pipes and reaping
        to the thread using it (which sees the pipe end: :class:`HelperDied`)."""
        if self.owner_pid == os.getpid():
            with contextlib.suppress(OSError):
                self.proc.kill()  # a no-op once the process is reaped

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
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        if not self._exited_within(options.HELPER_EXIT_WAIT_S):
            self.proc.kill()
        self.proc.wait()
        self._close_files()

    def _exited_within(self, timeout: float) -> bool:
        """Whether the process exits within ``timeout`` seconds (not reaped yet).

        On Linux a pidfd says the moment it exits; ``Popen.wait(timeout)``
        polls after sleeps that double from 0.5 ms, which overshoot the
        helper's usual millisecond by as much again, on every command's exit.
        """
        if self.proc.returncode is not None:
            return True  # reaped already: its pid may be another process's now
        try:
            pidfd = os.pidfd_open(self.proc.pid)
        except (AttributeError, OSError):  # not Linux >= 5.3
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                return False
            return True
        try:
            poller = select.poll()
            poller.register(pidfd, select.POLLIN)
            return bool(poller.poll(int(timeout * 1000)))
        finally:
            os.close(pidfd)

    def release_inherited(self) -> None:
        """In a forked child: close the parent's helper pipes without touching the helper.

        A child holding the write end of the helper's input would keep the
        helper from seeing end of input when the parent closes it.
        """
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


class HelperSlot:
    """Holds the current helper; shared with the finalizer, which must not see the Renderer."""

    def __init__(self) -> None:
        self.helper: Helper | None = None

    def close(self) -> None:
        helper, self.helper = self.helper, None
        if helper is not None:
            helper.shutdown()

    def release_inherited(self) -> None:
        """In a forked child: forget the parent's helper (the child starts its own)."""
        helper, self.helper = self.helper, None
        if helper is not None:
            helper.release_inherited()
