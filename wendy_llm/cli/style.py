"""Terminal presentation shared by the subcommands: options, the progress line, files.

- Colour is not here: :mod:`wendy_llm.reports.terminal` holds the rule and
  the report formatters apply it.
- Progress: :class:`Progress` shows one self-erasing status line on stderr
  while a slow step runs, only when stderr is a terminal, only once the step
  has taken a moment (:func:`progress_delay`: ``WENDY_LLM_PROGRESS_DELAY``
  seconds, default 0.5), and never with ``--quiet``.
- :func:`write_report`: report files (``--junit``, ``--markdown``) written
  atomically, so a reader never sees half a report.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

from wendy_llm.atomic import write_file_atomically
from wendy_llm.compare.textdiff import DEFAULT_MAX_LINES, TOTAL_LINES_FACTOR
from wendy_llm.errors import WendyLlmError, quoted
from wendy_llm.reports.terminal import is_terminal

if TYPE_CHECKING:
    from wendy_llm.repo.layout import Layout

__all__ = [
    "DEFAULT_PROGRESS_DELAY_S",
    "PROGRESS_DELAY_ENV",
    "Progress",
    "add_directories",
    "add_max_diff_lines",
    "add_quiet",
    "layout",
    "parse_var",
    "progress_delay",
    "write_report",
]

#: How long a step runs before its progress line appears, unless the
#: environment says otherwise (0: at once, which is how the tests see the line
#: without depending on how long a run takes).
PROGRESS_DELAY_ENV = "WENDY_LLM_PROGRESS_DELAY"
DEFAULT_PROGRESS_DELAY_S = 0.5


def add_quiet(parser: argparse.ArgumentParser, help_text: str) -> None:
    """The same ``--quiet``/``-q`` on every subcommand (no progress line either)."""
    parser.add_argument("--quiet", "-q", action="store_true", help=help_text)


def parse_var(text: str) -> tuple[str, str]:
    """A ``--var KEY=VALUE`` argument (argparse ``type``)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def _diff_line_limit(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {quoted(text)}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (no limit) or more")
    return value


def add_max_diff_lines(parser: argparse.ArgumentParser, diffs: str) -> None:
    """The same ``--max-diff-lines`` on every subcommand that prints diffs."""
    parser.add_argument(
        "--max-diff-lines",
        type=_diff_line_limit,
        default=DEFAULT_MAX_LINES,
        metavar="N",
        help=(
            f"cut {diffs} to N lines and all of them to {TOTAL_LINES_FACTOR}N "
            f"(default: {DEFAULT_MAX_LINES}; 0 = no limit)"
        ),
    )


def add_directories(parser: argparse.ArgumentParser, golden_help: str = "fixture root") -> None:
    """``[TEMPLATES_DIR]`` (alias ``--templates-dir DIR``) and ``--golden-dir`` alike everywhere.

    Defaults follow :mod:`wendy_llm.repo.layout`; they are resolved by
    :func:`layout`, not here, so the rule lives in one place.
    """
    parser.add_argument(
        "templates_dir",
        nargs="?",
        default=None,
        metavar="TEMPLATES_DIR",
        help=(
            "directory of <language>/<name>/ templates (default: the repository's templates/ "
            "when it holds templates, else the repository root)"
        ),
    )
    parser.add_argument(
        "--templates-dir",
        dest="templates_dir_option",
        default=None,
        metavar="DIR",
        help="the same as TEMPLATES_DIR",
    )
    parser.add_argument(
        "--golden-dir",
        default=None,
        metavar="DIR",
        help=f"{golden_help} (default: golden/ at the repository root; never outside it)",
    )


def layout(args: argparse.Namespace) -> Layout:
    """Where a run looks, from :func:`add_directories` flags (:func:`find_layout`)."""
    # Imported on first use (documented lazy loading): `render` shares this
    # module but needs no repository layout, and its start-up time counts.
    from wendy_llm.repo.layout import find_layout

    positional, option = args.templates_dir, args.templates_dir_option
    if positional is not None and option is not None and Path(positional) != Path(option):
        raise WendyLlmError(
            f"two templates directories: {positional} and --templates-dir {option}; give one"
        )
    return find_layout(positional if positional is not None else option, args.golden_dir)


def write_report(path: str, text: str, what: str) -> Path:
    """Write ``text`` to ``path`` atomically (parents created); ``what`` names it in errors."""
    target = Path(path)
    try:
        write_file_atomically(target, text.encode("utf-8"))
    except OSError as exc:
        raise WendyLlmError(f"cannot write the {what} {path}: {exc.strerror}") from exc
    return target


def progress_delay(environ: Mapping[str, str] = os.environ) -> float:
    """Seconds before the progress line shows: ``WENDY_LLM_PROGRESS_DELAY``, else 0.5."""
    raw = environ.get(PROGRESS_DELAY_ENV, "").strip()
    if not raw:
        return DEFAULT_PROGRESS_DELAY_S
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise WendyLlmError(
            f"{PROGRESS_DELAY_ENV} must be a number of seconds, 0 or more (e.g. 0.5), got {raw!r}"
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
        interval: float = 0.2,
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
        text = f"wendy-llm {self.command}: {self.label} ... {elapsed:.1f} s"[:width]
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
