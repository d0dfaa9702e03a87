"""Replace or remove a whole directory so that no reader sees half of it.

The new tree is written into a hidden temporary directory beside the target
(same filesystem, so renames are atomic), then swapped in with two renames:
target -> hidden ``.old`` name, temporary -> target. If the second rename
fails the first is undone. A crash can leave a hidden ``.<name>.tmp-*`` or
``.<name>.old-*`` directory behind, never a partial fixture directory;
fixture discovery ignores hidden directories.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

_DIR_MODE = 0o755


def _safe_parts(relpath: str) -> tuple[str, ...]:
    parts = PurePosixPath(relpath).parts
    if not parts or PurePosixPath(relpath).is_absolute() or ".." in parts:
        raise ValueError(f"refusing to write outside the fixture directory: {relpath!r}")
    return parts


def write_tree_atomically(target: Path, files: Mapping[str, bytes]) -> None:
    """Make ``target`` hold exactly ``files`` (posix relative path -> bytes)."""
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=parent))
    try:
        os.chmod(tmp, _DIR_MODE)  # mkdtemp makes it private; fixtures are not
        for relpath, data in files.items():
            dest = tmp.joinpath(*_safe_parts(relpath))
            dest.parent.mkdir(parents=True, exist_ok=True)
            with open(dest, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        _swap_in(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _swap_in(tmp: Path, target: Path) -> None:
    if not target.exists():
        os.rename(tmp, target)
        return
    old = _aside(target)
    os.rename(target, old)
    try:
        os.rename(tmp, target)
    except BaseException:
        os.rename(old, target)
        raise
    shutil.rmtree(old)


def _aside(target: Path) -> Path:
    """A fresh hidden name beside ``target`` to move it out of the way."""
    return target.parent / f".{target.name}.old-{secrets.token_hex(6)}"


def remove_tree_atomically(target: Path, stop_at: Path) -> None:
    """Remove ``target`` (renamed away first), then its parents left empty.

    Parents are removed up to, not including, ``stop_at``.
    """
    old = _aside(target)
    os.rename(target, old)
    shutil.rmtree(old)
    parent = target.parent
    stop = stop_at.resolve()
    while parent.resolve() != stop and stop in parent.resolve().parents:
        with contextlib.suppress(OSError):
            parent.rmdir()  # fails when not empty, which ends the climb
        if parent.exists():
            break
        parent = parent.parent
