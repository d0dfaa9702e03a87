"""Running the composite action's steps (action.yml) as GitHub runs them, in a
repository of a test's making: the gate's own tests and the adoption's share it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import yaml
from _cli_helpers import REPO, VENV_BIN, cli_env

ACTION = REPO / "action.yml"


def actionlint(path: Path) -> subprocess.CompletedProcess[str]:
    """actionlint on one workflow file (the dev dependency's binary)."""
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


def workflow_step(name: str) -> str:
    # The workflow's gate job is the composite action at the root (uses: ./).
    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    [step] = [s for s in action["runs"]["steps"] if s.get("name", "").startswith(name)]
    script: str = step["run"]
    return script


def run_step(repo: Path, name: str, summary: Path, **env: str) -> int:
    script = repo.parent / "step.sh"
    script.write_text(workflow_step(name), encoding="utf-8")
    variables = {"GITHUB_STEP_SUMMARY": str(summary), "EVENT": "pull_request", "BASE_REF": "main"}
    variables.update(BEFORE="", PICKS_MAY_CHANGE="false")
    variables.update(env)
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=repo,
        env=cli_env(variables),
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc.returncode


def run_workflow(repo: Path, **env: str) -> tuple[int, int, str]:
    summary = repo.parent / "summary.md"
    summary.write_text("", encoding="utf-8")
    shutil.rmtree(repo / "reports", ignore_errors=True)
    check = run_step(repo, "Check every pick", summary, **env)
    diff = run_step(repo, "Compare every template with the base", summary, **env)
    assert run_step(repo, "Write the job summary", summary, **env) == 0
    return check, diff, summary.read_text(encoding="utf-8")
