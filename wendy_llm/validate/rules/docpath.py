"""Paths into parsed documents, as the rules file writes them.

``compose.services.open-webui.environment.OPENAI_API_BASE_URL``: the first
segment names a document (``compose``, ``wendy``, or one the rules file
declares), the rest walk into it.  Segments are separated by dots:

- ``name``: a mapping key (any characters but ``.``, ``[``, ``]``);
- ``*``: every value of a mapping or every item of a list;
- ``[N]``: list item N; ``[*]``: every list item;
- ``["any key"]`` or ``['any key']``: a key holding dots or brackets;
- ``@name``: every key of a mapping that names what the rules file's
  selector ``name`` selects (a service, or a volume's key): so
  ``compose.services.@vllm.environment`` is the environment of whichever
  service *is* vLLM, whatever it is called (quote a key that really starts
  with ``@``: ``["@x"]``).

``${VAR}`` inside a key is replaced by the pick's value of ``VAR`` *after*
the path is split, so an app id with a dot cannot change the path's shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from wendy_llm.errors import quoted
from wendy_llm.validate.documents.locate import PathKey

WILDCARD = "*"
SELECTOR = "@"
_SELECTOR_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class PathSyntaxError(ValueError):
    """The path text is not a valid document path."""


@dataclass(frozen=True)
class DocPath:
    """A parsed path: the document name and the segments after it."""

    text: str
    document: str
    segments: tuple[str | int, ...]  # str keys (may hold ${VAR}), int indexes, or "*"
    wildcard_keys: frozenset[int]  # positions whose "*" is a wildcard, not a key "*"
    selector_keys: frozenset[int] = field(default=frozenset())  # positions of ``@name``

    @property
    def selectors(self) -> tuple[str, ...]:
        """The selector names the path uses (``@name`` segments), in order."""
        return tuple(str(self.segments[i]) for i in sorted(self.selector_keys))

    def substitute(self, resolve: Callable[[str], str]) -> DocPath:
        """This path with ``${VAR}`` in keys replaced by ``resolve(text)``."""
        fixed = self.wildcard_keys | self.selector_keys
        segments = tuple(
            resolve(s) if isinstance(s, str) and i not in fixed else s
            for i, s in enumerate(self.segments)
        )
        return DocPath(self.text, self.document, segments, self.wildcard_keys, self.selector_keys)

    def prefix(self, depth: int) -> DocPath:
        """The path cut to its first ``depth`` segments."""
        return DocPath(
            self.text, self.document, self.segments[:depth], self.wildcard_keys, self.selector_keys
        )


_TOKEN = re.compile(
    r"""\[(?P<index>[0-9]+|\*)\]"""
    r"""|\[(?P<q>["'])(?P<quoted>.*?)(?P=q)\]"""
    r"""|(?P<dot>\.)"""
    r"""|(?P<plain>(?:\$\{[^}]*\}|[^.\[\]$]|\$(?!\{))+)"""
)


def parse_path(text: str) -> DocPath:
    """Parse ``text``; raises :class:`PathSyntaxError` with the reason."""
    segments: list[str | int] = []
    wildcards: set[int] = set()
    selectors: set[int] = set()
    position = 0
    expect_segment = True
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise PathSyntaxError(f"unexpected {quoted(text[position])} at position {position + 1}")
        position = match.end()
        if match.group("dot") is not None:
            if expect_segment:
                raise PathSyntaxError(f"empty segment before position {position}")
            expect_segment = True
            continue
        if match.group("plain") is not None:
            if not expect_segment:
                raise PathSyntaxError(f'missing "." before {quoted(match.group("plain"))}')
            plain = match.group("plain")
            if plain == WILDCARD:
                wildcards.add(len(segments))
            elif plain.startswith(SELECTOR):
                if not _SELECTOR_NAME.fullmatch(plain[1:]):
                    raise PathSyntaxError(f"{quoted(plain)} is not a selector name")
                selectors.add(len(segments))
                plain = plain[1:]
            segments.append(plain)
        elif match.group("index") is not None:
            index = match.group("index")
            if index == WILDCARD:
                wildcards.add(len(segments))
                segments.append(WILDCARD)
            else:
                segments.append(int(index))
        else:
            segments.append(match.group("quoted"))
        expect_segment = False
    if expect_segment:
        raise PathSyntaxError('the path is empty or ends with "."')
    head = segments[0]
    if not isinstance(head, str) or 0 in wildcards or 0 in selectors:
        raise PathSyntaxError("a path starts with a document name")
    return DocPath(
        text,
        head,
        tuple(segments[1:]),
        frozenset(i - 1 for i in wildcards if i),
        frozenset(i - 1 for i in selectors if i),
    )


@dataclass(frozen=True)
class Match:
    """One value a path reached, and the concrete key path to it."""

    keys: PathKey
    value: object


#: Selector name -> the keys it selects (service names, volume keys).
Selections = Mapping[str, Collection[str]]


def resolve(path: DocPath, document: object, selections: Selections | None = None) -> list[Match]:
    """Every value ``path`` reaches in ``document`` (none when it reaches nothing).

    ``selections`` gives the keys each ``@name`` segment stands for; a
    path with such a segment needs it (``KeyError`` names the selector).
    """
    current = [Match((), document)]
    for position, segment in enumerate(path.segments):
        step: list[Match] = []
        for match in current:
            value = match.value
            if position in path.selector_keys:
                chosen = (selections or {})[str(segment)]
                if isinstance(value, Mapping):
                    step += [
                        Match((*match.keys, str(k)), v)
                        for k, v in value.items()
                        if str(k) in chosen
                    ]
            elif position in path.wildcard_keys:
                if isinstance(value, Mapping):
                    step += [Match((*match.keys, str(k)), v) for k, v in value.items()]
                elif isinstance(value, list):
                    step += [Match((*match.keys, i), v) for i, v in enumerate(value)]
            elif isinstance(segment, int):
                if isinstance(value, list) and 0 <= segment < len(value):
                    step.append(Match((*match.keys, segment), value[segment]))
            elif isinstance(value, Mapping):
                for key, item in value.items():
                    # YAML may have typed a key (8080:, true:); paths are text.
                    if str(key) == segment:
                        step.append(Match((*match.keys, segment), item))
                        break
        current = step
    return current
