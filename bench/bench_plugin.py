"""The pytest plugin's cost to a run that does not use it, beside pytest's own.

Installed, wendy-llm's plugin loads in every pytest run of its environment
(entry point ``pytest11``), so what its import costs, every project pays.
Each round runs ``python -X importtime -c "import pytest; import
wendy_llm.pytest_plugin"`` and reads, from the import-time report, the
cumulative time of ``pytest`` (what pytest itself costs to import) and of
``wendy_llm.pytest_plugin`` after it (everything the plugin imports that
pytest had not: what it adds to a run that uses none of its fixtures; its
hooks only ``stat`` a few paths there). A pytest run loads the plugin with
``importlib`` (its entry point), which ``-X importtime`` does not report,
hence the import statement. One line: the medians and the best of the rounds,
and the target (issue 31: under 20 ms), which the best round must meet (as
``timeit`` takes its best: load on a shared machine only ever adds).

Run: ``python bench/run.py plugin`` (``make bench``) or ``python bench/bench_plugin.py``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from collections.abc import Mapping, Sequence

ROUNDS = 7
TARGET_MS = 20.0
PLUGIN = "wendy_llm.pytest_plugin"
#: ``import time: self [us] | cumulative | imported package`` (the name indented by depth).
_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)$")


def cumulative_ms(report: str) -> dict[str, float]:
    """Each module's cumulative import time in ms, from ``-X importtime``'s report
    (a module imported at several depths keeps its first, and only, import)."""
    found: dict[str, float] = {}
    for line in report.splitlines():
        match = _LINE.match(line)
        if match is not None:
            found.setdefault(match.group(4), int(match.group(2)) / 1000)
    return found


def one_round() -> Mapping[str, float]:
    code = f"import pytest; import {PLUGIN}"
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True
    )
    if run.returncode != 0:
        raise RuntimeError(f"{code} failed:\n{run.stderr}")
    return cumulative_ms(run.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"default {ROUNDS}")
    args = parser.parse_args(argv)
    rounds = [one_round() for _ in range(args.rounds)]
    plugin = [r[PLUGIN] for r in rounds]
    pytest_own = [r["pytest"] for r in rounds]
    print(
        f"plugin: wendy_llm.pytest_plugin import {statistics.median(plugin):.1f} ms "
        f"(best {min(plugin):.1f} ms) | pytest's own import {statistics.median(pytest_own):.1f} "
        f"ms (best {min(pytest_own):.1f} ms) [-X importtime, after pytest; median of "
        f"{args.rounds} rounds; target: best < {TARGET_MS:g} ms]",
        flush=True,
    )
    return 0 if min(plugin) < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
