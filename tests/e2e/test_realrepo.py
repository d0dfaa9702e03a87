"""Issue 13's "Done when", at the root of a realistic templates repository.

Run as a new user would: ``golden --update`` then ``check`` at the root
with no arguments, on the repository ``tests/_realrepo`` builds (its
validity is ``test_realrepo_fixture.py``), then with each real defect of
``_realrepo.defects``.  What wendy-llm said about the repository
before issue 13, and after, is ``docs/realrepo-census.md``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _cli_helpers import Run, cli_env, run_module, unregistered_codes
from _realrepo import DEFECTS, SETTINGS_FILE, Defect, RepoFixture, build_repository
from _realrepo import spec as shapes
from _realrepo.builder import write_settings


@dataclass
class RootRun:
    """``golden --update`` then ``check --json`` at the root of a built repository."""

    fixture: RepoFixture
    problem: str | None = None
    update: Run | None = None
    check: Run | None = None

    def report(self) -> dict[str, Any]:
        assert self.problem is None, self.problem
        assert self.check is not None
        report: dict[str, Any] = json.loads(self.check.out)
        return report


def cli(root: Path, *args: str) -> Run:
    """``wendy-llm ARGS`` run from ``root``; CI's refusal to update fixtures is not the point."""
    return run_module(*args, cwd=root, env=cli_env(drop=("CI",)))


def golden_dir_problem(root: Path) -> str | None:
    """Why ``golden --update`` at ``root`` must not run (it would write elsewhere), or None."""
    dry = cli(root, "golden", "--check", "--json")
    try:
        # The report names it as typed from ``root`` (where the command ran).
        golden_dir = (root / json.loads(dry.out)["golden_dir"]).resolve()
    except (ValueError, KeyError):
        return f"golden --check at the root gave no report (exit {dry.code}): {dry.err}"
    if not golden_dir.is_relative_to(root.resolve()):
        return f"golden --update at the root would write to {golden_dir}, outside {root}"
    return None


@pytest.fixture(scope="module")
def root_run(tmp_path_factory: pytest.TempPathFactory) -> RootRun:
    fixture = build_repository(tmp_path_factory.mktemp("root-run") / "templates-repo")
    write_settings(fixture)
    fixture.commit("wendy-llm settings")
    run = RootRun(fixture, problem=golden_dir_problem(fixture.root))
    if run.problem is not None:
        return run
    run.update = cli(fixture.root, "golden", "--update")
    if run.update.code != 0:
        run.problem = f"golden --update exited {run.update.code}: {run.update.err}"
        return run
    fixture.commit("golden fixtures")
    run.check = cli(fixture.root, "check", "--json")
    return run


def results_of(report: Mapping[str, Any], template_id: str) -> list[dict[str, Any]]:
    return [r for r in report["results"] if r["template"] == template_id]


def test_golden_update_then_check_at_the_root_passes(root_run: RootRun) -> None:
    report = root_run.report()
    root = root_run.fixture.root
    for template_id in root_run.fixture.template_ids:
        assert (root / "golden" / template_id / "golden.json").is_file(), template_id
    assert [p.name for p in root.parent.iterdir()] == [root.name], "nothing written beside it"
    checked = {r["template"] for r in report["results"]}
    assert set(root_run.fixture.template_ids) <= checked
    failures = [r for r in report["results"] if r["status"] == "fail"]
    assert failures == []
    assert root_run.check is not None and root_run.check.code == 0
    # Every finding (warnings and notes too) carries a registered code of its check.
    assert any(f for r in report["results"] for f in r["findings"])
    assert not unregistered_codes(report)


def test_an_unlisted_question_type_is_an_input_with_a_warning(root_run: RootRun) -> None:
    report = root_run.report()
    for template_id in root_run.fixture.with_shape(shapes.TEXT_QUESTION):
        warnings = [
            f
            for r in results_of(report, template_id)
            for f in r["findings"]
            if f["severity"] == "warning"
        ]
        assert any("text" in f["message"] for f in warnings), warnings
        picks = cli(root_run.fixture.root, "picks", template_id)
        assert picks.code == 0, picks.err


def test_a_binary_rendered_file_gets_a_warning(root_run: RootRun) -> None:
    report = root_run.report()
    for template_id in root_run.fixture.with_shape(shapes.BINARY_JSON):
        files = {
            f["file"]
            for r in results_of(report, template_id)
            for f in r["findings"]
            if f["severity"] == "warning"
        }
        assert "calibration/intrinsics.json" in files, files


def copy_of(run: RootRun, tmp_path: Path) -> RepoFixture:
    root = tmp_path / run.fixture.root.name
    shutil.copytree(run.fixture.root, root, symlinks=True)
    return RepoFixture(root=root, templates=run.fixture.templates)


@pytest.mark.parametrize(
    "defect",
    [pytest.param(d, id=d.name) for d in DEFECTS],
)
def test_each_defect_fails_naming_file_and_line(
    defect: Defect, root_run: RootRun, tmp_path: Path
) -> None:
    root_run.report()  # the clean repository's run worked
    fixture = copy_of(root_run, tmp_path)
    expected = defect.inject(fixture)
    check = cli(fixture.root, "check", "--json")
    assert check.code == 1, check.err
    report = json.loads(check.out)
    failing = {r["template"] for r in report["results"] if r["status"] == "fail"}
    assert failing & set(fixture.template_ids) <= {expected.template}, "only its template fails"
    caught = [
        f
        for r in report["results"]
        if r["check"] not in ("golden", "baseline")  # a byte change fails those: proves nothing
        for f in r["findings"]
        if expected.matches(r["template"], f)
    ]
    assert caught, f"no failure says {expected}"
    assert not unregistered_codes(report)


def test_a_missing_sample_value_says_which_setting_to_add(
    root_run: RootRun, tmp_path: Path
) -> None:
    root_run.report()
    fixture = copy_of(root_run, tmp_path)
    (fixture.root / SETTINGS_FILE).unlink()
    check = cli(fixture.root, "check", "--json")
    assert check.code == 1
    report = json.loads(check.out)
    failing = {r["template"] for r in report["results"] if r["status"] == "fail"}
    assert failing == set(fixture.with_shape(shapes.NEEDS_VALUE))
    for template_id, values in fixture.sample_values.items():
        messages = [f["message"] for r in results_of(report, template_id) for f in r["findings"]]
        for variable in values:
            assert any(variable in m and SETTINGS_FILE in m for m in messages), messages


def test_picks_and_diff_need_no_arguments_at_the_root(tmp_path: Path) -> None:
    repo = build_repository(tmp_path / "templates-repo")
    picks = cli(repo.root, "picks")
    assert picks.code == 0, picks.err
    for template_id in repo.template_ids:
        assert template_id in picks.out
    # Without its sample value one template cannot be rendered: diff says how to
    # give it one and compares the others; with the settings, every template.
    diff = cli(repo.root, "diff", "--base", "HEAD")
    assert diff.code == 2
    for template_id in repo.with_shape(shapes.NEEDS_VALUE):
        assert f"template {template_id}: " in diff.err and SETTINGS_FILE in diff.err
    write_settings(repo)
    diff = cli(repo.root, "diff", "--base", "HEAD")
    assert diff.code == 0, diff.err
    for template_id in repo.template_ids:
        assert f"template {template_id}: HEAD (" in diff.out
