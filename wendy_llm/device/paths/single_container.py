"""The single-container path: docker, python or swift, no ``services`` (section 5).

One image is built from the project root's ``Dockerfile`` with the Wendy
build args (``WENDY_DEBUG`` always passed: ``false`` on a plain run), pushed
as ``localhost:5000/<appid>:latest`` (lower-cased) and created as the app
``<appId>`` with the top-level entitlements (a gpu entitlement is honoured).
A python project without a Dockerfile gets the one ``wendy run`` generates
(:mod:`wendy_llm.wendycli.single_builds`), shown and judged like any other:
a ``CMD`` file the render does not hold fails.  A swift project without one
is built by the swift container plugin: image
``localhost:5000/<lowercased product>:latest``, no Wendy build args, and
nothing else known.  argv: the image's ``ENTRYPOINT`` + ``CMD`` (``run.args``
is never added on a device); restart: the device default.  After the start
``wendy run`` waits for ``readiness`` (nothing without ``tcpSocket``) and
then runs ``hooks.postStart``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from wendy_llm.codes import device as DC
from wendy_llm.device.model import (
    DEVICE_DEFAULT_RESTART,
    PostStart,
    Readiness,
    Service,
    entitlement_from,
)
from wendy_llm.device.notes import Document, Notes
from wendy_llm.device.paths.app_image import AppImage, app_image, generated_image, unseen_image
from wendy_llm.device.profiles import DeviceProfile
from wendy_llm.render.manifest.gojson import Decoded
from wendy_llm.wendycli.project import PYTHON_MARKERS, ProjectPath, single_app, single_image
from wendy_llm.wendycli.single_builds import (
    python_dockerfile,
    python_entry,
    swift_image,
    swift_product,
)
from wendy_llm.wendycli.wendy_json import entitlement_entries

#: ``readiness.timeoutSeconds`` 0 (or absent) means this many seconds.
DEFAULT_READINESS_TIMEOUT = 30


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
    image_name: str | None = single_image(app_id)
    image: AppImage | None = None
    if path.kind == "docker":
        image = app_image(tree, ".", ".", devices, notes, owner="the app", send_debug=True)
    elif path.kind == "python":
        image = _generated_python(path, tree, devices, notes)
    if image is None:  # swift: the container plugin builds it
        image = unseen_image(".", "", devices, wendy_args=False)
        image = replace(image, build=replace(image.build, builder="swift-container-plugin"))
        image_name = _swift_image(tree, notes)
        notes.unknown(
            "the swift container plugin builds this Swift package's image (it has no "
            "Dockerfile): its base image, ENV, ENTRYPOINT and CMD are not in the facts"
        )
    wanted = (entitlement_from(f) for _, owner, f in entitlement_entries(decoded) if owner is None)
    return Service(
        name=app_id,
        app=single_app(app_id),
        image=image_name,
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


def _generated_python(
    path: ProjectPath, tree: Mapping[str, bytes], devices: Sequence[DeviceProfile], notes: Notes
) -> AppImage:
    """The image of the Dockerfile ``wendy run`` generates, and what its content breaks."""
    top = {p for p in tree if "/" not in p}
    generated = "the Dockerfile wendy run generates for this Python project (it has none)"
    entry = python_entry(top)
    if entry not in top:
        notes.error(
            DC.ENTRY_MISSING,
            f'{generated} ends CMD ["python", "{entry}"], and the render has no {entry} '
            "(nor main.py) at its root: the container exits at once",
            path.file,
        )
    if "requirements.txt" not in top:
        markers = ", ".join(m for m in PYTHON_MARKERS if m in top)
        notes.warn(
            DC.NO_REQUIREMENTS,
            f"{generated} installs dependencies only from requirements.txt, which the render "
            f"does not hold ({markers} is not read): nothing is installed",
            path.file,
        )
    return generated_image(python_dockerfile(top), devices)


def _swift_image(tree: Mapping[str, bytes], notes: Notes) -> str | None:
    """``localhost:5000/<lowercased product>:latest`` (None: the product is unknown)."""
    product = swift_product(tree.get("Package.swift", b"").decode("utf-8", "replace"))
    if product is None:
        notes.unknown(
            "the image the swift container plugin pushes (localhost:5000/<lowercased product "
            "name>:latest): Package.swift declares neither exactly one executable product nor, "
            "with none, exactly one executable target"
        )
        return None
    return swift_image(product)


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
