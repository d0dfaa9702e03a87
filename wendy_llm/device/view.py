"""Building a render's device view: the path ``wendy run`` takes, then its apps.

:func:`device_view` is the one entry point.  The caller hands in the
documents it has already parsed (``check`` parses each render once): the
compose file ``wendy run`` reads (:func:`compose_file`, which may differ
from the one Docker Compose would pick) and ``wendy.json``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from wendy_llm.codes import device as DC
from wendy_llm.device.compose.view import compose_services
from wendy_llm.device.model import DeviceView
from wendy_llm.device.notes import Document, Notes
from wendy_llm.device.paths.deployment import Deployment, other_paths
from wendy_llm.device.profiles import PROFILES, DeviceProfile
from wendy_llm.device.runtime.checks import with_runtime
from wendy_llm.wendycli import REVISION
from wendy_llm.wendycli.compose import project_name
from wendy_llm.wendycli.project import COMPOSE_FILES, project_path


def compose_file(paths: Collection[str]) -> str | None:
    """The compose file ``wendy run`` reads in a render, if it takes the compose path."""
    path = project_path(paths)
    return path.file if path.kind == "compose" else None


def device_view(
    tree: Mapping[str, bytes],
    *,
    project: str,
    compose: Document | None,
    wendy: Document | None,
    devices: Sequence[DeviceProfile] = PROFILES,
) -> DeviceView:
    """What ``wendy run`` deploys for ``tree`` (a render) from a directory named ``project``.

    ``compose`` is the parsed :func:`compose_file` (required when there is
    one), ``wendy`` the parsed ``wendy.json`` (None when absent).
    ``devices`` are the profiles the build args are evaluated for.
    """
    path = project_path(tree)
    notes = Notes()
    if path.kind == "compose":
        if compose is None or compose.path != path.file:
            raise ValueError(f"the device view of this render needs {path.file} parsed")
        others = [name for name in COMPOSE_FILES if name in tree and name != path.file]
        if others:
            notes.warn(
                DC.COMPOSE_FILE_CHOICE,
                f"wendy run reads {path.file}; {', '.join(others)} beside it is not read "
                "(Docker Compose may pick another one of them)",
                path.file,
            )
        services = compose_services(tree, compose, wendy, project, devices, notes)
        deployment = Deployment(
            "compose", f"{path.file}; wendy.json is not read on this path", services
        )
    else:
        deployment = other_paths(path, tree, wendy, devices, notes)
    # Where the services are defined: their lines are in that file.
    where = path.file if path.kind == "compose" else ("wendy.json" if wendy is not None else None)
    services = with_runtime(
        tree, deployment.services, deployment.deploy, notes, where, project_name(project)
    )
    return DeviceView(
        revision=REVISION,
        path=path.kind,
        path_file=path.file,
        project=project_name(project),
        devices=tuple(d.name for d in devices),
        services=services,
        ignored=tuple(notes.ignored),
        findings=tuple(notes.findings),
        not_modelled=tuple(notes.not_modelled),
        creation_order="dependencies-first" if path.kind == "compose" else "sequence",
        deploy=deployment.deploy,
        deploy_reason=deployment.reason,
        readiness=deployment.readiness,
        post_start=deployment.post_start,
    )
