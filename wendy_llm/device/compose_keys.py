"""Reading one compose service as the Wendy CLI does, key by key.

Each reader takes the key's value and fills a :class:`ServiceDraft`,
noting what makes ``wendy run`` fail (the file does not load: a value of a
YAML kind the CLI's model cannot decode) and what the device silently
drops.  The facts themselves (restart mapping, command splitting, port
and volume syntax, image names) are in :mod:`wendy_llm.wendycli.compose`.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field

from wendy_llm.device.model import Port, Volume
from wendy_llm.device.notes import Located, dotted
from wendy_llm.wendycli.compose import (
    BUILD_KEYS,
    RESTART,
    SUPPORTED_DOCKERFILE,
    parse_port,
    parse_volume,
    split_command,
)

# Compose's interpolation syntax, which the CLI does not apply: $VAR, ${...}, and $$.
_INTERPOLATION = re.compile(r"\$(?:\{[^}]*\}?|[A-Za-z_][A-Za-z0-9_]*|\$)")
# "context, dockerfile and args": the build keys as a message lists them.
_READ_BUILD_KEYS = f"{', '.join(BUILD_KEYS[:-1])} and {BUILD_KEYS[-1]}"


@dataclass
class BuildDraft:
    context: str
    directory: str | None  # None: a remote context, not in the render
    dockerfile: str | None
    args: dict[str, str] = field(default_factory=dict)


@dataclass
class ServiceDraft:
    """What the CLI's model holds of one service."""

    name: str
    line: int | None
    image: str | None = None
    build: BuildDraft | None = None
    command: tuple[str, ...] | None = None
    restart: str | None = None
    depends_on: list[str] = field(default_factory=list)
    ports: list[Port] = field(default_factory=list)
    dropped_ports: list[str] = field(default_factory=list)
    volumes: list[Volume] = field(default_factory=list)
    network_mode: str | None = None
    environment: list[tuple[str, str | None]] = field(default_factory=list)
    ignored_keys: list[str] = field(default_factory=list)


def kind(value: object) -> str:
    """The YAML kind of a value, for messages."""
    if isinstance(value, Mapping):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return "null" if value is None else "scalar"


