"""Which services talk over loopback to a port another service of the app serves.

On a device the services of an app share nothing but the device's network
namespace, and only those with host networking are in it (Wendy run facts,
section 9): a service with no network entitlement is alone in a namespace
of its own.  Templates reach another service on ``127.0.0.1:<port>`` (there
is no service DNS), so a service's build-context files naming a loopback
port (``127.0.0.1:6379``, ``localhost:1883``, ``host="127.0.0.1",
port=6379``) that another service's files also name are inter-service
traffic: if either side has no network, they never meet.  Read from the
render's text files only; a port named by one service alone proves nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wendy_llm.device.model import Service

_LOOPBACK = re.compile(
    r"(?:127\.0\.0\.1|localhost)(?::(?P<port>\d{2,5})\b|[\"']?\s*,\s*port\s*=\s*(?P<kw>\d{2,5})\b)"
)
_MAX_BYTES = 256 * 1024


@dataclass(frozen=True)
class LoopbackUse:
    """A loopback port named in one of a service's files."""

    service: str
    port: int
    file: str
    line: int


def service_files(tree: Mapping[str, bytes], service: Service) -> list[tuple[str, str]]:
    """(path, text) of the text files in a built service's build context."""
    if service.build is None:
        return []
    root = service.build.directory.rstrip("/")
    prefix = "" if root in ("", ".") else root + "/"
    out = []
    for path, data in sorted(tree.items()):
        if not path.startswith(prefix) or len(data) > _MAX_BYTES or b"\0" in data:
            continue
        out.append((path, data.decode("utf-8", "replace")))
    return out


def loopback_uses(tree: Mapping[str, bytes], service: Service) -> list[LoopbackUse]:
    out = []
    for path, text in service_files(tree, service):
        for number, line in enumerate(text.splitlines(), 1):
            for match in _LOOPBACK.finditer(line):
                port = int(match["port"] or match["kw"])
                out.append(LoopbackUse(service.name, port, path, number))
    return out


def _mentions(
    tree: Mapping[str, bytes], service: Service, port: int, *, besides_loopback: bool = False
) -> str | None:
    """The first ``file:line`` of ``service`` naming ``port`` (``besides_loopback``: not
    as a loopback address itself, i.e. where the service may serve it)."""
    pattern = re.compile(rf"(?<![\d.]){port}(?!\d)")
    for path, text in service_files(tree, service):
        for number, line in enumerate(text.splitlines(), 1):
            if not pattern.search(line):
                continue
            if besides_loopback and any(
                int(m["port"] or m["kw"]) == port for m in _LOOPBACK.finditer(line)
            ):
                continue
            return f"{path}:{number}"
    return None


def loopback_partners(
    tree: Mapping[str, bytes], service: Service, services: Sequence[Service]
) -> list[str]:
    """Why ``service`` takes part in loopback traffic with another service, if it does."""
    others = [s for s in services if s.name != service.name and s.build is not None]
    out = []
    for use in loopback_uses(tree, service):
        for other in others:
            where = _mentions(tree, other, use.port)
            if where is not None:
                out.append(
                    f"{use.file}:{use.line} uses loopback port {use.port}, which service "
                    f"{other.name} names ({where})"
                )
                break
    for other in others:
        for use in loopback_uses(tree, other):
            where = _mentions(tree, service, use.port, besides_loopback=True)
            if where is not None:
                out.append(
                    f"service {other.name} reaches loopback port {use.port} ({use.file}:"
                    f"{use.line}), which it names ({where})"
                )
    return list(dict.fromkeys(out))
