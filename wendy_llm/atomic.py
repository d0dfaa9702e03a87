"""Atomic file-system primitives shared by every writer in the package.

- :func:`write_file_atomically`: one file (reports, cache memos), written
  to a hidden sibling and renamed over the target, so a reader sees the
  old file or the whole new one, never part of it.
- :func:`work_beside`, :func:`make_work_dir`, :func:`move_aside`: hidden
  work directories beside a target directory (``.<name>.tmp-`` and eight
  random characters for a tree being staged, ``.<name>.old-`` and eight
  for one being replaced or removed), used by :mod:`wendy_llm.render.files.tree` and
  :mod:`wendy_llm.golden.fsops`.
- :func:`remove_tree`: ``shutil.rmtree(path, ignore_errors=True)`` without
  importing ``shutil``, which brings bz2, lzma and zlib (2 ms, as long as a
  render's lints): replacing a tree removes the old one on the command
  line's path.

Leftovers. A writer killed with SIGKILL cannot remove its work
directories. Each writer therefore holds a *shared* ``flock`` on the
target's parent directory for as long as its work directories exist (the
kernel drops it when the process dies, however it dies). Before taking
it, a writer tries for an *exclusive* lock without waiting: when that
succeeds no other writer is alive in the directory, so every work
directory of the same target is a dead writer's and is removed. When it
fails a live writer may own them, and they are left for a later write.
Only directories whose names are exactly a work-directory name of the
target are touched (never a file, never another target's). Where
``flock`` is unavailable (Windows, some network file systems) nothing is
removed.

Names. The random part is 8 characters; a long target name is shortened
(its first bytes, ``~``, and 12 hex digits of its SHA-256) so that a work
directory's name never exceeds ``NAME_MAX`` (255 bytes) even when the
target's own name is 255 bytes long.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

if sys.platform != "win32":
    import fcntl

#: Mode bits for a new file before the umask, as ``open(path, "w")`` uses.
_NEW_FILE_MODE = 0o666
#: The longest file name (in bytes) the usual file systems accept.
NAME_MAX = 255
_RANDOM_LEN = 8
# Older versions used tempfile.mkdtemp, whose random part is [a-z0-9_]{8};
# token_hex(4) fits the same pattern, so their leftovers are removed too.
_RANDOM = re.compile(rb"[a-z0-9_]{%d}" % _RANDOM_LEN)
TMP = "tmp"
OLD = "old"


def _token_hex(nbytes: int) -> str:
    """``secrets.token_hex``, which is exactly this, without importing ``secrets``
    (and ``random``, ``hmac``, ``base64``) on the command line's path."""
    return os.urandom(nbytes).hex()


