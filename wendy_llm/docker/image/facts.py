"""The image model's data: what one build stage's file system holds, and how it got there.

Every entry names the instruction and line that made it and whether the
model is ``certain`` of it.  What the model cannot see (a base image's
files beyond its documented facts, another image's ``COPY --from``, a
``RUN`` it cannot read) is never guessed: it is an ``opaque`` directory or
simply absent from ``entries``, and callers say "unknown".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from wendy_llm.docker.image.bases import BaseFacts

EntryKind = Literal["file", "dir", "link"]
#: What a binary needs at run time beside itself (documented toolchain defaults).
Linkage = Literal["swift-runtime", "glibc", "musl", "dotnet-runtime"]


@dataclass(frozen=True)
class Entry:
    """One path the build creates, and by which instruction."""

    path: str  # absolute, normalised
    kind: EntryKind
    line: int  # the instruction that made it (or last changed it)
    how: str  # "COPY", "RUN mkdir", "pip install uvicorn (requirements.txt)", ...
    certain: bool
    executable: bool | None  # None: the mode is not known
    source: str | None = None  # the build-context file it was copied from (tree path)
    mode_unclear: int | None = None  # a later RUN may have changed its mode (its line)
    needs: Linkage | None = None  # a built binary's run-time dependency
    built_at: str | None = None  # where that binary was built ("Dockerfile line 5: swift build")
    link_to: str | None = None  # a symbolic link's target (``ln -s``)


@dataclass(frozen=True)
class Install:
    """A package an installer put into a directory (a venv's or a prefix's ``bin``)."""

    package: str  # as named (lower case)
    bin_dir: str
    line: int
    via: str  # "pip install uvicorn", "requirements.txt:3 (pip install -r)"
    certain: bool  # False: the package was named through something the model cannot read


@dataclass(frozen=True)
class Opaque:
    """A directory filled from something the model cannot see."""

    path: str
    line: int
    why: str


@dataclass(frozen=True)
class Output:
    """What a toolchain command builds (a file or a directory of binaries) and what it needs."""

    path: str
    needs: Linkage
    line: int
    how: str  # "swift build -c release (no --static-swift-stdlib)"


@dataclass(frozen=True)
class Run:
    """One ``RUN`` instruction's text, in order (its heredocs appended)."""

    line: int
    text: str
    workdir: str


@dataclass(frozen=True)
class StageImage:
    """One build stage's image: its base, and every path the build creates in it."""

    index: int
    base_image: str | None  # the external image at the root of its FROM chain (None: unknown)
    base: BaseFacts | None  # that image's documented facts (None: not in the table)
    entries: Mapping[str, Entry]  # path -> the last writer
    history: tuple[Entry, ...]  # every write, in build order (the FROM chain's first)
    opaque: tuple[Opaque, ...]
    venvs: tuple[Entry, ...]  # the virtualenv directories created
    installs: tuple[Install, ...]
    packages: tuple[tuple[str, int], ...]  # OS packages (apt/apk/dnf) and the line installing them
    runs: tuple[Run, ...]
    outputs: tuple[Output, ...]  # toolchain builds whose binaries need a runtime
    workdir: str  # the last WORKDIR ("/" without one)
    path_dirs: tuple[tuple[str, int], ...]  # the image's PATH as ENV sets it (dir, line; 0: base)
    path_known: bool  # False: the image's PATH depends on something unseen
    entrypoint_line: int | None = None  # the ENTRYPOINT the image ends with (None: none here)
    cmd_line: int | None = None  # the CMD it ends with (None: none here, or cleared)

    def entry(self, path: str) -> Entry | None:
        return self.entries.get(path)

    def holder(self, path: str) -> Entry | None:
        """The entry at ``path``, or the nearest directory above it that the model holds."""
        while True:
            entry = self.entries.get(path)
            if entry is not None or path in ("/", ""):
                return entry
            path = path.rsplit("/", 1)[0] or "/"

    def followed(self, path: str) -> Entry | None:
        """The entry at ``path``, a symbolic link followed to its target when the model
        holds that (up to a few links)."""
        entry = self.entries.get(path)
        for _ in range(8):
            if entry is None or entry.link_to is None or entry.link_to not in self.entries:
                return entry
            entry = self.entries[entry.link_to]
        return entry

    def opaque_over(self, path: str) -> Opaque | None:
        """The opaque directory ``path`` lies in, if any."""
        for box in self.opaque:
            if path == box.path or path.startswith(box.path.rstrip("/") + "/"):
                return box
        return None

    def files_before(self, line: int) -> dict[str, Entry]:
        """What the stage holds just before the instruction at ``line`` runs."""
        out: dict[str, Entry] = {}
        for entry in self.history:
            if entry.line < line:
                out[entry.path] = entry
        return out


@dataclass(frozen=True, eq=False)
class ImageModel:
    """Every stage of one Dockerfile built with given build arguments and context.

    Compared (and hashed) by identity: one object per distinct content (the walk's
    memo), which the readers of the model key their own memos on.
    """

    stages: tuple[StageImage | None, ...]  # None: a stage whose FROM cannot be expanded
    target: int  # the stage built

    @property
    def built(self) -> StageImage | None:
        return self.stages[self.target] if self.stages else None
