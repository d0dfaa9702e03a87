"""Reading one compose service's keys as the Wendy CLI does, from go-yaml nodes.

Each reader takes the key's node and fills a :class:`ServiceDraft`, noting
what makes ``wendy run`` fail (a value go-yaml cannot decode into the CLI's
struct: the file does not load; a ``build`` the CLI refuses) and where
Docker Compose reads the same text otherwise (:mod:`compose_docker`).  The
facts themselves are in :mod:`wendy_llm.wendycli.compose`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from wendy_llm.codes import CodeInfo
from wendy_llm.codes import device as DC
from wendy_llm.codes import device as device_codes
from wendy_llm.device.compose import vs_docker as docker
from wendy_llm.device.compose.goyaml import (
    MAPPING,
    SCALAR,
    SEQUENCE,
    Node,
    kind_name,
    mapping_items,
    resolve,
    strings,
    text,
)
from wendy_llm.device.model import Port, Volume
from wendy_llm.device.notes import Notes
from wendy_llm.wendycli import compose as facts

# Compose's interpolation syntax, which the CLI does not apply: $VAR, ${...}, and $$.
_INTERPOLATION = re.compile(r"\$(?:\{[^}]*\}?|[A-Za-z_][A-Za-z0-9_]*|\$)")


class Where:
    """Findings about one compose file, located by a node's line."""

    def __init__(self, notes: Notes, file: str) -> None:
        self.notes = notes
        self.file = file

    def error(self, code: CodeInfo, message: str, line: int | None, subject: str = "") -> None:
        self.notes.error(code, message, self.file, line, subject=subject)

    def warn(self, code: CodeInfo, message: str, line: int | None, subject: str = "") -> None:
        self.notes.warn(code, message, self.file, line, subject=subject)

    def ignore(
        self, code: CodeInfo, what: str, reason: str, line: int | None, *, warn: bool = True
    ) -> None:
        self.notes.ignore(code, what, reason, self.file, line, warn=warn)

    def cannot_load(self, what: str, node: Node, want: str) -> None:
        """A value go-yaml cannot decode into the CLI's struct: the file does not load."""
        self.error(
            device_codes.COMPOSE_CANNOT_DECODE,
            f"{what} is a {kind_name(resolve(node))}, but the Wendy CLI decodes {want}: "
            f"wendy run fails to load {self.file} (cannot unmarshal {node.short_tag()})",
            node.line,
            what,
        )


@dataclass
class BuildDraft:
    written: str  # the context as written ("" when none)
    path: str  # the context joined under the project (filepath.Join)
    directory: str | None  # the context in the render; None: outside it
    dockerfile: str | None  # the Dockerfile's path in the render
    args: dict[str, str] = field(default_factory=dict)


@dataclass
class ServiceDraft:
    """What the CLI's struct holds of one service."""

    name: str
    line: int | None
    image: str | None = None
    build: BuildDraft | None = None
    command: tuple[str, ...] | None = None  # the tokens sent (None: no command node)
    command_line: int | None = None
    restart: str | None = None
    depends_on: list[str] = field(default_factory=list)
    depends_line: int | None = None
    ports: list[Port] = field(default_factory=list)
    dropped_ports: list[str] = field(default_factory=list)
    volumes: list[Volume] = field(default_factory=list)
    network_mode: str | None = None
    environment: list[tuple[str, str | None]] = field(default_factory=list)
    ignored_keys: list[str] = field(default_factory=list)
    # ``x-wendy...`` keys, which the CLI never reads: (key, node, line), judged once the
    # service's entitlements are known (:mod:`compose_view`).
    wendy_extensions: list[tuple[str, Node, int]] = field(default_factory=list)


def check_interpolation(at: Where, value: str, what: str, line: int | None) -> None:
    found = sorted(set(_INTERPOLATION.findall(value)))
    if found:
        at.warn(
            DC.NOT_INTERPOLATED,
            f'{what} "{value}": {", ".join(found)} is not interpolated by the Wendy CLI '
            "(Docker Compose would): the device gets the literal text",
            line,
        )


def read_string(at: Where, what: str, node: Node) -> str | None:
    """A key the CLI decodes into a string (image, restart, network_mode)."""
    value = text(node)
    if value is None:
        at.cannot_load(what, node, "a string")
        return None
    check_interpolation(at, value, what, node.line)
    return value


