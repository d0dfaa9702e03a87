"""The device view of a small compose file, and the one finding a device
fact test expects in it."""

from __future__ import annotations

from wendy_llm.device import DeviceFinding, DeviceView
from wendy_llm.validate.checks.device import build_view

COMPOSE = "docker-compose.yml"
DOCKERFILE = 'FROM ubuntu:24.04\nENV GREETING=hello\nENTRYPOINT ["/run.sh"]\n'


def view(compose: str, files: dict[str, str] | None = None, project: str = "demo") -> DeviceView:
    tree = {COMPOSE: compose.encode()}
    tree.update({path: text.encode() for path, text in (files or {}).items()})
    return build_view(tree, project)


def only(found: DeviceView, severity: str, *words: str) -> DeviceFinding:
    """The one finding of ``severity`` whose message holds every word."""
    matches = [
        f for f in found.findings if f.severity == severity and all(w in f.message for w in words)
    ]
    assert len(matches) == 1, found.findings
    return matches[0]
