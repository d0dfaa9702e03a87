"""``wendy-llm replay``: exit status, --json, the progress bar on a terminal only."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
from _check_helpers import write_template
from _cli_helpers import run_in_terminal, run_module, validate_report

from wendy_llm.cli.history.progress import ProgressBar
from wendy_llm.history.gitwalk import Commit


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three commits of the mini template: the base, a broken Dockerfile, a README edit."""
    root = tmp_path_factory.mktemp("replay-cli")
    write_template(root, rules=None)
    git(root, "init", "-q")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
    dockerfile = root / "templates" / "py" / "mini" / "ollama" / "Dockerfile"
    dockerfile.write_text(dockerfile.read_text() + "RUN echo 10.0.0.2 db >> /etc/hosts\n")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "hosts at build")
    (root / "templates" / "py" / "mini" / "README.md").write_text("notes\n")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "readme")
    return root


def test_a_commit_that_introduced_an_error_exits_1(repo: Path) -> None:
    run = run_module("replay", "HEAD~2..", cwd=repo)
    assert run.code == 1, run.err
    lines = run.out.splitlines()
    assert lines[0].startswith("replay ") and "2 commits" in lines[0]
    assert any("hosts at build: +" in line for line in lines)
    assert any("[dockerfile] error ollama/Dockerfile:" in line for line in lines)
    assert run.err == ""  # not a terminal: no progress bar


def test_json_validates_and_a_clean_range_exits_0(repo: Path) -> None:
    run = run_module("replay", "HEAD~1..HEAD", "--json", cwd=repo)
    assert run.code == 0, run.err
    doc = validate_report(run.out, "replay")
    assert [c["subject"] for c in doc["commits"]] == ["readme"]
    assert doc["commits"][0]["introduced"] == [] and doc["commits"][0]["judged"] == ["py/mini"]


def test_a_bad_range_exits_2(repo: Path) -> None:
    run = run_module("replay", "HEAD", cwd=repo)
    assert run.code == 2
    assert "is not a range: write BASE..HEAD" in run.err


def test_the_progress_bar_is_drawn_on_a_terminal(repo: Path) -> None:
    run = run_in_terminal("replay", "HEAD~2..", cwd=repo, stdout_tty=False)
    assert run.code == 1
    assert "2/2" in run.err and "[" in run.err


def test_the_progress_bar_draws_nothing_off_a_terminal() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream)
    bar.update(1, 2, Commit("a" * 40, "subject"))
    bar.close()
    assert stream.getvalue() == ""