def read_build(at: Where, svc: str, node: Node, project: str) -> BuildDraft | None:
    """The raw ``build`` node: a scalar context, a mapping, or a failure."""
    what = f"services.{svc}.build"
    if node.kind == SCALAR:
        check_interpolation(at, node.value, what, node.line)
        _remote(at, what, node.value, node.line)
        return _build(project, node.value, facts.SUPPORTED_DOCKERFILE)
    if node.kind != MAPPING:
        at.error(
            DC.BUILD_UNSUPPORTED,
            f"{what}: wendy run fails: {facts.unsupported_build(node.kind)}",
            node.line,
        )
        return None
    fields: dict[str, Node] = {}
    for key, value, line in mapping_items(node):
        if key in facts.BUILD_KEYS:
            fields[key] = value
        else:
            reason = "ignored on a device (the Wendy CLI reads context, dockerfile and args)"
            if key == "target":
                reason = "ignored on a device: the last stage of the Dockerfile is built"
            at.ignore(DC.KEY_IGNORED, f"{what}.{key}", reason, line)
    decoded: dict[str, str] = {}
    for key in ("context", "dockerfile"):
        if key in fields:
            decoded_text = text(fields[key])
            if decoded_text is None:
                _decode_error(at, svc, fields[key], "string")
                return None
            check_interpolation(at, decoded_text, f"{what}.{key}", fields[key].line)
            decoded[key] = decoded_text
    args = _build_args(at, svc, fields.get("args"))
    if args is None:
        return None
    dockerfile = decoded.get("dockerfile") or facts.SUPPORTED_DOCKERFILE
    if dockerfile != facts.SUPPORTED_DOCKERFILE:
        line = fields["dockerfile"].line
        at.error(
            DC.BUILD_UNSUPPORTED,
            f"{what}.dockerfile: wendy run fails: {facts.custom_dockerfile(dockerfile)}",
            line,
        )
    if "context" in decoded:
        _remote(at, f"{what}.context", decoded["context"], fields["context"].line)
    draft = _build(project, decoded.get("context", ""), facts.SUPPORTED_DOCKERFILE)
    draft.args = args
    return draft


def _decode_error(at: Where, svc: str, node: Node, into: str) -> None:
    detail = f"line {node.line}: cannot unmarshal {node.short_tag()} into {into}"
    at.error(
        DC.COMPOSE_CANNOT_DECODE,
        f"services.{svc}.build: wendy run fails: {facts.build_decode_error(svc, detail)}",
        node.line,
    )


def _build_args(at: Where, svc: str, node: Node | None) -> dict[str, str] | None:
    if node is None or node.is_null:
        return {}
    if resolve(node).kind != MAPPING:
        detail = f"line {node.line}: cannot unmarshal {node.short_tag()} into map[string]string"
        hint = " (the list form `- A=1` is valid for Docker Compose, not for the Wendy CLI)"
        at.error(
            DC.COMPOSE_CANNOT_DECODE,
            f"services.{svc}.build.args: wendy run fails: "
            f"{facts.build_decode_error(svc, detail)}"
            + (hint if resolve(node).kind == SEQUENCE else ""),
            node.line,
        )
        return None
    args: dict[str, str] = {}
    for key, value, line in mapping_items(node):
        decoded = text(value)
        if decoded is None:
            _decode_error(at, svc, value, "string")
            return None
        if value.is_null:
            at.warn(
                DC.BUILD_ARG_NO_VALUE,
                f"services.{svc}.build.args.{key} has no value: Docker Compose takes it from "
                'the environment, the device gets "" (Go\'s empty string)',
                line,
            )
        check_interpolation(at, decoded, f"services.{svc}.build.args.{key}", value.line)
        args[key] = decoded
    return args


def _remote(at: Where, what: str, context: str, line: int | None) -> None:
    if "://" in context or context.startswith("git@"):
        at.warn(
            DC.REMOTE_CONTEXT,
            f'{what} "{context}": Docker Compose builds from the remote repository, but the '
            "Wendy CLI joins the context under the project as a directory, which the render "
            "does not hold",
            line,
        )


def _build(project: str, context: str, dockerfile: str) -> BuildDraft:
    joined = facts.build_context(project, context)
    inside = facts.build_context(".", context)
    if inside == ".." or inside.startswith("../"):
        return BuildDraft(context, joined, None, None)
    dockerfile_path = facts.build_context(inside, dockerfile)
    return BuildDraft(context, joined, inside, dockerfile_path)


