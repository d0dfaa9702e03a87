"""Reading the parts of a parsed compose document that validators reason about.

Compose accepts several spellings of the same thing (``build: ./x`` or
``build: {context: ./x}``, ports as ``"8080:8080"``, ``8080``,
``127.0.0.1:8080:8080/tcp`` or ``{target: 8080, published: "8080"}``);
these helpers reduce them to one shape.  They never raise on odd input:
what they cannot read they leave out, and ``docker-compose config`` (run
by the compose validator) reports it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass


def services(doc: object) -> dict[str, Mapping[str, object]]:
    """The ``services`` mapping, keeping only well-formed entries."""
    if not isinstance(doc, Mapping):
        return {}
    raw = doc.get("services")
    if not isinstance(raw, Mapping):
        return {}
    return {str(name): svc for name, svc in raw.items() if isinstance(svc, Mapping)}


def is_remote_context(context: str) -> bool:
    """A git or URL build context: nothing in the render to look for."""
    return "://" in context or context.startswith(("git@", "github.com/"))


@dataclass(frozen=True)
class Build:
    """A service's build section: context as written, and the Dockerfile name."""

    context: str
    dockerfile: str | None  # None when the Dockerfile is inline


def build_of(service: Mapping[str, object]) -> Build | None:
    raw = service.get("build")
    if isinstance(raw, str):
        return Build(raw, "Dockerfile")
    if isinstance(raw, Mapping):
        context = raw.get("context", ".")
        dockerfile = raw.get("dockerfile", "Dockerfile")
        if "dockerfile_inline" in raw:
            dockerfile = None
        if not isinstance(context, str) or not (dockerfile is None or isinstance(dockerfile, str)):
            return None
        return Build(context, dockerfile)
    return None


def normalise_path(path: str, base: str = "") -> str:
    """A relative path as a normal posix path from the tree root (``./x/`` -> ``x``).

    ``base`` is the directory of the file the path was written in.
    """
    joined = posixpath.normpath(posixpath.join(base, path.strip())) if path.strip() else base
    return "." if joined in ("", ".") else joined


@dataclass(frozen=True)
class PublishedPort:
    """A host port a service publishes (``index`` is the entry's position in ``ports``)."""

    port: int
    protocol: str
    host_ip: str
    index: int


_SHORT = re.compile(
    r"^(?:(?P<ip>\[[^\]]*\]|[^:\[\]]*):)??"  # optional host ip (IPv6 in brackets)
    r"(?:(?P<host>[0-9]+(?:-[0-9]+)?)?:)?"  # optional host port or range
    r"(?P<container>[0-9]+(?:-[0-9]+)?)"
    r"(?:/(?P<proto>[a-z]+))?$"
)


def _port_range(text: str) -> list[int]:
    low, _, high = text.partition("-")
    start = int(low)
    end = int(high) if high else start
    return list(range(start, end + 1)) if end >= start else []


def published_ports(service: Mapping[str, object]) -> list[PublishedPort]:
    """Every host port the service publishes (container-only entries publish none)."""
    raw = service.get("ports")
    if not isinstance(raw, list):
        return []
    out: list[PublishedPort] = []
    for index, entry in enumerate(raw):
        if isinstance(entry, str):
            match = _SHORT.match(entry.strip())
            if match is None or match.group("host") is None:
                continue
            proto = match.group("proto") or "tcp"
            ip = (match.group("ip") or "").strip("[]")
            out += [PublishedPort(p, proto, ip, index) for p in _port_range(match.group("host"))]
        elif isinstance(entry, Mapping):
            published = entry.get("published")
            if isinstance(published, int) and not isinstance(published, bool):
                published = str(published)
            if not isinstance(published, str) or not re.fullmatch(r"[0-9]+(-[0-9]+)?", published):
                continue
            proto = str(entry.get("protocol") or "tcp")
            ip = str(entry.get("host_ip") or "")
            out += [PublishedPort(p, proto, ip, index) for p in _port_range(published)]
    return out
