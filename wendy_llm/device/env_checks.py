"""What the device view proves wrong about a container's environment: the failures.

At the CLI revision of :mod:`wendy_llm.wendycli` compose ``environment`` is
not sent: a container on a device gets its image's ``ENV`` and nothing
else.  The rule is **fail on what the view proves, warn on what it cannot
see**:

- a *contradiction* fails: compose sets ``KEY=X`` for a service whose image
  sets ``KEY=Y`` (Y known, the same on every device considered).  Under
  Docker Compose the container runs with X, on a device with Y: e.g.
  another model than the one picked.  One difference is no contradiction:
  Y is the loopback route to the service X names (same scheme, port and
  path), which is how a device reaches it (no service DNS);
- a *backend that is not there* fails: a URL in the ``ENV`` the container
  gets names a host that is a single-label name (not ``localhost``) and no
  service of the app.  Nothing answers it on a device (nor under Docker
  Compose);
- everything else stays a warning (the ``environment`` item the device
  ignores): a key the image does not set (its base image's ``ENV`` or the
  app's own code may supply it, and neither is seen here), one whose image
  value varies by device or depends on something unseen.

Nothing here knows a template: the rule reads compose, the image's ``ENV``
and the app's service names only.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from wendy_llm.codes import device as DC
from wendy_llm.device.model import DroppedVariable, Service
from wendy_llm.device.notes import Located, Notes, dotted
from wendy_llm.wendycli import REVISION

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})

_URL = re.compile(
    r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?:[^@/?#]*@)?"
    r"(?P<host>\[[^\]]*\]|[^/:?#]*)(?::(?P<port>[0-9]*))?(?P<rest>[/?#].*)?$"
)
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?$")


@dataclass(frozen=True)
class Url:
    scheme: str
    host: str
    port: str
    rest: str


def parse_url(text: str) -> Url | None:
    """``scheme://host[:port][/rest]``, or None for anything else."""
    match = _URL.match(text.strip())
    if match is None:
        return None
    host = match["host"].strip("[]").lower()
    rest = (match["rest"] or "").rstrip("/")
    return Url(match["scheme"].lower(), host, match["port"] or "", rest)


def loopback_route(compose: str, image: str, services: Collection[str]) -> bool:
    """Is ``image`` the loopback form of ``compose``'s URL to a service of the app?"""
    a, b = parse_url(compose), parse_url(image)
    if a is None or b is None or a.host not in services or b.host not in LOOPBACK_HOSTS:
        return False
    return (a.scheme, a.port, a.rest) == (b.scheme, b.port, b.rest)


def contradicting(
    dropped: Sequence[DroppedVariable], services: Collection[str]
) -> tuple[list[DroppedVariable], set[str]]:
    """The contradictions among ``dropped``, and the names that are loopback routes."""
    contradictions, routes = [], set()
    for d in dropped:
        if d.outcome != "differs":
            continue
        if loopback_route(d.compose or "", d.image or "", services):
            routes.add(d.name)
        else:
            contradictions.append(d)
    return contradictions, routes


def report_contradictions(
    at: Located,
    service: str,
    contradictions: Sequence[DroppedVariable],
    dockerfile: str | None,
    env_lines: Mapping[str, int],
) -> None:
    """An error per contradiction, at the compose key that the device never sees."""
    for d in contradictions:
        path = ("services", service, "environment", d.name)
        line = env_lines.get(d.name)
        where = f"{dockerfile}:{line}" if line is not None else dockerfile
        at.error(
            DC.ENV_CONTRADICTS,
            f'{dotted(path)} is "{d.compose}", but the image ({where}) sets '
            f'{d.name}="{d.image}": compose environment is not sent to a device at the '
            f'Wendy CLI {REVISION}, so on a device the container runs with "{d.image}", '
            f'under Docker Compose with "{d.compose}". Set the same value in both',
            *path,
        )


def report_missing_backends(
    notes: Notes, services: Sequence[Service], env_lines: Mapping[str, Mapping[str, int]]
) -> None:
    """An error per URL in a container's ``ENV`` whose host is no service of the app."""
    names = {s.name for s in services}
    for service in services:
        build = service.build
        if build is None or not service.environment.known:
            continue
        lines = env_lines.get(service.name, {})
        for key, value in _env_values(service):
            url = parse_url(value)
            if url is None or not _is_service_name(url.host) or url.host in names:
                continue
            notes.error(
                DC.ENV_FOREIGN_HOST,
                f"ENV {key}={value} (the image of service {service.name}): {url.host} is no "
                "service of this app, so on a device the container talks to a backend that is "
                f"not there (the app's services: {', '.join(sorted(names))})",
                build.dockerfile,
                lines.get(key),
                subject=f"ENV {key}",
            )


def _env_values(service: Service) -> list[tuple[str, str]]:
    env = service.environment
    out = list(env.values.items())
    for key, by_device in env.by_device.items():
        out += [(key, v) for v in dict.fromkeys(by_device.values()) if v]
    return out


def _is_service_name(host: str) -> bool:
    """A single-label host name: what a Compose service name looks like."""
    return bool(_LABEL.match(host)) and host not in LOOPBACK_HOSTS and not host.isdigit()