def read_command(at: Where, svc: str, node: Node) -> tuple[str, ...] | None:
    """The raw ``command`` node: a scalar split by the CLI's rules, a sequence decoded
    leniently; an alias or a mapping is no command."""
    what = f"services.{svc}.command"
    if node.kind == SCALAR:
        check_interpolation(at, node.value, what, node.line)
        tokens = facts.split_command(node.value)
        docker.compare_command_split(at, what, node, tokens)
        return tokens
    if node.kind == SEQUENCE:
        tokens_list, bad = strings(node)
        for item in bad:
            at.warn(
                DC.ITEM_DROPPED,
                f"{what}: an item is a {kind_name(resolve(item))}: the Wendy CLI drops it "
                "(Docker Compose refuses the file)",
                item.line,
            )
        for token in tokens_list:
            check_interpolation(at, token, what, node.line)
        return tuple(tokens_list)
    at.warn(
        DC.COMMAND_NOT_READ,
        f"{what} is a{'n' if node.kind == 16 else ''} {kind_name(node)}: the Wendy CLI reads "
        "no command from it (the image's ENTRYPOINT and CMD run)",
        node.line,
    )
    return None


def _entries(at: Where, svc: str, key: str, node: Node, syntax: str) -> list[tuple[int, str, Node]]:
    """The string entries of ``ports``/``volumes``; a long-syntax item fails the load."""
    what = f"services.{svc}.{key}"
    seq = resolve(node)
    if seq.kind != SEQUENCE:
        at.cannot_load(what, node, f"a list of strings ({syntax})")
        return []
    out = []
    for index, item in enumerate(seq.content):
        if resolve(item).is_null:
            continue  # go-yaml drops a null item of a []string
        value = text(item)
        if value is None:
            at.error(
                DC.LONG_SYNTAX,
                f"{what}[{index}] is a {kind_name(resolve(item))} (the long syntax), but the "
                f"Wendy CLI reads {key} as strings: wendy run fails to load {at.file} at all; "
                f'write it as "{syntax}"',
                item.line,
            )
            continue
        check_interpolation(at, value, f"{what}[{index}]", item.line)
        out.append((index, value, item))
    return out


def read_ports(at: Where, svc: str, node: Node, draft: ServiceDraft) -> None:
    for index, entry, item in _entries(at, svc, "ports", node, "host:container"):
        mapping = facts.parse_port(entry)
        docker.compare_port(at, f"services.{svc}.ports[{index}]", entry, mapping, item.line)
        if mapping is None:
            draft.dropped_ports.append(entry)
        else:
            draft.ports.append(Port(mapping.host, mapping.container, entry))


def read_volumes(at: Where, svc: str, node: Node, draft: ServiceDraft) -> None:
    for index, entry, item in _entries(at, svc, "volumes", node, "source:target"):
        parsed = facts.parse_volume(entry)
        kind = parsed.kind
        target = parsed.target or ""
        volume = Volume(entry, parsed.source, target, parsed.mode, kind, kind == "named")
        draft.volumes.append(volume)
        docker.compare_volume(at, f"services.{svc}.volumes[{index}]", volume, item.line)


def read_depends_on(node: Node) -> list[str]:
    """The raw ``depends_on`` node: a sequence's names (what decodes), a mapping's keys;
    anything else (a scalar, an alias) is ignored."""
    if node.kind == SEQUENCE:
        return strings(node)[0]
    if node.kind == MAPPING:
        return [key.value for key, _ in node.pairs() if text(key) is not None]
    return []


def read_restart(at: Where, svc: str, node: Node) -> str | None:
    value = read_string(at, f"services.{svc}.restart", node)
    if value is not None:
        docker.compare_restart(at, f"services.{svc}.restart", value, node.line)
    return value


def read_environment(node: Node) -> list[tuple[str, str | None]]:
    """The compose ``environment`` (mapping or ``KEY=value`` list): name and value as written."""
    node = resolve(node)
    if node.kind == MAPPING:
        return [
            (key, None if value.is_null else text(value)) for key, value, _ in mapping_items(node)
        ]
    if node.kind == SEQUENCE:
        pairs: list[tuple[str, str | None]] = []
        for item in strings(node)[0]:
            name, eq, value = item.partition("=")
            pairs.append((name, value if eq else None))
        return pairs
    return []
