"""The plugin benchmark reads ``-X importtime`` right and prints its line
(its figures are not asserted: timing belongs in the benchmark)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_plugin

REPORT = """\
import time: self [us] | cumulative | imported package
import time:       422 |     116600 | pytest
import time:      2373 |       2373 |   wendy_llm
import time:      4939 |       4939 |   wendy_llm.errors
import time:      4826 |      14779 | wendy_llm.pytest_plugin
"""


def test_cumulative_times_are_read_per_module() -> None:
    assert bench_plugin.cumulative_ms(REPORT) == {
        "pytest": 116.6,
        "wendy_llm": 2.373,
        "wendy_llm.errors": 4.939,
        "wendy_llm.pytest_plugin": 14.779,
    }


def test_the_line_sets_the_plugin_beside_pytest(capsys: pytest.CaptureFixture[str]) -> None:
    bench_plugin.main(["--rounds", "1"])
    out = capsys.readouterr().out
    assert re.fullmatch(
        r"plugin: wendy_llm\.pytest_plugin import \d+\.\d ms \(best \d+\.\d ms\) \| pytest's own "
        r"import \d+\.\d ms \(best \d+\.\d ms\) \[-X importtime, after pytest; median of 1 "
        r"rounds; target: best < 20 ms\]\n",
        out,
    ), out
