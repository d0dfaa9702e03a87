"""The order in which the tools answer cannot change a report.

The tool stage's answers are joined to the renders by key (template, pick,
input), never by position: a runner that hands back every batch of tool
results in a shuffled order (the tool-runner boundary, where real runs
finish in whatever order the machine makes) gives a byte-identical report,
and so do the other stages' values (the renders, the baseline renders the
rules read) handed on in another order.
And identical tool inputs (the same project, the same script) run once per
``check``, whichever picks and templates share them.
"""

from __future__ import annotations

import dataclasses
import random
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import pytest
from _check_helpers import RULES, write_baseline, write_template

from wendy_llm.reports.json import check_json, dumps
from wendy_llm.validate import pickrun, rulerun
from wendy_llm.validate.pickrun import (
    PickRun,
    Rendered,
    RenderKey,
    RenderStage,
    StageResult,
    TemplateRun,
)
from wendy_llm.validate.rulerun import BaselineRender
from wendy_llm.validate.run import run_check
from wendy_llm.validate.tools.pool import ToolRunner

_Job = TypeVar("_Job")
_Key = TypeVar("_Key")
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


def shuffled(mapping: Mapping[_Key, _Out], rng: random.Random) -> dict[_Key, _Out]:
    items = list(mapping.items())
    rng.shuffle(items)
    return dict(items)


#: A rule that reads the stored baseline rendered with each render's answers
#: and app id, and fails on the variant's (app id my.app-2) only: its message
#: names the answers and the app id, so a baseline render joined to another
#: pick or input would change the report.
BASELINE_RULE = """\
  - name: no-baseline-volumes
    picks: {except: [big-dflash]}
    assert:
      - {volumes: {baseline: {name: 'my.app-2-*'}}, absent: true}
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_every_stage_joins_by_key_whatever_order_its_values_come_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    # The render stage and the baseline renders come back in another order
    # (and the tools' answers too): the report is the same, byte for byte.
    templates, golden = write_template(tmp_path / "repo", rules=RULES + BASELINE_RULE)
    write_baseline(golden)
    expected = report_bytes(templates, golden, ToolRunner(workers=2))
    for answer in ("gemma4:e2b", "qwen2.5:3b"):
        assert f"rendered with PORT=9080, OLLAMA_MODEL={answer} (app id my.app-2)" in expected
    rng = random.Random(seed)

    def render_template(run: TemplateRun) -> RenderStage:
        stage = pickrun.render_template(run)
        return RenderStage(MappingProxyType(shuffled(stage.renders, rng)), stage.stopped)

    def baseline_renders(*args: Any) -> dict[RenderKey, BaselineRender]:
        return shuffled(rulerun.baseline_renders(*args), rng)

    monkeypatch.setattr("wendy_llm.validate.run.render_template", render_template)
    monkeypatch.setattr("wendy_llm.validate.run.baseline_renders", baseline_renders)
    assert report_bytes(templates, golden, ShufflingRunner(seed)) == expected


@pytest.mark.parametrize("stage_value", [PickRun, TemplateRun, Rendered, RenderStage, StageResult])
def test_the_stage_values_are_frozen(stage_value: type) -> None:
    # Nothing is filled in later: a stage's value cannot be changed once returned.
    assert dataclasses.fields(stage_value)
    assert stage_value.__dataclass_params__.frozen  # type: ignore[attr-defined]
