"""Replace or remove a whole fixture directory so that no reader sees half of it.

Writing goes through :func:`wendy_llm.render.tree.write_tree`, the one atomic tree
writer of the package (staged in a hidden ``.<name>.tmp-*`` directory
beside the target, then swapped in with ``renameat2(RENAME_EXCHANGE)`` or,
where that is missing, two renames rolled back on failure). Removal renames
the directory to a hidden name first. A crash can leave a hidden
``.<name>.tmp-*`` or ``.<name>.old-*`` directory behind, never a partial
fixture directory; fixture discovery ignores hidden directories, and the
next update of the same fixture removes them (:mod:`wendy_llm.atomic`).
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Mapping
from pathlib import Path

from wendy_llm.atomic import move_aside, work_beside
from wendy_llm.render.files.tree import RenderedFile, write_tree


def write_tree_atomically(target: Path, files: Mapping[str, bytes]) -> None:
    """Make ``target`` hold exactly ``files`` (posix relative path -> bytes).

    Raises :class:`~wendy_llm.errors.TreeWriteError` (naming the directory)
    when it cannot, and for a path that would land outside ``target``.
    """
    # Fixture files are stored byte for byte: "copied", their own source.
    items = [RenderedFile(path=p, data=d, rendered=False, source=p) for p, d in files.items()]
    write_tree(items, target, overwrite=True)


def remove_tree_atomically(target: Path, stop_at: Path) -> None:
    """Remove ``target`` (renamed away first), then its parents left empty.

    Parents are removed up to, not including, ``stop_at``.
    """
    with work_beside(target):
        shutil.rmtree(move_aside(target))
    parent = target.parent
    stop = stop_at.resolve()
    while parent.resolve() != stop and stop in parent.resolve().parents:
        with contextlib.suppress(OSError):
            parent.rmdir()  # fails when not empty, which ends the climb
        if parent.exists():
            break
        parent = parent.parent
