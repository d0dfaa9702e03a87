"""Atomic file-system primitives shared by every writer in the package.

- :func:`write_file_atomically`: one file (reports, cache memos), written
  to a hidden sibling and renamed over the target, so a reader sees the
  old file or the whole new one, never part of it.
- :func:`move_aside`: a directory renamed to a hidden sibling in one step,
  the first half of replacing or removing a tree
  (:mod:`wendy_llm.render.tree`, :mod:`wendy_llm.golden.fsops`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from pathlib import Path

#: Mode bits for a new file before the umask, as ``open(path, "w")`` uses.
_NEW_FILE_MODE = 0o666


def write_file_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` (parents created); raises :class:`OSError`.

    The temporary ``.<name>.<pid>.<random>.tmp`` sits in the same directory
    so the rename is atomic, and is removed again when anything fails.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _NEW_FILE_MODE)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise


def move_aside(target: Path) -> Path:
    """Rename the directory ``target`` to a new hidden ``.<name>.old-*`` beside it.

    Returns the new path; on failure nothing is left behind and ``target``
    is where it was.
    """
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    try:
        os.replace(target, aside)  # onto the empty directory mkdtemp made
    except BaseException:
        os.rmdir(aside)
        raise
    return aside
