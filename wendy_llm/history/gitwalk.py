"""A range of a repository's history, commit by commit, with the object id of every path.

:func:`commits_in_range` resolves ``A..B`` as git does for ``git log A..B``
(the commits reachable from B and not from A, oldest first, following
first parents: the commits a branch's maintainers merged, one at a time).
:func:`tree_ids` lists every tree and blob of a commit with its object id
(one ``git ls-tree`` process): a template's verdict is keyed by the ids of
what it reads.  :class:`Scratch` is a shared clone (``git clone --shared
--no-checkout``: no object is copied and the user's repository is not
touched) checked out at each commit in turn, so ``check`` reads ordinary
files; git updates only what changed between two commits.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wendy_llm.errors import GitError, UnknownRevision, quoted
from wendy_llm.repo.gitsource import Revision, resolve_revision


@dataclass(frozen=True)
class Commit:
    """One commit of the range: its id and the first line of its message."""

    id: str
    subject: str


def git(repo: Path, args: Sequence[str]) -> bytes:
    """Run git in ``repo`` with a neutral environment; GitError when it fails."""
    program = shutil.which("git")
    if program is None:
        raise GitError("git is not installed (or not on PATH); replay reads the history with it")
    env = {**os.environ, "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    proc = subprocess.run(
        [program, "-C", str(repo), *args], capture_output=True, env=env, check=False
    )
    if proc.returncode != 0:
        said = proc.stderr.decode(errors="replace").strip()
        raise GitError(f"git {args[0]} failed in {repo}: {said}")
    return proc.stdout


def parse_range(text: str) -> tuple[str, str]:
    """``A..B`` as its two revisions (``A..`` means ``A..HEAD``)."""
    base, dots, head = text.partition("..")
    if not dots or head.startswith(".") or not base:
        raise UnknownRevision(
            f"{quoted(text)} is not a range: write BASE..HEAD (e.g. v1.0..main, or HEAD~50..)",
            revision=text,
        )
    return base, head or "HEAD"


def commits_in_range(repo: Path, text: str) -> tuple[Revision, Revision, list[Commit]]:
    """The base, the head and the commits of ``A..B``, oldest first."""
    base_name, head_name = parse_range(text)
    base, head = resolve_revision(repo, base_name), resolve_revision(repo, head_name)
    out = git(
        repo,
        [
            "log",
            "--first-parent",
            "--reverse",
            "--format=%H%x00%s",
            f"{base.commit}..{head.commit}",
        ],
    )
    commits = []
    for line in out.decode("utf-8", "replace").splitlines():
        commit, _, subject = line.partition("\0")
        commits.append(Commit(commit, subject))
    return base, head, commits


def tree_ids(repo: Path, commit: str) -> dict[str, str]:
    """Every path of ``commit`` (trees and blobs, repo-relative) with its object id."""
    out = git(repo, ["ls-tree", "-r", "-t", "-z", "--full-tree", commit])
    ids: dict[str, str] = {}
    for record in out.split(b"\0"):
        if record:
            meta, _, name = record.partition(b"\t")
            ids[os.fsdecode(name)] = meta.split(b" ")[2].decode()
    return ids


class Scratch:
    """A throwaway checkout of the repository, moved from commit to commit."""

    def __init__(self, repo: Path) -> None:
        self._temp = tempfile.TemporaryDirectory(prefix="wendy-llm-replay-")
        self.root = Path(self._temp.name) / "repo"
        git(repo, ["clone", "--quiet", "--shared", "--no-checkout", str(repo), str(self.root)])

    def checkout(self, commit: str) -> None:
        git(self.root, ["checkout", "--quiet", "--force", "--detach", commit])
        # Files git does not track (a check's by-products) must not leak into the next commit.
        git(self.root, ["clean", "--quiet", "-d", "--force", "-x"])

    def close(self) -> None:
        self._temp.cleanup()

    def __enter__(self) -> Scratch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
