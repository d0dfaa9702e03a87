"""Removing a replaced tree (``atomic.remove_tree``, what ``--force`` and the
clean-up of dead writers use instead of ``shutil.rmtree``): everything goes,
symbolic links are removed and never followed."""

from __future__ import annotations

from pathlib import Path

import pytest
from _template_helpers import write_files

from wendy_llm.atomic import remove_tree
from wendy_llm.cli import main


def test_remove_tree_removes_links_never_what_they_point_to(tmp_path: Path) -> None:
    """``remove_tree`` (which replaces ``shutil.rmtree`` on the writer's path)."""
    outside = write_files(tmp_path / "outside", {"keep.txt": "kept", "sub/deep.txt": "kept"})
    old = write_files(tmp_path / "old", {"a.txt": "x", "d/b.txt": "y", "d/e/f/g.txt": "z"})
    (old / "empty").mkdir()
    (old / "to-dir").symlink_to(outside)
    (old / "d" / "to-file").symlink_to(outside / "keep.txt")
    (old / "dangling").symlink_to(tmp_path / "nowhere")
    (old / "d" / "read-only.txt").write_text("r")
    (old / "d" / "read-only.txt").chmod(0o444)
    remove_tree(old)
    assert not old.exists()
    assert sorted(p.relative_to(outside).as_posix() for p in outside.rglob("*")) == [
        "keep.txt",
        "sub",
        "sub/deep.txt",
    ]


def test_remove_tree_leaves_a_link_and_a_missing_path_alone(tmp_path: Path) -> None:
    target = write_files(tmp_path / "target", {"keep.txt": "kept"})
    link = tmp_path / "link"
    link.symlink_to(target)
    remove_tree(link)  # as shutil.rmtree: a link to a directory is not emptied
    remove_tree(tmp_path / "missing")
    assert link.is_symlink() and (target / "keep.txt").read_text() == "kept"


def test_force_removes_the_old_tree_but_not_what_its_links_point_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = write_files(tmp_path / "outside", {"keep.txt": "kept"})
    out = write_files(tmp_path / "out", {"old.txt": "old", "sub/old.txt": "old"})
    (out / "sub" / "link").symlink_to(outside)
    template = write_files(
        tmp_path / "holder" / "tmpl",
        {"template.json": '{"variables": []}', "README.md": "# {{.APP_ID}}\n"},
    )
    argv = ["render", str(template), "--app-id", "a", "--out", str(out), "--force"]
    assert main(argv) == 0
    assert sorted(p.name for p in out.iterdir()) == ["README.md"]
    assert (outside / "keep.txt").read_text() == "kept"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
