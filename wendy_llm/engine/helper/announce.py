"""Who hears of a Go helper build: the library prints nothing, a caller may listen.

Building the helper on first use takes seconds (12 s on a quiet machine, 40 s
on a busy one), so a command that would otherwise hang silently says why it
waits.  The library itself never writes to a stream (only ``cli/`` and
``reports/`` print): a caller registers a listener with
:func:`on_helper_build` and is told when a build starts and when it ends
(docs/library.md, "The Go helper").
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path


class HelperBuild:
    """One build of the Go helper: announced once before (``seconds`` None) and
    once after it succeeded (``seconds`` the wall time it took).

    A plain class, not a dataclass: the command line's render path must not
    load ``dataclasses`` (tests/e2e/test_cli_lazy.py)."""

    __slots__ = ("binary", "go", "go_version", "seconds")

    def __init__(
        self, go: Path, go_version: str, binary: Path, seconds: float | None = None
    ) -> None:
        self.go = go  # the ``go`` binary that builds
        self.go_version = go_version  # its ``go version`` line
        self.binary = binary  # where the helper is written (in the cache)
        self.seconds = seconds

    def __repr__(self) -> str:
        return f"HelperBuild({self.go!r}, {self.go_version!r}, {self.binary!r}, {self.seconds!r})"


HelperBuildListener = Callable[[HelperBuild], None]

_lock = threading.Lock()
_listeners: list[HelperBuildListener] = []


def on_helper_build(listener: HelperBuildListener) -> Callable[[], None]:
    """Call ``listener`` before and after every helper build of this process;
    returns the function that stops it."""
    with _lock:
        _listeners.append(listener)

    def stop() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return stop


def tell(event: HelperBuild) -> None:
    """Hand ``event`` to every listener (none: nothing happens)."""
    with _lock:
        listeners = list(_listeners)
    for listener in listeners:
        listener(event)
