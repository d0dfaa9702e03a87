"""The compose path of ``wendy run`` on a WendyOS device, as data.

At :data:`~wendy_llm.wendycli.REVISION` the CLI parses the compose file
itself (go-yaml v3) into a small model: of the top level only ``services``,
of each service only the keys of :data:`SERVICE_KEYS`, of ``build`` only
:data:`BUILD_KEYS`; everything else is ignored.  The tables and the small
pure functions here say how each key is read; :mod:`wendy_llm.device`
applies them to a render.

Where the CLI's behaviour had to be inferred rather than read, these inferences are
made (and said where they matter):

- a scalar read as a string is its YAML text (go-yaml v3 decodes any scalar
  into a string field), so ``- 8080`` is the port entry ``"8080"``;
- an absent ``restart`` is Go's empty string, so it maps as empty does
  (never restarted);
- a port number is what Go's ``strconv.Atoi`` accepts (``[+-]?digits``)
  and must be positive; a port entry of three or more ``:`` parts (a host
  IP) does not parse;
- ``command``: an unterminated quote runs to the end; an empty ``""``
  gives no word; a quote inside a word joins (``a"b c"`` is ``ab c``);
- an image reference is qualified as Docker's ``reference`` package does,
  without adding a tag;
- a project's name is its directory name, which ``wendy init`` makes from
  the app id.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from wendy_llm.wendycli import REVISION as REVISION

#: The top-level keys the CLI reads.
TOP_LEVEL_KEYS: Final = ("services",)

#: The service keys the CLI reads, and how.
SERVICE_KEYS: Final[Mapping[str, str]] = {
    "image": "used when there is no build; short references made fully qualified",
    "build": "a string (the context) or a mapping {context, dockerfile, args}",
    "command": "a string split on whitespace ('...' and \"...\" group, no backslash escapes); "
    "a list verbatim",
    "ports": 'a list of strings, "host:container" or "container"',
    "volumes": "a list of strings: target, source:target, source:target:mode",
    "depends_on": "a list or a mapping (conditions ignored); orders creation only",
    "restart": "always/unless-stopped, on-failure, no/empty, else the device default",
    "network_mode": "only host matters",
    "environment": "parsed, but not sent to the device at this revision (not implemented yet)",
}

#: The keys of a ``build`` mapping the CLI reads.
BUILD_KEYS: Final = ("context", "dockerfile", "args")

#: The only Dockerfile name the CLI builds; any other is "not yet supported".
SUPPORTED_DOCKERFILE: Final = "Dockerfile"

#: What ignoring a service key means on a device, for the keys a template is
#: likely to rely on.  Every other key not in SERVICE_KEYS is ignored too.
IGNORED_SERVICE_KEYS: Final[Mapping[str, str]] = {
    "healthcheck": "only Docker Compose runs it; the device never probes the service",
    "deploy": "resource limits and device reservations (a GPU) are not applied",
    "devices": "no device is passed through: the compose path grants no such entitlement",
    "runtime": "the runtime is not chosen: the compose path grants no gpu entitlement",
    "gpus": "no GPU is granted: the compose path grants no gpu entitlement",
    "env_file": "not sent: the container gets only its image's ENV",
    "secrets": "no secret is mounted",
    "configs": "no config is mounted",
    "networks": "not created or joined",
    "labels": "not applied",
    "user": "the image's USER applies",
    "working_dir": "the image's WORKDIR applies",
    "entrypoint": "the image's ENTRYPOINT runs instead",
}

#: Entitlement types the compose path synthesises; nothing else (no gpu,
#: camera, audio, ...) is ever granted on it.
GRANTED_ENTITLEMENTS: Final = ("network", "persist")

RestartPolicy = Literal["unless-stopped", "on-failure", "never", "device-default"]

#: ``restart`` values the CLI knows; anything else is the device default.
#: A restart flag given to ``wendy run`` wins over all of them.
RESTART: Final[Mapping[str, RestartPolicy]] = {
    "always": "unless-stopped",
    "unless-stopped": "unless-stopped",
    "on-failure": "on-failure",
    "no": "never",
    "": "never",
}

#: Build args the CLI passes to every built service.
WENDY_BUILD_ARGS_ALWAYS: Final = ("WENDY_PLATFORM", "WENDY_DEBUG")
#: Build args the CLI passes only when the device reports them.
WENDY_BUILD_ARGS_REPORTED: Final = (
    "WENDY_DEVICE_TYPE",
    "WENDY_HAS_GPU",
    "WENDY_GPU_VENDOR",
    "WENDY_JETPACK_VERSION",
    "WENDY_CUDA_VERSION",
)
WENDY_BUILD_ARGS: Final = WENDY_BUILD_ARGS_ALWAYS + WENDY_BUILD_ARGS_REPORTED
#: What a Wendy build arg looks like; one with this prefix that the CLI
#: does not pass always takes its Dockerfile default on a device.
WENDY_ARG_PREFIX: Final = "WENDY_"

_DEFAULT_DOMAIN = "docker.io"
_LEGACY_DEFAULT_DOMAIN = "index.docker.io"
_OFFICIAL_PREFIX = "library/"
_ATOI = re.compile(r"[+-]?[0-9]+")
# A Windows drive path (``C:\\data``, ``C:/data``): its ``:`` separates nothing.
_DRIVE_PATH = re.compile(r"^[A-Za-z]:[\\/]")


def restart_policy(value: str | None) -> RestartPolicy:
    """What ``restart: value`` means on a device (None: the key is absent)."""
    return RESTART.get(value or "", "device-default")


def build_args(wendy: Mapping[str, str], service: Mapping[str, str]) -> dict[str, str]:
    """The build args of a built service: the Wendy ones, then its own, which win."""
    return {**wendy, **service}


def split_command(text: str) -> tuple[str, ...]:
    """A compose ``command`` string split as the CLI does.

    Whitespace separates words; ``'...'`` and ``"..."`` group (the quotes
    are removed); a backslash is an ordinary character.
    """
    words: list[str] = []
    current: list[str] = []
    quote = ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
            else:
                current.append(ch)
        elif ch in "'\"":
            quote = ch
        elif ch.isspace():
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(ch)
    if current:
        words.append("".join(current))
    return tuple(words)


@dataclass(frozen=True)
class PortMapping:
    """A published port: the device's ``host`` port to the container's."""

    host: int
    container: int


def _atoi(text: str) -> int | None:
    return int(text) if _ATOI.fullmatch(text) else None


def parse_port(entry: str) -> PortMapping | None:
    """``"host:container"`` or ``"container"``; None when it is not two positive numbers."""
    parts = entry.split(":")
    if len(parts) > 2:
        return None
    numbers = [_atoi(part) for part in parts]
    if any(n is None or n <= 0 for n in numbers):
        return None
    host, container = (numbers[0], numbers[-1])
    assert host is not None and container is not None
    return PortMapping(host, container)


VolumeKind = Literal["named", "bind", "anonymous"]


@dataclass(frozen=True)
class VolumeEntry:
    """A short-syntax volume: ``target``, ``source:target`` or ``source:target:mode``."""

    source: str | None
    target: str
    mode: str | None

    @property
    def kind(self) -> VolumeKind:
        if self.source is None:
            return "anonymous"
        return "named" if is_named_volume(self.source) else "bind"


def parse_volume(entry: str) -> VolumeEntry:
    """Split a short-syntax volume entry (a drive letter stays with its path)."""
    parts = entry.split(":")
    if len(parts) >= 3 and _DRIVE_PATH.match(entry):
        parts = [f"{parts[0]}:{parts[1]}", *parts[2:]]
    if len(parts) == 1:
        return VolumeEntry(None, parts[0], None)
    mode = ":".join(parts[2:]) if len(parts) > 2 else None
    return VolumeEntry(parts[0], parts[1], mode)


def is_named_volume(source: str) -> bool:
    """A named volume's source: not starting with ``.`` or ``/``, not a drive letter."""
    return not source.startswith((".", "/")) and not _DRIVE_PATH.match(source)


def qualify_image(ref: str) -> str:
    """A short image reference made fully qualified (``python:3.11-slim`` ->
    ``docker.io/library/python:3.11-slim``), as Docker's reference package does."""
    slash = ref.find("/")
    first = ref[:slash] if slash >= 0 else ""
    is_domain = slash >= 0 and (
        any(c in first for c in ".:") or first == "localhost" or first.lower() != first
    )
    domain, rest = (first, ref[slash + 1 :]) if is_domain else (_DEFAULT_DOMAIN, ref)
    if domain == _LEGACY_DEFAULT_DOMAIN:
        domain = _DEFAULT_DOMAIN
    if domain == _DEFAULT_DOMAIN and "/" not in rest:
        rest = _OFFICIAL_PREFIX + rest
    return f"{domain}/{rest}"


def project_name(directory: str) -> str:
    """The project's name: its directory's name, lower-cased."""
    return directory.lower()


def app_name(project: str, service: str) -> str:
    """The app a service becomes on the device: ``<project>-<service>``."""
    return f"{project_name(project)}-{service}"


def built_image(project: str, service: str) -> str:
    """The image a built service gets in the device's registry."""
    return f"{app_name(project, service)}:latest"
