"""``make bench``'s engine benchmark runs end to end (figures are not asserted:
timing belongs in the benchmark, not in a test on a shared CI machine)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_engine


def test_the_benchmark_renders_the_llm_template_in_every_mode(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench_engine.main(["--scale", "0.001", "--skip-empty-gocache"]) == 0
    out = capsys.readouterr().out
    assert "rendering templates/python/llm/docker-compose.yml" in out
    for label in (
        "(a) single",
        "(b) batched",
        "(c) new helper",
        "(d) executed inside Go",
        "(e) round trip alone",
    ):
        line = next(line for line in out.splitlines() if label in line)
        assert float(line.split()[-2]) > 0, line
    assert "single / in-Go" in out and "(target <= 4x)" in out
    assert "batched / in-Go" in out and "(target <= 1.6x)" in out
    assert "process-per-render / single" in out and "load average" in out
    assert "cold start" in out and "warm start" in out


def test_the_data_maps_are_the_picks_values_with_distinct_app_ids() -> None:
    maps = bench_engine.data_maps(40)
    assert len({m["APP_ID"] for m in maps}) == 40
    assert {m["OLLAMA_MODEL"] for m in maps} == {
        m["OLLAMA_MODEL"] for m in bench_engine._pick_values()
    }
    assert all(isinstance(m["PORT"], float) for m in maps)  # a JSON default, as in the CLI


@pytest.mark.skipif(sys.platform != "linux", reason="the pingpong program is Linux only")
def test_the_pipe_benchmark_times_every_way_of_waiting(capsys: pytest.CaptureFixture[str]) -> None:
    import bench_pipe

    assert bench_pipe.main(["--scale", "0.001"]) == 0
    out = capsys.readouterr().out
    assert "load average" in out
    for mode in ("sleep", "go awake", "python awake", "both awake"):
        line = next(line for line in out.splitlines() if f"round trip, {mode} " in line)
        assert float(line.split()[-2]) > 0, line


def test_before_compares_the_paths_of_two_packages_side_by_side(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--before DIR``: another checkout's package (here, this very one)
    measured in turn with this one, each in a fresh interpreter."""
    root = Path(bench_engine.__file__).resolve().parents[1]
    argv = ["--scale", "0.001", "--rounds", "1", "--before", str(root)]
    assert bench_engine.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("engine: (a) single and (b) batched renders, median of 1 round")
    assert [line.split(":")[0].strip() for line in lines[1:]] == [str(root), str(root)]
    for line in lines[1:]:
        assert float(line.split("(b)")[1].split()[0]) > 0 and "load averages:" in line
        assert float(line.split("Python CPU")[1].split()[0]) > 0
