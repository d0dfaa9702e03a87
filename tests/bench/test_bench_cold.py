"""``bench/bench_cold.py``'s floor: the distinct projects a cold check hands
Compose (identical renders are one), each run once back to back."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from _check_helpers import write_template
from bench_cold import distinct_projects, environment, floor_seconds

from wendy_llm.validate.checks.compose import compose_key, tree_digest


def test_the_floor_runs_each_distinct_project_once(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path / "repo")
    projects = distinct_projects(templates)
    keys = [compose_key(tree_digest(tree), path) for tree, path in projects]
    assert projects and len(set(keys)) == len(keys)
    # A second template rendering the very same projects adds none.
    shutil.copytree(templates / "py" / "mini", templates / "py" / "twin")
    shutil.copy(golden / "py" / "mini.rules.yaml", golden / "py" / "twin.rules.yaml")
    again = distinct_projects(templates)
    assert sorted(compose_key(tree_digest(t), p) for t, p in again) == sorted(keys)
    wall, cpu = floor_seconds(projects)
    assert wall > 0 and cpu > 0


def test_the_command_is_timed_with_the_bytecode_cache_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # As an installed wheel has its .pyc files: no measured run compiles the package.
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("WENDY_LLM_BENCH_PROBE", "kept")
    env = environment()
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["WENDY_LLM_BENCH_PROBE"] == "kept"
