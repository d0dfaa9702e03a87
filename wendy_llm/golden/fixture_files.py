"""One pick's output file compared with its fixture.

Content is diffed by the comparison engine of ``wendy-llm diff``
(:func:`wendy_llm.compare.changes.file_diff`). A change is worded for any
pick: a fixture under the pick's own directory is ``<pick>/...``
(:data:`PICK_PLACEHOLDER`) in its location, its words and its diff labels,
so the same change in several picks compares equal and is shown once;
:func:`for_one_pick` names the pick when only one shows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from wendy_llm.compare.changes import file_diff
from wendy_llm.compare.textdiff import relabel
from wendy_llm.golden.layout import MANIFEST_NAME
from wendy_llm.golden.manifest import OUTPUT_MODE, Digests, FileRecord
from wendy_llm.render.canonical import OutputFile
from wendy_llm.repo.layout import display_path
from wendy_llm.safe_read import ReadRefused, read_bytes

ProblemKind = Literal["changed", "missing", "stale", "invalid"]

# Stands for the pick's own fixture directory in a change seen in several picks.
PICK_PLACEHOLDER = "<pick>"


@dataclass(frozen=True)
class FixtureChange:
    """One output file of one pick that disagrees with its fixture (any pick's words)."""

    kind: ProblemKind
    path: str
    stored: str  # fixture-relative
    text: str  # what is wrong, without the template/pick prefix
    diff: tuple[str, ...] = ()
    digest: str = ""  # the whole change: uncut diff, or new content
    merged_text: str = ""  # ``text`` for several picks, when it reads differently

    def merge_key(self) -> tuple[str, ...]:
        return (self.kind, self.path, self.stored, self.text, self.digest)


def generic(relpath: str, slug: str) -> str:
    """``relpath`` with the pick's own directory as :data:`PICK_PLACEHOLDER`."""
    return PICK_PLACEHOLDER + relpath[len(slug) :] if relpath.startswith(slug + "/") else relpath


def in_pick(relpath: str, slug: str) -> str:
    """The inverse of :func:`generic` for one pick."""
    if relpath.startswith(PICK_PLACEHOLDER + "/"):
        return slug + relpath[len(PICK_PLACEHOLDER) :]
    return relpath


class FixtureDir:
    """A fixture directory: its files read once, its paths as the user types them."""

    def __init__(
        self, directory: Path, template_dir: str | None = None, digests: Digests | None = None
    ) -> None:
        self.directory = directory
        self.template_dir = template_dir  # the template as the user types it, when known
        self.digests = digests if digests is not None else Digests()
        self._cache: dict[str, bytes | None] = {}

    def source_shown(self, source: str | None, path: str) -> str:
        """The template file an output file comes from, as the user would open it."""
        origin = source or path
        return f"{self.template_dir}/{origin}" if self.template_dir else origin

    def shown(self, relpath: str) -> str:
        return display_path(self.directory / relpath) if relpath else display_path(self.directory)

    def read(self, relpath: str) -> bytes | None:
        """The bytes of a regular file (never through a symlink); None when there is none."""
        if relpath not in self._cache:
            target = self.directory / relpath
            ok = target.is_file() and not target.is_symlink()
            self._cache[relpath] = _read(target, self.directory) if ok else None
        return self._cache[relpath]

    def labels(self, path: str, stored: str, slug: str | None = None) -> tuple[str, str]:
        """A content diff's labels: for pick ``slug``, or (None) for any pick."""
        old = f"{self.shown(stored if slug is None else in_pick(stored, slug))} (fixture)"
        if not stored.startswith(PICK_PLACEHOLDER + "/"):
            return old, f"{path} (render)"
        return old, f"{path} (render of {'each pick' if slug is None else f'pick {slug}'})"

    def compare_file(
        self,
        slug: str,
        path: str,
        new: OutputFile | None,
        old: FileRecord | None,
        *,
        where: str | None,
        max_diff_lines: int | None,
        lean: bool = False,
    ) -> FixtureChange | None:
        """Pick ``slug``'s ``path`` (``new``) against its record (``old``); None when equal.

        ``where`` is where ``--update`` would store a file the fixtures lack;
        ``lean``: it would record it by hash instead (the file is its template file).
        """
        if old is None:
            assert new is not None
            if lean:
                origin = self.source_shown(new.source, path)
                text = (
                    f"{path} (rendered, byte for byte its template file {origin}) has no "
                    f"record in {self.shown(MANIFEST_NAME)}"
                )
                return FixtureChange(
                    "missing", path, MANIFEST_NAME, text, digest=self.digests(new.data)
                )
            stored = generic(where or f"{slug}/{path}", slug)
            text = f"{path} ({'rendered' if new.rendered else 'copied'}) has no fixture"
            if not new.rendered:
                return FixtureChange("missing", path, stored, text, digest=self.digests(new.data))
            # Show what the fixture would hold, so the new file can be reviewed.
            shown = file_diff(
                b"",
                new.data,
                old_label="/dev/null",
                new_label=f"{path} (render)",
                max_lines=max_diff_lines,
            )
            return FixtureChange("missing", path, stored, text, shown.lines, shown.digest)
        stored = generic(old.stored or MANIFEST_NAME, slug)
        if new is None:
            text = f"{path} is no longer rendered; its fixture is stale ({self.shown(stored)})"
            return FixtureChange("stale", path, stored, text)
        new_kind = "rendered" if new.rendered else "copied"
        if new_kind != old.kind:
            text = f"{path} is now {new_kind} (its fixture records it as {old.kind})"
            return FixtureChange("changed", path, stored, text)
        if old.stored is None:  # copied, or lean: recorded by hash
            new_sha = self.digests(new.data)
            origin = self.source_shown(new.source or old.source, path)
            what = "copied file" if old.kind == "copied" else "rendered file"
            if new_sha == old.sha256:
                if old.mode is None or old.mode == OUTPUT_MODE:
                    return None
                text = (
                    f"{what} {path} (template file {origin}) is written with mode "
                    f"{OUTPUT_MODE}; {self.shown(MANIFEST_NAME)} records {old.mode}"
                )
                return FixtureChange("changed", path, stored, text)
            text = (
                f"{what} {path} changed (template file {origin}): sha256 {old.sha256[:12]} "
                f"in {self.shown(MANIFEST_NAME)}, {new_sha[:12]} now ({len(new.data)} bytes)"
            )
            return FixtureChange("changed", path, stored, text, digest=new_sha)
        data = self.read(old.stored)
        if data is None:
            text = (
                f"fixture file {self.shown(stored)} of {path} is listed in "
                f"{MANIFEST_NAME} but does not exist"
            )
            return FixtureChange("missing", path, stored, text)
        if data == new.data:
            return None
        old_label, new_label = self.labels(path, stored)
        diff = file_diff(
            data, new.data, old_label=old_label, new_label=new_label, max_lines=max_diff_lines
        )
        text = f"{path} differs from its fixture {self.shown(stored)}"
        same_way = f"{text} in the same way" if stored != old.stored else ""
        return FixtureChange("changed", path, stored, text, diff.lines, diff.digest, same_way)

    def for_one_pick(self, change: FixtureChange, slug: str) -> tuple[str, str, tuple[str, ...]]:
        """The change's (fixture location, words, diff) naming pick ``slug``."""
        stored = in_pick(change.stored, slug)
        if stored == change.stored:
            return stored, change.text, change.diff
        text = change.text.replace(self.shown(change.stored), self.shown(stored))
        old_any, new_any = self.labels(change.path, change.stored)
        old_one, new_one = self.labels(change.path, change.stored, slug)
        return stored, text, tuple(relabel(change.diff, (old_any, old_one), (new_any, new_one)))


def _read(path: Path, directory: Path) -> bytes | None:
    """A fixture file, by the one reader (None: refused, so it matches no render)."""
    try:
        return read_bytes(path, directory)
    except ReadRefused:
        return None
