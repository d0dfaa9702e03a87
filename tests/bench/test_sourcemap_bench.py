"""The source map's benchmark runs end to end (figures are not asserted: timing
belongs in the benchmark, not in a test on a shared CI machine)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_sourcemap


def test_the_benchmark_times_the_map_and_the_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_sourcemap.main(["--runs", "1"]) == 0
    out = capsys.readouterr().out
    for label in ("docker-compose.yml", "wendy.json", "located findings", "SARIF", "Markdown"):
        line = next(line for line in out.splitlines() if line.startswith(label))
        assert " ms" in line, line
