"""Where Docker Compose and a WendyOS device read the same compose text differently.

A template author tries the app with ``docker compose up``; a user's device
runs what the Wendy CLI reads.  Each function here compares one entry as
the device reads it (:mod:`wendy_llm.wendycli.compose`) with Docker
Compose's short syntax and warns where they part: a port mapped otherwise,
a volume Docker mounts and the device does not, a restart value the device
reads as its default, a command split otherwise.  (A ``command`` on a
service whose image has an ENTRYPOINT is compared in :mod:`compose_view`,
where the image is known.)  The caller locates the messages
(:class:`~wendy_llm.device.compose_keys.Where`, duck-typed here).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Protocol

from wendy_llm.codes import CodeInfo
from wendy_llm.codes import device as DC
from wendy_llm.device.compose.goyaml import Node
from wendy_llm.device.model import Volume
from wendy_llm.wendycli.compose import DEVICE_DEFAULT_RESTART, RESTART, PortMapping

_NUMBER = re.compile(r"[0-9]+")
_DOCKER_RESTART = re.compile(r"no|always|unless-stopped|on-failure(:[0-9]+)?")


class _Warns(Protocol):
    def warn(self, code: CodeInfo, message: str, line: int | None, subject: str = "") -> None: ...


@dataclass(frozen=True)
class DockerPort:
    """A short-syntax port as Docker Compose reads it."""

    ip: str | None
    host: str | None  # None: a random host port
    container: str
    protocol: str | None


def docker_port(entry: str) -> DockerPort | None:
    """``[[ip:]host[-range]:]container[-range][/protocol]``; None when Docker refuses it."""
    body, slash, protocol = entry.partition("/")
    parts = body.rsplit(":", 2)
    container = parts[-1]
    host = parts[-2] if len(parts) >= 2 else None
    ip = parts[0] if len(parts) == 3 else None
    numbers = [p for side in (host, container) if side for p in side.split("-", 1)]
    if not container or not all(_NUMBER.fullmatch(n) and 0 < int(n) < 65536 for n in numbers):
        return None
    return DockerPort(ip, host or None, container, protocol if slash else None)


def compare_port(
    at: _Warns, what: str, entry: str, device: PortMapping | None, line: int | None
) -> None:
    docker = docker_port(entry)
    label = f'{what} "{entry}"'
    if device is None:
        docker_says = (
            "Docker Compose refuses it" if docker is None else "Docker Compose publishes it"
        )
        at.warn(
            DC.PORT_DIFFERS,
            f"{label}: the device drops it (the Wendy CLI reads each side with fmt.Sscanf "
            f"into a port 1..65535 and one side fails); {docker_says}",
            line,
        )
        return
    mapped = f"the device publishes host {device.host} -> container {device.container}"
    if docker is None:
        at.warn(DC.PORT_DIFFERS, f"{label}: {mapped}; Docker Compose refuses the entry", line)
        return
    differences = []
    if docker.ip is not None:
        differences.append(f"Docker Compose binds host port {docker.host} on {docker.ip}")
    elif docker.host is None:
        differences.append(
            f"Docker Compose publishes container port {docker.container} on a random host port"
        )
    if "-" in docker.container or (docker.host or "").count("-"):
        differences.append("Docker Compose publishes the whole range, the device its first port")
    if docker.protocol not in (None, "tcp"):
        differences.append(f"the device's mapping keeps no protocol (/{docker.protocol})")
    if not differences:
        first = int((docker.host or docker.container).split("-")[0])
        if (first, int(docker.container.split("-")[0])) != (device.host, device.container):
            differences.append(f"Docker Compose maps {docker.host} -> {docker.container}")
    if differences:
        at.warn(DC.PORT_DIFFERS, f"{label}: {mapped}; {'; '.join(differences)}", line)


def compare_volume(at: _Warns, what: str, volume: Volume, line: int | None) -> None:
    label = f'{what} "{volume.entry}"'
    if volume.kind == "bind":
        at.warn(
            DC.VOLUME_DIFFERS,
            f"{label} is a bind mount: Docker Compose mounts it, the device does not",
            line,
        )
    elif volume.kind == "anonymous":
        at.warn(
            DC.VOLUME_DIFFERS,
            f"{label} has no source: Docker Compose mounts an anonymous volume at "
            f"{volume.target}, the device mounts nothing",
            line,
        )
    elif volume.kind == "unusable":
        at.warn(
            DC.VOLUME_DIFFERS,
            f"{label}: the device ignores it (the Wendy CLI splits it on every ':' into "
            "more than three parts, or a side is empty)",
            line,
        )
    elif volume.source is not None and volume.source.startswith("~"):
        at.warn(
            DC.VOLUME_DIFFERS,
            f"{label}: Docker Compose mounts ~ paths from the host, but the Wendy CLI "
            f'takes "{volume.source}" as a named volume',
            line,
        )
    if volume.mounted and volume.mode is not None:
        at.warn(
            DC.VOLUME_DIFFERS,
            f'{label}: the mode "{volume.mode}" is not applied (a persist entitlement has '
            "only a name and a path)",
            line,
        )


def compare_restart(at: _Warns, what: str, value: str, line: int | None) -> None:
    if value in RESTART:
        return
    docker = (
        f'Docker Compose reads "{value}"'
        if _DOCKER_RESTART.fullmatch(value)
        else "Docker Compose refuses it"
    )
    if value == "":
        docker = 'Docker Compose reads "no"'
    known = ", ".join(RESTART)
    at.warn(
        DC.RESTART_UNKNOWN,
        f'{what} "{value}" is not one the Wendy CLI knows ({known}): the device runs the '
        f"container with its default, {DEVICE_DEFAULT_RESTART}; {docker}",
        line,
    )


def compare_command_split(at: _Warns, what: str, node: Node, device: tuple[str, ...]) -> None:
    try:
        compose = tuple(shlex.split(node.value))
    except ValueError:
        compose = None
    if compose is not None and compose != device:
        at.warn(
            DC.COMMAND_SPLIT,
            f"{what} splits differently on a device: Docker Compose runs {list(compose)}, "
            f"the Wendy CLI sends {list(device)} (it groups quotes but has no backslash "
            "escapes)",
            node.line,
        )
