"""The image a non-compose path builds for one app, per device profile.

On the multi-service and single-container paths (sections 4 and 5 of the
facts) an image is built from a directory's ``Dockerfile`` with the Wendy
build args of section 6 and no others.  ``WENDY_DEBUG`` differs per path:
the multi-service path passes it only when debugging, which a plain
``wendy run`` is not (:func:`without_debug`: an ``ARG`` default applies);
the single-container path always passes it (``false``), so an ``ARG
WENDY_DEBUG=true`` default never applies (``send_debug``).  No command is
sent: the container runs the image's ``ENTRYPOINT`` + ``CMD``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wendy_llm.codes import device as DC
from wendy_llm.device.images import (
    NOTHING_KNOWN,
    built_image,
    container_command,
    uninjected_args,
    uninjected_message,
)
from wendy_llm.device.model import Build, Command, Environment
from wendy_llm.device.notes import Notes
from wendy_llm.device.profiles import DeviceProfile, without_debug


@dataclass(frozen=True)
class AppImage:
    """What one app's build gives: how it is built, its environment, its argv."""

    build: Build
    environment: Environment
    command: Command


def app_image(
    tree: Mapping[str, bytes],
    context: str,
    directory: str,
    devices: Sequence[DeviceProfile],
    notes: Notes,
    *,
    owner: str,
    send_debug: bool = False,
) -> AppImage | None:
    """The image built from ``directory``'s Dockerfile (None: the render has none).

    ``owner`` names the app in what is noted (``service store``, ``the app``);
    ``send_debug``: the path passes ``WENDY_DEBUG`` (``false``) on a plain run.
    """
    dockerfile = "Dockerfile" if directory == "." else f"{directory}/Dockerfile"
    data = tree.get(dockerfile)
    if data is None:
        return None
    text = data.decode("utf-8", "replace")
    built = built_image(text, {}, _path_devices(devices, send_debug))
    if built.problem is not None:
        notes.unknown(f"{owner}: {dockerfile}: {built.problem}")
    for arg in uninjected_args(text, {}):
        notes.warn(DC.BUILD_ARG_NOT_INJECTED, uninjected_message(arg), dockerfile, arg.line)
    build = Build(context, directory, dockerfile, True, built.args, built.stage, built.base_images)
    return AppImage(build, built.environment, container_command(None, built.command))


def generated_image(text: str, devices: Sequence[DeviceProfile]) -> AppImage:
    """The image of the Dockerfile ``wendy run`` generates at the project root (section 5:
    the single-container path, so ``WENDY_DEBUG`` is passed)."""
    built = built_image(text, {}, _path_devices(devices, send_debug=True))
    build = Build(
        ".", ".", "Dockerfile", False, built.args, built.stage, built.base_images, generated=text
    )
    return AppImage(build, built.environment, container_command(None, built.command))


def unseen_image(
    context: str, dockerfile: str, devices: Sequence[DeviceProfile], *, wendy_args: bool = True
) -> AppImage:
    """An image built by what the render does not hold (the swift container plugin):
    the build args are known (none without ``wendy_args``), nothing else."""
    args = built_image("", {}, _path_devices(devices, True)).args if wendy_args else ()
    build = Build(context, context, dockerfile, False, args, None, ())
    return AppImage(build, NOTHING_KNOWN, container_command(None, None))


def _path_devices(devices: Sequence[DeviceProfile], send_debug: bool) -> list[DeviceProfile]:
    return list(devices) if send_debug else [without_debug(d) for d in devices]
