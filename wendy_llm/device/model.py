"""The device view: what ``wendy run`` deploys on a WendyOS device, as frozen data.

A :class:`DeviceView` is computed for a render and a set of device profiles
(:mod:`wendy_llm.device.profiles`).  Field names are stable: rules select
services by them (image, base image, port, mount target, env key, build
context) and ``plan --json`` prints them (``dataclasses.asdict`` order).
What varies between the profiles considered is given per profile
(``by_device``: profile name -> value, None where it is absent); what is
the same on every one is given plainly.  What cannot be known (the ``ENV``
of an external base image, the ``ENTRYPOINT`` it ships) is None or listed as
unknown, never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from wendy_llm.device.runtime.model import Runtime
from wendy_llm.wendycli.compose import RestartPolicy, VolumeKind

Severity = Literal["error", "warning"]
CommandSource = Literal["compose", "image", "shell", "unknown"]
#: How ``wendy run`` deploys the render on a WendyOS device (None: it cannot, or
#: the facts do not say; ``DeviceView.deploy_reason`` says which).
DeployPath = Literal["compose", "multi-service", "single-container"]


@dataclass(frozen=True)
class DeviceFinding:
    """What makes ``wendy run`` fail (error) or what the device silently drops (warning)."""

    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    code: str = ""  # its registered code (wendy_llm.codes.device)
    subject: str = ""  # what it is about: a key path, a file (never the message)


@dataclass(frozen=True)
class Ignored:
    """Something the render says that never reaches the device, and why."""

    what: str  # a key path (``services.vllm.healthcheck``) or a file (``wendy.json``)
    reason: str
    file: str | None = None
    line: int | None = None


@dataclass(frozen=True)
class BuildArg:
    """One build arg a built service gets (after the Wendy ones, its own win)."""

    name: str
    value: str | None  # the same on every device considered; None when it varies
    by_device: Mapping[str, str | None]  # when it varies: profile -> value (None: not passed)
    source: Literal["wendy", "compose"]  # compose: the service's own build.args
    assumed: bool  # a profile's value: the spec names the Wendy args, not their values


@dataclass(frozen=True)
class Build:
    """How a service's image is built on the device."""

    context: str  # as written in compose
    directory: str  # the context as a path in the render (``.`` for its root)
    dockerfile: str  # the Dockerfile's path in the render
    found: bool  # the render holds that Dockerfile (else nothing below is known)
    args: tuple[BuildArg, ...]
    stage: str | None  # the stage built: its AS name, else its index (``target`` is not read)
    base_images: tuple[str, ...]  # the external images the built stage ends on, per device
    # The Dockerfile wendy run generates (a python project without one), judged like
    # any other; None: the render's own, or none.
    generated: str | None = None
    # What builds the image: a Dockerfile, or the swift container plugin (no Dockerfile,
    # no Wendy build args).
    builder: Literal["dockerfile", "swift-container-plugin"] = "dockerfile"


@dataclass(frozen=True)
class Command:
    """The process the container starts.

    A compose ``command`` replaces the image's ENTRYPOINT and CMD together
    (``source: compose``); without one (or an empty, all-blank one) the
    image's ENTRYPOINT + CMD run (``image``), ``/bin/sh`` when both are
    empty (``shell``).
    """

    argv: tuple[str, ...] | None  # what runs; None when part of it is unknown
    entrypoint: tuple[str, ...] | None  # the image's (): none; None: an unseen base image's
    cmd: tuple[str, ...] | None  # the image's CMD (None: unknown)
    source: CommandSource  # where ``argv`` comes from
    compose: tuple[str, ...] | None = None  # the compose command's tokens as the CLI sends them


@dataclass(frozen=True)
class Environment:
    """The environment the container gets: its image's ``ENV``, nothing from compose."""

    known: bool  # False for an ``image:`` service: nothing of its ENV is known here
    values: Mapping[str, str]  # set to exactly this on every device considered
    by_device: Mapping[str, Mapping[str, str | None]]  # name -> profile -> value (None: unset)
    unknown: tuple[str, ...]  # set, to a value that depends on something unseen
    inherits_from: tuple[str, ...]  # external base images whose own (unseen) ENV it also gets


@dataclass(frozen=True)
class DroppedVariable:
    """A compose ``environment`` entry, which is not sent, against the image's ``ENV``."""

    name: str
    compose: str | None  # None: no value written (``KEY`` or ``KEY:``)
    image: str | None  # the image's value where known and the same on every device
    outcome: Literal["same", "differs", "absent", "unknown", "varies"]


@dataclass(frozen=True)
class Port:
    """A port mapping of a network entitlement, as the CLI sends it: the agent never
    applies it (section 9: host networking serves the container side)."""

    host: int
    container: int
    entry: str  # as written


