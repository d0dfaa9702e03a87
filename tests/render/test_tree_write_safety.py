"""Tree writes that lose nothing: directories never replaced, no leftovers, clear collisions.

Issue 11 items 1 (``--force`` must not delete the template, the current
directory, a repository or the home directory), 2 (leftovers of a killed
writer are removed by the next write; a live writer's are not) and 3 (an
app id that makes two template paths collide is named before anything is
written).
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from _cli_helpers import copy_llm_project
from _template_helpers import make_template, write_files

import wendy_llm.render.files.tree as tree_module
from wendy_llm.cli import main
from wendy_llm.errors import OutputDirRefused, PathCollisionError, TreeWriteError
from wendy_llm.golden import update_golden
from wendy_llm.render.files.tree import RenderedFile, RenderedTree
from wendy_llm.render.template import Template, load_template

REPO = Path(__file__).resolve().parents[2]
LLM = REPO / "templates" / "python" / "llm"
NAME_MAX = 255


def _template(tmp_path: Path, where: str = "holder/tmpl") -> Template:
    root = write_files(
        tmp_path / where,
        {"template.json": '{"variables": []}', "README.md": "# {{.APP_ID}}\n"},
    )
    return load_template(root)


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def _listing(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


# --- item 1: directories --force must never replace ------------------------------


def test_force_refuses_a_directory_holding_the_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's example: the template at holder/tmpl, --out holder --force."""
    t = _template(tmp_path)
    before = _listing(tmp_path)
    holder = tmp_path / "holder"
    code, err = _cli(["render", str(holder / "tmpl"), "--app-id", "a", "--out", str(holder),
                      "--force"], capsys)  # fmt: skip
    assert code == 2
    assert err == (
        f"wendy-llm: error: refusing to replace {holder}: it contains the template directory "
        f"{t.root}; write the tree somewhere else\n"
    )
    assert _listing(tmp_path) == before


@pytest.mark.parametrize(
    ("out", "reason", "words"),
    [
        ("holder/tmpl", "template", "it is the template directory"),
        ("holder/tmpl/sub", "inside-template", "it is inside the template directory"),
        ("holder/tmpl/new/deeper", "inside-template", "it is inside the template directory"),
        ("link-to-tmpl", "template", "it is the template directory"),
        ("link-to-holder/tmpl/sub", "inside-template", "it is inside the template directory"),
    ],
)
def test_the_library_refuses_the_template_directory(
    tmp_path: Path, out: str, reason: str, words: str
) -> None:
    t = _template(tmp_path)
    (tmp_path / "holder" / "tmpl" / "sub").mkdir()
    (tmp_path / "link-to-tmpl").symlink_to(tmp_path / "holder" / "tmpl")
    (tmp_path / "link-to-holder").symlink_to(tmp_path / "holder")
    before = _listing(tmp_path)
    tree = t.render("a")
    for overwrite in (True, False):
        with pytest.raises(OutputDirRefused) as info:
            tree.write(tmp_path / out, overwrite=overwrite)
        assert info.value.reason == reason
        assert info.value.protected == str(t.root)
        assert words in str(info.value)
        assert isinstance(info.value, TreeWriteError)
    assert _listing(tmp_path) == before
    copy = pickle.loads(pickle.dumps(info.value))
    assert (str(copy), copy.reason, copy.protected) == (
        str(info.value),
        reason,
        str(t.root),
    )


@pytest.fixture
def cwd_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    work = write_files(tmp_path / "work" / "inner", {"notes.txt": "mine"})
    monkeypatch.chdir(work)
    yield work


@pytest.mark.parametrize("out", [".", "..", "{work}"])
def test_force_refuses_the_current_directory_and_its_parents(
    tmp_path: Path, cwd_in: Path, capsys: pytest.CaptureFixture[str], out: str
) -> None:
    t = _template(tmp_path, "elsewhere/tmpl")
    target = out.format(work=cwd_in)
    before = _listing(tmp_path)
    code, err = _cli(["render", str(t.root), "--app-id", "a", "--out", target, "--force"], capsys)
    assert code == 2
    where = "is" if target in (".", str(cwd_in)) else "contains"
    assert f"it {where} the current directory" in err, err
    assert _listing(tmp_path) == before


