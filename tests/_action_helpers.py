"""Running the composite action's steps (action.yml) as GitHub runs them, in a
repository of a test's making: the gate's own tests and the adoption's share it.

:class:`ActionRun` is a small runner of the action's ``run:`` steps: each one
with real bash, as GitHub starts it (``bash --noprofile --norc -eo pipefail``),
in its ``working-directory`` (else the checkout), with its ``env:`` evaluated
from the inputs, the event and the outputs earlier steps wrote to
``$GITHUB_OUTPUT``. An expression it does not know fails the test, so a new
one in action.yml is taught here before a test can pass. ``uses:`` steps are
not run: setup-python is stood for by the test's interpreter; actions/cache
by laying the installation (:meth:`ActionRun.lay_installed_gate`) or by
keeping ``$RUNNER_TEMP`` between two runs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from _cli_helpers import REPO, VENV_BIN, cli_env

from wendy_llm.engine.toolchain import cache_dir

ACTION = REPO / "action.yml"
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_LABELLED = re.compile(
    r"contains\(github\.event\.pull_request\.labels\.\*\.name, inputs\.([\w-]+)\)"
)


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


def load_action(path: Path = ACTION) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return loaded


def action_steps() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = load_action()["runs"]["steps"]
    return found


def workflow_step(name: str) -> dict[str, Any]:
    [step] = [s for s in action_steps() if s.get("name", "").startswith(name)]
    return step


@dataclass
class StepResult:
    code: int
    out: str
    err: str


@dataclass
class ActionRun:
    """One job's run of the action: the checkout, the runner's temporary
    directory, the inputs and the event; the steps' outputs as they come."""

    checkout: Path
    runner_temp: Path
    inputs: dict[str, str] = field(default_factory=dict)
    event: str = "pull_request"
    base_ref: str = "main"
    before: str = ""
    labels: tuple[str, ...] = ()
    action_path: Path = REPO
    #: The interpreter setup-python would have set up.
    python: str = sys.executable
    #: Extra environment of every step (PATH entries a test adds, pip's settings).
    env: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    results: dict[str, StepResult] = field(default_factory=dict)
    failed: bool = False

    def __post_init__(self) -> None:
        self.runner_temp.mkdir(parents=True, exist_ok=True)
        self.summary.touch()
        defaults = {k: str(v.get("default", "")) for k, v in load_action()["inputs"].items()}
        unknown = set(self.inputs) - set(defaults)
        assert not unknown, f"no such input: {sorted(unknown)}"
        self.inputs = {**defaults, **self.inputs}
        self.outputs["python"] = {"python-path": self.python}

    @property
    def summary(self) -> Path:
        return self.runner_temp / "step_summary.md"

    @property
    def reports(self) -> Path:
        return Path(self.outputs["prepare"]["reports"])

    def evaluate(self, expression: str) -> str:
        """One ``${{ ... }}`` expression of action.yml, as the runner gives it."""
        github = {
            "github.event_name": self.event,
            "github.base_ref": self.base_ref,
            "github.event.before": self.before,
        }
        if expression in github:
            return github[expression]
        if expression == "runner.temp":
            return str(self.runner_temp)
        if expression.startswith("inputs."):
            return self.inputs[expression.removeprefix("inputs.")]
        if match := re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression):
            return self.outputs.get(match[1], {}).get(match[2], "")
        if match := _LABELLED.fullmatch(expression):
            return str(self.inputs[match[1]] in self.labels).lower()
        raise AssertionError(f"the test runner does not know the expression {expression!r}")

    def expand(self, value: object) -> str:
        return _EXPRESSION.sub(lambda m: self.evaluate(m[1]), str(value))

    def step(self, name: str) -> StepResult:
        """Run one ``run:`` step (by the start of its name) and keep its outputs."""
        step = workflow_step(name)
        script = self.runner_temp / f"step-{len(self.results)}.sh"
        script.write_text(step["run"], encoding="utf-8")
        output = self.runner_temp / f"output-{len(self.results)}"
        output.write_text("", encoding="utf-8")
        env = cli_env(drop=["CI", "VIRTUAL_ENV", "PYTHONPATH"])
        env.update(self.env)
        env.update(
            GITHUB_ACTIONS="true",
            GITHUB_STEP_SUMMARY=str(self.summary),
            GITHUB_OUTPUT=str(output),
            GITHUB_ACTION_PATH=str(self.action_path),
            GITHUB_WORKSPACE=str(self.checkout),
            RUNNER_TEMP=str(self.runner_temp),
        )
        env.update({key: self.expand(value) for key, value in step.get("env", {}).items()})
        where = step.get("working-directory")
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=self.expand(where) if where else self.checkout,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        if "id" in step:
            self.outputs[step["id"]] = _read_outputs(output)
        result = StepResult(proc.returncode, proc.stdout, proc.stderr)
        self.results[step["name"]] = result
        self.failed = self.failed or proc.returncode != 0
        return result

    def run_all(self, *, skip: tuple[str, ...] = ()) -> dict[str, int]:
        """Every ``run:`` step not run yet, in order, as the runner does: a step
        without an ``if:`` is skipped after a failure, ``!cancelled()`` ones run
        anyway; the exit status of every step run so far, by name."""
        for step in action_steps():
            name = step["name"]
            if "run" not in step or name.startswith(skip) or name in self.results:
                continue
            if self.failed and "!cancelled()" not in step.get("if", ""):
                continue
            self.step(name)
        return {name: result.code for name, result in self.results.items()}

    def lay_installed_gate(self) -> None:
        """What actions/cache restores after an earlier run: the installation
        the install step then finds (a virtual environment that sees this
        test run's wendy-llm, marked with this run's key) and the Go helper."""
        prepared = self.outputs["prepare"]
        venv = Path(prepared["python"]).parent.parent
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        purelib = subprocess.run(
            [
                str(venv / "bin" / "python"),
                "-I",
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        # site.addsitedir also reads the .pth files there (the editable install).
        ours = sysconfig.get_paths()["purelib"]
        Path(purelib, "gate.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
        (venv / "wendy-llm-install.key").write_text(prepared["key"] + "\n")
        shutil.copytree(cache_dir(), prepared["cache"], dirs_exist_ok=True)

    def run_gate(self) -> dict[str, int]:
        """The whole action on an installation restored from the cache."""
        self.step("Prepare")
        self.lay_installed_gate()
        return self.run_all()


def _read_outputs(path: Path) -> dict[str, str]:
    outputs: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, separator, value = line.partition("=")
        assert separator, f"$GITHUB_OUTPUT line not name=value: {line!r}"
        outputs[name] = value
    return outputs


def run_workflow(repo: Path, **env: str) -> tuple[int, int, str, ActionRun]:
    """The action on ``repo`` (a pull request unless ``EVENT`` says otherwise):
    the check's and the diff's exit status, the job summary, the run."""
    event = env.pop("EVENT", "pull_request")
    base_ref, before = env.pop("BASE_REF", "main"), env.pop("BEFORE", "")
    inputs = {"sarif": env.pop("SARIF")} if "SARIF" in env else {}
    labels = tuple(
        label
        for label, setting in (
            ("picks-may-change", "PICKS_MAY_CHANGE"),
            ("policy-may-change", "POLICY_MAY_CHANGE"),
        )
        if env.pop(setting, "false") == "true"
    )
    assert not env, f"unknown settings: {sorted(env)}"
    # A runner's temporary directory of its own per job, as on GitHub.
    temp = Path(tempfile.mkdtemp(prefix="runner-temp-", dir=repo.parent))
    run = ActionRun(repo, temp, inputs, event, base_ref, before, labels)
    codes = run.run_gate()
    assert codes["Write the job summary"] == 0, run.results
    check, diff = codes["Check every pick of every template"], codes[_DIFF]
    return check, diff, run.summary.read_text(encoding="utf-8"), run


_DIFF = "Compare every template with the base"
