"""Read a template as it is at a git revision, without touching the work tree.

Three git processes whatever the template's size: ``rev-parse`` resolves
the revision, ``ls-tree -r -z`` lists the files with their modes, and one
``cat-file --batch`` streams every blob. Blobs are read raw (no checkout
filters), which is exactly what a clone at that revision would hold.
Symbolic links (mode 120000) and submodules (160000) are skipped, as
``wendy init`` skips anything that is not a regular file; a blob larger
than :data:`~wendy_llm.options.READ_MAX_BYTES` is refused before it is read,
as the working tree's reader (:mod:`wendy_llm.safe_read`) refuses it.  One
file at a revision (:func:`file_at_revision`) is refused when it is a link
or not a regular file at all.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from wendy_llm import options
from wendy_llm.errors import (
    GitError,
    NotAGitRepository,
    NoTemplateAtRevision,
    UnknownRevision,
    WendyLlmError,
    quoted,
)
from wendy_llm.render.template import Template, template_from_files
from wendy_llm.repo.layout import find_layout
from wendy_llm.repo.loading import template_id_of
from wendy_llm.safe_read import ReadRefused

_REGULAR_MODES = {"100644", "100755"}
_LINK_MODE = "120000"
_TEMPLATE_MANIFEST = "template.json"


@dataclass(frozen=True)
class Revision:
    """A revision as the user wrote it and the commit it resolved to."""

    name: str
    commit: str


def _git(
    repo: Path, args: Sequence[str], *, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    git = shutil.which("git")
    if git is None:
        raise GitError("git is not installed (or not on PATH); it is needed to read revisions")
    # A fixed, neutral environment: no pager, no prompts, no locale surprises.
    env = {**os.environ, "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    return subprocess.run(
        [git, "-C", str(repo), *args], input=stdin, capture_output=True, env=env, check=False
    )


def repo_root(repo: str | os.PathLike[str]) -> Path:
    """The top of the work tree containing ``repo``."""
    path = Path(repo)
    if not path.is_dir():
        raise NotAGitRepository(f"{path} is not a directory, so not a git repository")
    proc = _git(path, ["rev-parse", "--show-toplevel"])
    if proc.returncode != 0:
        raise NotAGitRepository(
            f"{path} is not inside a git repository (git says: "
            f"{proc.stderr.decode(errors='replace').strip()})"
        )
    return Path(os.fsdecode(proc.stdout.rstrip(b"\n")))


def resolve_revision(repo: Path, revision: str) -> Revision:
    if not revision or revision.startswith("-"):
        raise UnknownRevision(f"{quoted(revision)} is not a revision", revision=revision)
    proc = _git(
        repo, ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}"]
    )
    if proc.returncode != 0:
        raise UnknownRevision(
            f"unknown revision {quoted(revision)} in {repo}: no commit by that name "
            "(try a branch, a tag or a commit id; `git log --oneline` lists commits)",
            revision=revision,
        )
    return Revision(name=revision, commit=proc.stdout.decode().strip())


def read_tree(
    repo: Path, revision: Revision, path: str, *, limit: int = options.READ_MAX_BYTES
) -> dict[str, bytes]:
    """Every regular file under ``path`` (repo-relative, posix) at ``revision``.

    Keys are relative to ``path``. Raises NoTemplateAtRevision when there
    is nothing there.
    """
    prefix = PurePosixPath(path).as_posix().strip("/")
    entries: list[tuple[str, str]] = []  # (relative path, blob id)
    for entry in _listing(repo, revision, prefix):
        if entry.mode not in _REGULAR_MODES:
            continue
        if prefix and not entry.name.startswith(prefix + "/"):
            continue
        _check_size(entry, revision, limit)
        entries.append((entry.name[len(prefix) + 1 :] if prefix else entry.name, entry.object_id))
    if not entries:
        raise NoTemplateAtRevision(
            f"no template at {revision.name} ({revision.commit[:12]}): "
            f"{prefix or 'the repository root'} does not exist or holds no files there"
        )
    return dict(
        zip(
            (rel for rel, _ in entries), _read_blobs(repo, [oid for _, oid in entries]), strict=True
        )
    )


@dataclass(frozen=True)
class _Entry:
    """One line of ``git ls-tree -r -l``: a file of the tree at a revision."""

    mode: str
    object_id: str
    size: int  # -1 for what is not a blob (a submodule's commit)
    name: str


def _listing(repo: Path, revision: Revision, prefix: str) -> list[_Entry]:
    args = ["ls-tree", "-r", "-z", "-l", "--full-tree", revision.commit]
    listing = _git(repo, [*args, "--", prefix] if prefix else args)
    if listing.returncode != 0:
        raise GitError(
            f"git ls-tree failed at {revision.name}: "
            f"{listing.stderr.decode(errors='replace').strip()}"
        )
    entries = []
    for record in listing.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, raw_name = record.partition(b"\t")
        mode, kind, object_id, size = meta.decode().split()
        blob_size = int(size) if kind == "blob" and size.isdigit() else -1
        entries.append(_Entry(mode, object_id, blob_size, os.fsdecode(raw_name)))
    return entries


def _check_size(entry: _Entry, revision: Revision, limit: int = options.READ_MAX_BYTES) -> None:
    if entry.size > limit:
        shown = f"{entry.name} at {revision.name}"
        why = f"it is larger than {limit} bytes, the most the gate reads of one file"
        raise ReadRefused(f"{shown}: {why}", file=entry.name, reason=why)


def file_at_revision(
    repo: Path, revision: Revision, path: str, *, limit: int = options.READ_MAX_BYTES
) -> bytes | None:
    """The bytes of the regular file ``path`` (repo-relative, POSIX) at ``revision``;
    None when there is nothing there.  A symbolic link, a submodule or a file
    over :data:`~wendy_llm.options.READ_MAX_BYTES` is :class:`ReadRefused`:
    a policy file at a revision is read as strictly as in the working tree."""
    name = PurePosixPath(path).as_posix().strip("/")
    found = [e for e in _listing(repo, revision, name) if e.name == name]
    if not found:
        return None
    entry = found[0]
    if entry.mode not in _REGULAR_MODES:
        kind = "a symbolic link" if entry.mode == _LINK_MODE else f"not a file (mode {entry.mode})"
        why = f"it is {kind} at {revision.name}: the gate reads only regular files"
        raise ReadRefused(f"{name}: {why}", file=name, reason=why)
    _check_size(entry, revision, limit)
    return _read_blobs(repo, [entry.object_id])[0]


def paths_at_revision(
    repo: str | os.PathLike[str], revision: str, directory: str | os.PathLike[str]
) -> tuple[list[str], Revision]:
    """The names of every regular file under ``directory`` (a work-tree path,
    absolute or relative to ``repo``) at ``revision``, relative to it;
    nothing is read but the listing."""
    root = repo_root(repo)
    rev = resolve_revision(root, revision)
    relative = _repo_relative(root, _in_repo(repo, Path(directory)))
    prefix = "" if relative == "." else relative
    args = ["ls-tree", "-r", "-z", "--full-tree", rev.commit]
    listing = _git(root, [*args, "--", prefix] if prefix else args)
    if listing.returncode != 0:
        raise GitError(
            f"git ls-tree failed at {revision}: {listing.stderr.decode(errors='replace').strip()}"
        )
    names = []
    for record in listing.stdout.split(b"\0"):
        meta, _, raw_name = record.partition(b"\t")
        if not record or meta.split(b" ")[0].decode() not in _REGULAR_MODES:
            continue
        name = os.fsdecode(raw_name)
        names.append(name[len(prefix) + 1 :] if prefix else name)
    return names, rev


def files_at_revision(
    repo: str | os.PathLike[str], revision: str, paths: Sequence[Path]
) -> tuple[dict[Path, bytes | None], Revision]:
    """Each of ``paths`` (work-tree paths) as it is at ``revision``: its bytes, or
    None when it is no regular file there (absent, a symbolic link, a
    directory).  One ``ls-tree`` and one ``cat-file`` whatever their number."""
    root = repo_root(repo)
    rev = resolve_revision(root, revision)
    relative = {path: _repo_relative(root, path) for path in paths}
    if not paths:
        return {}, rev
    # --literal-pathspecs: a policy file named ``[x].toml`` is that file, not a glob.
    names = sorted(set(relative.values()))
    args = ["--literal-pathspecs", "ls-tree", "-z", "--full-tree", rev.commit, "--", *names]
    listing = _git(root, args)
    if listing.returncode != 0:
        raise GitError(
            f"git ls-tree failed at {revision}: {listing.stderr.decode(errors='replace').strip()}"
        )
    blobs: dict[str, str] = {}
    for record in listing.stdout.split(b"\0"):
        meta, _, raw_name = record.partition(b"\t")
        fields = meta.decode().split(" ")
        if len(fields) == 3 and fields[0] in _REGULAR_MODES and fields[1] == "blob":
            blobs[os.fsdecode(raw_name)] = fields[2]
    chosen = [name for name in names if name in blobs]
    data = dict(zip(chosen, _read_blobs(root, [blobs[n] for n in chosen]), strict=True))
    return {path: data.get(name) for path, name in relative.items()}, rev


def _read_blobs(repo: Path, object_ids: Sequence[str]) -> list[bytes]:
    """Read blobs with one ``git cat-file --batch`` process."""
    proc = _git(
        repo, ["cat-file", "--batch"], stdin="".join(f"{oid}\n" for oid in object_ids).encode()
    )
    if proc.returncode != 0:
        raise GitError(f"git cat-file failed: {proc.stderr.decode(errors='replace').strip()}")
    out, pos, blobs = proc.stdout, 0, []
    for oid in object_ids:
        end = out.index(b"\n", pos)
        header = out[pos:end].decode().split(" ")
        if len(header) != 3 or header[0] != oid or header[1] != "blob":
            raise GitError(f"git cat-file answered {quoted(' '.join(header))} for blob {oid}")
        size = int(header[2])
        start = end + 1
        blobs.append(out[start : start + size])
        pos = start + size + 1  # each blob is followed by a newline
    return blobs


def template_at_revision(
    repo: str | os.PathLike[str],
    revision: str,
    template_path: str | os.PathLike[str],
    *,
    template_id: str | None = None,
) -> tuple[Template, Revision]:
    """Load the template at ``template_path`` as it is at ``revision``.

    ``template_path`` is the template directory (absolute, or relative to
    ``repo``, the repository read, wherever the caller runs); its place
    inside the repository is what is read at the revision. ``template_id``
    defaults to the id :func:`~wendy_llm.repo.loading.load_template` gives
    it (``python/llm``: its ``<language>/<name>`` below the repository's
    templates directory), else the directory's name.
    """
    root = repo_root(repo)
    rev = resolve_revision(root, revision)
    absolute = _in_repo(repo, Path(template_path))
    rel = _repo_relative(root, absolute)
    files = read_tree(root, rev, rel)
    if _TEMPLATE_MANIFEST not in files:
        raise NoTemplateAtRevision(
            f"no template at {revision} ({rev.commit[:12]}): {rel}/ exists but has no "
            f"{_TEMPLATE_MANIFEST}"
        )
    chosen = template_id or _template_id(root, absolute) or PurePosixPath(rel).name
    return template_from_files(chosen, files), rev


def _template_id(root: Path, directory: Path) -> str | None:
    """The id ``load_template`` gives ``directory``; for one the work tree no
    longer holds, its ``<language>/<name>`` below the templates directory."""
    found = template_id_of(directory)
    if found is not None:
        return found
    try:
        relative = directory.resolve().relative_to(find_layout(start=root).templates_root)
    except (WendyLlmError, ValueError):
        return None
    return relative.as_posix() if len(relative.parts) == 2 else None


def _in_repo(repo: str | os.PathLike[str], path: Path) -> Path:
    """``path``, absolute: a relative one is taken from ``repo``, not the current directory."""
    return Path(os.path.normpath(path if path.is_absolute() else Path(repo).absolute() / path))


def _repo_relative(root: Path, path: Path) -> str:
    absolute = path if path.is_absolute() else Path.cwd() / path
    try:
        rel = Path(os.path.normpath(absolute)).relative_to(root.resolve())
    except ValueError:
        try:
            rel = Path(os.path.normpath(absolute.resolve())).relative_to(root.resolve())
        except ValueError:
            raise GitError(f"{path} is not inside the repository {root}") from None
    return rel.as_posix()