def test_even_an_empty_current_directory_is_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replacing it would leave the shell in a deleted directory."""
    t = _template(tmp_path, "elsewhere/tmpl")
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    with pytest.raises(OutputDirRefused) as info:
        t.render("a").write(".")
    assert info.value.reason == "cwd"
    assert list(empty.iterdir()) == []


def test_force_refuses_a_repository_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A git work tree's root, even one unrelated to the template and the current directory."""
    t = _template(tmp_path, "elsewhere/tmpl")
    repo = write_files(tmp_path / "some-repo", {"src/main.go": "package main\n"})
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    monkeypatch.chdir(tmp_path)
    code, err = _cli(["render", str(t.root), "--app-id", "a", "--out", str(repo), "--force"],
                     capsys)  # fmt: skip
    assert code == 2
    assert f"refusing to replace {repo}: it is the root of the git work tree {repo}" in err
    assert (repo / "src" / "main.go").is_file() and (repo / ".git").is_dir()


def test_the_repository_holding_the_template_is_named_as_such(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    t = _template(repo, "templates/python/tmpl")
    (repo / ".git").mkdir()
    with pytest.raises(OutputDirRefused) as info:
        t.render("a").write(repo / "templates", overwrite=True)
    assert info.value.reason == "template"
    with pytest.raises(OutputDirRefused) as info:
        t.render("a").write(repo, overwrite=True)
    assert info.value.reason == "repository"  # what it is comes before what it holds
    assert str(info.value).startswith(f"refusing to replace {repo}: it is the root of the git ")


def test_force_refuses_the_home_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    t = _template(tmp_path, "elsewhere/tmpl")
    home = write_files(tmp_path / "home" / "me", {".bashrc": "# mine\n"})
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    for out in (home, home.parent):
        code, err = _cli(["render", str(t.root), "--app-id", "a", "--out", str(out), "--force"],
                         capsys)  # fmt: skip
        assert code == 2
        assert "your home directory" in err
    assert (home / ".bashrc").read_text() == "# mine\n"


def test_force_still_replaces_an_ordinary_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = _template(tmp_path)
    out = write_files(tmp_path / "out", {"stale.txt": "old"})
    code, err = _cli(["render", str(t.root), "--app-id", "a", "--out", str(out), "--force"],
                     capsys)  # fmt: skip
    assert code == 0, err
    assert _listing(out) == ["README.md"]


def test_a_non_empty_out_without_force_names_the_flag_not_a_keyword(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = _template(tmp_path)
    out = write_files(tmp_path / "out", {"keep.txt": "mine"})
    code, err = _cli(["render", str(t.root), "--app-id", "a", "--out", str(out)], capsys)
    assert code == 2
    assert err == (f"wendy-llm: error: {out}: directory is not empty; pass --force to replace it\n")


def test_force_refusal_through_a_real_process(tmp_path: Path) -> None:
    _template(tmp_path)
    proc = subprocess.run(
        [Path(sys.executable).parent / "wendy-llm", "render", "tmpl", "--app-id", "a",
         "--out", ".", "--force"],
        cwd=tmp_path / "holder",
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.startswith("wendy-llm: error: refusing to replace ")
    assert (tmp_path / "holder" / "tmpl" / "template.json").is_file()


# --- item 2: leftovers of dead writers, and live writers left alone ---------------

# A writer in its own process that stops in the middle of writing the tree,
# says so on stdout, and finishes when its stdin is closed.
_STALLED_WRITER = textwrap.dedent(
    """
    import sys
    import wendy_llm.render.files.tree as tree

    real = tree._write_files

    def stall(files, root):
        real(files[:1], root)
        print("staged", root, flush=True)
        sys.stdin.read()
        real(files, root)

    tree._write_files = stall
    files = {
        name: tree.RenderedFile(path=name, data=b"from the writer", rendered=False, source=name)
        for name in ("one.txt", "two.txt")
    }
    tree.RenderedTree(files).write(sys.argv[1], overwrite=True)
    print("done", flush=True)
    """
)


class StalledWriter:
    def __init__(self, out: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _STALLED_WRITER, str(out)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        word, staged = self.proc.stdout.readline().split(" ", 1)
        assert word == "staged"
        self.staged = Path(staged.strip())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        assert self.proc.wait(timeout=60) == -signal.SIGKILL

    def finish(self) -> str:
        out, _ = self.proc.communicate("", timeout=60)
        assert self.proc.returncode == 0
        return out


def _tree(text: str = "mine") -> RenderedTree:
    return RenderedTree({"f.txt": RenderedFile("f.txt", text.encode(), False, "f.txt")})


def test_a_killed_writer_leaves_staging_that_the_next_write_removes(tmp_path: Path) -> None:
    out = tmp_path / "app"
    writer = StalledWriter(out)
    assert writer.staged.parent == tmp_path and writer.staged.name.startswith(".app.tmp-")
    writer.kill()
    assert writer.staged.is_dir()  # what SIGKILL leaves behind
    _tree().write(out, overwrite=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app"]
    assert (out / "f.txt").read_text() == "mine"


def test_a_live_writers_staging_is_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "app"
    writer = StalledWriter(out)
    _tree().write(out, overwrite=True)
    assert writer.staged.is_dir()
    assert writer.finish() == "done\n"
    # The later writer won; nothing is left beside the output.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app"]
    assert sorted(p.name for p in out.iterdir()) == ["one.txt", "two.txt"]


def test_leftovers_of_other_outputs_and_user_files_are_not_touched(tmp_path: Path) -> None:
    other = tmp_path / "other"
    writer = StalledWriter(other)
    writer.kill()
    mine = write_files(tmp_path, {".app.tmp-notes/x": "user data", ".app.tmp-12345678": "file"})
    _tree().write(tmp_path / "app")
    assert (mine / ".app.tmp-notes" / "x").is_file() and (mine / ".app.tmp-12345678").is_file()
    assert writer.staged.is_dir()  # belongs to "other"; its next write removes it
    _tree().write(other, overwrite=True)
    assert not writer.staged.exists()


def test_an_old_tree_moved_aside_by_a_killed_writer_is_removed(tmp_path: Path) -> None:
    out = tmp_path / "app"
    aside = write_files(tmp_path / ".app.old-ab12cd34", {"old.txt": "x"})
    _tree().write(out)
    assert not aside.exists()


def test_a_255_byte_output_name_can_be_written_and_cleaned(tmp_path: Path) -> None:
    out = tmp_path / ("n" * NAME_MAX)
    writer = StalledWriter(out)
    assert len(os.fsencode(writer.staged.name)) <= NAME_MAX
    writer.kill()
    _tree().write(out, overwrite=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]
    _tree("again").write(out, overwrite=True)
    assert (out / "f.txt").read_text() == "again"


def test_golden_updates_remove_a_killed_writers_leftovers(tmp_path: Path) -> None:
    project = copy_llm_project(tmp_path / "p")
    fixture = project / "golden" / "python" / "llm"
    writer = StalledWriter(fixture)
    writer.kill()
    aside = write_files(fixture.parent / ".llm.old-00ff00ff", {"x": "y"})
    update_golden(project / "templates", project / "golden", template_ids=["python/llm"])
    assert not writer.staged.exists() and not aside.exists()
    assert sorted(p.name for p in fixture.parent.iterdir() if p.name.startswith(".")) == []


# --- item 3: an app id that makes two template paths collide -------------------


def test_an_app_id_that_collides_names_both_template_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = make_template(
        tmp_path, name="tm", files={"README.md": "hi", "tm/x.txt": "x", "tm/y/z.txt": "z"}
    )
    with pytest.raises(PathCollisionError) as info:
        t.render("README.md")
    assert str(info.value) == (
        'template tm: app id "README.md" makes two template paths collide: README.md is '
        "written as the file README.md, and tm/x.txt as README.md/x.txt, inside it (wendy init "
        "fails here too); choose another app id"
    )
    assert (info.value.file, info.value.other, info.value.app_id) == (
        "README.md",
        "tm/x.txt",
        "README.md",
    )
    out = tmp_path / "out"
    code, err = _cli(["render", str(t.root), "--app-id", "README.md", "--out", str(out)], capsys)
    assert code == 2 and err == f"wendy-llm: error: {info.value}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tm"]
    copy = pickle.loads(pickle.dumps(info.value))
    assert (str(copy), copy.app_id) == (str(info.value), "README.md")


def test_a_tree_with_a_file_and_a_directory_of_one_name_names_both(tmp_path: Path) -> None:
    clash = RenderedTree(
        {
            "a": RenderedFile(path="a", data=b"file", rendered=False, source="src/a"),
            "a/b": RenderedFile(path="a/b", data=b"x", rendered=False, source="src/b"),
        }
    )
    with pytest.raises(TreeWriteError) as info:
        clash.write(tmp_path / "out")
    assert str(info.value) == (
        f"{tmp_path / 'out'}: cannot write both the file a (from src/a) and a/b (from src/b), "
        "which needs a to be a directory"
    )
    assert list(tmp_path.iterdir()) == []


def test_write_errors_name_the_output_not_the_staging_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(files: list[RenderedFile], root: Path) -> None:
        raise OSError(28, "No space left on device", str(root / "f.txt"))

    monkeypatch.setattr(tree_module, "_write_files", full_disk)
    out = tmp_path / "out"
    with pytest.raises(TreeWriteError) as info:
        _tree().write(out)
    assert str(info.value) == f"{out}: writing the tree failed: f.txt: No space left on device"
    assert list(tmp_path.iterdir()) == []
