"""``make fuzz`` (``bench/fuzz.py``) sees what it is there to see: untyped
exceptions, hangs and leaked helpers.  The fuzz run itself is not part of
the suite (it takes minutes); its cases are replayed here only briefly."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import fuzz

from wendy_llm import EngineError, Renderer


def _raise(error: BaseException) -> fuzz.Case:
    def case(rng: random.Random, renderer: Renderer) -> str:
        raise error

    return case


def _spin(rng: random.Random, renderer: Renderer) -> str:
    while True:
        pass


@pytest.mark.parametrize(
    ("case", "outcome"),
    [
        (_raise(ValueError("boom")), "untyped"),
        (_raise(EngineError("typed")), "typed:EngineError"),
        (_spin, "hang"),
    ],
)
def test_each_outcome_is_classified(
    monkeypatch: pytest.MonkeyPatch, case: fuzz.Case, outcome: str
) -> None:
    monkeypatch.setattr(fuzz, "CASES", (case,))
    with Renderer() as renderer:
        _, got, detail = fuzz.run_case(0, 1, renderer, hang_s=0.2)
    assert got == outcome
    if outcome == "untyped":
        assert "ValueError: boom" in detail


def test_a_helper_left_running_is_a_leak() -> None:
    renderer = Renderer()
    renderer.render("x", {})
    assert renderer.pid in fuzz.helpers_of_this_run()
    renderer.close()
    assert renderer.pid not in fuzz.helpers_of_this_run()


def test_a_short_run_replays_real_cases(capsys: pytest.CaptureFixture[str]) -> None:
    fuzz.main(["--cases", "40", "--seed", "5"])
    out = capsys.readouterr().out
    assert "fuzz: 40 cases (seed 5)" in out
    assert "untyped exceptions: " in out and "leaked helper processes: " in out
