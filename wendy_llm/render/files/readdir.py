"""Reading a template directory as `wendy init` sees it, and saying what it leaves out.

Only regular files are read; every other entry is skipped and recorded as a
:class:`SkippedEntry` with the reason (a ``skipped-entry`` lint), and a
symlinked ``template.json`` is an error that says so
(docs/wendy-init-semantics.md, section 1).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from wendy_llm.errors import TemplateLoadError
from wendy_llm.record import Record
from wendy_llm.render.manifest.load import MANIFEST_FILE, PICKER_FILE
from wendy_llm.safe_read import ReadRefused, read_bytes, scan_dir

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final

_NOT_OUTPUT = "wendy init copies only regular files, so it is not part of the output"
_KINDS = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
}


class SkippedEntry(Record):
    """An entry of the template directory that is not a regular file (``path``
    relative to the root), and why that matters.  A value (a
    :class:`~wendy_llm.record.Record`)."""

    __slots__ = ("path", "reason")
    _fields = ("path", "reason")

    def __init__(self, path: str, reason: str) -> None:
        self.path: Final = path
        self.reason: Final = reason


def _link_reason(path: str, full: str) -> str:
    target = os.readlink(full)
    if path == PICKER_FILE:
        return (
            f"a symbolic link (to {target}); wendy init reads only regular files, so the "
            "template has no picker"
        )
    if os.path.isdir(full):
        return (
            f"a symbolic link to a directory ({target}); wendy init does not follow it, so "
            "nothing under it is part of the output"
        )
    return f"a symbolic link (to {target}); {_NOT_OUTPUT}"


def read_template_dir(root: Path) -> tuple[dict[str, bytes], list[SkippedEntry]]:
    """Every regular file under ``root`` (POSIX path -> bytes) and every entry skipped.

    Entries are listed without following a link; ``root`` itself is the
    caller's (the gate's discovery refuses a template folder linked out of
    the repository: :mod:`wendy_llm.repo.layout`)."""
    files: dict[str, bytes] = {}
    skipped: list[SkippedEntry] = []

    def visit(directory: Path, prefix: str) -> None:
        try:
            entries = scan_dir(directory, root)
        except ReadRefused as exc:
            raise TemplateLoadError(str(exc), file=str(directory)) from None
        except OSError as exc:
            raise TemplateLoadError(f"{directory}: {exc.strerror}", file=str(directory)) from None
        for entry in entries:
            rel = f"{prefix}{entry.name}"
            mode = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode):
                visit(Path(entry.path), rel + "/")
            elif stat.S_ISREG(mode):
                try:  # the one reader: a size limit, and only inside the template
                    files[rel] = read_bytes(Path(entry.path), root, shown=entry.path)
                except ReadRefused as exc:
                    raise TemplateLoadError(str(exc), file=entry.path) from None
                except OSError as exc:
                    raise TemplateLoadError(
                        f"{entry.path}: {exc.strerror}", file=entry.path
                    ) from None
            elif stat.S_ISLNK(mode):
                skipped.append(SkippedEntry(rel, _link_reason(rel, entry.path)))
            else:
                kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
                skipped.append(SkippedEntry(rel, f"{kind}; {_NOT_OUTPUT}"))

    visit(root, "")
    return files, skipped


def check_manifest_file(root: Path, shown: str) -> None:
    """Raise :class:`TemplateLoadError` unless ``root/template.json`` is a regular file
    (``shown`` is how the user named ``root``)."""
    manifest = root / MANIFEST_FILE
    if manifest.is_symlink():
        raise TemplateLoadError(
            f"{shown}: {MANIFEST_FILE} is a symbolic link (to {os.readlink(manifest)}); "
            f"wendy init reads only regular files, so it would find no {MANIFEST_FILE}: "
            "copy the file instead",
            file=str(manifest),
        )
    if not manifest.is_file():
        raise TemplateLoadError(f"{shown}: no {MANIFEST_FILE}: not a template", file=shown)
