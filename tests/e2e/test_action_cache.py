"""The action caches what it installs (issue 36): the cache step's key and
paths, and a second run of the install step, with the directories actions/cache
restores, runs no pip and builds no helper.

actions/cache is stood for by what it does: ``tar`` the cached directory at
the end of the first job, restore it at the same path (``$RUNNER_TEMP`` is
the same on every hosted runner) in the second. The first job installs for
real: ``pip install`` of this repository's revision, from the machine's
package mirror (a local index, no network); the second runs with pip cut off
from every index, so any pip download or build there would fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest
from _action_helpers import ActionRun, workflow_step
from _cli_helpers import REPO
from _golden_helpers import git

CACHE_STEP = "Restore the gate's installation"


def test_the_cache_step_keys_the_installation_by_revision_python_and_runner() -> None:
    cache = workflow_step(CACHE_STEP)
    assert cache["uses"] == "actions/cache@v4"
    assert cache["if"] == "${{ inputs.cache == 'true' }}"
    assert cache["with"]["path"] == "${{ steps.prepare.outputs.root }}"
    prefix = "wendy-llm-${{ runner.os }}-${{ runner.arch }}-"
    assert cache["with"]["key"] == prefix + "${{ steps.prepare.outputs.key }}"
    assert cache["with"]["restore-keys"].strip() == prefix
    # Restored before anything is installed, and before the checkout is read.
    names = [step["name"] for step in _steps()]
    assert names.index("Prepare the gate's directories") < names.index(CACHE_STEP)
    assert names.index(CACHE_STEP) < names.index("Install wendy-llm")
    assert names.index("Install wendy-llm") < names.index("Find the base revision")


def _steps() -> list[dict[str, object]]:
    # lazy: the same list the runner uses
    from _action_helpers import action_steps

    return action_steps()


def _prepare(tmp_path: Path, name: str, **inputs: str) -> dict[str, str]:
    run = ActionRun(tmp_path / "checkout", tmp_path / name, inputs=inputs)
    run.checkout.mkdir(exist_ok=True)
    result = run.step("Prepare")
    assert result.code == 0, result.err
    return run.outputs["prepare"]


def test_every_cached_directory_is_under_the_cached_root_and_the_reports_are_not(
    tmp_path: Path,
) -> None:
    prepared = _prepare(tmp_path, "temp")
    root = Path(prepared["root"])
    assert root == tmp_path / "temp" / "wendy-llm"
    # The venv, the Go helper's and the tools' cache (WENDY_LLM_CACHE), pip's cache.
    assert Path(prepared["python"]) == root / "venv" / "bin" / "python"
    assert Path(prepared["cache"]) == root / "cache"
    install = workflow_step("Install wendy-llm")
    assert 'PIP_CACHE_DIR="$ROOT/pip"' in install["run"]
    assert install["env"]["WENDY_LLM_CACHE"] == "${{ steps.prepare.outputs.cache }}"
    for name in ("Check every pick", "Compare every template"):
        assert workflow_step(name)["env"]["WENDY_LLM_CACHE"] == install["env"]["WENDY_LLM_CACHE"]
    reports = Path(prepared["reports"])
    assert reports.parent == tmp_path / "temp" and not reports.is_relative_to(root)
    assert list(reports.iterdir()) == [] and (reports.stat().st_mode & 0o777) == 0o700


def test_the_key_changes_with_what_is_installed_and_nothing_else(tmp_path: Path) -> None:
    first = _prepare(tmp_path, "a")["key"]
    assert _prepare(tmp_path, "b")["key"] == first  # another job, the same gate
    other = _prepare(tmp_path, "c", install="git+https://example.invalid/wendy-llm@v2")["key"]
    assert other != first
    # Another revision of the action's own files.
    action = tmp_path / "action"
    shutil.copytree(REPO / "wendy_llm", action / "wendy_llm", ignore=_pycache)
    shutil.copytree(REPO / "tools", action / "tools", ignore=_pycache)
    for name in ("pyproject.toml", "MANIFEST.in"):
        shutil.copy2(REPO / name, action / name)
    run = ActionRun(tmp_path / "checkout", tmp_path / "d", action_path=action)
    assert run.step("Prepare").code == 0 and run.outputs["prepare"]["key"] == first
    # What a build writes into the action's directory (the revision stamp) is no source.
    (action / "wendy_llm" / "VERSION").write_text("0.1.0+src.0123456789ab\n", encoding="utf-8")
    run = ActionRun(tmp_path / "checkout", tmp_path / "d2", action_path=action)
    assert run.step("Prepare").code == 0 and run.outputs["prepare"]["key"] == first
    (action / "wendy_llm" / "options.py").write_text("# another revision\n", encoding="utf-8")
    run = ActionRun(tmp_path / "checkout", tmp_path / "e", action_path=action)
    assert run.step("Prepare").code == 0 and run.outputs["prepare"]["key"] != first


def _pycache(directory: str, names: list[str]) -> list[str]:
    return [name for name in names if name == "__pycache__"]


def _snapshot(folder: Path) -> dict[str, tuple[int, int, int]]:
    found = {}
    for path in sorted(folder.rglob("*")):
        st = path.lstat()
        found[str(path.relative_to(folder))] = (st.st_size, st.st_mtime_ns, st.st_ino)
    return found


def _restore_as_actions_cache_does(root: Path) -> None:
    """Save ``root`` as a tar archive, empty the runner's temporary directory
    (a new job on a new machine), extract the archive at the same path."""
    archive = root.parent.parent / "cache.tar"
    with tarfile.open(archive, "w") as tar:
        tar.add(root, arcname=root.name)
    shutil.rmtree(root.parent)
    root.parent.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(root.parent, filter="tar")


@pytest.fixture
def action_at_head(tmp_path: Path) -> Path:
    """This repository at its last commit, as `uses:` downloads it."""
    action = tmp_path / "action"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(REPO), str(action)], check=True)
    git(action, "checkout", "-q", git(REPO, "rev-parse", "HEAD"))
    return action


def test_the_second_run_installs_nothing(tmp_path: Path, action_at_head: Path) -> None:
    checkout = tmp_path / "checkout"
    (checkout / "bin").mkdir(parents=True)
    for name in ("python", "python3", "pip", "wendy-llm"):  # what a pull request puts on PATH
        (checkout / "bin" / name).write_text(f"#!/bin/sh\ntouch '{tmp_path}/ran-{name}'\n")
        (checkout / "bin" / name).chmod(0o755)
    # ... and what `python -m pip` or `-m wendy_llm...` would run from the checkout.
    for module in ("pip/__main__.py", "wendy_llm/engine/toolchain.py", "sitecustomize.py"):
        (checkout / module).parent.mkdir(parents=True, exist_ok=True)
        mark = tmp_path / f"ran-{module.replace('/', '-')}"
        (checkout / module).write_text(f"import pathlib\npathlib.Path({str(mark)!r}).touch()\n")
    path = {"PATH": f"{checkout / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    temp = tmp_path / "runner-temp"

    cold = ActionRun(checkout, temp, action_path=action_at_head, env=path)
    assert cold.step("Prepare").code == 0
    installed = cold.step("Install wendy-llm")
    assert installed.code == 0, installed.err
    assert "Successfully installed" in installed.out and "wendy-llm" in installed.out
    root = Path(cold.outputs["prepare"]["root"])
    venv = Path(cold.outputs["prepare"]["python"]).parent.parent
    assert (venv / "wendy-llm-install.key").read_text().strip() == cold.outputs["prepare"]["key"]
    helpers = sorted((root / "cache").glob("wendy-helper-*"))
    assert len(helpers) == 1
    assert sorted(tmp_path.glob("ran-*")) == []  # nothing of the pull request ran
    _restore_as_actions_cache_does(root)
    before = _snapshot(root)

    # pip cut off from every index and mirror: a download or a build would fail.
    offline = {**path, "PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull, "PIP_FIND_LINKS": ""}
    warm = ActionRun(checkout, temp, action_path=action_at_head, env=offline)
    assert warm.step("Prepare").code == 0
    assert warm.outputs["prepare"]["key"] == cold.outputs["prepare"]["key"]
    reused = warm.step("Install wendy-llm")
    assert reused.code == 0, reused.err
    assert "nothing to install" in reused.out and "Successfully" not in reused.out
    # No file of the venv or of pip's cache changed, the helper was not rebuilt;
    # the toolchain only notes again (by inode) that the restored sources are
    # the helper's, and which Go it has: small memo files, no build.
    after = _snapshot(root)
    added = {name for name in after.keys() - before.keys()}
    assert all(name.startswith(("cache/helpermemo-", "cache/goversion-")) for name in added)
    kept = {name: v for name, v in after.items() if name != "cache" and name not in added}
    assert kept == {name: v for name, v in before.items() if name != "cache"}
    assert sorted((root / "cache").glob("wendy-helper-*")) == helpers
    assert sorted(tmp_path.glob("ran-*")) == []  # nothing the pull request put on PATH ran

    # The same offline run on a cache of another revision: the venv is
    # replaced, so pip runs, and fails without an index (the proof that the
    # warm run above would have failed had it run pip).
    (venv / "wendy-llm-install.key").write_text("another revision\n")
    stale = ActionRun(checkout, temp, action_path=action_at_head, env=offline)
    assert stale.step("Prepare").code == 0
    assert stale.step("Install wendy-llm").code != 0
