"""Which files `wendy init` writes, where, and how: file rules and trees.

File rules (spec section 3):

- every regular file under the template root is output, except the root's
  ``template.json`` and ``template.schema.json`` (the same names deeper
  down are ordinary files); symbolic links are skipped;
- a file is rendered when its extension (Go's ``filepath.Ext``: from the
  last dot of the base name, so ``.gitignore`` is its own extension),
  lower-cased, is in ``RENDERED_EXTENSIONS``, or its base name (exact case)
  is in ``RENDERED_BASENAMES``; every other file is copied byte for byte;
- in the output path every component equal to the template's name is
  replaced by the app id; paths that are absolute or climb out of the root
  after that (``..``) are dropped;
- files are written 0644 and directories 0755 (execute bits dropped).

Assumptions where the spec is silent:

- Files are visited in ``filepath.Walk`` order (lexical per directory,
  depth first).  When two files land on the same output path (an app id
  equal to a sibling directory's name, or ``.``), the later one wins, as
  the CLI's second write would.
- Non-regular files (FIFOs, sockets, devices) are skipped like symlinks.
- An output path is cleaned like Go's ``filepath.Clean`` after the
  replacement (``a/./b`` -> ``a/b``), then dropped when it is absolute,
  ``..`` or starts with ``../``, or is empty.

``RenderedTree.write(out_dir)`` is atomic: the tree is written into a new
temporary directory next to ``out_dir`` and renamed into place.  An
existing non-empty ``out_dir`` is refused unless ``overwrite=True``; then
the new tree replaces it by an atomic exchange (``renameat2`` with
``RENAME_EXCHANGE`` on Linux; elsewhere two renames, rolled back on
failure) and the old tree is removed.  On any error nothing is left
behind: the temporary directory is removed and ``out_dir`` is untouched.
A symbolic link as ``out_dir`` is refused (the swap would replace the link,
not the directory it points to).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import os
import posixpath
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from wendy_llm.atomic import move_aside
from wendy_llm.errors import TreeWriteError

MANIFEST_FILES = frozenset({"template.json", "template.schema.json"})

# fmt: off
RENDERED_EXTENSIONS = frozenset({
    ".json", ".toml", ".yaml", ".yml", ".md", ".txt", ".html", ".css", ".js", ".ts",
    ".py", ".rs", ".swift", ".go", ".cpp", ".c", ".h", ".hpp", ".cmake", ".sh", ".bash",
    ".zsh", ".dockerfile", ".gitignore", ".env", ".cfg", ".ini", ".xml", ".svg", ".lock",
    ".mojo",
})
RENDERED_BASENAMES = frozenset({
    "Dockerfile", "Makefile", "CMakeLists.txt", "Package.swift", "Cargo.toml", "Cargo.lock",
    ".swift-version", ".gitignore",
})
# fmt: on

FILE_MODE = 0o644
DIR_MODE = 0o755


def go_ext(path: str) -> str:
    """Go's ``filepath.Ext``: the suffix from the last dot of the base name."""
    base = path.rsplit("/", 1)[-1]
    dot = base.rfind(".")
    return "" if dot < 0 else base[dot:]


def is_rendered(path: str) -> bool:
    """Whether `wendy init` renders this template file (else it copies it)."""
    base = path.rsplit("/", 1)[-1]
    return go_ext(path).lower() in RENDERED_EXTENSIONS or base in RENDERED_BASENAMES


def is_excluded(path: str) -> bool:
    """The root's manifest files are not part of the output."""
    return path in MANIFEST_FILES


def walk_key(path: str) -> tuple[str, ...]:
    """Sort key giving ``filepath.Walk`` order (``a/b`` before ``a.txt``)."""
    return tuple(path.split("/"))


def output_path(source: str, template_name: str, app_id: str) -> str | None:
    """Where a template file lands, or None when the CLI drops it."""
    parts = [app_id if part == template_name else part for part in source.split("/")]
    joined = "/".join(parts)
    if joined.startswith("/"):
        return None
    cleaned = posixpath.normpath(joined)
    if cleaned in (".", "..") or cleaned.startswith(("../", "/")):
        return None
    return cleaned


@dataclass(frozen=True)
class RenderedFile:
    """One output file.  ``rendered`` is False for files copied byte for byte."""

    path: str
    data: bytes
    rendered: bool
    source: str


