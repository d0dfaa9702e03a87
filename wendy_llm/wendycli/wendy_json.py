"""``wendy.json`` as the Wendy CLI reads it: its Go struct, its validation errors and warnings.

The CLI decodes the file with ``encoding/json`` into :data:`APP_CONFIG`
(unknown keys ignored, keys matched case-insensitively, a value of the
wrong type a decode error: :mod:`wendy_llm.render.manifest.gojson`), then validates
it.  :func:`judge` returns both, each
:class:`Problem` with the JSON path it concerns; a file with decode errors
is not validated (the CLI stops at the first decode error).

Assumptions where the CLI's source gives no type or leaves a rule open (each the
lenient reading, so a valid file is never refused):

- entitlement ``pins`` and ``allowlist`` are decoded as ``interface{}``
  (any JSON value); ``port`` (mcp) is an ``int``; ``ports`` is a list of
  ``{host, container}`` ``uint16`` pairs (section 2: a string, a negative
  number or one above 65535 is a decode error);
- ``readiness.tcpSocket.port`` must be in 1..65535 only when ``tcpSocket``
  is given (a ``readiness`` without it is valid and waits for nothing);
  ``timeoutSeconds`` 0 means the default (30);
- ``files[].to`` may be empty; when given it follows ``path``'s rules;
- a service ``context`` is refused when Go's ``filepath.Clean`` of it starts
  with ``..`` (section 2: ``..data`` too; ``a/../b`` stays inside), asked of
  the Go helper; paths are absolute when they start with ``/``;
- the platform-specific ``hooks.postStart.cli`` is one whose first word
  is ``open``, ``xdg-open`` or ``start``;
- entitlement keys are compared with the allowed set as written (a key
  differing only in case is decoded, but still warned about: ``"MODE"``),
  and only in an object whose type key is spelt ``type`` (section 2: a
  ``"Type"`` decodes, but the entitlement gets no warnings).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from wendy_llm.engine import gofuncs
from wendy_llm.errors import quoted
from wendy_llm.render.manifest.gojson import Decoded, GoJsonSyntaxError, decode
from wendy_llm.render.manifest.gotypes import (
    ANY,
    BOOL,
    INT,
    STRING,
    UINT16,
    Map,
    Pointer,
    Slice,
    struct,
)
from wendy_llm.render.manifest.jsonpos import JsonPath, format_json_path

FILE: Final = "wendy.json"


ENTITLEMENT: Final = struct(
    "Entitlement",
    type=STRING,
    mode=STRING,
    ports=Slice(struct("PortMapping", host=UINT16, container=UINT16)),
    allowlist=ANY,
    name=STRING,
    path=STRING,
    device=STRING,
    pins=ANY,
    port=INT,
)
SERVICE: Final = struct(
    "ServiceConfig", context=STRING, entitlements=Slice(ENTITLEMENT), dependsOn=Slice(STRING)
)

APP_CONFIG: Final = struct(
    "AppConfig",
    appId=STRING,
    version=STRING,
    platform=STRING,
    language=STRING,
    xcode=Pointer(struct("XcodeConfig", scheme=STRING)),
    run=Pointer(struct("RunConfig", args=Slice(STRING))),
    entitlements=Slice(ENTITLEMENT),
    readiness=Pointer(
        struct(
            "Readiness",
            tcpSocket=Pointer(struct("TCPSocket", port=INT)),
            timeoutSeconds=INT,
        )
    ),
    hooks=Pointer(
        struct(
            "Hooks",
            postStart=Pointer(struct("PostStart", openURL=STRING, cli=STRING, agent=STRING)),
        )
    ),
    python=Pointer(struct("PythonConfig", sourceRoot=STRING)),
    debug=BOOL,
    files=Slice(struct("FileMapping", path=STRING, to=STRING)),
    services=Map(Pointer(SERVICE)),
)

#: What the CLI acts on in ``wendy.json`` besides entitlements and services.
ACTED_ON: Final[Mapping[str, str]] = {
    "readiness": "the readiness check",
    "hooks": "the post-start hook",
    "files": "the file list",
    "run": "the run configuration",
}

#: Every entitlement type the CLI knows, and the keys each may carry.
ENTITLEMENT_KEYS: Final[Mapping[str, frozenset[str]]] = {
    "network": frozenset({"type", "mode", "ports"}),
    "bluetooth": frozenset({"type", "mode"}),
    "video": frozenset({"type", "mode", "allowlist"}),
    "camera": frozenset({"type", "mode", "allowlist"}),
    "gpu": frozenset({"type"}),
    "persist": frozenset({"type", "name", "path"}),
    "audio": frozenset({"type"}),
    "usb": frozenset({"type"}),
    "i2c": frozenset({"type", "device"}),
    "gpio": frozenset({"type", "pins"}),
    "spi": frozenset({"type"}),
    "input": frozenset({"type"}),
    "mcp": frozenset({"type", "port"}),
}
NETWORK_MODES: Final = ("", "host", "none")
DEPRECATED_ENTITLEMENTS: Final = {"video": "camera"}
PLATFORM_OPENERS: Final = ("open", "xdg-open", "start")
_I2C_DEVICE: Final = re.compile(r"i2c-[0-9]+")

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Problem:
    """A decode or validation error (the CLI refuses the app) or a warning it prints."""

    severity: Severity
    path: JsonPath
    message: str

    def __str__(self) -> str:
        where = format_json_path(self.path)
        return f"{where}: {self.message}" if where else self.message


@dataclass(frozen=True)
class Judged:
    """What the CLI makes of a ``wendy.json``: the decode, and its problems."""

    decoded: Decoded
    problems: tuple[Problem, ...]


@functools.lru_cache(maxsize=64)
def judge(text: str | bytes) -> Judged:
    """Decode and validate ``wendy.json`` text (raises GoJsonSyntaxError on bad JSON).

    Remembered for the last 64 texts, and shared: read the result, never change
    it (``check`` judges a render's ``wendy.json`` in several checks, and most
    picks render the same one).
    """
    decoded = _decoded(text)
    if decoded.errors:
        problems = [Problem("error", e.path, e.message) for e in decoded.errors]
        return Judged(decoded, tuple(problems))
    return Judged(decoded, tuple(validate(decoded)))


def validate(decoded: Decoded) -> list[Problem]:
    """The CLI's validation of a decoded ``wendy.json`` (no decode errors)."""
    config = decoded.value
    assert isinstance(config, Mapping)
    out: list[Problem] = []
    if not config["appId"]:
        out.append(Problem("error", ("appId",), "appId is required"))
    out += _entitlements(decoded, config["entitlements"], ("entitlements",))
    out += _readiness(config["readiness"])
    out += _hooks(config["hooks"])
    for index, mapping in enumerate(config["files"] or ()):
        out += _file_mapping(mapping, ("files", index))
    out += _services(decoded, config["services"])
    return out


