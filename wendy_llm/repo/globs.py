"""The one glob dialect of every pattern a user writes to wendy-llm.

The rules file (``gate.files``, ``file:`` assertions and references,
selector traits), ``wendy-llm diff --files`` and ``wendy-llm.toml``'s
``ignore`` all read patterns through :func:`parse_glob`, so a pattern
means the same thing wherever it is written.  The dialect is the one of
gitignore's ``**`` and of Python's ``PurePath.full_match``, applied to the
whole text (docs/rules.md, "Patterns"):

- ``/`` separates segments; a pattern matches the whole text, never a part
  (``wendy.json`` is the root one, not ``x/wendy.json``);
- ``*`` is any run of characters within one segment (never a ``/``);
- ``?`` is one character other than ``/``;
- ``[abc]``, ``[a-z]`` one character of a set, ``[!abc]`` (or ``[^abc]``)
  one outside it; a ``]`` first in the set is one of its characters;
- ``**`` as a whole segment is any number of segments, none included:
  ``**/Dockerfile``, ``vllm/**``, ``a/**/b``; anywhere else it is an error
  (``a**`` reads as a typo of ``a*`` or ``a/**``);
- ``\\`` makes the next character literal (``\\*``, ``\\[``).

Why this one: a gated file, a rendered path and a mount target are paths,
and a ``*`` that crossed ``/`` (``fnmatch``) would let ``vllm/*`` reach
every file below ``vllm``; ``**`` says so explicitly.  Names without a
``/`` (services, variables, template ids' parts) read as ``fnmatch`` would.

An invalid pattern raises :class:`GlobError` with the reason; the reader of
the file it is in adds the file and line (``file:line: ... : reason``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Glob", "GlobError", "parse_glob"]


class GlobError(ValueError):
    """A pattern that is not a glob of the dialect; ``str()`` is the reason."""


@dataclass(frozen=True)
class Glob:
    """A parsed pattern: ``text`` as written, matched against a whole text."""

    text: str
    regex: re.Pattern[str] = field(compare=False, repr=False)

    def matches(self, text: str) -> bool:
        return self.regex.fullmatch(text) is not None

    def __str__(self) -> str:
        return self.text


def parse_glob(text: str) -> Glob:
    """The :class:`Glob` written as ``text``; :class:`GlobError` says why it is not one."""
    if not text:
        raise GlobError("an empty pattern matches nothing")
    return Glob(text, re.compile(_translate(text)))


def _translate(text: str) -> str:
    out: list[str] = []
    segments = text.split("/")
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            # Any number of whole segments: "**/" may match nothing at all.
            out.append(".*" if last else "(?:[^/]*/)*")
            continue
        out.append(_segment(segment, text, last))
        if not last:
            out.append("/")
    return "".join(out)


def _segment(segment: str, text: str, last: bool) -> str:
    out: list[str] = []
    i = 0
    while i < len(segment):
        char = segment[i]
        if char == "\\":
            if i + 1 >= len(segment) and not last:
                message = f"in the pattern {text!r}, a / cannot be escaped: it separates segments"
                raise GlobError(message)
            if i + 1 >= len(segment):
                raise GlobError(f"the pattern {text!r} ends with a lone \\ (escape what?)")
            out.append(re.escape(segment[i + 1]))
            i += 2
        elif segment.startswith("**", i):
            raise GlobError(
                f"in the pattern {text!r}, ** must be a whole segment (a/**/b, **/x, x/**); "
                "use * within a segment"
            )
        elif char == "*":
            out.append("[^/]*")
            i += 1
        elif char == "?":
            out.append("[^/]")
            i += 1
        elif char == "[":
            chars, i = _char_class(segment, i, text)
            out.append(chars)
        else:
            out.append(re.escape(char))
            i += 1
    return "".join(out)


def _char_class(segment: str, start: int, text: str) -> tuple[str, int]:
    """The regex of the set opening at ``segment[start]`` and the index after it."""
    i = start + 1
    negate = i < len(segment) and segment[i] in "!^"
    i += negate
    body: list[str] = []
    while i < len(segment) and (segment[i] != "]" or not body):
        char = segment[i]
        if char == "\\" and i + 1 < len(segment):
            body.append(re.escape(segment[i + 1]))
            i += 2
            continue
        # A "-" between two members is a range (a-z); first or last, a "-".
        ranged = char == "-" and body and i + 1 < len(segment) and segment[i + 1] != "]"
        body.append("-" if ranged else re.escape(char))
        i += 1
    if i >= len(segment):
        raise GlobError(f"the pattern {text!r} opens a [set] it never closes (write \\[ for a [)")
    regex = "".join(body)
    try:
        re.compile(f"[{regex}]")
    except re.error as exc:
        raise GlobError(f"the pattern {text!r} has a bad [set]: {exc.msg}") from None
    # One character never leaves its segment, even by a range that spans "/" ([+-0]).
    return ("[^/" if negate else "(?!/)[") + regex + "]", i + 1
