"""The multi-service path: ``wendy.json`` ``services`` and no compose file (section 4).

Each service is built from ``<project>/<context>`` with its ``Dockerfile``
and the Wendy build args, pushed as ``localhost:5000/<appid>-<name>:latest``
(both lower-cased) and created as the app ``<appId>-<name>`` with **its own**
entitlements (a gpu entitlement is honoured) and ``platform``.  No command is
sent (the image's ``ENTRYPOINT`` + ``CMD`` run); the restart policy is the
device default.  Services are created in :func:`creation_order` (a cycle
fails ``wendy run``).  The top-level ``entitlements``, ``readiness`` and
``hooks`` apply to no service: each is a warning at its line.  A root
``Dockerfile`` is not built.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence

from wendy_llm.codes import device as DC
from wendy_llm.device.model import DEVICE_DEFAULT_RESTART, Service, entitlement_from
from wendy_llm.device.notes import Document, Located, Notes
from wendy_llm.device.paths.app_image import app_image
from wendy_llm.device.profiles import DeviceProfile
from wendy_llm.render.manifest.gojson import Decoded
from wendy_llm.wendycli.project import (
    DependencyCycleError,
    UnknownDependencyError,
    creation_order,
    service_app,
    service_image,
)
from wendy_llm.wendycli.wendy_json import FILE as WENDY_JSON
from wendy_llm.wendycli.wendy_json import entitlement_entries

#: What each top-level setting does where it is honoured (the single-container path).
_LOST: Mapping[str, str] = {
    "readiness": "the readiness check (wendy run waiting for the port)",
    "hooks": "the post-start hook",
}


def multi_services(
    tree: Mapping[str, bytes],
    wendy: Document,
    decoded: Decoded,
    devices: Sequence[DeviceProfile],
    notes: Notes,
) -> tuple[Service, ...] | None:
    """The apps of the multi-service path in creation order (None: ``wendy run`` fails)."""
    at = Located(notes, wendy)
    config = decoded.value
    assert isinstance(config, Mapping)
    services: Mapping[str, Mapping[str, object]] = config["services"]
    app_id = str(config["appId"])
    _report_lost(at, decoded)
    if "Dockerfile" in tree:
        notes.ignore(
            DC.APP_SETTING_LOST,
            "Dockerfile",
            f"not built: {WENDY_JSON} has services, so wendy run builds each service's "
            "context instead (the multi-service path)",
            "Dockerfile",
            1,
        )
    depends = {name: _depends_on(s) for name, s in services.items()}
    try:
        order = creation_order(depends)
    except (DependencyCycleError, UnknownDependencyError) as exc:
        service = exc.service
        at.error(
            DC.SERVICES_INVALID,
            f"wendy run fails: {exc}",
            *decoded.raw_path(("services", service, "dependsOn")),
        )
        return None
    found = [_service(at, tree, decoded, app_id, name, services[name], devices) for name in order]
    if any(s is None for s in found):
        return None
    return tuple(s for s in found if s is not None)


def _service(
    at: Located,
    tree: Mapping[str, bytes],
    decoded: Decoded,
    app_id: str,
    name: str,
    service: Mapping[str, object],
    devices: Sequence[DeviceProfile],
) -> Service | None:
    context = str(service["context"])
    directory = posixpath.normpath(context)
    image = app_image(tree, context, directory, devices, at.notes, owner=f"service {name}")
    if image is None:
        where = "the project root" if directory == "." else f"{directory}/"
        at.error(
            DC.SERVICE_NO_DOCKERFILE,
            f"service {name}: {where} has no Dockerfile: wendy run fails to build it",
            *decoded.raw_path(("services", name, "context")),
        )
        return None
    wanted = (
        entitlement_from(fields)
        for _, owner, fields in entitlement_entries(decoded)
        if owner == name
    )
    entitlements = tuple(e for e in wanted if e is not None)
    return Service(
        name=name,
        app=service_app(app_id, name),
        image=service_image(app_id, name),
        image_written=None,
        build=image.build,
        command=image.command,
        restart=DEVICE_DEFAULT_RESTART,
        depends_on=tuple(_depends_on(service)),
        ports=(),
        dropped_ports=(),
        volumes=(),
        network_mode=None,
        entitlements=entitlements,
        environment=image.environment,
        dropped_environment=(),
        ignored_keys=(),
        line=at.line(*decoded.raw_path(("services", name))),
    )


def _depends_on(service: Mapping[str, object]) -> list[str]:
    names = service["dependsOn"]
    return [str(n) for n in names] if isinstance(names, Sequence) else []


def _report_lost(at: Located, decoded: Decoded) -> None:
    """A warning for each top-level setting the multi-service path applies to no service."""
    config = decoded.value
    assert isinstance(config, Mapping)
    why = (
        f"{WENDY_JSON} has services, and on that path (multi-service) wendy run applies "
        "the top-level entitlements, readiness and hooks to no service"
    )
    for path, owner, fields in entitlement_entries(decoded):
        if owner is not None:
            continue
        wanted = entitlement_from(fields)
        label = "an entitlement" if wanted is None else f"the {wanted.type} entitlement"
        fix = " (no GPU for any service)" if wanted is not None and wanted.type == "gpu" else ""
        at.ignore(
            DC.APP_SETTING_LOST,
            f"{label} of the app is lost on a device{fix}: {why}; give it to the "
            "services that need it",
            *path,
        )
    for key, what in _LOST.items():
        if config[key] is not None:
            at.ignore(
                DC.APP_SETTING_LOST, f"{what} is lost on a device: {why}", *decoded.raw_path((key,))
            )