def _entitlements(decoded: Decoded, items: object, path: JsonPath) -> list[Problem]:
    out: list[Problem] = []
    mcp = 0
    for index, item in enumerate(items if isinstance(items, Sequence) else ()):
        at = (*path, index)
        assert isinstance(item, Mapping)
        kind = item["type"]
        if not kind:
            out.append(Problem("error", at, "entitlement type is required"))
            continue
        allowed = ENTITLEMENT_KEYS.get(kind)
        if allowed is None:
            known = ", ".join(ENTITLEMENT_KEYS)
            message = f"unknown entitlement type {quoted(kind)} (known: {known})"
            out.append(Problem("error", (*at, "type"), message))
            continue
        # The CLI's warnings read the raw object's keys as written: without a key
        # spelt exactly "type" (a "Type" decodes all the same) it warns of nothing.
        raw_keys = decoded.keys.get(at, ())
        if "type" in raw_keys and kind in DEPRECATED_ENTITLEMENTS:
            instead = quoted(DEPRECATED_ENTITLEMENTS[kind])
            message = f"entitlement {quoted(kind)} is deprecated: use {instead}"
            out.append(Problem("warning", (*at, "type"), message))
        for key in raw_keys if "type" in raw_keys else ():
            if key not in allowed:
                message = (
                    f"{quoted(key)} is not a key of a {kind} entitlement "
                    f"(it takes {', '.join(sorted(allowed))})"
                )
                out.append(Problem("warning", (*at, key), message))
        mcp += kind == "mcp"
        if kind == "mcp" and mcp == 2:
            out.append(Problem("error", at, "only one mcp entitlement is allowed in a list"))
        out += _entitlement_rules(kind, item, at)
    return out


