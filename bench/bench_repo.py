"""``check`` of a real-shaped 40-template repository beside the bundled template.

``python bench/run.py repo``.  It builds the repository of ``realshape.py``
(40 templates in five languages, ``meta.json``, several MB of audio assets,
SDK blobs and ``package-lock.json`` files) into a temporary directory,
writes its fixtures (``golden --update``) and commits them, then runs
``check`` in-process on it and on this repository's bundled template
(``templates/python/llm``, 17 picks), alternately, warm (the Go helper
built, the Compose and ShellCheck results kept from a first run of each),
and prints both medians, their ratio and the machine's load.  The target
(issue 21): the 40 templates cost at most twice the bundled one, in the same
run: cost grows with templates and picks, not with bytes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from machine import load_average
from realshape import build_real_shaped, repository_size

from wendy_llm.engine.toolchain import helper_path
from wendy_llm.golden import update_golden
from wendy_llm.repo.layout import find_layout
from wendy_llm.reports.check import format_timings
from wendy_llm.validate.findings import Report
from wendy_llm.validate.run import run_check

REPO = Path(__file__).resolve().parent.parent
TARGET_RATIO = 2.0


def _picks(report: Report) -> int:
    return len({(r.template, r.pick) for r in report.results if r.pick and r.pick != "(template)"})


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_repo", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs of each side (default 5)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    helper_path()  # a warm helper cache: the benchmark is not about building Go
    with tempfile.TemporaryDirectory(prefix="wendy-llm-bench-repo-") as tmp:
        root = Path(tmp) / "templates-repo"
        fixture = build_real_shaped(root)
        size, count = repository_size(root)
        layout = find_layout(start=root)
        update_golden(layout, layout.golden_dir)
        fixture.commit("golden fixtures")
        sides: dict[str, Callable[[], Report]] = {
            "bundled": lambda: run_check(REPO / "templates", golden_dir=REPO / "golden"),
            "real-shaped": lambda: run_check(layout=layout),
        }
        for run in sides.values():
            run()  # fills the on-disk Compose and ShellCheck results: warm from here
        reports: dict[str, list[Report]] = {name: [] for name in sides}
        for _ in range(max(1, args.runs)):
            for name, run in sides.items():
                reports[name].append(run())
        load = load_average()
    medians = {n: statistics.median(r.timings["total"] for r in rs) for n, rs in reports.items()}
    for name, found in reports.items():
        middle = sorted(found, key=lambda r: r.timings["total"])[len(found) // 2]
        print(
            f"{name}: {_picks(middle)} picks, median {medians[name]:.3f} s "
            f"(min {min(r.timings['total'] for r in found):.3f} s) of {len(found)} warm runs; "
            f"exit {0 if middle.passed() else 1}"
        )
        print(format_timings(middle), end="")
    ratio = medians["real-shaped"] / medians["bundled"]
    verdict = "within" if ratio <= TARGET_RATIO else "OVER"
    print(
        f"real-shaped repository: {len(fixture.templates)} templates, {count} files, "
        f"{size / 1e6:.1f} MB (.git aside)"
    )
    print(
        f"ratio real-shaped / bundled: {ratio:.2f} ({verdict} the {TARGET_RATIO:g}x target); "
        f"load average {load}"
    )
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
