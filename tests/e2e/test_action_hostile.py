"""The action against a hostile pull request (issue 38): every ``run:`` step of
action.yml, run with real bash in a checkout laid with what such a pull
request commits, runs none of its files, reads none of its links and writes
through none of them, and gives the real verdict.

The pull request breaks the template (its golden fixtures no longer match)
and commits, besides:

- Python that ``python -m pip``, ``-m venv``, ``-m wendy_llm...`` or any
  start-up hook would run from the working directory: ``pip/__main__.py``,
  ``venv/__main__.py``, ``wendy_llm/engine/toolchain.py``,
  ``wendy_llm/__main__.py``, ``sitecustomize.py``, ``usercustomize.py``;
- ``bin/`` with a fake ``wendy-llm``, ``python``, ``python3`` and ``pip``,
  first on PATH as a folder appended to ``$GITHUB_PATH`` would be;
- ``reports/``: a forged ``a.md`` saying "passed", ``x.md`` linked to a host
  file, ``token.md`` linked to ``.git/config`` (which holds the checkout's
  token when ``persist-credentials`` is left on), ``check.md`` and
  ``check.sarif`` linked to host files where the gate would write its own;
  or ``reports`` itself linked to a host folder.

Each committed program leaves a mark when it runs; the host files hold canary
texts that must appear in no summary, output, log or report, and must not
change; the host folder must stay empty.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from _action_helpers import ActionRun, action_steps
from _cli_helpers import LLM, copy_llm_project, edit
from _golden_helpers import commit_all, git, init_repo

HOST_CANARY = "CANARY-HOST-FILE-5d1e0c"
TOKEN_CANARY = "CANARY-CHECKOUT-TOKEN-93ab77"
FORGED = "### wendy-llm check: passed (FORGED-BY-THE-PULL-REQUEST)"

#: Committed Python that would run if the checkout were on sys.path.
PYTHON_HOOKS = (
    "pip/__init__.py",
    "pip/__main__.py",
    "venv/__init__.py",
    "venv/__main__.py",
    "wendy_llm/__init__.py",
    "wendy_llm/__main__.py",
    "wendy_llm/engine/__init__.py",
    "wendy_llm/engine/toolchain.py",
    "sitecustomize.py",
    "usercustomize.py",
)
#: Committed programs first on PATH.
FAKE_PROGRAMS = ("wendy-llm", "python", "python3", "pip")


def _python_mark(marks: Path, name: str) -> str:
    return (
        f"import pathlib\npathlib.Path({str(marks / name.replace('/', '_'))!r}).write_text('ran')\n"
    )


def _program_mark(marks: Path, name: str) -> str:
    # The fake also says what a forged gate would: that everything passed.
    return f"#!/bin/sh\necho ran > '{marks / ('bin_' + name)}'\necho '{FORGED}'\nexit 0\n"


def lay_hostile_pull_request(tmp_path: Path, *, reports_link: bool) -> tuple[Path, Path, Path]:
    """The checkout of the pull request, its marks folder and the host folder."""
    host, marks = tmp_path / "host", tmp_path / "marks"
    (host / "elsewhere").mkdir(parents=True)
    marks.mkdir()
    (host / "canary.txt").write_text(f"{HOST_CANARY}\n")
    (host / "canary-check.md").write_text(f"{HOST_CANARY} check\n")
    (host / "canary.sarif").write_text(f"{HOST_CANARY} sarif\n")
    origin = init_repo(tmp_path / "origin")
    copy_llm_project(origin)
    commit_all(origin, "the template, as reviewed")
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", str(origin), str(checkout)], check=True, timeout=120)
    git(
        checkout, "config", "http.https://github.com/.extraheader", f"AUTHORIZATION: {TOKEN_CANARY}"
    )
    # The real change: a template line the golden fixtures do not have.
    edit(checkout / "templates" / LLM / "docker-compose.yml", "services:", "services: # x")
    for name in PYTHON_HOOKS:
        path = checkout / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_python_mark(marks, name))
    (checkout / "bin").mkdir()
    for name in FAKE_PROGRAMS:
        (checkout / "bin" / name).write_text(_program_mark(marks, name))
        (checkout / "bin" / name).chmod(0o755)
    if reports_link:
        (checkout / "reports").symlink_to(host / "elsewhere")
    else:
        reports = checkout / "reports"
        reports.mkdir()
        (reports / "a.md").write_text(f"{FORGED}\n")
        (reports / "x.md").symlink_to(host / "canary.txt")
        (reports / "token.md").symlink_to(Path("..") / ".git" / "config")
        (reports / "check.md").symlink_to(host / "canary-check.md")
        (reports / "check.sarif").symlink_to(host / "canary.sarif")
    commit_all(checkout, "a pull request")
    return checkout, marks, host


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        str(path.relative_to(folder)): (path.lstat().st_size, path.lstat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
    }


@pytest.mark.parametrize("reports_link", [False, True], ids=["reports-links", "reports-symlink"])
def test_the_pull_request_runs_reads_and_writes_nothing(tmp_path: Path, reports_link: bool) -> None:
    checkout, marks, host = lay_hostile_pull_request(tmp_path, reports_link=reports_link)
    before = _snapshot(host)
    path = f"{checkout / 'bin'}{os.pathsep}{os.environ['PATH']}"
    run = ActionRun(
        checkout,
        tmp_path / "runner-temp",
        inputs={"sarif": "reports/check.sarif"},
        env={"PATH": path},
    )
    codes = run.run_gate()

    # Every run: step of the action ran, and none of the pull request's programs did.
    assert list(codes) == [step["name"] for step in action_steps() if "run" in step]
    assert sorted(p.name for p in marks.iterdir()) == []
    # The real verdict: the template's change fails the check and the policy.
    assert codes["Prepare the gate's directories"] == 0
    assert codes["Install wendy-llm"] == 0, run.results["Install wendy-llm"]
    assert codes["Check every pick of every template"] == 1
    assert codes["Compare every template with the base"] == 1
    assert codes["Write the job summary"] == 0, run.results["Write the job summary"]
    summary = run.summary.read_text(encoding="utf-8")
    assert "### wendy-llm check: FAILED" in summary
    assert "policy FAILS" in summary
    assert "FORGED" not in summary
    # Nothing of the host was read into what the job shows ...
    shown = [summary, *(s.out + s.err for s in run.results.values())]
    shown += [p.read_text(encoding="utf-8") for p in run.runner_temp.glob("output-*")]
    shown += [p.read_text(encoding="utf-8") for p in run.reports.iterdir()]
    for text in shown:
        assert HOST_CANARY not in text and TOKEN_CANARY not in text
    # ... nor written through: the host files and folder are as they were.
    assert _snapshot(host) == before
    assert sorted(p.name for p in run.reports.iterdir()) == [
        "baseline-python-llm.md", "baseline-python-llm.xml", "check.md", "check.sarif",
        "check.xml", "diff.md", "diff.xml",
    ]  # fmt: skip
    assert run.reports.parent == run.runner_temp
    assert not run.reports.is_relative_to(checkout)
