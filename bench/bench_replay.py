"""``replay`` of a real-shaped history: commits per second, cold cache.

``python bench/run.py replay`` (part of ``make bench``).  It builds the
real-shaped 40-template repository of ``realshape.py``, then a history of
``--commits`` commits (default 200) on top of it, each touching one or two
templates (seeded, so every run builds the same history): a comment in a
Dockerfile, a line of a README, the ``version`` of a ``wendy.json``.  Then
it replays the whole range with an empty Compose/ShellCheck cache of its
own (cold) and prints the base commit's full check, the commits per second
of the rest, and the machine's load.  Target (issue 30): at least one
commit a second on 2 cores.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from machine import load_average
from realshape import build_real_shaped

from wendy_llm.engine.toolchain import helper_path
from wendy_llm.history.replay import replay
from wendy_llm.validate.tools.cache import ResultCache

TARGET_COMMITS_PER_SECOND = 1.0


def _edit(template_dir: Path, rng: random.Random, serial: int) -> None:
    """One small edit of a template, of the kinds real commits make."""
    readme = template_dir / "README.md"
    dockerfiles = sorted(template_dir.rglob("Dockerfile"))
    choice = rng.randrange(3)
    if choice == 0 and dockerfiles:
        target = rng.choice(dockerfiles)
        target.write_text(target.read_text() + f"# revision {serial}\n")
    elif choice == 1 and '"version": "' in _text(template_dir / "wendy.json"):
        wendy = template_dir / "wendy.json"
        new = f'"version": "0.{serial + 1}.0"'
        wendy.write_text(re.sub(r'"version": "[^"]*"', new, wendy.read_text(), count=1))
    else:
        readme.write_text((readme.read_text() if readme.is_file() else "") + f"\nNote {serial}.\n")


def _text(path: Path) -> str:
    return path.read_text() if path.is_file() else ""


def build_history(root: Path, commits: int, seed: int = 30) -> list[str]:
    """``commits`` commits on the built repository, each touching one or two templates."""
    fixture = build_real_shaped(root)
    rng = random.Random(seed)
    ids = list(fixture.template_ids)
    for serial in range(commits):
        touched = rng.sample(ids, rng.choice((1, 1, 2)))
        for template in touched:
            _edit(fixture.template_dir(template), rng, serial)
        fixture.commit(f"{serial}: {', '.join(touched)}")
    return ids


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_replay", description=__doc__)
    parser.add_argument("--commits", type=int, default=200, help="commits to replay (200)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    helper_path()  # the benchmark is not about building Go
    with tempfile.TemporaryDirectory(prefix="wendy-llm-bench-replay-") as tmp:
        root = Path(tmp) / "templates-repo"
        ids = build_history(root, args.commits)
        cache = ResultCache(Path(tmp) / "cold-cache")
        report = replay(f"HEAD~{args.commits}..HEAD", root, cache=cache)
        load = load_average()
    judged = sum(len(c.judged) for c in report.commits)
    rest = report.seconds - report.base_seconds
    rate = len(report.commits) / rest if rest > 0 else float("inf")
    print(
        f"history: {len(ids)} templates, {len(report.commits)} commits touching one or two each "
        f"({judged} template verdicts judged again, the rest kept)"
    )
    print(f"base commit, every template checked: {report.base_seconds:.1f} s")
    print(
        f"replay of {len(report.commits)} commits: {rest:.1f} s, {rate:.2f} commits/s "
        f"({'within' if rate >= TARGET_COMMITS_PER_SECOND else 'UNDER'} the "
        f"{TARGET_COMMITS_PER_SECOND:g}/s target); whole run {report.seconds:.1f} s; "
        f"{report.introduced} introduced, {report.fixed} fixed; load average {load}"
    )
    cores = subprocess.run(["nproc"], capture_output=True, text=True, check=False).stdout.strip()
    print(f"cores: {cores or 'unknown'}")
    return 0 if rate >= TARGET_COMMITS_PER_SECOND else 1


if __name__ == "__main__":
    sys.exit(main())
