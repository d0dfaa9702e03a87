"""Terminal presentation shared by the subcommands: the progress line, report files.

- Options shared by the subcommands are declared in :mod:`wendy_llm.cli.args`.
- Colour is not here: :mod:`wendy_llm.reports.terminal` holds the rule and
  the report formatters apply it.
- Progress: :class:`Progress` shows one self-erasing status line on stderr
  while a slow step runs, only when stderr is a terminal, only once the step
  has taken a moment (:func:`progress_delay`: ``WENDY_LLM_PROGRESS_DELAY``
  seconds, default :data:`~wendy_llm.options.PROGRESS_DELAY_S`), and never with ``--quiet``.
- :func:`write_report`: report files (``--junit``, ``--markdown``) written
  atomically, so a reader never sees half a report.
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import TextIO

from wendy_llm import escape, options
from wendy_llm.atomic import write_file_atomically
from wendy_llm.errors import WendyLlmError, quoted
from wendy_llm.reports.terminal import is_terminal

__all__ = ["PROGRESS_DELAY_ENV", "Progress", "progress_delay", "write_report"]

#: Overrides :data:`~wendy_llm.options.PROGRESS_DELAY_S` (0: at once, which is how
#: the tests see the line without depending on how long a run takes).
PROGRESS_DELAY_ENV = "WENDY_LLM_PROGRESS_DELAY"


def write_report(path: str, text: str, what: str) -> Path:
    """Write ``text`` to ``path`` atomically (parents created); ``what`` names it in errors."""
    target = Path(path)
    try:
        write_file_atomically(target, text.encode("utf-8"))
    except OSError as exc:
        raise WendyLlmError(f"cannot write the {what} {path}: {exc.strerror}") from exc
    return target


def write_failure_reports(args: object, message: str) -> list[str]:
    """Each report file ``args`` asks for (``--markdown``, ``--junit``, ``--sarif``),
    written for a run that stopped on the error ``message`` (exit 2), so that no
    summary is left empty; what could not be written, in the log's words."""
    # lazy: only a run that stopped on an error writes these.
    from wendy_llm.reports.failed import failed_junit, failed_markdown, failed_sarif
    from wendy_llm.reports.json import dumps

    command = str(getattr(args, "command", None) or "run")
    writers: dict[str, tuple[str, Callable[[], str]]] = {
        "markdown": ("Markdown summary", lambda: failed_markdown(command, message)),
        "junit": ("JUnit report", lambda: failed_junit(command, message)),
        "sarif": ("SARIF report", lambda: dumps(failed_sarif(message))),
    }
    problems: list[str] = []
    for option, (what, text) in writers.items():
        path = getattr(args, option, None)
        if isinstance(path, str):
            try:
                write_report(path, text(), what)
            except WendyLlmError as exc:
                problems.append(str(exc))
    return problems


def progress_delay(environ: Mapping[str, str] = os.environ) -> float:
    """Seconds before the progress line shows: ``WENDY_LLM_PROGRESS_DELAY``, else the option's."""
    raw = environ.get(PROGRESS_DELAY_ENV, "").strip()
    if not raw:
        return options.PROGRESS_DELAY_S
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise WendyLlmError(
            f"{PROGRESS_DELAY_ENV} must be a number of seconds, 0 or more (e.g. 0.5), "
            f"got {quoted(raw)}"
        )
    return value


class Progress:
    """A status line on stderr while a slow step runs: ``wendy-llm check: label ... 2.3 s``.

    Nothing is shown unless ``enabled`` and the stream is a terminal, and
    nothing before ``delay`` seconds (default: :func:`progress_delay`), so
    quick runs and logs stay clean. With a ``delay`` of 0 the first frame is
    drawn on entry, before the step starts, and a new label (:meth:`set`)
    is drawn at once: what shows then never depends on how long the step or
    the ticking thread take. The line is redrawn every ``interval`` seconds
    and erased on exit, before the caller prints its report. Only ``\\r``
    and spaces are used (no escape sequences), so dumb terminals cope, and
    the line is cut to the terminal's width so it never wraps. ``clock``
    (seconds, for the elapsed time shown) is injectable for tests.
    """

    def __init__(
        self,
        command: str,
        label: str,
        *,
        enabled: bool = True,
        stream: TextIO | None = None,
        delay: float | None = None,
        interval: float = options.PROGRESS_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.command = command
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.delay = progress_delay() if delay is None else delay
        self.active = enabled and is_terminal(self.stream)
        self.interval = interval
        self._clock = clock
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._shown = 0  # width of the line on screen, 0 when nothing is shown
        self._started = 0.0

    def set(self, label: str) -> None:
        """Name the step now running (redrawn at once when the line is showing)."""
        with self._lock:
            self.label = label
            if self._shown:
                self._draw_locked()

    def __enter__(self) -> Progress:
        self._started = self._clock()
        if self.active:
            if self.delay <= 0:
                with self._lock:
                    self._draw_locked()
            self._thread = threading.Thread(target=self._tick, name="wendy-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self._shown:
                self.stream.write("\r" + " " * self._shown + "\r")
                self.stream.flush()
                self._shown = 0

    def _draw_locked(self) -> None:
        """Write the current frame over the previous one (the lock is held)."""
        width = max(shutil.get_terminal_size((80, 24)).columns - 1, 10)
        elapsed = self._clock() - self._started
        # The label may name a template (its id is a directory name): escaped.
        label = escape.text(self.label)
        text = f"wendy-llm {self.command}: {label} ... {elapsed:.1f} s"[:width]
        pad = " " * max(self._shown - len(text), 0)
        self.stream.write("\r" + text + pad)
        self.stream.flush()
        self._shown = max(self._shown, len(text))

    def _tick(self) -> None:
        # With no delay the first frame was drawn on entry: wait a tick first.
        if self._stop.wait(self.delay if self.delay > 0 else self.interval):
            return
        while True:
            with self._lock:
                if self._stop.is_set():
                    return
                self._draw_locked()
            if self._stop.wait(self.interval):
                return