def _entitlement_rules(kind: str, item: Mapping[str, object], at: JsonPath) -> list[Problem]:
    if kind == "network" and item["mode"] not in NETWORK_MODES:
        message = f'network mode {quoted(str(item["mode"]))} is not valid (empty, "host" or "none")'
        return [Problem("error", (*at, "mode"), message)]
    if kind == "persist":
        out = [
            Problem("error", at, f"a persist entitlement needs a {key}")
            for key in ("name", "path")
            if not item[key]
        ]
        path = str(item["path"])
        if path and not path.startswith("/"):
            message = f"persist path {quoted(path)} must be absolute"
            out.append(Problem("error", (*at, "path"), message))
        elif ".." in path.split("/"):
            message = f'persist path {quoted(path)} must not contain a ".." component'
            out.append(Problem("error", (*at, "path"), message))
        return out
    if kind == "i2c":
        device = str(item["device"])
        if not device:
            return [Problem("error", at, "an i2c entitlement needs a device")]
        if not _I2C_DEVICE.fullmatch(device):
            message = f"i2c device {quoted(device)} must be i2c-<number>"
            return [Problem("error", (*at, "device"), message)]
    port = item["port"]
    if kind == "mcp" and isinstance(port, int) and not 1 <= port <= 65535:
        return [Problem("error", (*at, "port"), f"mcp port {item['port']} is outside 1..65535")]
    return []


def _readiness(readiness: object) -> list[Problem]:
    if not isinstance(readiness, Mapping):
        return []
    out: list[Problem] = []
    socket = readiness["tcpSocket"]
    # Without tcpSocket there is nothing to wait for, and nothing to check (section 2).
    port = socket["port"] if isinstance(socket, Mapping) else None
    if isinstance(port, int) and not 1 <= port <= 65535:
        message = f"readiness tcpSocket port {port} is outside 1..65535"
        out.append(Problem("error", ("readiness", "tcpSocket", "port"), message))
    timeout = readiness["timeoutSeconds"]
    if isinstance(timeout, int) and timeout < 0:
        message = f"readiness timeoutSeconds {timeout} must not be negative"
        out.append(Problem("error", ("readiness", "timeoutSeconds"), message))
    return out


def _hooks(hooks: object) -> list[Problem]:
    post_start = hooks["postStart"] if isinstance(hooks, Mapping) else None
    if not isinstance(post_start, Mapping):
        return []
    words = str(post_start["cli"]).split()
    if words and words[0] in PLATFORM_OPENERS:
        message = (
            f"{quoted(words[0])} opens a URL on one platform only: "
            "hooks.postStart.openURL is the portable field"
        )
        return [Problem("warning", ("hooks", "postStart", "cli"), message)]
    return []


def _relative_path_problems(value: str, path: JsonPath, what: str) -> list[Problem]:
    if value.startswith("/"):
        return [Problem("error", path, f"{what} {quoted(value)} must be relative")]
    if ".." in value.split("/"):
        return [Problem("error", path, f'{what} {quoted(value)} must not contain a ".." component')]
    return []


