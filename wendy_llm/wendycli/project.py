"""Which path ``wendy run`` takes for a project directory, and how it names what it deploys.

``wendy run`` looks at the project's top level and takes the first kind that
exists: a compose file (``docker-compose.yml``, ``docker-compose.yaml``,
``compose.yml``, ``compose.yaml``, in that order), else a ``Dockerfile``,
else ``Package.swift``, else exactly one ``*.xcodeproj``, else a Python
project, else "unknown" (not yet an error).  Only the compose path ignores
``wendy.json``; every other path loads it (:data:`WENDY_JSON_NOT_FOUND`
when it is missing), and then, on a WendyOS device:

- ``wendy.json`` has a non-empty ``services`` map: the **multi-service
  path**, whatever the top level holds; each service is an app
  :func:`service_app` running :func:`service_image`, created in
  :func:`creation_order`;
- otherwise the **single-container path** for docker, python (a Dockerfile
  is generated when there is none) and swift: one app :func:`single_app`
  running :func:`single_image`; an "unknown" project fails
  (:data:`UNKNOWN_PROJECT`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

PathKind = Literal["compose", "docker", "swift", "xcode", "python", "unknown"]

#: The compose file names ``wendy run`` looks for, in its order.
COMPOSE_FILES: Final = (
    "docker-compose.yml",
    "docker-compose.yaml",
    "compose.yml",
    "compose.yaml",
)
#: Files that make a directory a Python project for ``wendy run``.
PYTHON_MARKERS: Final = ("requirements.txt", "setup.py", "pyproject.toml")
#: The project types whose single container ``wendy run`` builds.
SINGLE_CONTAINER_KINDS: Final = ("docker", "python", "swift")

#: What ``wendy run`` says when a path that reads ``wendy.json`` finds none
#: (with no terminal to ask on).
WENDY_JSON_NOT_FOUND: Final = "wendy.json not found; run 'wendy init <app-id>' to create one"
#: What ``wendy run`` says of an "unknown" project without ``wendy.json`` services.
UNKNOWN_PROJECT: Final = (
    "unable to detect project type; ensure a Dockerfile, requirements.txt, "
    "or Package.swift is present"
)
#: The registry a Linux WendyOS device's images are pushed to.
DEVICE_REGISTRY: Final = "localhost:5000"


@dataclass(frozen=True)
class ProjectPath:
    """The path taken, and the file that decided it (None for ``python``/``unknown``)."""

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
    return ProjectPath("unknown", None)


def service_app(app_id: str, service: str) -> str:
    """The app a ``wendy.json`` service becomes: ``<appId>-<name>``."""
    return f"{app_id}-{service}"


def service_image(app_id: str, service: str) -> str:
    """The image a ``wendy.json`` service's build is pushed as."""
    return f"{DEVICE_REGISTRY}/{app_id.lower()}-{service.lower()}:latest"


def single_app(app_id: str) -> str:
    """The one app of the single-container path: the app id."""
    return app_id


def single_image(app_id: str) -> str:
    """The image of the single-container path."""
    return f"{DEVICE_REGISTRY}/{app_id.lower()}:latest"


class DependencyCycleError(ValueError):
    """``dependsOn`` closes a cycle: ``wendy run`` fails with this message."""

    def __init__(self, service: str) -> None:
        self.service = service
        super().__init__(f'cycle detected in dependsOn graph involving service "{service}"')


class UnknownDependencyError(ValueError):
    """``dependsOn`` names no service."""

    def __init__(self, service: str, dependency: str) -> None:
        self.service, self.dependency = service, dependency
        super().__init__(f'service "{service}" depends on unknown service "{dependency}"')


def creation_order(depends_on: Mapping[str, Sequence[str]]) -> list[str]:
    """The order the multi-service path creates ``wendy.json`` services in.

    Topological over ``dependsOn``: the names are visited sorted, each
    after its dependencies (visited as written).  Raises
    :class:`DependencyCycleError` naming the service met again while its
    own dependencies are being visited, :class:`UnknownDependencyError`.
    """
    order: list[str] = []
    state: dict[str, bool] = {}  # False: being visited; True: done

    def visit(name: str) -> None:
        done = state.get(name)
        if done is False:
            raise DependencyCycleError(name)
        if done:
            return
        state[name] = False
        for dependency in depends_on[name]:
            if dependency not in depends_on:
                raise UnknownDependencyError(name, dependency)
            visit(dependency)
        state[name] = True
        order.append(name)

    for name in sorted(depends_on):
        visit(name)
    return order
