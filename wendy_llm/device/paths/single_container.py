"""The single-container path: docker, python or swift, no ``services`` (section 5).

One image is built from the project root's ``Dockerfile`` (a Python project
without one gets a generated Dockerfile, a Swift package is built by the
CLI: neither is in the render, so only their build args are known) with the
Wendy build args, pushed as ``localhost:5000/<appid>:latest`` (lower-cased)
and created as the app ``<appId>`` with the top-level entitlements (a gpu
entitlement is honoured).  argv: the image's ``ENTRYPOINT`` + ``CMD`` (plus
any arguments given to ``wendy run``); restart: the device default.  After
the start ``wendy run`` waits for ``readiness`` and then runs
``hooks.postStart``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wendy_llm.device.model import (
    DEVICE_DEFAULT_RESTART,
    PostStart,
    Readiness,
    Service,
    entitlement_from,
)
from wendy_llm.device.notes import Document, Notes
from wendy_llm.device.paths.app_image import AppImage, app_image, unseen_image
from wendy_llm.device.profiles import DeviceProfile
from wendy_llm.render.manifest.gojson import Decoded
from wendy_llm.wendycli.project import ProjectPath, single_app, single_image
from wendy_llm.wendycli.wendy_json import FILE as WENDY_JSON
from wendy_llm.wendycli.wendy_json import entitlement_entries

#: ``readiness.timeoutSeconds`` 0 (or absent) means this many seconds.
DEFAULT_READINESS_TIMEOUT = 30

#: How the image is made when the render holds no root Dockerfile, and the
#: Dockerfile's path (empty: none is named).
_UNSEEN = {
    "python": (
        "wendy run generates a Dockerfile for this Python project (it has none)",
        "Dockerfile",
    ),
    "swift": ("wendy run builds this Swift package's image (it has no Dockerfile)", ""),
}


def single_service(
    path: ProjectPath,
    tree: Mapping[str, bytes],
    decoded: Decoded,
    devices: Sequence[DeviceProfile],
    notes: Notes,
) -> Service:
    """The one app of the single-container path."""
    config = decoded.value
    assert isinstance(config, Mapping)
    app_id = str(config["appId"])
    image: AppImage | None = None
    if path.kind == "docker":
        image = app_image(tree, ".", ".", devices, notes, owner="the app")
    if image is None:
        how, dockerfile = _UNSEEN.get(path.kind, (f"wendy run builds this {path.kind} project", ""))
        notes.unknown(f"{how}: its base image, ENV, ENTRYPOINT and CMD are not in the facts")
        image = unseen_image(".", dockerfile, devices)
    run = config["run"]
    if isinstance(run, Mapping) and run["args"]:
        notes.unknown(
            f"{WENDY_JSON} run.args ({' '.join(map(str, run['args']))}): the facts do not say "
            "whether wendy run appends them to the argv on a device"
        )
    wanted = (entitlement_from(f) for _, owner, f in entitlement_entries(decoded) if owner is None)
    return Service(
        name=app_id,
        app=single_app(app_id),
        image=single_image(app_id),
        image_written=None,
        build=image.build,
        command=image.command,
        restart=DEVICE_DEFAULT_RESTART,
        depends_on=(),
        ports=(),
        dropped_ports=(),
        volumes=(),
        network_mode=None,
        entitlements=tuple(e for e in wanted if e is not None),
        environment=image.environment,
        dropped_environment=(),
        ignored_keys=(),
    )


def readiness(wendy: Document, decoded: Decoded) -> Readiness | None:
    """What ``wendy run`` waits for after the start (None: nothing)."""
    config = decoded.value
    assert isinstance(config, Mapping)
    found = config["readiness"]
    socket = found["tcpSocket"] if isinstance(found, Mapping) else None
    if not isinstance(found, Mapping) or not isinstance(socket, Mapping):
        return None  # no tcpSocket: the CLI waits for nothing (section 2)
    port = socket["port"]
    timeout = found["timeoutSeconds"] or DEFAULT_READINESS_TIMEOUT
    line = wendy.line(*decoded.raw_path(("readiness",)))
    return Readiness(int(port or 0), int(timeout), line)


def post_start(wendy: Document, decoded: Decoded) -> PostStart | None:
    """The hook ``wendy run`` runs once the app is ready (None: none)."""
    config = decoded.value
    assert isinstance(config, Mapping)
    hooks = config["hooks"]
    hook = hooks["postStart"] if isinstance(hooks, Mapping) else None
    if not isinstance(hook, Mapping):
        return None

    def text(key: str) -> str | None:
        return str(hook[key]) if hook[key] else None

    line = wendy.line(*decoded.raw_path(("hooks", "postStart")))
    return PostStart(text("openURL"), text("cli"), text("agent"), line)
