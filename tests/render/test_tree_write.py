"""The atomic tree writer (``RenderedTree.write``): file and directory modes,
a non-empty target refused, overwrite by exchange or by renames, failures
that leave nothing behind, nothing written outside the tree; the tree as a
mapping of bytes; render and write errors that survive pickling."""

from __future__ import annotations

import os
import pickle
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from _template_helpers import make_template, write_files

import wendy_llm.render.files.tree as tree_module
from wendy_llm.errors import RenderError, TreeWriteError
from wendy_llm.render.files.tree import RenderedFile, RenderedTree
from wendy_llm.render.template import load_template

# --- writing -----------------------------------------------------------------------


@pytest.fixture
def sample_tree(tmp_path: Path) -> RenderedTree:
    root = write_files(
        tmp_path / "demo",
        {
            "template.json": "{}",
            "run.sh": "#!/bin/sh\necho {{.APP_ID}}\n",
            "demo/deep/file.txt": "x",
            "logo.png": b"\x89PNG\x00",
        },
    )
    (root / "run.sh").chmod(0o755)
    return load_template(root).render("my-app")


def _modes(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in root.rglob("*")}


@pytest.fixture
def strict_umask() -> Iterator[None]:
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def test_write_uses_0644_files_and_0755_dirs(
    tmp_path: Path, sample_tree: RenderedTree, strict_umask: None
) -> None:
    out = sample_tree.write(tmp_path / "out")
    assert _modes(out) == {
        "run.sh": 0o644,
        "logo.png": 0o644,
        "my-app": 0o755,
        "my-app/deep": 0o755,
        "my-app/deep/file.txt": 0o644,
    }
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert (out / "run.sh").read_text() == "#!/bin/sh\necho my-app\n"
    assert (out / "logo.png").read_bytes() == b"\x89PNG\x00"


def _siblings(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def test_write_refuses_a_non_empty_directory(tmp_path: Path, sample_tree: RenderedTree) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(TreeWriteError, match=r"directory is not empty; pass overwrite=True to"):
        sample_tree.write(out)
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert _siblings(out) == ["demo", "out"]


def test_write_into_an_existing_empty_directory(tmp_path: Path, sample_tree: RenderedTree) -> None:
    out = tmp_path / "out"
    out.mkdir()
    sample_tree.write(out)
    assert (out / "run.sh").is_file()
    assert _siblings(out) == ["demo", "out"]


def test_overwrite_replaces_the_whole_directory(tmp_path: Path, sample_tree: RenderedTree) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "stale.txt").write_text("old")
    sample_tree.write(out, overwrite=True)
    assert not (out / "stale.txt").exists()
    assert (out / "my-app" / "deep" / "file.txt").read_text() == "x"
    assert _siblings(out) == ["demo", "out"]


def test_overwrite_without_atomic_exchange_falls_back_to_renames(
    tmp_path: Path, sample_tree: RenderedTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tree_module, "_exchange", lambda a, b: False)
    out = tmp_path / "out"
    out.mkdir()
    (out / "stale.txt").write_text("old")
    sample_tree.write(out, overwrite=True)
    assert (out / "run.sh").is_file() and not (out / "stale.txt").exists()
    assert _siblings(out) == ["demo", "out"]


def test_failed_rename_leaves_nothing_behind(
    tmp_path: Path, sample_tree: RenderedTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    out = tmp_path / "out"
    with pytest.raises(TreeWriteError, match=r"writing the tree failed: .*No space left") as info:
        sample_tree.write(out)
    assert info.value.path == str(out)
    assert not out.exists()
    assert _siblings(out) == ["demo"]


def test_failed_swap_keeps_the_old_tree(
    tmp_path: Path, sample_tree: RenderedTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tree_module, "_exchange", lambda a, b: False)
    real_replace = os.replace
    calls: list[tuple[str, str]] = []

    def second_replace_fails(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        calls.append((str(src), str(dst)))
        if len(calls) == 2:
            raise OSError(5, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", second_replace_fails)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("old")
    with pytest.raises(TreeWriteError, match="Input/output error"):
        sample_tree.write(out, overwrite=True)
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert _siblings(out) == ["demo", "out"]


def test_failed_write_removes_the_parents_it_created(
    tmp_path: Path, sample_tree: RenderedTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_replace(src: object, dst: object) -> None:
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(TreeWriteError):
        sample_tree.write(tmp_path / "new" / "deeper" / "out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo"]


def test_write_creates_missing_parents(tmp_path: Path, sample_tree: RenderedTree) -> None:
    out = sample_tree.write(tmp_path / "new" / "deeper" / "out")
    assert (out / "run.sh").is_file()


def test_a_write_error_mid_tree_leaves_nothing_behind(tmp_path: Path) -> None:
    # A file and a directory of the same name cannot both be written.
    clash = RenderedTree(
        {
            "a": RenderedFile(path="a", data=b"file", rendered=False, source="a"),
            "a/b": RenderedFile(path="a/b", data=b"x", rendered=False, source="a/b"),
        }
    )
    out = tmp_path / "out"
    with pytest.raises(TreeWriteError):
        clash.write(out)
    assert list(tmp_path.iterdir()) == []


def test_write_never_writes_outside_the_directory(tmp_path: Path) -> None:
    for bad in ["../escape.txt", "/abs.txt", "a/../../x", "./a", "a//b"]:
        evil = RenderedTree({bad: RenderedFile(path=bad, data=b"x", rendered=False, source=bad)})
        with pytest.raises(TreeWriteError, match="outside the tree"):
            evil.write(tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


def test_write_refuses_symlinks_and_files_as_the_target(
    tmp_path: Path, sample_tree: RenderedTree
) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(TreeWriteError, match="is a symbolic link"):
        sample_tree.write(tmp_path / "link", overwrite=True)
    (tmp_path / "file").write_text("x")
    with pytest.raises(TreeWriteError, match="exists and is not a directory"):
        sample_tree.write(tmp_path / "file", overwrite=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo", "file", "link", "real"]


def test_rendered_tree_is_a_mapping_of_bytes(sample_tree: RenderedTree) -> None:
    assert len(sample_tree) == 3
    assert sample_tree["my-app/deep/file.txt"] == b"x"
    assert "run.sh" in sample_tree and "missing" not in sample_tree
    assert {p: f.rendered for p, f in sample_tree.files.items()} == {
        "logo.png": False,
        "my-app/deep/file.txt": True,
        "run.sh": True,
    }


def test_linux_exchange_swaps_two_directories(tmp_path: Path) -> None:
    # The overwrite path relies on renameat2(RENAME_EXCHANGE) on Linux.
    first, second = tmp_path / "first", tmp_path / "second"
    write_files(first, {"one.txt": "1"})
    write_files(second, {"two.txt": "2"})
    assert tree_module._exchange(first, second)
    assert [p.name for p in first.iterdir()] == ["two.txt"]
    assert [p.name for p in second.iterdir()] == ["one.txt"]


def test_render_and_write_errors_survive_pickling(tmp_path: Path) -> None:
    t = make_template(tmp_path, files={"a.txt": "{{.NOPE}}"})
    with pytest.raises(RenderError) as info:
        t.render("my-app")
    copy = pickle.loads(pickle.dumps(info.value))
    assert (str(copy), copy.file, copy.template, copy.line, copy.column) == (
        str(info.value),
        "a.txt",
        "demo",
        1,
        2,
    )
    write_error = pickle.loads(pickle.dumps(TreeWriteError("x", path="p")))
    assert (str(write_error), write_error.path) == ("x", "p")
