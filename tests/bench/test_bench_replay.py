"""The history ``bench/run.py replay`` replays: seeded, one or two templates a commit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_replay


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
    ).stdout


def test_each_commit_touches_one_or_two_templates(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    ids = bench_replay.build_history(root, 6)
    for back in range(6):
        changed = git(root, "diff", "--name-only", f"HEAD~{back + 1}", f"HEAD~{back}").split()
        touched = {"/".join(path.split("/")[:2]) for path in changed}
        assert 1 <= len(touched) <= 2 and touched <= set(ids)


def test_the_benchmark_reports_its_rate(capsys: pytest.CaptureFixture[str]) -> None:
    # Its exit status compares the rate with the target: the machine's load decides it,
    # so only the report is asserted here.
    assert bench_replay.main(["--commits", "2"]) in (0, 1)
    out = capsys.readouterr().out
    assert "2 commits touching one or two each" in out and "commits/s" in out
