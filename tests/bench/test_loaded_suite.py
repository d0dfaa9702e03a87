"""``bench/loaded_suite.py``, the suite-under-load reproduction, on stand-in
commands: it runs them in a fresh clone, reports each run, and always stops
the CPU load it started (and the run in progress when interrupted)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _golden_helpers import commit_all, init_repo

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "loaded_suite.py"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """A repository whose committed HEAD holds ``marker`` (a clone has it)."""
    repo = init_repo(tmp_path / "repo")
    (repo / "marker").write_text("committed\n", encoding="utf-8")
    commit_all(repo, "marker")
    return repo


def _env(tmp_path: Path) -> dict[str, str]:
    """The script's work directory (clone and logs, kept on failure) in ``tmp_path``."""
    return {**os.environ, "TMPDIR": str(tmp_path)}


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(tmp_path),
    )


def _load_pids(out: str) -> list[int]:
    match = re.search(r"^load: \d+ busy process\(es\), pids ([\d ]*)$", out, re.M)
    assert match, out
    return [int(pid) for pid in match.group(1).split()]


def _busy(pid: int) -> bool:
    """Whether ``pid`` is still one of the script's busy loops (not a reused id)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"while True: pass" in cmdline


def test_runs_the_suite_in_a_fresh_clone_under_load_and_reports_each_run(
    source: Path, tmp_path: Path
) -> None:
    (source / "marker").unlink()  # only the clone (the committed HEAD) has it now
    suite = "test -f marker && echo '=========== 3 passed, 1 skipped in 0.10s ==========='"
    result = _run(
        tmp_path, "--source", str(source), "--runs", "2",
        "--check-command", "test -f marker", "--suite-command", suite,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "make check: PASS" in lines[-5]
    assert re.fullmatch(r"  run 1/2: PASS +\d+\.\d s", lines[-3])
    assert re.fullmatch(r"passed 2/2; wall time min .* median .* max .*", lines[-1])
    assert any(line.endswith("; 3 passed, 1 skipped in 0.10s") for line in lines)
    pids = _load_pids(result.stdout)
    assert len(pids) >= 1
    assert not [pid for pid in pids if _busy(pid)], "a busy loop outlived the script"


def test_a_failing_run_fails_the_script_and_names_the_failed_tests(
    source: Path, tmp_path: Path
) -> None:
    suite = (
        "echo 'FAILED tests/test_x.py::test_y - boom'; "
        "echo '==== 1 failed, 2 passed in 0.20s ===='; exit 1"
    )
    result = _run(tmp_path, "--source", str(source), "--runs", "1", "--check-command", "true",
                  "--suite-command", suite)  # fmt: skip
    assert result.returncode == 1
    assert "run 1/1: FAIL in " in result.stdout
    assert "1 failed, 2 passed in 0.20s\n  failed: tests/test_x.py::test_y" in result.stdout
    assert "passed 0/1;" in result.stdout
    assert "kept: " in result.stdout  # the logs of a failure stay


def test_an_interrupted_script_stops_the_load_and_the_run(source: Path, tmp_path: Path) -> None:
    # The run announces itself with a file, then waits for ever: the script is
    # terminated while it runs (synchronised on the file, not on a delay).
    ready, run_pid = tmp_path / "ready", tmp_path / "run.pid"
    suite = f"echo $$ > {run_pid} && touch {ready} && exec sleep 600"
    proc = subprocess.Popen(
        [sys.executable, str(SCRIPT), "--source", str(source), "--runs", "1",
         "--check-command", "true", "--suite-command", suite],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path),
    )  # fmt: skip
    try:
        guard = time.monotonic() + 120  # a hang guard only
        while not ready.exists() and proc.poll() is None and time.monotonic() < guard:
            time.sleep(0.05)
        assert ready.exists(), "the run never started"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, out + err
    assert "interrupted; the load is stopped" in err
    assert not [pid for pid in _load_pids(out) if _busy(pid)], "a busy loop outlived the script"
    assert not Path(f"/proc/{run_pid.read_text().strip()}").exists(), "the run outlived the script"
