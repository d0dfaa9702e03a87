"""The compose path of ``wendy run`` on a WendyOS device, as data.

At :data:`~wendy_llm.wendycli.REVISION` the CLI decodes the compose file
itself with go-yaml v3 into a small struct: of the top level only
``services``, of each service only the keys of :data:`SERVICE_KEYS`;
``build``, ``command`` and ``depends_on`` are kept as raw YAML nodes and
read by hand.  The tables and the small functions here say how each key is
read; :mod:`wendy_llm.device` applies them to a render.  Where Go decides
(``fmt.Sscanf`` of a port, ``strings.Fields``, ``filepath.Join``,
``strings.TrimSpace``) the Go helper answers (:mod:`wendy_llm.engine.gofuncs`);
image references are parsed by ``docker-image-py``, which follows
distribution/reference's grammar.

Inferred where the facts are silent (said where they matter):

- ``command``: an unterminated quote runs to the end of the text; a quote
  inside a word joins (``a"b c"`` is ``ab c``);
- a ``build`` mapping's ``context`` is joined under the project as a scalar
  ``build`` is (an absent one is the project itself);
- a project's name is its directory name, which ``wendy init`` makes from
  the app id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from docker_image.reference import InvalidReference, Reference

from wendy_llm.engine import gofuncs
from wendy_llm.wendycli import REVISION as REVISION

#: The top-level keys the CLI reads.
TOP_LEVEL_KEYS: Final = ("services",)

#: The service keys the CLI reads, and how.
SERVICE_KEYS: Final[Mapping[str, str]] = {
    "image": "used when there is no build: trimmed, normalised, :latest added when untagged",
    "build": "a raw node: a scalar (the context, joined under the project) or a mapping "
    "{context, dockerfile, args}; anything else fails",
    "command": "a raw node: a scalar split on whitespace ('...' and \"...\" group, no "
    "backslash escapes); a sequence of strings; it replaces ENTRYPOINT and CMD",
    "ports": 'a list of strings, "host:container" or "container", numbers read by Sscanf',
    "volumes": "a list of strings: target, source:target, source:target:mode",
    "depends_on": "a raw node: a sequence or a mapping's keys; orders creation only",
    "restart": "always/unless-stopped, on-failure, no; anything else the device default",
    "network_mode": "only host matters",
    "environment": "parsed, but not sent to the device at this revision (not implemented yet)",
}

#: The keys of a ``build`` mapping the CLI decodes.
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
    "entrypoint": "ignored: a compose command replaces the image's ENTRYPOINT and CMD, and "
    "without one the image's ENTRYPOINT runs",
}

#: Entitlement types the compose path synthesises; nothing else (no gpu,
#: camera, audio, ...) is ever granted on it.
GRANTED_ENTITLEMENTS: Final = ("network", "persist")

RestartPolicy = Literal["unless-stopped", "on-failure", "never"]

#: ``restart`` values the CLI knows.  Any other value, an empty one and no
#: ``restart`` at all leave the device default.  A restart flag given to
#: ``wendy run`` wins over all of them.
RESTART: Final[Mapping[str, RestartPolicy]] = {
    "always": "unless-stopped",
    "unless-stopped": "unless-stopped",
    "on-failure": "on-failure",
    "no": "never",
}
#: What the agent runs a container with when the CLI sends no policy.
DEVICE_DEFAULT_RESTART: Final[RestartPolicy] = "unless-stopped"

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

#: The registry a Linux device's agent serves built images from.
DEVICE_REGISTRY: Final = "localhost:5000"
#: What the agent runs when a container has no command and its image no ENTRYPOINT/CMD.
DEFAULT_ARGV: Final = ("/bin/sh",)
#: The characters that separate a scalar ``command``'s tokens.
COMMAND_WHITESPACE: Final = " \t\r\n"


def restart_policy(value: str | None) -> tuple[RestartPolicy, bool]:
    """What ``restart: value`` means on a device (None: the key is absent), and whether
    that is the device default (the CLI sends no policy)."""
    policy = RESTART.get(value or "")
    return (DEVICE_DEFAULT_RESTART, True) if policy is None else (policy, False)


def build_args(wendy: Mapping[str, str], service: Mapping[str, str]) -> dict[str, str]:
    """The build args of a built service: the Wendy ones, then its own, which win."""
    return {**wendy, **service}


def split_command(text: str) -> tuple[str, ...]:
    """A scalar compose ``command`` split as the CLI does.

    Space, tab, CR and LF separate tokens; ``'...'`` and ``"..."`` group a
    run into one token (the quotes removed; an empty pair is an empty
    token); a backslash is an ordinary character.
    """
    tokens: list[str] = []
    current: list[str] = []
    in_token = False
    quote = ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
            else:
                current.append(ch)
        elif ch in "'\"":
            quote, in_token = ch, True
        elif ch in COMMAND_WHITESPACE:
            if in_token:
                tokens.append("".join(current))
                current, in_token = [], False
        else:
            current.append(ch)
            in_token = True
    if in_token:
        tokens.append("".join(current))
    return tuple(tokens)


def command_argv(tokens: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """The argv the agent runs for a compose command (None: no command, or an empty or
    all-blank one: the image's ENTRYPOINT + CMD run).  The first token is split once
    more on whitespace (Go's ``strings.Fields``), the rest are passed verbatim."""
    if not tokens or all(not gofuncs.fields(token) for token in tokens):
        return None
    return (*gofuncs.fields(tokens[0]), *tokens[1:])


@dataclass(frozen=True)
class PortMapping:
    """A published port: the device's ``host`` port to the container's."""

    host: int
    container: int


def parse_port(entry: str) -> PortMapping | None:
    """A ``ports`` entry as the CLI reads it: split at the first ``:``, each side read by
    ``fmt.Sscanf("%d")`` into a uint16 (0 on failure); kept only when both are > 0."""
    first, colon, second = entry.partition(":")
    container = gofuncs.scan_port(second if colon else first)
    host = gofuncs.scan_port(first) if colon else container
    return PortMapping(host, container) if host > 0 and container > 0 else None


VolumeKind = Literal["named", "bind", "anonymous", "unusable"]


@dataclass(frozen=True)
class VolumeEntry:
    """A short-syntax volume split as the CLI splits it (``parts`` > 3: ignored)."""

    source: str | None
    target: str | None
    mode: str | None
    parts: int

    @property
    def kind(self) -> VolumeKind:
        if self.parts > 3 or not self.target or self.source == "":
            return "unusable"  # ignored, or an empty side: never a persist volume
        if self.source is None:
            return "anonymous"
        return "named" if is_named_volume(self.source, self.target) else "bind"


def parse_volume(entry: str) -> VolumeEntry:
    """Split on every ``:``; a single ASCII letter first part is merged with the second (a
    drive letter); then 1 part is a target, 2 source:target, 3 source:target:mode."""
    parts = entry.split(":")
    if len(parts) >= 2 and len(parts[0]) == 1 and parts[0].isascii() and parts[0].isalpha():
        parts = [f"{parts[0]}:{parts[1]}", *parts[2:]]
    if len(parts) == 1:
        return VolumeEntry(None, parts[0], None, 1)
    if len(parts) > 3:
        return VolumeEntry(None, None, None, len(parts))
    return VolumeEntry(parts[0], parts[1], parts[2] if len(parts) == 3 else None, len(parts))


def is_named_volume(source: str, target: str) -> bool:
    """A named volume (a persist entitlement): source and target non-empty, the source not
    starting with ``.`` or ``/`` and without ``:`` as its second character."""
    return bool(source and target) and not source.startswith((".", "/")) and source[1:2] != ":"


def _parse_reference(text: str) -> Reference | None:
    try:
        return Reference.parse_normalized_named(text)
    except (InvalidReference, ValueError):
        return None


def device_image(written: str) -> str:
    """The reference the CLI sends for an ``image:``: trimmed, parsed as distribution's
    ``ParseNormalizedNamed`` and given ``:latest`` when it has neither tag nor digest; a
    reference that does not parse is sent exactly as written (untrimmed)."""
    ref = _parse_reference(gofuncs.trim_space(written))
    if ref is None:
        return written
    if ref["tag"] is None and ref["digest"] is None:
        return f"{ref['name']}:latest"
    return str(ref.string())


def qualify_image(ref: str) -> str:
    """A reference made fully qualified (``python:3.11-slim`` ->
    ``docker.io/library/python:3.11-slim``), no tag added; unparsable: as written."""
    parsed = _parse_reference(ref)
    return ref if parsed is None else str(parsed.string())


def project_name(directory: str) -> str:
    """The project's name: its directory's name, lower-cased."""
    return directory.lower()


def app_name(project: str, service: str) -> str:
    """The app a service becomes on the device: ``<project>-<service>``."""
    return f"{project_name(project)}-{service}"


def built_image(project: str, service: str) -> str:
    """The image a built service gets in a Linux device's registry."""
    return f"{DEVICE_REGISTRY}/{app_name(project, service)}:latest"


def build_context(project: str, value: str) -> str:
    """A build context as the CLI joins it under the project directory
    (``filepath.Join``: ``/srv/app`` is ``<project>/srv/app``, ``""`` the project)."""
    return gofuncs.join_path(project, value)


# --- what wendy run says when it fails (its messages, for ours) -----------------------


def unsupported_build(kind: int) -> str:
    return f"unsupported build directive (yaml kind {kind})"


def custom_dockerfile(name: str) -> str:
    return (
        f'custom Dockerfile path "{name}" is not yet supported; rename it to '
        f"'{SUPPORTED_DOCKERFILE}'"
    )


def build_decode_error(service: str, detail: str) -> str:
    return f"service {service}: decoding build config: {detail}"


def unknown_dependency(service: str, dependency: str) -> str:
    return f'service "{service}" depends on unknown service "{dependency}"'
