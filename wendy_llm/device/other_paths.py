"""The paths other than compose: what the spec says of them, and what it does not.

On the docker path (a root ``Dockerfile``, no compose file) the CLI builds
that Dockerfile and loads ``wendy.json`` (validated by the ``wendy-json``
check); the app gets ``wendy.json``'s entitlements.  The spec does not say
how the app and its image are named, which build args it gets, its restart
policy, or what becomes of ``wendy.json``'s ``services``: those are listed
as not modelled, and the image is built with no build args.  Of the swift,
xcode and python paths the spec says only that ``wendy.json`` is loaded, and
of a render with none of their markers (a Wendy Lite app, a ``wendy.json``
with services only) nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from wendy_llm.device.images import built_image, container_command
from wendy_llm.device.model import (
    DEVICE_DEFAULT_RESTART,
    Build,
    Entitlement,
    Environment,
    Service,
    entitlement_from,
)
from wendy_llm.device.notes import Document, Notes
from wendy_llm.device.profiles import DeviceProfile
from wendy_llm.render.gojson import Decoded
from wendy_llm.wendycli.compose import project_name
from wendy_llm.wendycli.project import ProjectPath
from wendy_llm.wendycli.wendy_json import FILE as WENDY_JSON
from wendy_llm.wendycli.wendy_json import entitlement_entries, read, service_names

# The docker path's build args are not in the spec: the image is modelled without any.
_NO_ARGS = DeviceProfile("none", "no build args (not modelled)", {})


def other_services(
    path: ProjectPath,
    tree: Mapping[str, bytes],
    wendy: Document | None,
    project: str,
    notes: Notes,
) -> tuple[Service, ...]:
    """The apps of a project that is not on the compose path (at most one: the docker path's)."""
    decoded = read(tree[WENDY_JSON]) if WENDY_JSON in tree and wendy and wendy.ok else None
    if path.kind == "none":
        # Not a warning: a Wendy Lite app (Cargo.toml) or a wendy.json with
        # services only is ordinary; the spec just does not say how it runs.
        names = service_names(decoded)
        held = f" ({WENDY_JSON} services: {', '.join(names)})" if names else ""
        notes.unknown(
            "no compose file, Dockerfile, Package.swift, *.xcodeproj or Python project at the "
            f"top of the render{held}: the spec does not say what wendy run does with it"
        )
        return ()
    if WENDY_JSON not in tree:
        notes.unknown(f"the {path.kind} path loads {WENDY_JSON}, and the render has none")
    if path.kind != "docker":
        notes.unknown(
            f"the {path.kind} path: the spec says only that it loads and validates {WENDY_JSON}"
        )
        return ()
    for what in ("app and image names", "build args", "restart policy"):
        notes.unknown(f"the docker path's {what}")
    names = service_names(decoded)
    if names:
        notes.unknown(f"what the docker path does with {WENDY_JSON} services ({', '.join(names)})")
    text = tree["Dockerfile"].decode("utf-8", "replace")
    built = built_image(text, {}, (_NO_ARGS,))
    if built.problem is not None:
        notes.unknown(f"Dockerfile: {built.problem}")
    name = project_name(project)
    environment: Environment = built.environment
    return (
        Service(
            name=name,
            app=name,
            image=None,
            image_written=None,
            build=Build(".", ".", "Dockerfile", True, built.args, built.stage, built.base_images),
            command=container_command(None, built.command),
            restart=DEVICE_DEFAULT_RESTART,
            depends_on=(),
            ports=(),
            dropped_ports=(),
            volumes=(),
            network_mode=None,
            entitlements=_app_entitlements(decoded),
            environment=environment,
            dropped_environment=(),
            ignored_keys=(),
        ),
    )


def _app_entitlements(decoded: Decoded | None) -> tuple[Entitlement, ...]:
    """The app-level entitlements of ``wendy.json`` (ports are not modelled)."""
    entries = () if decoded is None else entitlement_entries(decoded)
    found = (entitlement_from(fields) for _, service, fields in entries if service is None)
    return tuple(e for e in found if e is not None)