def write_file_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` (parents created); raises :class:`OSError`.

    The temporary ``.<name>.<pid>.<random>.tmp`` sits in the same directory
    so the rename is atomic, and is removed again when anything fails.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{_token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _NEW_FILE_MODE)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise


#: Opening a directory to empty it: never through a symbolic link.
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
#: Whether directories can be emptied relative to an open one (POSIX; not Windows).
_BY_FD = {os.open, os.unlink, os.rmdir} <= os.supports_dir_fd and os.scandir in os.supports_fd


def remove_tree(path: Path) -> None:
    """Remove the directory ``path`` and all it holds, as far as possible, as
    ``shutil.rmtree(path, ignore_errors=True)`` does: each directory is opened
    relative to its parent without following symbolic links, so a link is
    removed, never what it points to, even if an entry is swapped for one
    meanwhile."""
    if not _BY_FD:
        import shutil  # lazy: only where directories cannot be opened relative to others

        shutil.rmtree(path, ignore_errors=True)
        return
    try:
        fd = os.open(path, _DIR_FLAGS)
    except OSError:
        return  # gone, not a directory, or a symbolic link (rmtree refuses those too)
    try:
        _empty_directory(fd)
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):
        os.rmdir(path)


def _empty_directory(dir_fd: int) -> None:
    try:
        with os.scandir(dir_fd) as found:
            entries = [(entry.name, entry.is_dir(follow_symlinks=False)) for entry in found]
    except OSError:
        return
    for name, is_dir in entries:
        if is_dir:
            try:
                fd = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
            except OSError:
                continue
            try:
                _empty_directory(fd)
            finally:
                os.close(fd)
            with contextlib.suppress(OSError):
                os.rmdir(name, dir_fd=dir_fd)
        else:
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=dir_fd)


def work_prefix(target: Path, kind: str) -> bytes:
    """``.<name>.<kind>-`` as bytes, the name shortened when the whole would be too long."""
    name = os.fsencode(target.name)
    room = NAME_MAX - _RANDOM_LEN - len(f"..{kind}-")
    if len(name) > room:
        import hashlib  # lazy: loading OpenSSL costs 2 ms; only a very long name needs it

        digest = hashlib.sha256(name).hexdigest()[:12].encode()
        name = name[: room - len(digest) - 1] + b"~" + digest
    return b"." + name + b"." + kind.encode() + b"-"


def make_work_dir(target: Path, kind: str) -> Path:
    """A new, empty hidden work directory beside ``target`` (see the module docstring)."""
    prefix = work_prefix(target, kind)
    while True:
        name = prefix + _token_hex(_RANDOM_LEN // 2).encode()
        path = Path(os.fsdecode(os.path.join(os.fsencode(target.parent), name)))
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path


def move_aside(target: Path) -> Path:
    """Rename the directory ``target`` to a new hidden ``.<name>.old-*`` beside it.

    Returns the new path; on failure nothing is left behind and ``target``
    is where it was.
    """
    aside = make_work_dir(target, OLD)
    try:
        os.replace(target, aside)  # onto the empty directory just made
    except BaseException:
        os.rmdir(aside)
        raise
    return aside


def is_work_dir(path: Path, target: Path) -> bool:
    """Whether ``path`` is named as a hidden work directory beside ``target``."""
    name = os.fsencode(path.name)
    return path.parent == target.parent and any(
        name.startswith(work_prefix(target, kind)) for kind in (TMP, OLD)
    )


def _leftovers(target: Path) -> Iterator[Path]:
    prefixes = [work_prefix(target, kind) for kind in (TMP, OLD)]
    with os.scandir(os.fsencode(target.parent)) as entries:
        for entry in entries:
            for prefix in prefixes:
                if (
                    entry.name.startswith(prefix)
                    and _RANDOM.fullmatch(entry.name, len(prefix))
                    and entry.is_dir(follow_symlinks=False)
                ):
                    yield Path(os.fsdecode(entry.path))


def _lock(fd: int, operation: int) -> bool:
    """``flock``; False when the lock is held elsewhere (non-blocking) or unsupported."""
    try:
        fcntl.flock(fd, operation)
    except OSError as exc:
        if exc.errno in (
            errno.EWOULDBLOCK,
            errno.ENOLCK,
            errno.EOPNOTSUPP,
            errno.EINVAL,
            errno.EBADF,
        ):
            return False
        raise
    return True


@contextlib.contextmanager
def work_beside(target: Path) -> Iterator[None]:
    """Hold the right to keep work directories beside ``target`` (parent must exist).

    On entry, the leftovers of dead writers for ``target`` are removed when
    no other writer is alive in the parent directory.
    """
    if sys.platform == "win32":
        yield
        return
    try:
        fd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        # Unreadable parent: nobody can lock it, so nobody removes anything.
        yield
        return
    try:
        if _lock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB):
            for leftover in _leftovers(target):
                remove_tree(leftover)
        # From exclusive to shared (or shared from the start): other writers
        # may now work beside us, and none of them will remove our work.
        _lock(fd, fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)


def remove_leftovers(target: Path) -> None:
    """Remove dead writers' work directories beside ``target`` (see the module docstring)."""
    if target.parent.is_dir():
        with work_beside(target):
            pass


#: A work directory's name: ``.<target name>.tmp-`` or ``.old-``, then the random part.
_WORK_NAME = re.compile(rf"\.(?P<target>.+)\.(?:{TMP}|{OLD})-[a-z0-9_]{{{_RANDOM_LEN}}}")


def find_work_dirs(root: Path) -> list[tuple[Path, Path]]:
    """Every work directory under ``root`` (symbolic links not followed), as
    (work directory, its target), sorted: a dead writer's leftovers, or a
    live writer's work (``remove_leftovers`` of the target tells them apart)."""
    found: list[tuple[Path, Path]] = []
    for directory, dirnames, _ in os.walk(root):
        base = Path(directory)
        for name in list(dirnames):
            match = _WORK_NAME.fullmatch(name)
            if match is not None and not (base / name).is_symlink():
                found.append((base / name, base / match.group("target")))
                dirnames.remove(name)  # its content is the work, not more leftovers
    return sorted(found)


def remove_leftovers_under(root: Path) -> list[Path]:
    """Remove every dead writer's work directory under ``root``; those removed."""
    found = find_work_dirs(root)
    for target in sorted({target for _, target in found}):
        remove_leftovers(target)
    return [work for work, _ in found if not os.path.lexists(work)]
