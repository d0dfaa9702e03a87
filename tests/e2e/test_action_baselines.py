"""The composite action's baseline step (action.yml), run as GitHub runs it:
stored baselines are found where the repository's layout puts them."""

from __future__ import annotations

import shutil
from pathlib import Path

from _action_helpers import ActionRun
from _cli_helpers import REPO


def test_the_baseline_step_finds_baselines_where_wendy_llm_toml_puts_them(
    tmp_path: Path,
) -> None:
    """golden-dir in wendy-llm.toml moves the stored baselines (issue 31): the
    action asks the command where they are instead of walking golden/baseline/."""
    repo = tmp_path / "repo"
    shutil.copytree(REPO / "templates/python/llm", repo / "templates/python/llm")
    shutil.copytree(REPO / "golden/baseline/python/llm", repo / "fixtures/baseline/python/llm")
    (repo / "wendy-llm.toml").write_text('golden-dir = "fixtures"\n', encoding="utf-8")
    # A push with no previous commit: no base to compare with, the baselines only.
    run = ActionRun(repo, tmp_path / "runner-temp", event="push", base_ref="", before="")
    run.step("Prepare")
    run.lay_installed_gate()
    assert run.step("Find the base revision").code == 0
    assert run.outputs["base"] == {"base": ""}
    code = run.step("Compare every template with the base").code
    # The stored baseline is the Ollama-only template: the vLLM picks differ from it.
    assert code == 1
    assert sorted(p.name for p in run.reports.iterdir()) == [
        "baseline-python-llm.md",
        "baseline-python-llm.xml",
    ]
    baseline = (run.reports / "baseline-python-llm.md").read_text()
    assert "fixtures/baseline/python/llm" in baseline