@dataclass(frozen=True)
class Volume:
    """A short-syntax volume entry and what the device does with it."""

    entry: str
    source: str | None
    target: str
    mode: str | None
    kind: VolumeKind
    mounted: bool  # only named volumes are (as persist entitlements)


@dataclass(frozen=True)
class Entitlement:
    """An entitlement the device grants, in ``wendy.json``'s shape."""

    type: str
    mode: str | None = None  # network: ``host``
    ports: tuple[Port, ...] = ()  # network: the mappings sent (never published)
    name: str | None = None  # persist: the volume
    path: str | None = None  # persist: where it is mounted


def entitlement_from(fields: Mapping[str, object]) -> Entitlement | None:
    """The entitlement a decoded ``wendy.json`` entry asks for (None: it names no type)."""

    def text(key: str) -> str | None:
        value = fields.get(key)
        return value if isinstance(value, str) and value else None

    kind = text("type")
    if kind is None:
        return None
    ports = _ports(fields.get("ports"))
    return Entitlement(kind, mode=text("mode"), ports=ports, name=text("name"), path=text("path"))


def _ports(value: object) -> tuple[Port, ...]:
    """A network entitlement's ``ports`` as the CLI sends them (section 9: never applied)."""
    out = []
    for item in value if isinstance(value, list) else ():
        host = item.get("host") if isinstance(item, Mapping) else None
        container = item.get("container") if isinstance(item, Mapping) else None
        # 0 is Go's zero value (a key left out): no mapping to show.
        if isinstance(host, int) and isinstance(container, int) and host > 0 and container > 0:
            entry = f'{{"host": {host}, "container": {container}}}'
            out.append(Port(host, container, entry))
    return tuple(out)


@dataclass(frozen=True)
class Restart:
    """The restart policy; a restart flag given to ``wendy run`` wins over it."""

    written: str | None  # compose ``restart`` as written (None: absent)
    policy: RestartPolicy  # what the container runs with
    device_default: bool = False  # the CLI sends no policy: the agent's default applies


#: No restart policy sent: the agent runs the container unless-stopped.
DEVICE_DEFAULT_RESTART = Restart(None, "unless-stopped", True)


@dataclass(frozen=True)
class Service:
    """One container the device runs (an app), in creation order."""

    name: str
    app: str  # ``<project>-<service>``
    image: str | None  # what the device runs: the built image, else the qualified ``image``
    image_written: str | None  # compose ``image`` as written
    build: Build | None
    command: Command
    restart: Restart
    depends_on: tuple[str, ...]
    ports: tuple[Port, ...]
    dropped_ports: tuple[str, ...]  # entries that do not parse to two positive numbers
    volumes: tuple[Volume, ...]
    network_mode: str | None
    entitlements: tuple[Entitlement, ...]
    environment: Environment
    dropped_environment: tuple[DroppedVariable, ...]
    ignored_keys: tuple[str, ...]
    line: int | None = None  # where the service is defined
    created_after: tuple[str, ...] = ()  # services the device surely creates before this one
    runtime: Runtime | None = None  # the container as the agent runs it (section 9)


@dataclass(frozen=True)
class Readiness:
    """What ``wendy run`` waits for after the start (single-container path only)."""

    port: int  # a TCP connect to the device on this port
    timeout_seconds: int  # then a warning, not a failure
    line: int | None = None  # in wendy.json


@dataclass(frozen=True)
class PostStart:
    """The ``hooks.postStart`` ``wendy run`` runs once ready (single-container path only)."""

    open_url: str | None
    cli: str | None
    agent: str | None
    line: int | None = None  # in wendy.json


@dataclass(frozen=True)
class DeviceView:
    """What ``wendy run`` deploys for one render, at one CLI revision."""

    revision: str  # the Wendy CLI revision the facts describe
    path: str  # compose, docker, swift, xcode, python, none
    path_file: str | None  # the file that decided the path
    project: str  # the project directory's name (apps are named after it)
    devices: tuple[str, ...]  # the profiles considered
    services: tuple[Service, ...]  # see ``creation_order``
    ignored: tuple[Ignored, ...]
    findings: tuple[DeviceFinding, ...]
    not_modelled: tuple[str, ...] = field(default=())  # what the spec does not say
    # "sequence": ``services`` are in creation order; "dependencies-first" (the compose
    # path): ``services`` are in file order, and only each one's ``created_after`` is
    # created before it, the rest in an order that changes from run to run.
    creation_order: Literal["sequence", "dependencies-first"] = "sequence"
    deploy: DeployPath | None = None  # None: wendy run cannot deploy it (see deploy_reason)
    deploy_reason: str = ""  # why this deploy path, or why none
    readiness: Readiness | None = None  # waited for after the start
    post_start: PostStart | None = None  # run once ready

    @property
    def errors(self) -> tuple[DeviceFinding, ...]:
        return tuple(f for f in self.findings if f.severity == "error")

    def service(self, name: str) -> Service | None:
        return next((s for s in self.services if s.name == name), None)
