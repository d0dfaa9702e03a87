"""The order in which the tools answer cannot change a report.

The tool stage's answers are joined to the renders by key (template, pick,
input), never by position: a runner that hands back every batch of tool
results in a shuffled order (the tool-runner boundary, where real runs
finish in whatever order the machine makes) gives a byte-identical report.
And identical tool inputs (the same project, the same script) run once per
``check``, whichever picks and templates share them.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from _check_helpers import write_template

from wendy_llm.reports.json import check_json, dumps
from wendy_llm.validate.run import run_check
from wendy_llm.validate.tools.pool import ToolRunner

_Job = TypeVar("_Job")
_Out = TypeVar("_Out")


class ShufflingRunner(ToolRunner):
    """Hands back each batch of finished tool jobs in a seeded random order."""

    def __init__(self, seed: int) -> None:
        super().__init__(workers=2)
        self._random = random.Random(seed)
        self.shuffled = 0

    def completed(self, done: list[tuple[_Job, _Out]]) -> list[tuple[_Job, _Out]]:
        order = list(done)
        self._random.shuffle(order)
        self.shuffled += len(order) > 1 and order != done
        return order


def report_bytes(templates: Path, golden: Path, runner: ToolRunner) -> str:
    with runner:
        report = run_check(templates, golden_dir=golden, cache=False, tool_runner=runner)
    document = check_json(report)
    document.pop("timings", None)
    return dumps(document)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shuffled_tool_answers_give_a_byte_identical_report(tmp_path: Path, seed: int) -> None:
    # A template whose picks differ in their compose files and whose rules
    # read Compose's model, and whose scripts each get another answer from
    # `bash -n` and ShellCheck: a misjoined answer would change a verdict.
    scripts = {
        "ollama/run.sh": "#!/bin/sh\nset -eu\nexec sleep 1\n",
        "vllm/run.sh": "#!/bin/bash\nfi\n",
        "web/run.sh": "#!/bin/sh\ncd /app\nexec sleep 1\n",
    }
    templates, golden = write_template(tmp_path / "repo", files=scripts)
    expected = report_bytes(templates, golden, ToolRunner(workers=2))
    assert '"check": "compose"' in expected and '"check": "topology"' in expected
    assert "bash -n" in expected and "SC2164" in expected
    shuffling = ShufflingRunner(seed)
    assert report_bytes(templates, golden, shuffling) == expected
    assert shuffling.shuffled > 0  # the order really was changed


class CountingRunner(ToolRunner):
    """Counts the Compose runs and the ``bash -n`` runs it is handed."""

    def __init__(self) -> None:
        super().__init__(workers=2)
        self.compose = 0
        self.bash = 0

    def run_all(self, fn: Any, jobs: Sequence[_Job]) -> list[tuple[_Job, _Out]]:
        self.compose += sum(1 for job in jobs if hasattr(job, "compose_path"))
        self.bash += sum(1 for job in jobs if isinstance(job, tuple) and job[0] == "bash")
        return super().run_all(fn, jobs)


def tool_runs(templates: Path, golden: Path) -> tuple[int, int, int]:
    runner = CountingRunner()
    with runner:
        report = run_check(templates, golden_dir=golden, cache=False, tool_runner=runner)
    renders = sum(1 for r in report.results if r.check == "compose" and r.pick != "(template)")
    return runner.compose, runner.bash, renders


def test_identical_tool_inputs_run_once_per_check_across_templates(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path / "one")
    compose_runs, bash_runs, picks = tool_runs(templates, golden)
    # Every pick's script is the same bytes: one `bash -n` for all of them.
    assert bash_runs == 1 and compose_runs > 0
    # A second template rendering the very same projects and scripts.
    shutil.copytree(templates / "py" / "mini", templates / "py" / "twin")
    shutil.copy(golden / "py" / "mini.rules.yaml", golden / "py" / "twin.rules.yaml")
    assert tool_runs(templates, golden) == (compose_runs, bash_runs, 2 * picks)
