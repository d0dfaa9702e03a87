"""Where fixtures live on disk.

``<golden root>/<language>/<name>/`` is the fixture directory of template
``<language>/<name>``; it is one only when it holds ``golden.json``, so the
stored baseline template (``golden/baseline/``) and the rules files
(``golden/<language>/<name>.rules.yaml``) are never taken for fixtures.
Inside it, files identical for every pick live under ``_shared/`` and
pick-specific renders under ``<slug>/``.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from wendy_llm.errors import GoldenError, quoted

MANIFEST_NAME = "golden.json"
SHARED_DIR = "_shared"

# Template ids are "<language>/<name>" (or a bare name for a template loaded
# on its own), so fixture directories sit one or two levels down.
_MAX_ID_DEPTH = 2


def shared_path(path: str) -> str:
    return f"{SHARED_DIR}/{path}"


def pick_path(slug: str, path: str) -> str:
    return f"{slug}/{path}"


def fixture_dir(golden_root: Path, template_id: str) -> Path:
    parts = PurePosixPath(template_id).parts
    if not parts or len(parts) > _MAX_ID_DEPTH or any(p in ("", ".", "..") for p in parts):
        raise GoldenError(f"template id {quoted(template_id)} cannot name a fixture directory")
    return golden_root.joinpath(*parts)


def find_fixture_dirs(golden_root: Path) -> dict[str, Path]:
    """Every fixture directory under ``golden_root``: template id -> path.

    Hidden directories are skipped: they are an update's temporary
    directories, never fixtures.
    """
    found: dict[str, Path] = {}
    if not golden_root.is_dir():
        return found

    def visit(directory: Path, prefix: tuple[str, ...]) -> None:
        for child in sorted(directory.iterdir()):
            if child.name.startswith(".") or child.is_symlink() or not child.is_dir():
                continue
            parts = (*prefix, child.name)
            if (child / MANIFEST_NAME).is_file():
                found["/".join(parts)] = child
            elif len(parts) < _MAX_ID_DEPTH:
                visit(child, parts)

    visit(golden_root, ())
    return found


def list_files(directory: Path) -> dict[str, Path]:
    """Every non-directory entry under ``directory``: posix relative path -> path."""
    files: dict[str, Path] = {}
    if not directory.is_dir():
        return files
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames.sort()
        base = Path(dirpath)
        # A symlink to a directory shows up in dirnames; it is an entry of
        # the fixture like any file, not something to descend into.
        for name in [*filenames, *(d for d in dirnames if (base / d).is_symlink())]:
            full = base / name
            files[full.relative_to(directory).as_posix()] = full
    return dict(sorted(files.items()))
