"""The image model's working state while one stage is walked (then frozen as a StageImage)."""

from __future__ import annotations

import dataclasses
import fnmatch
import posixpath
from dataclasses import dataclass, field

from wendy_llm.docker.image.bases import DOCKER_PATH, BaseFacts
from wendy_llm.docker.image.facts import Entry, Install, Opaque, Output, Run, StageImage


@dataclass
class State:
    """What one stage holds so far, in build order."""

    entries: dict[str, Entry] = field(default_factory=dict)
    history: list[Entry] = field(default_factory=list)
    opaque: list[Opaque] = field(default_factory=list)
    dirs: set[str] = field(default_factory=lambda: {"/", *DOCKER_PATH})
    venvs: list[Entry] = field(default_factory=list)
    installs: list[Install] = field(default_factory=list)
    packages: list[tuple[str, int]] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    outputs: list[Output] = field(default_factory=list)
    workdir: str = "/"
    path_dirs: list[tuple[str, int]] = field(default_factory=list)
    path_known: bool = True
    entrypoint_line: int | None = None
    cmd_line: int | None = None

    @classmethod
    def inherit(cls, parent: StageImage) -> State:
        """A stage built ``FROM`` another stage starts with everything it holds."""
        dirs = {"/", *DOCKER_PATH, *(p for p, e in parent.entries.items() if e.kind == "dir")}
        return cls(
            dict(parent.entries),
            list(parent.history),
            list(parent.opaque),
            dirs,
            list(parent.venvs),
            list(parent.installs),
            list(parent.packages),
            list(parent.runs),
            list(parent.outputs),
            parent.workdir,
            list(parent.path_dirs),
            parent.path_known,
            parent.entrypoint_line,
            parent.cmd_line,
        )

    def absolute(self, path: str, cwd: str | None = None) -> str:
        return posixpath.normpath(posixpath.join(cwd or self.workdir, path))

    def put(self, entry: Entry) -> None:
        self.entries[entry.path] = entry
        self.history.append(entry)
        if entry.kind == "dir":
            self.dirs.add(entry.path)
        for parent in _parents(entry.path):
            self.dirs.add(parent)

    def make_dir(self, path: str, line: int, how: str, certain: bool = True) -> None:
        if path not in self.entries:
            self.put(Entry(path, "dir", line, how, certain, True))

    def under(self, path: str) -> list[Entry]:
        """The entry at ``path`` and every entry below it."""
        prefix = path.rstrip("/") + "/"
        return [e for p, e in self.entries.items() if p == path or p.startswith(prefix)]

    def output_at(self, path: str) -> Output | None:
        """The toolchain build ``path`` comes out of, if any."""
        for output in reversed(self.outputs):
            if path == output.path or path.startswith(output.path.rstrip("/") + "/"):
                return output
        return None

    def set_mode(self, pattern: str, recursive: bool, executable: bool, line: int) -> None:
        """``chmod``: set or clear the execute bit of what ``pattern`` names."""
        for path, entry in list(self.entries.items()):
            if (
                path == pattern
                or fnmatch.fnmatchcase(path, pattern)
                or (recursive and path.startswith(pattern.rstrip("/") + "/"))
            ):
                changed = dataclasses.replace(entry, executable=executable, mode_unclear=None)
                self.entries[path] = changed
                self.history.append(changed)

    def modes_unclear(self, line: int) -> None:
        """A RUN that may change modes in a way the model cannot follow."""
        for path, entry in list(self.entries.items()):
            if entry.executable is False:
                self.entries[path] = dataclasses.replace(entry, mode_unclear=line)

    def freeze(self, index: int, base_image: str | None, base: BaseFacts | None) -> StageImage:
        return StageImage(
            index,
            base_image,
            base,
            dict(self.entries),
            tuple(self.history),
            tuple(self.opaque),
            tuple(self.venvs),
            tuple(self.installs),
            tuple(self.packages),
            tuple(self.runs),
            tuple(self.outputs),
            self.workdir,
            tuple(self.path_dirs),
            self.path_known,
            self.entrypoint_line,
            self.cmd_line,
        )


def _parents(path: str) -> list[str]:
    parts = path.strip("/").split("/")[:-1]
    return ["/" + "/".join(parts[: i + 1]) for i in range(len(parts))]
