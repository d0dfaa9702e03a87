"""Golden fixtures' atomic writes: a whole directory replaced at once, a failed
write or swap leaving the old fixtures and no debris, removal taking empty
parents but not the root.

These drive the pure parts with hand-made pick renders; the end-to-end
tests (real loader, real engine, the CLI) are in test_golden_cli.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _golden_helpers import write_files

from wendy_llm.errors import TreeWriteError
from wendy_llm.golden.fsops import remove_tree_atomically, write_tree_atomically
from wendy_llm.golden.layout import list_files
from wendy_llm.render.files import tree as tree_module

# --- atomic writes ------------------------------------------------------------------


def test_write_replaces_the_whole_directory(tmp_path: Path) -> None:
    target = tmp_path / "golden" / "py" / "t"
    write_tree_atomically(target, {"a/x.txt": b"1", "b.txt": b"2"})
    write_tree_atomically(target, {"b.txt": b"3", "c/d/e.txt": b"4"})
    assert {k: v.read_bytes() for k, v in list_files(target).items()} == {
        "b.txt": b"3",
        "c/d/e.txt": b"4",
    }
    assert sorted(p.name for p in target.parent.iterdir()) == ["t"]
    assert oct(target.stat().st_mode & 0o777) == oct(0o755)


def test_a_failed_write_leaves_the_old_tree_and_no_debris(tmp_path: Path) -> None:
    target = tmp_path / "t"
    write_tree_atomically(target, {"keep.txt": b"old"})
    with pytest.raises(TreeWriteError, match=r'refusing to write "\.\./escape\.txt" outside'):
        write_tree_atomically(target, {"new.txt": b"n", "../escape.txt": b"x"})
    assert (target / "keep.txt").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t"]


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two-renames"])
def test_a_failed_swap_keeps_the_old_fixtures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool
) -> None:
    # Fixtures go through the package's one atomic tree writer (tree.write_tree),
    # with or without renameat2: a swap that fails leaves the old fixtures whole.
    target = tmp_path / "golden" / "t"
    write_tree_atomically(target, {"keep.txt": b"old"})

    def broken_exchange(a: Path, b: Path) -> bool:
        raise OSError(5, "Input/output error")

    def no_exchange(a: Path, b: Path) -> bool:
        return False

    real_replace = os.replace
    calls: list[str] = []

    def second_replace_fails(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        calls.append(str(dst))
        if len(calls) == 2:
            raise OSError(5, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(tree_module, "_exchange", broken_exchange if exchange else no_exchange)
    monkeypatch.setattr(os, "replace", second_replace_fails)
    with pytest.raises(TreeWriteError, match=r"golden/t: writing the tree failed: .*Input/output"):
        write_tree_atomically(target, {"new.txt": b"new"})
    assert {k: v.read_bytes() for k, v in list_files(target).items()} == {"keep.txt": b"old"}
    assert sorted(p.name for p in target.parent.iterdir()) == ["t"]


def test_remove_takes_empty_parents_but_not_the_root_or_siblings(tmp_path: Path) -> None:
    root = tmp_path / "golden"
    write_files(root, {"py/t/golden.json": "{}", "go/x/golden.json": "{}", "go/x.rules.yaml": ""})
    remove_tree_atomically(root / "py" / "t", stop_at=root)
    remove_tree_atomically(root / "go" / "x", stop_at=root)
    assert sorted(p.name for p in root.iterdir()) == ["go"]
    assert sorted(p.name for p in (root / "go").iterdir()) == ["x.rules.yaml"]