def scalar_text(value: object) -> str | None:
    """A scalar read into a Go string: its text (None for a mapping or list; "" for null)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    return None


def _not_decodable(at: Located, what: str, value: object, want: str, *path: str | int) -> None:
    at.error(
        f"{what} is a {kind(value)}, but the Wendy CLI reads {want}: "
        f"wendy run fails to load {at.file}",
        *path,
    )


def read_string(at: Located, svc: str, key: str, value: object) -> str | None:
    """A key the CLI reads as a string (image, restart, network_mode)."""
    text = scalar_text(value)
    if text is None:
        _not_decodable(at, f"services.{svc}.{key}", value, "a string", "services", svc, key)
        return None
    check_interpolation(at, text, "services", svc, key)
    return text


def check_interpolation(at: Located, text: str, *path: str | int) -> None:
    found = sorted(set(_INTERPOLATION.findall(text)))
    if found:
        at.warn(
            f'{dotted(path)} "{text}": {", ".join(found)} is not interpolated by the Wendy '
            "CLI (Docker Compose would): the device gets the literal text",
            *path,
        )


def read_build(at: Located, svc: str, value: object) -> BuildDraft | None:
    path = ("services", svc, "build")
    if value is None:
        return None  # `build:` with nothing: no build
    text = scalar_text(value)
    if text is not None:
        check_interpolation(at, text, *path)
        return _build_draft(text, SUPPORTED_DOCKERFILE)
    if not isinstance(value, Mapping):
        what = f"services.{svc}.build"
        _not_decodable(at, what, value, "a string (the context) or a mapping", *path)
        return None
    context = scalar_text(value.get("context")) or "."
    check_interpolation(at, context, *path, "context")
    dockerfile = scalar_text(value.get("dockerfile")) or SUPPORTED_DOCKERFILE
    if dockerfile != SUPPORTED_DOCKERFILE:
        at.error(
            f'services.{svc}.build.dockerfile is "{dockerfile}": wendy run refuses any '
            f'Dockerfile name but "{SUPPORTED_DOCKERFILE}" ("not yet supported")',
            *path,
            "dockerfile",
        )
    for key in value:
        if str(key) in BUILD_KEYS:
            continue
        reason = f"ignored on a device (the Wendy CLI reads {_READ_BUILD_KEYS})"
        if key == "target":
            reason = "ignored on a device: the last stage of the Dockerfile is built"
        at.ignore(reason, *path, str(key))
    draft = _build_draft(context, dockerfile)
    draft.args = _build_args(at, svc, value.get("args"))
    return draft


def _build_draft(context: str, dockerfile: str) -> BuildDraft:
    if "://" in context or context.startswith("git@"):
        return BuildDraft(context, None, None)
    directory = posixpath.normpath(context) if context.strip() else "."
    return BuildDraft(context, directory, posixpath.normpath(posixpath.join(directory, dockerfile)))


def _build_args(at: Located, svc: str, value: object) -> dict[str, str]:
    path = ("services", svc, "build", "args")
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        at.warn(
            f"services.{svc}.build.args is a {kind(value)}: the Wendy CLI's model reads build "
            "args as a mapping; what it does with another form is not modelled, so these args "
            "are taken as not passed",
            *path,
        )
        return {}
    args: dict[str, str] = {}
    for key, raw in value.items():
        text = scalar_text(raw)
        if text is None:
            _not_decodable(at, dotted((*path, str(key))), raw, "a string", *path, str(key))
            continue
        if raw is None:
            at.warn(
                f"services.{svc}.build.args.{key} has no value: Docker Compose takes it from "
                'the environment, the device gets "" (Go\'s empty string)',
                *path,
                str(key),
            )
        check_interpolation(at, text, *path, str(key))
        args[str(key)] = text
    return args


def read_command(at: Located, svc: str, value: object) -> tuple[str, ...] | None:
    path = ("services", svc, "command")
    if isinstance(value, list):
        words = [scalar_text(item) for item in value]
        if any(w is None for w in words):
            _not_decodable(at, f"services.{svc}.command", value, "a string or strings", *path)
            return None
        for word in words:
            check_interpolation(at, word or "", *path)
        return tuple(w or "" for w in words)
    text = scalar_text(value)
    if text is None:
        _not_decodable(at, f"services.{svc}.command", value, "a string or a list", *path)
        return None
    check_interpolation(at, text, *path)
    device = split_command(text)
    try:
        compose = tuple(shlex.split(text))
    except ValueError:
        compose = None
    if compose is not None and compose != device:
        at.warn(
            f"services.{svc}.command splits differently on a device: Docker Compose runs "
            f"{list(compose)}, the Wendy CLI {list(device)} (it groups quotes but has no "
            "backslash escapes)",
            *path,
        )
    return device


def _entries(at: Located, svc: str, key: str, value: object, syntax: str) -> list[tuple[int, str]]:
    """The string entries of ``ports``/``volumes``; anything else fails the whole file."""
    path = ("services", svc, key)
    if not isinstance(value, list):
        _not_decodable(at, f"services.{svc}.{key}", value, f"a list of strings ({syntax})", *path)
        return []
    out = []
    for index, item in enumerate(value):
        text = scalar_text(item)
        if text is None:
            at.error(
                f"services.{svc}.{key}[{index}] is a {kind(item)} (the long syntax), but the "
                f"Wendy CLI reads {key} as strings: wendy run fails to load {at.file} at all; "
                f'write it as "{syntax}"',
                *path,
                index,
            )
            continue
        check_interpolation(at, text, *path, index)
        out.append((index, text))
    return out


def read_ports(at: Located, svc: str, value: object, draft: ServiceDraft) -> None:
    for index, entry in _entries(at, svc, "ports", value, "host:container"):
        mapping = parse_port(entry)
        if mapping is None:
            draft.dropped_ports.append(entry)
            at.warn(
                f'services.{svc}.ports[{index}] "{entry}" is not "host:container" or '
                '"container" with two positive numbers: the device drops it, nothing is '
                "published for it",
                "services",
                svc,
                "ports",
                index,
            )
            continue
        draft.ports.append(Port(mapping.host, mapping.container, entry))


def read_volumes(at: Located, svc: str, value: object, draft: ServiceDraft) -> None:
    for index, entry in _entries(at, svc, "volumes", value, "source:target"):
        parsed = parse_volume(entry)
        volume = Volume(
            entry, parsed.source, parsed.target, parsed.mode, parsed.kind, parsed.kind == "named"
        )
        draft.volumes.append(volume)
        where = ("services", svc, "volumes", index)
        label = f'services.{svc}.volumes[{index}] "{entry}"'
        if volume.kind == "bind":
            at.warn(f"{label} is a bind mount: the device does not mount it", *where)
        elif volume.kind == "anonymous":
            at.warn(
                f"{label} has no source (an anonymous volume): the spec does not say what the "
                "Wendy CLI does with it; this view takes it as not mounted",
                *where,
            )
        elif parsed.source is not None and parsed.source.startswith("~"):
            at.warn(
                f"{label}: Docker Compose mounts ~ paths from the host, but the Wendy CLI "
                f'takes "{parsed.source}" as a named volume',
                *where,
            )
        if volume.mounted and parsed.mode is not None:
            at.warn(
                f'{label}: the mode "{parsed.mode}" is not applied (a persist entitlement has '
                "only a name and a path)",
                *where,
            )


def read_depends_on(at: Located, svc: str, value: object) -> list[str]:
    if isinstance(value, Mapping):
        return [str(name) for name in value]  # conditions are ignored
    if isinstance(value, list):
        names = [scalar_text(item) for item in value]
        if all(n is not None for n in names):
            return [n or "" for n in names]
    path = ("services", svc, "depends_on")
    _not_decodable(at, f"services.{svc}.depends_on", value, "a list or a mapping", *path)
    return []


def read_restart(at: Located, svc: str, value: object) -> str | None:
    text = read_string(at, svc, "restart", value)
    if text is not None and text not in RESTART:
        at.warn(
            f'services.{svc}.restart "{text}" is not one the Wendy CLI knows '
            f"({', '.join(filter(None, RESTART))}): the device default applies",
            "services",
            svc,
            "restart",
        )
    return text


def read_environment(value: object) -> list[tuple[str, str | None]]:
    """The compose ``environment`` (mapping or ``KEY=value`` list): name and value as written."""
    if isinstance(value, Mapping):
        out: list[tuple[str, str | None]] = []
        for key, raw in value.items():
            out.append((str(key), None if raw is None else scalar_text(raw)))
        return out
    if isinstance(value, list):
        pairs: list[tuple[str, str | None]] = []
        for item in value:
            if isinstance(item, str):
                name, eq, text = item.partition("=")
                pairs.append((name, text if eq else None))
        return pairs
    return []
