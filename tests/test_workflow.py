"""The adoption files: the GitHub workflow passes actionlint (with ShellCheck
over its scripts) and does what it says; the pre-commit hooks are real
invocations of the command."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from _cli_helpers import REPO, VENV_BIN, cli_env, copy_llm_project

WORKFLOW = REPO / ".github" / "workflows" / "template-gate.yml"
HOOKS = REPO / ".pre-commit-hooks.yaml"

# pre-commit's manifest keys (pre-commit itself is not a dependency).
HOOK_KEYS = {
    "id", "name", "entry", "language", "files", "exclude", "types", "types_or",
    "exclude_types", "always_run", "fail_fast", "verbose", "pass_filenames",
    "require_serial", "description", "language_version", "minimum_pre_commit_version",
    "args", "stages",
}  # fmt: skip


def actionlint(path: Path) -> subprocess.CompletedProcess[str]:
    # actionlint runs ShellCheck on every `run:` script when it finds it on
    # PATH: the venv's bin comes first so that it does.
    env = {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        [str(VENV_BIN / "actionlint"), "-no-color", str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def load_workflow() -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return loaded


def steps(job: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = load_workflow()["jobs"][job]["steps"]
    return found


def step(job: str, name: str) -> dict[str, Any]:
    [found] = [s for s in steps(job) if s.get("name", "").startswith(name)]
    return found


# --- actionlint ------------------------------------------------------------------


def test_the_tools_are_there() -> None:
    assert (VENV_BIN / "actionlint").is_file() and (VENV_BIN / "shellcheck").is_file()


def test_workflow_passes_actionlint() -> None:
    result = actionlint(WORKFLOW)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_actionlint_catches_a_broken_expression(tmp_path: Path) -> None:
    broken = tmp_path / "gate.yml"
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "${{ github.base_ref }}" in text
    broken.write_text(text.replace("${{ github.base_ref }}", "${{ github.base_reff }}"))
    result = actionlint(broken)
    assert result.returncode == 1
    assert 'property "base_reff" is not defined' in result.stdout


def test_actionlint_runs_shellcheck_on_the_scripts(tmp_path: Path) -> None:
    broken = tmp_path / "gate.yml"
    text = WORKFLOW.read_text(encoding="utf-8")
    assert 'cat "$summary"' in text
    broken.write_text(text.replace('cat "$summary"', "cat $summary"))
    result = actionlint(broken)
    assert result.returncode == 1
    assert "shellcheck reported issue in this script: SC2086" in result.stdout


# --- what the workflow does ---------------------------------------------------------


def test_triggers_and_permissions() -> None:
    workflow = load_workflow()
    # PyYAML reads the bare key `on` as True (YAML 1.1).
    on: dict[str, Any] = workflow["on"] if "on" in workflow else workflow[True]
    assert "pull_request" in on and on["push"] == {"branches": ["main"]}
    assert {"labeled", "unlabeled", "synchronize"} <= set(on["pull_request"]["types"])
    assert workflow["permissions"] == {"contents": "read"}


def test_the_gate_job() -> None:
    checkout = step("gate", "Check out")
    assert checkout["uses"] == "actions/checkout@v4" and checkout["with"]["fetch-depth"] == 0
    assert step("gate", "Set up Python")["uses"] == "actions/setup-python@v5"
    install = step("gate", "Install wendy-llm")["run"]
    assert "python -m pip install ." in install and 'pip install "$WENDY_LLM"' in install
    check = step("gate", "Check every pick")
    assert check["run"].split() == shlex.split(
        "wendy-llm check --junit reports/check.xml --markdown reports/check.md"
    )
    diff = step("gate", "Compare every template with the base")
    assert diff["env"]["BASE_REF"] == "${{ github.base_ref }}"
    assert 'base="origin/$BASE_REF"' in diff["run"]
    assert 'wendy-llm diff --base "$base"' in diff["run"]
    assert "policy=(--expect-unchanged)" in diff["run"]
    assert 'wendy-llm diff --baseline "golden/baseline/$id"' in diff["run"]
    summary = step("gate", "Write the job summary")
    assert '>> "$GITHUB_STEP_SUMMARY"' in summary["run"]
    upload = step("gate", "Upload the reports")
    assert upload["uses"] == "actions/upload-artifact@v4"
    assert upload["with"]["path"] == "reports/"
    # Reports and the summary are written even when the check failed.
    for later in (diff, summary, upload):
        assert later["if"] == "${{ !cancelled() }}"


def test_the_scripts_take_no_expressions() -> None:
    # Everything from the event reaches the scripts through env: (no script
    # injection), which is also what lets the e2e test run them with bash.
    for job in ("gate", "test"):
        for s in steps(job):
            assert "${{" not in s.get("run", ""), s["name"]


def test_the_test_job_runs_make_test_in_this_repository_only() -> None:
    run = step("test", "Lint, type-check and test")
    assert run["run"].strip() == "make test"
    assert run["if"] == "${{ hashFiles('wendy_llm/cli/__init__.py') != '' }}"
    assert (REPO / "wendy_llm" / "cli" / "__init__.py").is_file()
    assert "test:" in (REPO / "Makefile").read_text(encoding="utf-8")


# --- pre-commit ------------------------------------------------------------------


def load_hooks() -> list[dict[str, Any]]:
    hooks: list[dict[str, Any]] = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    return hooks


def test_hooks_parse_and_use_only_known_keys() -> None:
    hooks = {hook["id"]: hook for hook in load_hooks()}
    assert set(hooks) == {"wendy-llm-check", "wendy-llm-golden"}
    for hook in hooks.values():
        assert {"id", "name", "entry", "language"} <= set(hook) <= HOOK_KEYS
        assert hook["language"] == "python" and hook["pass_filenames"] is False
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
