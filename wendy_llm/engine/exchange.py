"""One exchange with the helper in flight: requests being written while
records are read, and what can go wrong with it.

:meth:`wendy_llm.engine.process.Helper.exchange` runs the common case (one
request written whole) itself and hands anything longer to :class:`Exchange`.
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Iterator

from wendy_llm.engine.answers import parse_records
from wendy_llm.engine.wire import KIND_BAD_REQUEST, Record
from wendy_llm.errors import EngineError, WendyLlmError

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final, Protocol

    class Helper(Protocol):
        """What an exchange uses of :class:`wendy_llm.engine.process.Helper`."""

        stdin_fd: int
        stdout_fd: int
        poller: select.poll

        def spend(self, records: list[Record], start: int, size: int) -> None: ...


# Below malloc's mmap threshold: a bigger read buffer costs a mmap per call.
READ_SIZE: Final = 1 << 16
# poll() takes a C int of milliseconds: a longer timeout waits 24 days.
MAX_POLL_MS: Final = (1 << 31) - 1


class HelperDied(Exception):
    """The helper exited or the pipe broke mid-request."""


class OutputOverBudget(Exception):
    """The records of one exchange passed its output budget; the ``done``-th
    record passed it (the exchange stops there: its output is not held)."""

    def __init__(self, done: int) -> None:
        super().__init__(done)
        self.done = done


class HelperTimeout(Exception):
    """No progress for ``timeout`` seconds; ``done`` records had arrived."""

    def __init__(self, done: int) -> None:
        super().__init__(done)
        self.done = done


def out_of_step(records: int, expected: int, stray: int) -> EngineError:
    return EngineError(
        f"the Go helper answered out of step ({records} records for"
        f" {expected} renders, {stray} stray bytes)"
    )


class Exchange:
    """One exchange in flight: requests being written, records being read."""

    def __init__(
        self,
        helper: Helper,
        requests: Iterator[tuple[bytearray, int]],
        timeout: float,
        expected: int,
    ) -> None:
        self.helper = helper
        self.requests = requests
        self.timeout = timeout
        self.records: list[Record] = []
        self.expected = expected  # records asked for by the requests sent so far
        self.pending: memoryview | None = None  # the request being written
        self.written = 0
        self.drained = False  # no more requests to pull
        self.failure: WendyLlmError | None = None
        self.polling_stdin = False
        self.buf = bytearray()
        self.pos = 0
        self.deadline = time.monotonic() + timeout

    def run(self) -> tuple[list[Record], WendyLlmError | None]:
        helper = self.helper
        while True:
            self._write()
            if (self.pending is not None) != self.polling_stdin:
                self.polling_stdin = not self.polling_stdin
                if self.polling_stdin:
                    helper.poller.register(helper.stdin_fd, select.POLLOUT)
                else:
                    helper.poller.unregister(helper.stdin_fd)
            if self.drained and self.pending is None and len(self.records) >= self.expected:
                break
            wait_ms = max(0, min(int((self.deadline - time.monotonic()) * 1000) + 1, MAX_POLL_MS))
            events = helper.poller.poll(wait_ms)
            if not events and time.monotonic() >= self.deadline:
                raise HelperTimeout(len(self.records))
            if any(fd == helper.stdout_fd for fd, _ in events) and self._read():
                return self.records, self.failure  # a rejected request: stop here
        return self._checked()

    def _checked(self) -> tuple[list[Record], WendyLlmError | None]:
        if len(self.buf) != self.pos or len(self.records) != self.expected:
            raise out_of_step(len(self.records), self.expected, len(self.buf) - self.pos)
        return self.records, self.failure

    def _write(self) -> None:
        """Write as much as the pipe takes, pulling (encoding) new requests as needed."""
        while not self.drained or self.pending is not None:
            if self.pending is None:
                try:
                    item = next(self.requests, None)
                except WendyLlmError as exc:
                    self.failure, self.drained = exc, True
                    return
                if item is None:
                    self.drained = True
                    return
                self.pending, self.written = memoryview(item[0]), 0
                self.expected += item[1]
            try:
                self.written += os.write(self.helper.stdin_fd, self.pending[self.written :])
            except BlockingIOError:
                return
            except OSError as exc:  # BrokenPipeError and friends
                raise HelperDied(str(exc)) from exc
            self.deadline = time.monotonic() + self.timeout
            if self.written == len(self.pending):
                self.pending = None

    def _read(self) -> bool:
        """Read what the helper sent; True when it rejected a request."""
        try:
            chunk = os.read(self.helper.stdout_fd, READ_SIZE)
        except BlockingIOError:
            return False
        except OSError as exc:
            raise HelperDied(str(exc)) from exc
        if not chunk:
            raise HelperDied("the helper closed its output")
        self.buf += chunk
        self.deadline = time.monotonic() + self.timeout
        done, start = len(self.records), self.pos
        self.pos = parse_records(self.buf, self.pos, self.records)
        # A record is 4 bytes of length, a kind byte and its payload.
        self.helper.spend(self.records, done, self.pos - start - 5 * (len(self.records) - done))
        if self.pos > READ_SIZE:
            del self.buf[: self.pos]
            self.pos = 0
        return bool(self.records) and self.records[-1][0] == KIND_BAD_REQUEST
