"""How fast ``wendy-llm check`` stops on Ctrl-C and SIGTERM, and what it leaves
(``python bench/run.py interrupt``).

Each round starts ``wendy-llm check --no-cache`` on the bundled templates
(every Docker Compose and ShellCheck job runs), waits until a
``docker-compose`` or ``shellcheck`` child process runs, sends the signal to
the Python process only (not its process group, as ``kill PID`` and most
CI runners do), and measures the time from the signal to the exit. It
prints, per signal, the exit statuses, the median and worst latency, and
the ``wendy-llm-*`` temporary directories left behind (each round has its
own ``TMPDIR``).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TOOLS = ("docker-compose", "shellcheck")
HANG_GUARD_S = 300.0


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found |= {int(p) for p in (task / "children").read_text().split()}
    except OSError:
        pass
    return found


def _program(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
    except OSError:
        return ""


def _default_signals() -> None:
    # As a terminal gives them, whatever this process inherited (nohup, `&`).
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_DFL)


def one_round(signum: int) -> tuple[int, float, list[str]]:
    """(exit status, seconds from the signal to the exit, temp dirs left)."""
    with tempfile.TemporaryDirectory() as temp:
        proc = subprocess.Popen(
            [sys.executable, "-m", "wendy_llm", "check", "--no-cache"],
            cwd=REPO,
            env={**os.environ, "TMPDIR": temp},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_default_signals,
        )
        guard = time.monotonic() + HANG_GUARD_S
        while proc.poll() is None and time.monotonic() < guard:
            if any(_program(p).endswith(TOOLS) for p in _children(proc.pid)):
                break
            time.sleep(0.005)
        sent = time.monotonic()
        proc.send_signal(signum)
        proc.wait(HANG_GUARD_S)
        took = time.monotonic() - sent
        left = sorted(p for p in os.listdir(temp) if p.startswith("wendy-llm-"))
    return proc.returncode, took, left


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench interrupt", description=__doc__)
    parser.add_argument("--rounds", type=int, default=5, help="rounds per signal")
    args = parser.parse_args(argv)
    for signum in (signal.SIGINT, signal.SIGTERM):
        rounds = [one_round(signum) for _ in range(args.rounds)]
        times = [took for _, took, _ in rounds]
        codes = sorted({code for code, _, _ in rounds})
        left = sum(len(dirs) for _, _, dirs in rounds)
        print(
            f"{signal.Signals(signum).name}: exit {codes}, stopped in median "
            f"{statistics.median(times):.2f} s (worst {max(times):.2f} s), "
            f"{left} temp dirs left over {args.rounds} rounds"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
