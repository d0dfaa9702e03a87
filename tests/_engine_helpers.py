"""Shared helpers for the engine and toolchain tests."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from wendy_llm.engine import gofuncs
from wendy_llm.engine.client import Renderer, shared_renderer

# Go's range over a list costs about the same per step on any machine, so
# nesting it makes renders whose duration the tests can scale.
NESTED_RANGE = "{{range .L}}{{range $.L}}{{end}}{{end}}done"
# Three levels over 2000 items: 8e9 steps, far beyond any test's timeout.
# (Portable: `{{range 100000000}}` needs Go >= 1.24's range over int.)
ENDLESS = "{{range .L}}{{range $.L}}{{range $.L}}{{end}}{{end}}{{end}}never"
ENDLESS_DATA: dict[str, object] = {"L": list(range(2000))}


def write_script(path: Path, body: str) -> Path:
    """An executable POSIX shell script."""
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(0o755)
    return path


def is_reaped(pid: int) -> bool:
    """True when ``pid`` is neither running nor a zombie child of this process."""
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        waited = -1  # not our child (any more): reaped
    if waited == pid:
        return False  # it was a zombie until this very call
    return waited == -1 and not Path(f"/proc/{pid}").exists()


def cpu_ticks(pid: int) -> int:
    """User plus system CPU time of a process, in clock ticks (Linux ``/proc``)."""
    stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    # Fields after the parenthesised command name; utime and stime are the
    # 14th and 15th fields of the whole line.
    fields = stat.rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def calibrated_items(renderer: Renderer, seconds: float) -> list[int]:
    """A list for NESTED_RANGE that makes one render take about ``seconds``."""
    n = 300
    while True:
        start = time.perf_counter()
        renderer.render(NESTED_RANGE, {"L": list(range(n))})
        elapsed = time.perf_counter() - start
        if elapsed >= 0.02:
            break
        n *= 2
    # The render costs n**2 steps.
    scaled = int(n * (seconds / elapsed) ** 0.5)
    return list(range(max(scaled, 10)))


@contextlib.contextmanager
def helper_round_trips() -> Iterator[list[int]]:
    """The size of each batch the shared renderer sends the helper (``evaluate``)
    while the context is open, Go's answers not cached (a cold cache)."""
    renderer = shared_renderer()
    batches: list[int] = []
    evaluate = renderer.evaluate

    def counting(calls: Sequence[bytes]) -> list[tuple[int, bytes]]:
        batches.append(len(calls))
        return evaluate(calls)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gofuncs, "_answers", {})
        patch.setattr(renderer, "evaluate", counting)
        yield batches
