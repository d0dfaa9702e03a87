"""What a write says and leaves: the user's OUT in errors, a warning for a
rest of a replaced tree that cannot be removed, and no staging directory
left in the golden directory unreported or uncleaned."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from _golden_helpers import run_cli, template_files, write_files

from wendy_llm.atomic import TMP, make_work_dir
from wendy_llm.cli import main
from wendy_llm.render.files import tree as tree_module

MINI = ["a:1", "b:2"]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    write_files(tmp_path / "templates/py/mini", template_files(MINI))
    return tmp_path


def render(out: Path) -> list[str]:
    return ["render", "templates/py/mini", "--app-id", "app", "--pick", "a-1", "--out", str(out)]


# --- errors name the OUT the user gave ------------------------------------------


def test_a_read_only_output_is_named_not_its_staging_directory(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def read_only(target: Path, kind: str) -> Path:
        # What mkdir says on a read-only file system: the new directory's name.
        name = make_work_dir(target, kind)
        name.rmdir()
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(name))

    monkeypatch.setattr(tree_module, "make_work_dir", read_only)
    out = project / "new"
    assert main(render(out)) == 2
    err = capsys.readouterr().err
    assert err == f"wendy-llm: error: {out}: writing the tree failed: Read-only file system\n"
    assert [p.name for p in project.iterdir() if p.name.startswith(".")] == []


# --- --force over a tree that cannot be fully removed ------------------------------


@pytest.fixture
def undeletable() -> Iterator[list[Path]]:
    """Files made impossible to delete (``chattr +i`` as root, a read-only
    directory otherwise); made deletable again afterwards."""
    made: list[Path] = []
    yield made
    for path in made:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=False)
        else:
            path.parent.chmod(0o755)


def pin(path: Path, made: list[Path]) -> None:
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("chattr is needed to make a file undeletable as root")
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip(f"chattr +i is not supported here: {done.stderr!r}")
    else:
        path.parent.chmod(0o555)
    made.append(path)


def test_force_over_a_tree_that_cannot_be_removed_warns_where_the_rest_is(
    project: Path, undeletable: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out = project / "app"
    (out / "stuck").mkdir(parents=True)
    (out / "stuck" / "keep").write_text("mine\n")
    pin(out / "stuck" / "keep", undeletable)
    assert main([*render(out), "--force"]) == 0
    err = capsys.readouterr().err
    rest = [p for p in project.iterdir() if p.name.startswith(".app.")]
    assert len(rest) == 1 and (rest[0] / "stuck" / "keep").read_text() == "mine\n"
    assert err == (
        f"wendy-llm: warning: {out}: written, but part of the tree it replaced could not "
        f"be removed: it is left in {rest[0]} (remove it by hand)\n"
    )
    assert (out / "docker-compose.yml").is_file() and not (out / "stuck").exists()


# --- leftovers in the golden directory ----------------------------------------------


def test_golden_leftovers_fail_the_check_and_the_next_update_removes_them(
    project: Path,
) -> None:
    assert run_cli("golden", "--update")[0] == 0
    # What a writer killed outright leaves: a staging and an aside directory.
    staged = make_work_dir(project / "golden/py/mini", TMP)
    (staged / "a-1").mkdir()
    (staged / "a-1" / "docker-compose.yml").write_text("half\n")
    code, out, _ = run_cli("golden", "--check")
    assert code == 1
    shown = staged.relative_to(project).as_posix()
    assert f"stale: {shown}/ is what an interrupted update left" in out
    assert "Run: wendy-llm golden --update --template py/mini" in out
    code, out, err = run_cli("check", "--template", "py/mini")
    assert code == 1, err
    assert f"stale: {shown}/" in out
    code, _, _ = run_cli("golden", "--update")
    assert code == 0
    assert not staged.exists()
    assert run_cli("golden", "--check")[0] == 0
