"""Where in a compose file Docker Compose's refusal points: the key it names.

``docker-compose config`` names what it refuses in words, rarely by line
(go-yaml's "line 12" and compose-go's "L12.C7" are read where it runs).
Its words name a key path (``services.web.ports.[0]``,
``volumes.d: conflicting parameters``) or a service (``service "web"
depends on undefined service "db"``); :func:`locate` maps them through the
same position map every other compose finding uses
(:class:`~wendy_llm.validate.documents.locate.LineIndex`, via
:class:`~wendy_llm.validate.documents.parse.Parsed`), to the key's line or its
nearest located ancestor's.  A refusal naming no key is about the file as
a whole: line 1, and the message says so (issue 37).
"""

from __future__ import annotations

import dataclasses
import re

from wendy_llm.validate.documents.parse import Parsed
from wendy_llm.validate.findings import Finding

#: A dotted key path as Compose writes it: a top-level key, then ``.key`` / ``.[0]`` / ``.0``.
_DOTTED = re.compile(
    r"\b(?P<path>(?:services|volumes|networks|configs|secrets|include|x-[\w-]+)"
    r"(?:\.(?:\[\d+\]|[\w-]+))+)"
)
#: ``service "web" ...``: the key under the service that the rest of the words name.
_SERVICE = re.compile(r'service "(?P<name>[^"]+)"(?P<rest>[^\n]*)')
_SERVICE_KEYS = (
    ("depends on", "depends_on"),
    ("undefined volume", "volumes"),
    ("undefined network", "networks"),
    ("undefined config", "configs"),
    ("undefined secret", "secrets"),
    ("cannot extend", "extends"),
    ("neither an image nor a build", ""),
)
#: A value Compose names without its key (``invalid hostPort: 99999``, a file it
#: cannot open): the first line holding it.
_VALUES = (
    re.compile(r"\binvalid \w+: (?P<value>\S+)"),
    re.compile(r"\bopen (?P<value>[^\s:]+): no such file"),
    re.compile(r"\benv file (?P<value>\S+) not found"),
)
WHOLE_FILE = "line 1: Compose names no key, so this is about the file as a whole"


def key_path(message: str) -> tuple[str | int, ...] | None:
    """The key path Compose's ``message`` names (None: it names none)."""
    dotted = _DOTTED.search(message)
    if dotted is not None:
        parts = dotted.group("path").split(".")
        return tuple(int(p.strip("[]")) if p.strip("[]").isdigit() else p for p in parts)
    service = _SERVICE.search(message)
    if service is not None:
        name, rest = service.group("name"), service.group("rest")
        if message[: service.start()].rstrip().endswith("cannot extend"):
            rest = "cannot extend"
        key = next((k for words, k in _SERVICE_KEYS if words in rest), "")
        return ("services", name, key) if key else ("services", name)
    return None


def locate(found: Finding, parsed: Parsed, text: str) -> Finding:
    """``found`` (a Compose refusal of ``parsed``, whose text is ``text``) at a line."""
    if found.line is not None or found.severity != "error":
        return found
    path = key_path(found.message)
    line = parsed.line(*path) if path else None
    values = [m.group("value") for m in (p.search(found.message) for p in _VALUES) if m]
    for value in values if line is None else ():
        rows = enumerate(text.splitlines(), 1)
        line = next((n for n, row in rows if value in row), None)
    if line is not None:
        return dataclasses.replace(found, line=line)
    return dataclasses.replace(found, line=1, message=f"{found.message} ({WHOLE_FILE})")
