"""Benchmark ``wendy-llm check`` on the bundled templates (``make bench``).

With the Go helper already built (a warm helper cache, as after
``make install``), it runs the whole check in-process a few times without
the on-disk tool results (``cache=False``: every ``docker-compose config``
and ShellCheck run happens) and a few times with them (warm, as a second
``make check`` is), and prints the wall times and the split by validator
for the median warm run, then times the command itself (``wendy-llm check
--quiet``, interpreter start-up included, warm: what ``make check`` costs).
The target is 1.5 s for the warm command on the project's 2-core machine.

Validators run partly in parallel, so their times can add up to more than
the wall total; ``load`` and ``render`` are the template loading and the
rendering of every pick.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from wendy_llm.engine.toolchain import helper_path
from wendy_llm.reports.check import format_timings
from wendy_llm.validate.run import run_check

REPO = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 1.5


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_check", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="in-process runs (default 3)")
    args = parser.parse_args(list(argv) if argv is not None else None)

    helper_path()  # build (or find) the helper first: the benchmark is for a warm cache
    templates = REPO / "templates"
    golden = REPO / "golden"
    runs = max(1, args.runs)
    cold = [run_check(templates, golden_dir=golden, cache=False) for _ in range(runs)]
    cold_totals = [r.timings["total"] for r in cold]
    run_check(templates, golden_dir=golden)  # fills the on-disk results
    reports = [run_check(templates, golden_dir=golden) for _ in range(runs)]
    totals = [r.timings["total"] for r in reports]
    median = sorted(reports, key=lambda r: r.timings["total"])[len(reports) // 2]
    picks = {(r.template, r.pick) for r in median.results if r.pick}
    print(
        f"check (in-process, every pick with its variant), {len(picks)} picks, {runs} runs: "
        f"without cached tool results median {statistics.median(cold_totals):.3f} s; "
        f"warm median {statistics.median(totals):.3f} s, min {min(totals):.3f} s"
    )
    print("split by validator (median warm run, seconds of work):")
    print(format_timings(median), end="")

    command = [str(Path(sys.executable).parent / "wendy-llm"), "check", "--quiet"]
    started = time.perf_counter()
    proc = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    verdict = "within" if elapsed <= TARGET_SECONDS else "OVER"
    print(
        f"`wendy-llm check` (command, exit {proc.returncode}): {elapsed:.3f} s "
        f"({verdict} the {TARGET_SECONDS:g} s target)"
    )
    return 0 if elapsed <= TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
