"""Reading template files at a git revision (wendy_llm.repo.gitsource)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from _golden_helpers import commit_all, git, init_repo, template_files, write_files

from wendy_llm.errors import NotAGitRepository, NoTemplateAtRevision, UnknownRevision, quoted
from wendy_llm.repo.gitsource import (
    files_at_revision,
    paths_at_revision,
    read_tree,
    repo_root,
    resolve_revision,
    template_at_revision,
)
from wendy_llm.repo.loading import load_template


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "repo")
    write_files(
        repo,
        {
            "templates/py/t/template.json": "{}\n",
            "templates/py/t/a.txt": "one\r\n",
            "templates/py/t/sub/b.bin": b"\x00\xff" * 5000,
            "templates/py/t/name with space.md": "x\n",
            "templates/py/other/template.json": "{}\n",
        },
    )
    os.symlink("a.txt", repo / "templates/py/t/link.txt")
    commit_all(repo, "first")
    return repo


def test_reads_every_regular_file_byte_for_byte(repo: Path) -> None:
    rev = resolve_revision(repo, "HEAD")
    files = read_tree(repo, rev, "templates/py/t")
    assert files == {
        "template.json": b"{}\n",
        "a.txt": b"one\r\n",
        "sub/b.bin": b"\x00\xff" * 5000,
        "name with space.md": b"x\n",
    }


def test_reads_the_revision_not_the_work_tree(repo: Path) -> None:
    first = resolve_revision(repo, "HEAD")
    write_files(repo, {"templates/py/t/a.txt": "two\n", "templates/py/t/new.txt": "n\n"})
    commit_all(repo, "second")
    (repo / "templates/py/t/a.txt").write_text("uncommitted\n")
    before = sorted(p.name for p in (repo / "templates/py/t").iterdir())
    old = read_tree(repo, first, "templates/py/t")
    assert old["a.txt"] == b"one\r\n" and "new.txt" not in old
    assert read_tree(repo, resolve_revision(repo, "HEAD"), "templates/py/t")["a.txt"] == b"two\n"
    assert resolve_revision(repo, "HEAD~1").commit == first.commit
    # Nothing in the work tree moved.
    assert (repo / "templates/py/t/a.txt").read_text() == "uncommitted\n"
    assert sorted(p.name for p in (repo / "templates/py/t").iterdir()) == before


def test_submodules_are_skipped(repo: Path, tmp_path: Path) -> None:
    # A gitlink entry (mode 160000) is what a submodule leaves in the tree.
    blob = git(repo, "rev-parse", "HEAD")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{blob},templates/py/t/mod")
    git(repo, "commit", "-q", "-m", "submodule")
    files = read_tree(repo, resolve_revision(repo, "HEAD"), "templates/py/t")
    assert "mod" not in files and "a.txt" in files


def test_repo_root_from_a_subdirectory(repo: Path) -> None:
    assert repo_root(repo / "templates").resolve() == repo.resolve()


def test_not_a_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(NotAGitRepository, match="is not inside a git repository"):
        repo_root(plain)
    with pytest.raises(NotAGitRepository, match="not a directory"):
        repo_root(tmp_path / "missing")


@pytest.mark.parametrize("rev", ["no-such-branch", "0" * 40, "--help", ""])
def test_unknown_revision(repo: Path, rev: str) -> None:
    with pytest.raises(UnknownRevision) as info:
        resolve_revision(repo, rev)
    assert quoted(rev) in str(info.value)
    assert info.value.revision == rev


def test_a_tree_id_is_not_a_commit(repo: Path) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}")
    with pytest.raises(UnknownRevision, match="no commit by that name"):
        resolve_revision(repo, tree)


def test_no_template_at_revision(repo: Path) -> None:
    rev = resolve_revision(repo, "HEAD")
    with pytest.raises(NoTemplateAtRevision, match="templates/py/nope does not exist") as info:
        read_tree(repo, rev, "templates/py/nope")
    assert rev.commit[:12] in str(info.value)


def test_a_prefix_of_a_name_is_not_a_directory(repo: Path) -> None:
    write_files(repo, {"templates/py/tt/x.txt": "x\n"})
    commit_all(repo, "sibling")
    files = read_tree(repo, resolve_revision(repo, "HEAD"), "templates/py/t")
    assert "x.txt" not in files


def test_template_at_revision_loads_through_the_real_loader(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    write_files(repo / "templates/py/mini", template_files(["a:1", "b:2"]))
    first = commit_all(repo, "two picks")
    write_files(repo / "templates/py/mini", template_files(["a:1", "b:2", "c:3"]))
    commit_all(repo, "three picks")
    template, rev = template_at_revision(
        repo, "HEAD~1", repo / "templates/py/mini", template_id="py/mini"
    )
    assert rev.commit == first
    assert template.id == "py/mini" and template.name == "mini" and template.root is None
    assert [p.slug for p in template.picks()] == ["a-1", "b-2"]
    tree = template.render("app", {"MODEL": "b:2"})
    assert b'MODEL: "b:2"' in tree["docker-compose.yml"]
    assert tree.files["logo.png"].rendered is False


def test_template_at_revision_needs_a_manifest(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    write_files(repo, {"templates/py/bare/README.md": "x\n"})
    commit_all(repo, "no manifest")
    with pytest.raises(NoTemplateAtRevision, match=r"exists but has no template\.json"):
        template_at_revision(repo, "HEAD", repo / "templates/py/bare")


def test_template_at_revision_reads_from_the_repository_and_names_as_load_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37: the path is the repository's, wherever the caller runs, and
    the id is ``load_template``'s (``py/mini``, not ``mini``)."""
    repo = init_repo(tmp_path / "r")
    for name in ("mini", "other"):
        write_files(repo / "templates/py" / name, template_files(["a:1"]))
    commit_all(repo, "two templates")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # no templates/ here: a cwd-relative read would fail
    template, _ = template_at_revision(repo, "HEAD", "templates/py/mini")
    assert template.id == load_template(repo / "templates/py/mini").id == "py/mini"
    assert "py/mini/template.json" in paths_at_revision(repo, "HEAD", "templates")[0]
    # A template the work tree no longer holds (its repository still has
    # others, so the same layout) keeps its id.
    shutil.rmtree(repo / "templates/py/mini")
    template, _ = template_at_revision(repo, "HEAD", repo / "templates/py/mini")
    assert template.id == "py/mini"
    # Outside a layout's <language>/<name>: the directory's name, as wendy init names it.
    write_files(repo / "loose/thing", template_files(["a:1"]))
    commit_all(repo, "loose")
    assert template_at_revision(repo, "HEAD", "loose/thing")[0].id == "thing"


def test_files_at_revision_reads_regular_files_only(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"wendy-llm.toml": "ignore = []\n", "golden/[x].rules.yaml": "version: 1\n"})
    (repo / "link.toml").symlink_to("wendy-llm.toml")
    commit_all(repo, "base")
    (repo / "wendy-llm.toml").write_text("changed\n", encoding="utf-8")
    paths = [
        repo / "wendy-llm.toml",
        repo / "golden" / "[x].rules.yaml",  # a literal name, never a glob
        repo / "link.toml",  # a symbolic link is no file at the revision
        repo / "absent.json",
    ]
    found, revision = files_at_revision(repo, "HEAD", paths)
    assert found == {
        paths[0]: b"ignore = []\n",
        paths[1]: b"version: 1\n",
        paths[2]: None,
        paths[3]: None,
    }
    assert revision.commit == git(repo, "rev-parse", "HEAD")
