"""Reads at a git revision are as strict as the working tree's (issue 38): a blob
over the size limit is refused unread, and one file asked for by name is refused
when it is a symbolic link or not a file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _golden_helpers import commit_all, init_repo, write_files

from wendy_llm.repo.gitsource import file_at_revision, read_tree, resolve_revision
from wendy_llm.safe_read import ReadRefused

CANARY = "canary-0b7e3a-host-secret"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    host = tmp_path / "host.txt"
    host.write_text(CANARY)
    repo = init_repo(tmp_path / "repo")
    write_files(
        repo,
        {
            "templates/py/t/template.json": "{}\n",
            "templates/py/t/big.bin": b"x" * 101,
            "golden/py/t.rules.yaml": "rules: []\n",
        },
    )
    os.symlink(host, repo / "golden" / "py" / "linked.rules.yaml")
    (repo / "golden" / "py" / "dir").mkdir()
    (repo / "golden" / "py" / "dir" / "x").write_text("x")
    commit_all(repo, "first")
    return repo


def test_a_blob_over_the_limit_is_refused_naming_it(repo: Path) -> None:
    rev = resolve_revision(repo, "HEAD")
    assert read_tree(repo, rev, "templates/py/t", limit=101)["big.bin"] == b"x" * 101
    with pytest.raises(ReadRefused, match=r"templates/py/t/big\.bin at HEAD: .*larger than 100"):
        read_tree(repo, rev, "templates/py/t", limit=100)


def test_one_file_at_a_revision(repo: Path) -> None:
    rev = resolve_revision(repo, "HEAD")
    assert file_at_revision(repo, rev, "golden/py/t.rules.yaml") == b"rules: []\n"
    assert file_at_revision(repo, rev, "golden/py/none.yaml") is None
    with pytest.raises(ReadRefused, match="a symbolic link at HEAD") as info:
        file_at_revision(repo, rev, "golden/py/linked.rules.yaml")
    assert CANARY not in str(info.value) and info.value.file == "golden/py/linked.rules.yaml"
    assert file_at_revision(repo, rev, "golden/py/dir") is None  # a tree: no file there
    with pytest.raises(ReadRefused, match="larger than 5 bytes"):
        file_at_revision(repo, rev, "golden/py/t.rules.yaml", limit=5)