def _file_mapping(mapping: object, at: JsonPath) -> list[Problem]:
    assert isinstance(mapping, Mapping)
    if not mapping["path"]:
        return [Problem("error", at, "a files entry needs a path")]
    out = _relative_path_problems(str(mapping["path"]), (*at, "path"), "files path")
    if mapping["to"]:
        out += _relative_path_problems(str(mapping["to"]), (*at, "to"), "files to")
    return out


def _services(decoded: Decoded, services: object) -> list[Problem]:
    if not isinstance(services, Mapping):
        return []
    out: list[Problem] = []
    names = sorted(services)
    for name, service in services.items():
        at: JsonPath = ("services", name)
        if service is None:
            out.append(Problem("error", at, f"service {quoted(name)} is null"))
            continue
        context = str(service["context"])
        # The CLI's test is strings.HasPrefix(filepath.Clean(context), ".."): Go cleans it.
        cleaned = gofuncs.join_path("", context) if context else ""
        if not context:
            out.append(Problem("error", at, f"service {quoted(name)} needs a context"))
        elif context.startswith("/"):
            message = f"context {quoted(context)} must be relative"
            out.append(Problem("error", (*at, "context"), message))
        elif cleaned.startswith(".."):
            message = (
                f"context {quoted(context)} is refused: cleaned ({quoted(cleaned)}) it "
                'starts with ".."'
            )
            out.append(Problem("error", (*at, "context"), message))
        out += _entitlements(decoded, service["entitlements"], (*at, "entitlements"))
        for index, dependency in enumerate(service["dependsOn"] or ()):
            if dependency not in services:
                message = (
                    f"service {quoted(name)} depends on {quoted(dependency)}, "
                    f"which is not a service (services: {', '.join(names)})"
                )
                out.append(Problem("error", (*at, "dependsOn", index), message))
    return out


def read(text: str | bytes) -> Decoded | None:
    """``wendy.json`` decoded as the CLI decodes it (decode errors kept in the
    result), or None when it is not JSON Go reads."""
    try:
        return _decoded(text)
    except GoJsonSyntaxError:
        return None


def _decoded(text: str | bytes) -> Decoded:
    """``wendy.json`` decoded (raises GoJsonSyntaxError), remembered as :func:`judge`
    is: the device view reads what the ``wendy-json`` check judged."""
    if isinstance(text, bytes):  # as gojson.parse reads bytes, so that both share one entry
        text = text.decode("utf-8", errors="replace")
    return _decoded_text(text)


@functools.lru_cache(maxsize=64)
def _decoded_text(text: str) -> Decoded:
    return decode(APP_CONFIG, text)


def entitlement_entries(
    decoded: Decoded,
) -> Iterator[tuple[JsonPath, str | None, Mapping[str, object]]]:
    """Every entitlement: its path as written, its service (None: the app's), its fields."""
    config = decoded.value
    assert isinstance(config, Mapping)
    for index, item in enumerate(config["entitlements"] or ()):
        yield decoded.raw_path(("entitlements", index)), None, item
    for name, service in (config["services"] or {}).items():
        for index, item in enumerate((service or {}).get("entitlements") or ()):
            yield decoded.raw_path(("services", name, "entitlements", index)), name, item


def acted_on(decoded: Decoded) -> Iterator[tuple[JsonPath, str]]:
    """The settings of :data:`ACTED_ON` the file holds: path as written, and what each is."""
    config = decoded.value
    assert isinstance(config, Mapping)
    for key, what in ACTED_ON.items():
        if config[key] is not None:
            yield decoded.raw_path((key,)), what


def service_names(decoded: Decoded | None) -> list[str]:
    """The names of ``services``, in file order."""
    config = None if decoded is None else decoded.value
    services = config.get("services") if isinstance(config, Mapping) else None
    return [str(name) for name in services or {}]
