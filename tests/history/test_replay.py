"""``replay`` on a history built here: commits that introduce and fix known defects.

The repository is a copy of ``tests/_realrepo`` (four of its templates, for
speed); each commit below changes one thing, and the replay must report
exactly what it introduced and fixed, commit by commit, judging only what
the commit touched and keeping every other verdict.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from _cli_helpers import validate_report
from _realrepo import defects
from _realrepo.builder import RepoFixture, build_repository, write_settings
from _realrepo.catalog import TEMPLATES

from wendy_llm.history.replay import CommitReport, ReplayReport, replay
from wendy_llm.history.report import replay_json, replay_text
from wendy_llm.reports.json import dumps
from wendy_llm.validate.findings import REPOSITORY, Finding

IDS = ("cpp/audio-monitor", "node/simple-api", "python/sensor-hub", "rust/simple-api")
NPM_IDIOM = (
    "RUN if [ -f package-lock.json ]; then npm ci --omit=dev; else npm install --omit=dev; fi \\"
)
NPM_CI = "RUN npm ci --omit=dev \\"


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RepoFixture, ReplayReport]]:
    root = tmp_path_factory.mktemp("history") / "repo"
    fixture = build_repository(root, templates=[s for s in TEMPLATES if s.id in IDS])
    write_settings(fixture)
    fixture.commit("settings")  # the base
    defects.persist_relative_path(fixture)
    fixture.commit("rust: persist path")
    edit(fixture.template_dir("python/sensor-hub") / "README.md", "\n", "\n\nMore words.\n")
    fixture.commit("sensor-hub: docs only")
    git(root, "checkout", "HEAD~2", "--", "rust/simple-api/wendy.json")
    fixture.commit("rust: absolute persist path again")
    stale = root / "rust" / "old-api"
    stale.mkdir()
    (stale / "Dockerfile").write_text("FROM rust:1\n", encoding="utf-8")
    fixture.commit("rust: old-api left without template.json")
    edit(fixture.template_dir("node/simple-api") / "Dockerfile", NPM_IDIOM, NPM_CI)
    fixture.commit("node: npm ci")
    git(root, "rm", "-r", "-q", "rust/old-api")
    fixture.commit("rust: old-api gone")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        yield fixture, replay("HEAD~6..HEAD", root)


def summary(
    commit: CommitReport,
) -> tuple[str, tuple[str, ...], set[tuple[str, str, str]], set[tuple[str, str, str]]]:
    def keys(findings: tuple[Finding, ...]) -> set[tuple[str, str, str]]:
        return {(f.template, f.check, f.severity) for f in findings}

    return commit.commit.subject, commit.judged, keys(commit.introduced), keys(commit.fixed)


def test_each_commit_reports_exactly_what_it_changed(
    history: tuple[RepoFixture, ReplayReport],
) -> None:
    _, report = history
    assert [summary(c) for c in report.commits] == [
        (
            "rust: persist path",
            ("rust/simple-api",),
            # One defect, one finding: the device check only notes it cannot judge it.
            {("rust/simple-api", "wendy-json", "error")},
            set(),
        ),
        ("sensor-hub: docs only", ("python/sensor-hub",), set(), set()),
        (
            "rust: absolute persist path again",
            (),  # the base's tree again: its verdict is reused, nothing is checked
            set(),
            {("rust/simple-api", "wendy-json", "error")},
        ),
        (
            "rust: old-api left without template.json",
            (REPOSITORY,),
            {(REPOSITORY, "catalog", "error")},
            set(),
        ),
        ("node: npm ci", ("node/simple-api",), {("node/simple-api", "dockerfile", "error")}, set()),
        # The repository as at the base again: its verdict is reused.
        ("rust: old-api gone", (), set(), {(REPOSITORY, "catalog", "error")}),
    ]
    assert [c.reused for c in report.commits] == [3, 3, 4, 4, 3, 4]


def test_the_findings_name_the_defects(history: tuple[RepoFixture, ReplayReport]) -> None:
    _, report = history
    broken, _, fixed, stale, npm, _ = report.commits
    persist = {(f.pick, f.check, f.file, f.line) for f in broken.introduced}
    picks = {f.pick for f in broken.introduced}
    assert persist == {(p, "wendy-json", "wendy.json", 12) for p in picks}
    assert {f.code for f in broken.introduced} == {"WJS003"}
    assert all('persist path "data" must be absolute' in f.message for f in broken.introduced)
    assert {f.message for f in fixed.fixed} == {f.message for f in broken.introduced}
    [folder] = stale.introduced
    assert folder.file == "rust/old-api/" and "Dockerfile (a Dockerfile)" in folder.message
    assert {f.line for f in npm.introduced} == {8}  # the RUN
    assert all(f.message.startswith("RUN `npm ci --omit=dev`") for f in npm.introduced)


def test_text_and_json_reports(history: tuple[RepoFixture, ReplayReport]) -> None:
    _, report = history
    text = replay_text(report)
    assert text.splitlines()[0].startswith("replay ")
    assert "6 commits" in text.splitlines()[0]
    assert "sensor-hub: docs only: +0 -0 (judged python/sensor-hub; 3 kept)" in text
    quiet = replay_text(report, quiet=True)
    assert "docs only" not in quiet and "npm ci" in quiet
    doc = validate_report(dumps(replay_json(report)), "replay")
    assert doc["summary"]["commits"] == 6
    assert [len(c["introduced"]) for c in doc["commits"]] == [
        len(c.introduced) for c in report.commits
    ]
    assert json.loads(dumps(replay_json(report))) == doc
