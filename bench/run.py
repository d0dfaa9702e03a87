"""Run every benchmark: ``python bench/run.py [NAME ...]`` (``make bench``).

A benchmark is a module ``bench/bench_<name>.py`` with a ``main(argv) -> int``;
this runner finds them by that naming rule, so a new benchmark registers by
existing. NAME selects some of them (e.g. ``engine``); the default is all.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import cast

BENCH_DIR = Path(__file__).resolve().parent


def available() -> list[str]:
    """Names of the benchmarks present, sorted."""
    return sorted(path.stem.removeprefix("bench_") for path in BENCH_DIR.glob("bench_*.py"))


def load(name: str) -> Callable[[Sequence[str]], int]:
    if str(BENCH_DIR) not in sys.path:
        sys.path.insert(0, str(BENCH_DIR))
    module = importlib.import_module(f"bench_{name}")
    return cast(Callable[[Sequence[str]], int], module.main)


def main(argv: Sequence[str] | None = None) -> int:
    names = list(sys.argv[1:] if argv is None else argv)
    known = available()
    unknown = [name for name in names if name not in known]
    if unknown:
        print(
            f"bench: unknown benchmark {', '.join(unknown)} (available: {', '.join(known)})",
            file=sys.stderr,
        )
        return 2
    status = 0
    for name in names or known:
        print(f"== bench_{name} ==", flush=True)
        status = max(status, load(name)([]))
    return status


if __name__ == "__main__":
    sys.exit(main())
