"""Which files `wendy init` writes, where, and how: file rules and rendered trees.

The rules (which files are rendered, where each lands for an app id):
docs/wendy-init-semantics.md, section 5. ``RenderedTree.write(out_dir)`` is
atomic: the tree is written into a new hidden directory beside ``out_dir``
and renamed into place, replacing a non-empty ``out_dir`` only with
``overwrite=True`` (by an atomic exchange, ``renameat2`` on Linux, else
two renames rolled back on failure); on any error ``out_dir`` is untouched
and nothing is left behind but what a killed writer leaves, which the next
write removes (:mod:`wendy_llm.atomic`). Directories whose loss would hurt
are never replaced (:mod:`wendy_llm.render.files.outguard`), nor a symlinked ``out_dir``."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import posixpath
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType

from wendy_llm import phases
from wendy_llm.arguments import checked, type_error
from wendy_llm.atomic import (
    TMP,
    is_work_dir,
    make_work_dir,
    move_aside,
    remove_tree,
    work_beside,
)
from wendy_llm.errors import OutputDirNotEmpty, TreeWriteError, quoted
from wendy_llm.record import Record
from wendy_llm.render.files.outguard import check_out_dir
from wendy_llm.render.manifest.records import MANIFEST_FILE, PICKER_FILE

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Any, Final

MANIFEST_FILES = frozenset({MANIFEST_FILE, PICKER_FILE})

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


class RenderedFile(Record):
    """One output file.  ``rendered`` is False for files copied byte for byte.

    ``verbatim``: the bytes are those of the template file ``source`` (a
    copied file, or a rendered one without an action): the golden
    fixtures record such a file by hash.  It follows from the other fields
    and the template, so it is not part of the value.

    A value (a :class:`~wendy_llm.record.Record`).
    """

    __slots__ = ("data", "path", "rendered", "source", "verbatim")
    _fields = ("path", "data", "rendered", "source")

    def __init__(
        self, path: str, data: bytes, rendered: bool, source: str, *, verbatim: bool = False
    ) -> None:
        self.path: Final = path
        self.data: Final = data
        self.rendered: Final = rendered
        self.source: Final = source
        self.verbatim: Final = verbatim or not rendered


def path_conflict(paths: Iterable[str]) -> tuple[str, str] | None:
    """``(a, a/...)`` when one path is a file another needs as a directory, else None."""
    files = set(paths)
    for path in sorted(files, key=walk_key):
        parts = path.split("/")
        for end in range(1, len(parts)):
            ancestor = "/".join(parts[:end])
            if ancestor in files:
                return ancestor, path
    return None


class RenderedTree(Mapping[str, bytes]):
    """Output path -> bytes, in walk order; ``files`` has the details.

    ``template_root`` is the directory the tree was rendered from, when
    there is one: ``write`` never replaces it or a directory holding it."""

    def __init__(
        self, files: Mapping[str, RenderedFile], *, template_root: Path | None = None
    ) -> None:
        if not isinstance(files, Mapping):  # made per render: one cheap test, not the checker
            raise type_error("RenderedTree()", "files", files, "Mapping[str, RenderedFile]")
        self._files = MappingProxyType(dict(files))
        self.template_root = template_root

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

    @checked
    def write(
        self,
        out_dir: str | os.PathLike[str],
        *,
        overwrite: bool = False,
        warn: Callable[[str], None] | None = None,
    ) -> Path:
        """Write the tree to ``out_dir`` atomically; returns the directory.

        ``warn`` is told (default: :func:`warnings.warn`) when part of a
        replaced tree could not be removed, and where it is left.
        """
        return write_tree(
            self._files.values(),
            Path(out_dir),
            overwrite=overwrite,
            template_root=self.template_root,
            warn=warn,
        )


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
        raise OutputDirNotEmpty(
            f"{target}: directory is not empty; pass overwrite=True to replace it",
            path=str(target),
        )
    return True


def _check_paths(files: list[RenderedFile], target: Path) -> None:
    conflict = path_conflict(item.path for item in files)
    if conflict is None:
        return
    by_path = {item.path: item for item in files}
    file, other = (by_path[p] for p in conflict)
    raise TreeWriteError(
        f"{target}: cannot write both the file {file.path} (from {file.source}) and "
        f"{other.path} (from {other.source}), which needs {file.path} to be a directory",
        path=str(target),
    )


def _write_files(files: list[RenderedFile], root: Path) -> None:
    made: set[str] = set()
    for item in files:
        parts = item.path.split("/")
        if item.path.startswith("/") or any(p in ("", ".", "..") for p in parts):
            # RenderedTree paths are clean; anything else would escape.
            raise TreeWriteError(
                f"refusing to write {quoted(item.path)} outside the tree", path=item.path
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
    import ctypes  # lazy: only a write that replaces a tree needs it

    try:
        # The running process already has libc loaded: no library search.
        return ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None


def _errno() -> int:
    import ctypes  # lazy: see _renameat2, which has imported it already

    return ctypes.get_errno()


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux ``renameat2``); False when unsupported."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = _errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _swap_into_place(staged: Path, target: Path) -> Path | None:
    """Replace the directory ``target`` with ``staged``; remove the old tree.

    Returns where what could not be removed of the old tree is left, or None.
    """
    if _exchange(staged, target):
        # `staged` now holds the old tree; the new one is in place, so a
        # failure to clean up must not be reported as a failed write.
        old = staged
    else:
        old = move_aside(target)
        try:
            os.replace(staged, target)
        except BaseException:
            os.replace(old, target)
            raise
    remove_tree(old)
    return old if os.path.lexists(old) else None


def write_tree(
    files: Iterable[RenderedFile],
    out_dir: Path,
    *,
    overwrite: bool = False,
    template_root: Path | None = None,
    warn: Callable[[str], None] | None = None,
) -> Path:
    """Write ``files`` to ``out_dir`` atomically; see the module docstring.

    When part of the replaced tree cannot be removed (a file the user may
    not delete), the write still succeeds and ``warn`` (default:
    :func:`warnings.warn`) is told where the rest is left.
    """
    items = list(files)
    target = Path(os.path.abspath(out_dir))
    check_out_dir(target, template_root=template_root, exists=os.path.lexists(target))
    exists = _check_target(target, overwrite)
    _check_paths(items, target)
    parent = target.parent
    # Parents this call creates are removed again if the write fails.
    created = [p for p in (parent, *parent.parents) if not p.exists()]
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _remove_empty(created)
        raise TreeWriteError(
            f"{target}: cannot create {exc.filename}: {exc.strerror}", path=str(target)
        ) from None
    with work_beside(target):
        left = _stage_and_swap(items, target, exists, overwrite, created)
    if left is not None:
        message = (
            f"{target}: written, but part of the tree it replaced could not be removed: "
            f"it is left in {left} (remove it by hand)"
        )
        if warn is None:
            import warnings  # lazy: only a replace that could not clean up needs it

            warnings.warn(message, RuntimeWarning, stacklevel=3)
        else:
            warn(message)
    return target


def _stage_and_swap(
    items: list[RenderedFile], target: Path, exists: bool, overwrite: bool, created: list[Path]
) -> Path | None:
    """Stage the tree and put it in place; where a rest of the old tree is left, or None."""
    staged: Path | None = None
    try:
        staged = make_work_dir(target, TMP)
        staged.chmod(DIR_MODE)
        _write_files(items, staged)
        phases.reached("staged")
        if not exists:
            try:
                os.replace(staged, target)
                return None
            except OSError as exc:
                # Another writer created it meanwhile: replace it if allowed.
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST) or not overwrite:
                    raise
                _check_target(target, overwrite)
        return _swap_into_place(staged, target)
    except OSError as exc:
        _discard(staged, created)
        raise TreeWriteError(
            f"{target}: writing the tree failed: {_describe(exc, staged, target)}",
            path=str(target),
        ) from None
    except BaseException:
        _discard(staged, created)
        raise


def _describe(exc: OSError, staged: Path | None, target: Path) -> str:
    """``exc`` in words, naming paths inside the output, never a hidden work
    directory beside it (the message already names the output)."""
    name = exc.filename
    if exc.strerror is None or not isinstance(name, str):
        return exc.strerror or str(exc)
    if staged is not None:
        inside = os.path.relpath(name, staged)
        if not inside.startswith(".."):
            return exc.strerror if inside == "." else f"{inside}: {exc.strerror}"
    if is_work_dir(Path(name), target):
        # Making the staging directory itself failed (a read-only or full
        # disk): it is the output that cannot be written.
        return exc.strerror
    return f"{name}: {exc.strerror}"


def _remove_empty(directories: list[Path]) -> None:
    for directory in directories:  # deepest first
        with contextlib.suppress(OSError):
            directory.rmdir()


def _discard(staged: Path | None, created: list[Path]) -> None:
    if staged is not None:
        remove_tree(staged)
    _remove_empty(created)
