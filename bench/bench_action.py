"""A cold and a warm job of the composite action: ``python bench/run.py action``.

Every ``run:`` step of action.yml, with real bash (the test runner of
``tests/_action_helpers.py``), on a copy of the bundled template with a base
commit, twice: a cold job (an empty ``$RUNNER_TEMP``: the gate installed by
pip from this repository's last commit, from the machine's package mirror,
and the Go helper built) and a warm one (``$RUNNER_TEMP/wendy-llm`` saved
with ``tar`` and restored at the same path, as actions/cache does between
two jobs). It prints each step's wall time, each job's total and the size
of what the cache holds. Not measured: setup-python, actions/cache's own
download and upload, the checkout (GitHub's side of a job).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from machine import load_average

REPO = Path(__file__).resolve().parent.parent
TESTS_DIR = REPO / "tests"
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

from _action_helpers import ActionRun, action_steps  # noqa: E402
from _cli_helpers import copy_llm_project  # noqa: E402
from _golden_helpers import commit_all, git, init_repo  # noqa: E402


def _checkout(where: Path) -> Path:
    origin = init_repo(where / "origin")
    copy_llm_project(origin)
    commit_all(origin, "the template")
    checkout = where / "checkout"
    subprocess.run(["git", "clone", "-q", str(origin), str(checkout)], check=True)
    return checkout


def _job(checkout: Path, temp: Path, action: Path) -> tuple[dict[str, float], ActionRun]:
    run = ActionRun(checkout, temp, action_path=action)
    times: dict[str, float] = {}
    for step in action_steps():
        if "run" not in step:
            continue
        start = time.perf_counter()
        result = run.step(step["name"])
        times[step["name"]] = time.perf_counter() - start
        if result.code not in (0, 1):
            raise SystemExit(f"{step['name']}: exit {result.code}\n{result.err}")
    return times, run


def _size(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file())


def main(argv: Sequence[str] | None = None) -> int:
    print(f"load average: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="bench-action-") as scratch:
        where = Path(scratch)
        action = where / "action"
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(REPO), str(action)], check=True)
        git(action, "checkout", "-q", git(REPO, "rev-parse", "HEAD"))
        checkout = _checkout(where)
        temp = where / "runner-temp"
        cold, run = _job(checkout, temp, action)
        root = Path(run.outputs["prepare"]["root"])
        archive = where / "cache.tar"
        with tarfile.open(archive, "w") as tar:
            tar.add(root, arcname=root.name)
        shutil.rmtree(temp)
        temp.mkdir()
        with tarfile.open(archive) as tar:
            tar.extractall(temp, filter="tar")
        warm, _ = _job(checkout, temp, action)
        print(f"{'step':<40} {'cold':>8} {'warm':>8}")
        for name in cold:
            print(f"{name:<40} {cold[name]:>7.1f}s {warm.get(name, 0.0):>7.1f}s")
        print(f"{'the job':<40} {sum(cold.values()):>7.1f}s {sum(warm.values()):>7.1f}s")
        tar_mb = archive.stat().st_size / 1e6
        print(f"cached ($RUNNER_TEMP/wendy-llm): {_size(root) / 1e6:.0f} MB, tar {tar_mb:.0f} MB")
        for part in ("venv", "pip", "cache"):
            print(f"  {part}: {_size(root / part) / 1e6:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
