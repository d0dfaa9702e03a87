"""``.dockerignore``: which files of a build context BuildKit never sends.

A port of ``github.com/moby/patternmatcher`` (``ignorefile.ReadAll`` and
``MatchesOrParentMatches``), which BuildKit uses:

- a line starting with ``#`` is a comment; lines are trimmed; empty lines
  are skipped; a UTF-8 BOM on the first line is dropped;
- ``!pattern`` re-includes what an earlier pattern excluded; the last
  matching pattern wins;
- a pattern is cleaned like a path (``./a/`` is ``a``, a leading ``/`` is
  dropped) and matched against the whole path relative to the context:
  ``*`` and ``?`` never cross ``/``, ``**`` spans any number of directories,
  ``[...]`` is a character class and ``\\`` escapes the next character;
- a pattern that matches a directory excludes everything under it;
- a malformed pattern (an unclosed ``[``) or a lone ``!`` fails the build.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from wendy_llm.errors import WendyLlmError, quoted

# Regexp characters that have no meaning in a Go filepath.Match pattern.
_ESCAPED = set(".+()|{}$")


class DockerIgnoreError(WendyLlmError):
    """A ``.dockerignore`` BuildKit refuses (the build fails before any step)."""


@dataclass(frozen=True)
class _Pattern:
    regex: re.Pattern[str]
    exclusion: bool  # a ``!`` line


class DockerIgnore:
    """The patterns of one ``.dockerignore`` file (:class:`DockerIgnoreError` if malformed)."""

    def __init__(self, text: str = "") -> None:
        self.patterns = tuple(_compile(p) for p in read_patterns(text))

    def excludes(self, path: str) -> bool:
        """True when ``path`` (relative to the context) is not sent to the builder."""
        parents = posixpath.dirname(path).split("/") if "/" in path else []
        matched = False
        for pattern in self.patterns:
            # An inclusion cannot change an excluded path, nor an exception a kept one.
            if pattern.exclusion != matched:
                continue
            match = bool(pattern.regex.match(path)) or any(
                pattern.regex.match("/".join(parents[: i + 1])) for i in range(len(parents))
            )
            if match:
                matched = not pattern.exclusion
        return matched


def read_patterns(text: str) -> list[str]:
    """The patterns of a ``.dockerignore`` file, cleaned as BuildKit cleans them."""
    patterns = []
    for index, raw in enumerate(text.splitlines()):
        line = raw.removeprefix("\ufeff") if index == 0 else raw
        if line.startswith("#"):
            continue
        line = line.strip()
        if not line:
            continue
        invert = line.startswith("!")
        if invert:
            line = line[1:].strip()
        if line:
            line = posixpath.normpath(line)
            if len(line) > 1 and line.startswith("/"):
                line = line[1:]
        patterns.append(("!" if invert else "") + line)
    return patterns


def _compile(pattern: str) -> _Pattern:
    exclusion = pattern.startswith("!")
    text = pattern[1:] if exclusion else pattern
    if exclusion and not text:
        raise DockerIgnoreError('illegal exclusion pattern: "!"')
    out = ["^"]
    index = 0
    while index < len(text):
        ch = text[index]
        index += 1
        if ch == "*":
            if text[index : index + 1] == "*":
                index += 1
                if text[index : index + 1] == "/":
                    index += 1  # ``**/`` is ``**``
                out.append(".*" if index >= len(text) else "(.*/)?")
            else:
                out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch in _ESCAPED:
            out.append("\\" + ch)
        elif ch == "\\":
            if index < len(text):
                out.append(re.escape(text[index]))
                index += 1
            else:
                out.append("\\\\")
        else:
            out.append(ch)
    out.append("$")
    try:
        regex = re.compile("".join(out))
    except re.error:
        raise DockerIgnoreError(f"syntax error in pattern {quoted(pattern)}") from None
    return _Pattern(regex, exclusion)
