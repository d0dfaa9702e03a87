"""The one way the gate reads a file of the repository it judges (issue 38).

A pull request controls every entry of the checkout, symbolic links and
special files included, so every file the gate reads (template trees,
rules files, ``wendy-llm.toml``, the suppressions file, golden fixtures and
``golden.json``, stored baselines, ``meta.json``) is read here:

- its path, every symbolic link resolved, must stay inside ``root`` (the
  repository, or the folder the caller vouches for); a link that leads out
  is refused, naming the link and where it points;
- it must be a regular file (a directory, for :func:`confined_dir` and
  :func:`scan_dir`): a device, a FIFO or a socket is refused before it is
  opened for reading, so ``/dev/zero`` cannot exhaust memory and a FIFO
  cannot hang the run;
- it is read up to a size limit (:data:`~wendy_llm.options.READ_MAX_BYTES`
  unless the caller gives a smaller one): a larger file is refused, never
  read whole.

A refusal is a :class:`ReadRefused` naming the path and why; each loader
turns it into its own error (a rules file's into a ``RulesError``, ...),
which ``check`` reports as a finding.  :func:`confined_target` is the
same test for a file about to be written (``golden --update``).  No
module of the package opens a repository file another way
(tests/base/test_read_guard.py).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from wendy_llm import options
from wendy_llm.errors import WendyLlmError

#: What a file type is called in a refusal.
_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFLNK: "a symbolic link",
}
#: Opened without following a last symbolic link (it is resolved first), and
#: without blocking: a FIFO swapped in after the check must not hang the read.
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


class ReadRefused(WendyLlmError):
    """A file or directory the gate will not read: ``file`` names it as the
    caller showed it, ``reason`` says why (a link out of the repository, not
    a regular file, too large)."""

    def __init__(self, message: str, *, file: str, reason: str) -> None:
        super().__init__(message)
        self.file = file
        self.reason = reason


def kind_of(mode: int) -> str:
    """What a ``st_mode`` is, in a refusal's words."""
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def _inside(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip(os.sep) + os.sep)


def _escaping_link(path: Path, base: Path, top: str) -> str:
    """Which symbolic link of ``path`` (named below ``base``) leads out of ``top``, and where."""
    start = Path(os.path.abspath(base))
    full = Path(os.path.abspath(path))
    if full.is_relative_to(start):
        current = start
        for part in full.relative_to(start).parts:
            current = current / part
            if current.is_symlink() and not _inside(os.path.realpath(current), top):
                shown = os.path.relpath(current, start)
                return f"{shown} is a symbolic link to {os.readlink(current)}"
    return f"it resolves to {os.path.realpath(path)}"


def resolve_inside(path: Path, root: Path | None = None, *, shown: str | None = None) -> str:
    """``path`` with every symbolic link resolved, or :class:`ReadRefused` when
    that leaves ``root`` (default: the folder ``path`` is named in)."""
    label = shown if shown is not None else str(path)
    base = root if root is not None else Path(os.path.abspath(path)).parent
    top = os.path.realpath(base)
    real = os.path.realpath(path)
    if not _inside(real, top):
        why = (
            f"{_escaping_link(path, base, top)}, outside the repository: the gate reads "
            "only files inside the repository it judges"
        )
        raise ReadRefused(f"{label}: {why}", file=label, reason=why)
    return real


def read_bytes(
    path: Path,
    root: Path | None = None,
    *,
    limit: int = options.READ_MAX_BYTES,
    shown: str | None = None,
) -> bytes:
    """The bytes of the regular file ``path`` inside ``root`` (default: its own
    folder), at most ``limit`` of them; :class:`ReadRefused` otherwise.  A
    missing file raises ``FileNotFoundError`` as ``open`` does."""
    label = shown if shown is not None else str(path)
    real = resolve_inside(path, root, shown=label)
    # lstat first: a device is refused before it is opened (opening some has effects).
    _check_regular(os.lstat(real).st_mode, label)
    fd = os.open(real, _OPEN_FLAGS)
    try:
        status = os.fstat(fd)
        _check_regular(status.st_mode, label)
        if status.st_size > limit:
            raise _too_large(label, limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # the size said may be wrong (procfs says 0): count
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise _too_large(label, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(
    path: Path,
    root: Path | None = None,
    *,
    limit: int = options.READ_MAX_BYTES,
    shown: str | None = None,
) -> str:
    """:func:`read_bytes` decoded as UTF-8 (``UnicodeDecodeError`` as ``bytes.decode``)."""
    return read_bytes(path, root, limit=limit, shown=shown).decode("utf-8")


def _check_regular(mode: int, label: str) -> None:
    if not stat.S_ISREG(mode):
        why = f"it is {kind_of(mode)}, not a regular file: the gate reads only regular files"
        raise ReadRefused(f"{label}: {why}", file=label, reason=why)


def _too_large(label: str, limit: int) -> ReadRefused:
    why = (
        f"it is larger than {limit} bytes, the most the gate reads of one file "
        "(no template file, fixture or settings file comes near it)"
    )
    return ReadRefused(f"{label}: {why}", file=label, reason=why)


def confined_dir(path: Path, root: Path | None = None, *, shown: str | None = None) -> Path:
    """``path`` when it is a directory inside ``root`` (symbolic links resolved);
    :class:`ReadRefused` when it leads out or is not a directory (a missing one
    raises ``FileNotFoundError``)."""
    label = shown if shown is not None else str(path)
    real = resolve_inside(path, root, shown=label)
    mode = os.stat(real).st_mode
    if not stat.S_ISDIR(mode):
        why = f"it is {kind_of(mode)}, not a directory"
        raise ReadRefused(f"{label}: {why}", file=label, reason=why)
    return path


def scan_dir(
    path: Path, root: Path | None = None, *, shown: str | None = None
) -> list[os.DirEntry[str]]:
    """The entries of the directory ``path`` inside ``root``, sorted by name
    (:func:`confined_dir` first).  Entries are not followed: each caller
    decides with ``entry.stat(follow_symlinks=False)`` what it reads."""
    confined_dir(path, root, shown=shown)
    with os.scandir(path) as entries:
        return sorted(entries, key=lambda entry: entry.name)


def confined_target(path: Path, root: Path, *, shown: str | None = None) -> Path:
    """``path`` when a file written there lands inside ``root``: every existing
    part of it resolved (a directory linked out of the repository is refused,
    and so is ``path`` itself when it is a link: a write would go through it)."""
    label = shown if shown is not None else str(path)
    if os.path.islink(path):
        why = f"it is a symbolic link to {os.readlink(path)}: nothing is written through a link"
        raise ReadRefused(f"{label}: {why}", file=label, reason=why)
    resolve_inside(path, root, shown=label)
    return path
