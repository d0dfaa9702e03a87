"""A build context and what ``COPY``/``ADD`` sources find in it, by BuildKit's rules.

The context is a directory of a rendered tree minus what its ``.dockerignore``
excludes (a Dockerfile's own ``<name>.dockerignore`` beside it wins over the
context's, as in BuildKit).  A source is resolved as BuildKit's copy does
(``AllowWildcard``, ``AllowEmptyWildcard``):

- it is cleaned from the context root (``../x`` is ``x``: nothing escapes);
- a plain source must exist, as a file or a directory;
- a source with a wildcard (``*``, ``?``, ``[``) is split at its first
  wildcard component: the directory part must exist; the rest is matched
  (Go's ``filepath.Match``: ``*`` never crosses ``/``) against the paths
  below it, and may match nothing at all.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection
from dataclasses import dataclass

from wendy_llm.docker.dockerignore import DockerIgnore


@dataclass(frozen=True)
class Resolved:
    """A source's matches (context-relative files or directories), or why it fails."""

    matches: tuple[str, ...] = ()
    missing: str | None = None
    wildcard: bool = False


class BuildContext:
    """The files a build sees: ``root`` of the tree, minus the ignored ones."""

    def __init__(self, paths: Collection[str], root: str, ignore: DockerIgnore) -> None:
        self.root = "" if root in ("", ".") else root.strip("/")
        prefix = f"{self.root}/" if self.root else ""
        inside = [p[len(prefix) :] for p in paths if p.startswith(prefix)]
        self.files = frozenset(p for p in inside if not ignore.excludes(p))
        # A directory is sent unless it is ignored itself, even when all its files are.
        parents = {parent for p in inside for parent in _parents(p)}
        self.dirs = frozenset(d for d in parents if d == "" or not ignore.excludes(d))

    def exists(self, rel: str) -> bool:
        return rel in self.files or rel in self.dirs

    def files_under(self, rel: str) -> list[str]:
        """The files a copy of ``rel`` takes: itself, or everything below a directory."""
        if rel in self.files:
            return [rel]
        prefix = f"{rel}/" if rel else ""
        return sorted(p for p in self.files if p.startswith(prefix))

    def resolve(self, source: str) -> Resolved:
        """What a ``COPY``/``ADD`` source names in this context."""
        rel = posixpath.normpath("/" + source).lstrip("/")
        parts = [] if rel in ("", ".") else rel.split("/")
        split = next((i for i, part in enumerate(parts) if _has_wildcard(part)), None)
        if split is None:
            if self.exists(rel if parts else ""):
                return Resolved((rel if parts else "",))
            return Resolved(missing=f"{self._shown(rel)} does not exist")
        base = "/".join(parts[:split])
        if base not in self.dirs:
            return Resolved(missing=f"directory {self._shown(base)} does not exist", wildcard=True)
        pattern = _go_match_regex("/".join(parts[split:]))
        depth = len(parts) - split
        prefix = f"{base}/" if base else ""
        candidates = {
            "/".join(path[len(prefix) :].split("/")[:depth])
            for path in (self.files | self.dirs)
            if path.startswith(prefix) and path != base
        }
        matches = sorted(
            prefix + c for c in candidates if pattern is not None and pattern.fullmatch(c)
        )
        return Resolved(tuple(matches), wildcard=True)

    def _shown(self, rel: str) -> str:
        return posixpath.join(self.root, rel) if self.root else (rel or ".")


def _parents(path: str) -> list[str]:
    parts = path.split("/")[:-1]
    return [""] + ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _has_wildcard(part: str) -> bool:
    """fsutil's ``containsWildcards``: ``*``, ``?`` or ``[``, not after a ``\\``."""
    index = 0
    while index < len(part):
        if part[index] == "\\":
            index += 2
            continue
        if part[index] in "*?[":
            return True
        index += 1
    return False


def _go_match_regex(pattern: str) -> re.Pattern[str] | None:
    """Go's ``filepath.Match`` as a regex; None for a malformed pattern (matches nothing)."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        ch = pattern[index]
        index += 1
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "\\":
            if index >= len(pattern):
                return None
            out.append(re.escape(pattern[index]))
            index += 1
        elif ch == "[":
            body = ["^"] if pattern[index : index + 1] == "^" else []
            index += len(body)
            while index < len(pattern) and pattern[index] != "]":
                if pattern[index] == "\\":
                    index += 1
                if index < len(pattern):
                    char = pattern[index]
                    body.append("-" if char == "-" else re.escape(char))
                    index += 1
            if index >= len(pattern) or body in ([], ["^"]):
                return None  # Go: ErrBadPattern, which the copy treats as no match
            out.append("[" + "".join(body) + "]")
            index += 1
        else:
            out.append(re.escape(ch))
    try:
        return re.compile("".join(out))
    except re.error:
        return None


def is_dockerfile_name(name: str) -> bool:
    """Whether a file name is a Dockerfile by the usual conventions: ``Dockerfile``,
    ``Dockerfile.<variant>``, ``<name>.Dockerfile`` or ``<name>.dockerfile``."""
    return (
        name == "Dockerfile"
        or name.startswith("Dockerfile.")
        or name.endswith((".Dockerfile", ".dockerfile"))
    )
