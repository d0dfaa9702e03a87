"""Which path ``wendy run`` takes for a project directory.

``wendy run`` looks at the project's top level and takes the first kind that
exists: a compose file (``docker-compose.yml``, ``docker-compose.yaml``,
``compose.yml``, ``compose.yaml``, in that order), else a ``Dockerfile``,
else ``Package.swift``, else exactly one ``*.xcodeproj``, else a Python
project.  Only the compose path ignores ``wendy.json``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Final, Literal

PathKind = Literal["compose", "docker", "swift", "xcode", "python", "none"]

#: The compose file names ``wendy run`` looks for, in its order.
COMPOSE_FILES: Final = (
    "docker-compose.yml",
    "docker-compose.yaml",
    "compose.yml",
    "compose.yaml",
)
#: Files that make a directory a Python project for ``wendy run``.
PYTHON_MARKERS: Final = ("requirements.txt", "setup.py", "pyproject.toml")


@dataclass(frozen=True)
class ProjectPath:
    """The path taken, and the file that decided it (None for ``python``/``none``)."""

    kind: PathKind
    file: str | None

    @property
    def reads_wendy_json(self) -> bool:
        """Every path except compose loads and validates ``wendy.json``."""
        return self.kind != "compose"


def project_path(paths: Collection[str]) -> ProjectPath:
    """The path ``wendy run`` takes for a project holding ``paths`` (POSIX, relative)."""
    top = {p for p in paths if "/" not in p}
    # A directory such as App.xcodeproj/ shows up only through its files.
    xcodeprojs = {p.split("/", 1)[0] for p in paths if p.split("/", 1)[0].endswith(".xcodeproj")}
    for name in COMPOSE_FILES:
        if name in top:
            return ProjectPath("compose", name)
    if "Dockerfile" in top:
        return ProjectPath("docker", "Dockerfile")
    if "Package.swift" in top:
        return ProjectPath("swift", "Package.swift")
    if len(xcodeprojs) == 1:
        return ProjectPath("xcode", next(iter(xcodeprojs)))
    for name in PYTHON_MARKERS:
        if name in top:
            return ProjectPath("python", name)
    return ProjectPath("none", None)
