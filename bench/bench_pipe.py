"""Pipe benchmark: the floor under the engine's round trip.

A Python process and ``bench/pingpong`` (a Go program that answers each
frame with a fixed 2,700 bytes, reading and writing as the Go helper does)
exchange a 134-byte frame and its answer over a pair of pipes, with nothing
else: no encoding, no template, no records. What a round trip costs here is
the part of a single render (``bench/bench_engine.py`` (a)) that no work on
either side can remove: two wake-ups and four system calls. Four ways take
turns (best of seven rounds each):

- ``sleep``: Python sleeps in ``poll`` until the answer, Go blocks in ``read``;
- ``go awake``: Go watches its input for 30 us before it blocks;
- ``python awake``: Python looks with ``poll(0)`` for 30 us first;
- ``both awake``: both (what the engine does, ``options.RENDER_ANSWER_SPIN_S``
  and ``HELPER_REQUEST_SPIN_US``); each side yields the CPU between looks.

Run: ``python bench/run.py pipe`` or ``python bench/bench_pipe.py``. Linux only.
"""

from __future__ import annotations

import argparse
import os
import select
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from gobuild import build_go_program
from machine import load_average

GO_SOURCE = Path(__file__).resolve().parent / "pingpong"
FRAME = (130).to_bytes(4, "big") + bytes(130)
ANSWER_BYTES = 2700
AWAKE_S = 30e-6


def build_pingpong(out_dir: Path) -> Path:
    """``bench/pingpong`` built with the toolchain that builds the helper."""
    return build_go_program(GO_SOURCE, out_dir)


class Peer:
    """One running pingpong and a round trip with it."""

    def __init__(self, binary: Path, *, go_spin_us: int, python_awake: bool) -> None:
        self.proc = subprocess.Popen(
            [str(binary), f"-answer={ANSWER_BYTES}", f"-spin-us={go_spin_us}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.write_fd = self.proc.stdin.fileno()
        self.read_fd = self.proc.stdout.fileno()
        os.set_blocking(self.read_fd, False)
        self.poller = select.poll()
        self.poller.register(self.read_fd, select.POLLIN)
        self.python_awake = python_awake

    def round_trip(self) -> None:
        os.write(self.write_fd, FRAME)
        poll, got = self.poller.poll, 0
        awake_until = time.perf_counter() + (AWAKE_S if self.python_awake else 0.0)
        while got < ANSWER_BYTES:
            if not poll(0):
                if time.perf_counter() < awake_until:
                    os.sched_yield()
                    continue
                if not poll(10_000):
                    raise TimeoutError("pingpong did not answer within 10 s")
            chunk = os.read(self.read_fd, 1 << 16)
            if not chunk:
                raise EOFError("pingpong exited")
            got += len(chunk)

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        self.proc.wait()
        self.proc.stdout.close()


MODES: dict[str, tuple[int, bool]] = {
    "sleep": (0, False),
    "go awake": (int(AWAKE_S * 1e6), False),
    "python awake": (0, True),
    "both awake": (int(AWAKE_S * 1e6), True),
}


def measure(binary: Path, count: int, rounds: int = 7) -> dict[str, float]:
    """Microseconds per round trip in each mode: the best round of each."""
    peers = {mode: Peer(binary, go_spin_us=go, python_awake=py) for mode, (go, py) in MODES.items()}
    best = dict.fromkeys(MODES, float("inf"))
    try:
        for peer in peers.values():
            for _ in range(100):
                peer.round_trip()
        for _ in range(rounds):
            for mode, peer in peers.items():
                trip: Callable[[], None] = peer.round_trip
                start = time.perf_counter()
                for _ in range(count):
                    trip()
                best[mode] = min(best[mode], (time.perf_counter() - start) / count * 1e6)
    finally:
        for peer in peers.values():
            peer.close()
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply the round trips (default 1)"
    )
    args = parser.parse_args(argv)
    if sys.platform != "linux":
        print("pipe: Linux only (the Go side polls with ppoll); skipped")
        return 0
    with tempfile.TemporaryDirectory(prefix="wendy-bench-") as tmp:
        binary = build_pingpong(Path(tmp))
        figures = measure(binary, max(50, int(5000 * args.scale)))
    load = load_average()
    print(f"pipe: a {len(FRAME)}-byte frame and a {ANSWER_BYTES}-byte answer (load average {load})")
    for mode, micros in figures.items():
        print(f"  round trip, {mode:<13} {micros:8.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