class RenderedTree(Mapping[str, bytes]):
    """Output path -> bytes, in walk order; ``files`` has the details."""

    def __init__(self, files: Mapping[str, RenderedFile]) -> None:
        self._files = MappingProxyType(dict(files))

    @property
    def files(self) -> Mapping[str, RenderedFile]:
        return self._files

    def __getitem__(self, path: str) -> bytes:
        return self._files[path].data

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def __repr__(self) -> str:
        return f"RenderedTree({len(self)} files)"

    def write(self, out_dir: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
        """Write the tree to ``out_dir`` atomically; returns the directory."""
        return write_tree(self._files.values(), Path(out_dir), overwrite=overwrite)


def _check_target(target: Path, overwrite: bool) -> bool:
    """Whether ``target`` exists (as a directory we may replace)."""
    if target.is_symlink():
        raise TreeWriteError(
            f"{target}: is a symbolic link; give the real directory", path=str(target)
        )
    if not target.exists():
        return False
    if not target.is_dir():
        raise TreeWriteError(f"{target}: exists and is not a directory", path=str(target))
    if not overwrite and any(target.iterdir()):
        raise TreeWriteError(
            f"{target}: directory is not empty; pass overwrite=True (--force) to replace it",
            path=str(target),
        )
    return True


def _write_files(files: list[RenderedFile], root: Path) -> None:
    made: set[str] = set()
    for item in files:
        parts = item.path.split("/")
        if item.path.startswith("/") or any(p in ("", ".", "..") for p in parts):
            # RenderedTree paths are clean; anything else would escape.
            raise TreeWriteError(
                f"refusing to write {item.path!r} outside the tree", path=item.path
            )
        directory = root
        for index, part in enumerate(parts[:-1]):
            directory = directory / part
            key = "/".join(parts[: index + 1])
            if key not in made:
                directory.mkdir(exist_ok=True)
                directory.chmod(DIR_MODE)
                made.add(key)
        target = directory / parts[-1]
        with open(target, "wb") as handle:
            handle.write(item.data)
        target.chmod(FILE_MODE)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


@functools.cache
def _renameat2() -> Any:
    """libc's ``renameat2`` (Linux, glibc >= 2.28), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        # The running process already has libc loaded: no library search.
        return ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux ``renameat2``); False when unsupported."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _swap_into_place(staged: Path, target: Path) -> None:
    """Replace the directory ``target`` with ``staged``; remove the old tree."""
    if _exchange(staged, target):
        # `staged` now holds the old tree; the new one is in place, so a
        # failure to clean up must not be reported as a failed write.
        shutil.rmtree(staged, ignore_errors=True)
        return
    backup = move_aside(target)
    try:
        os.replace(staged, target)
    except BaseException:
        os.replace(backup, target)
        raise
    shutil.rmtree(backup, ignore_errors=True)


def write_tree(files: Iterable[RenderedFile], out_dir: Path, *, overwrite: bool = False) -> Path:
    """Write ``files`` to ``out_dir`` atomically; see the module docstring."""
    items = list(files)
    target = Path(os.path.abspath(out_dir))
    exists = _check_target(target, overwrite)
    parent = target.parent
    # Parents this call creates are removed again if the write fails.
    created = [p for p in (parent, *parent.parents) if not p.exists()]
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staged = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=parent))
    except OSError as exc:
        _remove_empty(created)
        raise TreeWriteError(
            f"{target}: cannot create a directory: {exc}", path=str(target)
        ) from None
    try:
        staged.chmod(DIR_MODE)
        _write_files(items, staged)
        if exists:
            _swap_into_place(staged, target)
        else:
            os.replace(staged, target)
    except OSError as exc:
        _discard(staged, created)
        raise TreeWriteError(
            f"{target}: writing the tree failed: {exc}", path=str(target)
        ) from None
    except BaseException:
        _discard(staged, created)
        raise
    return target


def _remove_empty(directories: list[Path]) -> None:
    for directory in directories:  # deepest first
        with contextlib.suppress(OSError):
            directory.rmdir()


def _discard(staged: Path, created: list[Path]) -> None:
    with contextlib.suppress(OSError):
        shutil.rmtree(staged)
    _remove_empty(created)
