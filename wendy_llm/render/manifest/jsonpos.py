"""Where each value of a JSON document starts (line and column), by JSON path.

``json.loads`` returns values without positions; lints and shape errors
want to point at a line.  ``value_positions`` walks text that ``json.loads``
already accepted and records the start of every value.  Paths are tuples of
object keys (``str``) and array indices (``int``); lines and columns are
1-based, columns counted in characters like ``json.JSONDecodeError``.
"""

from __future__ import annotations

import bisect
import functools
import json
from collections.abc import Iterator, Mapping
from types import MappingProxyType

JsonPath = tuple[str | int, ...]

_WS = " \t\n\r"


def _string_end(text: str, pos: int) -> int:
    """Index just past the string literal whose opening quote is at ``pos``."""
    pos += 1
    while text[pos] != '"':
        pos += 2 if text[pos] == "\\" else 1
    return pos + 1


def format_json_path(path: JsonPath) -> str:
    """``("phases", 0, "questions", 1)`` -> ``phases[0].questions[1]``.

    Keys that are not identifiers are quoted: ``["a b"]``.
    """
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif part.isidentifier():
            out.append(f".{part}" if out else part)
        else:
            out.append(f"[{json.dumps(part)}]")
    return "".join(out)


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = [0]
        for index, ch in enumerate(text):
            if ch == "\n":
                self.line_starts.append(index + 1)
        self.positions: dict[JsonPath, tuple[int, int]] = {}

    def location(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def skip(self, pos: int) -> int:
        while pos < len(self.text) and self.text[pos] in _WS:
            pos += 1
        return pos

    def value(self, pos: int, path: JsonPath) -> int:
        pos = self.skip(pos)
        self.positions[path] = self.location(pos)
        ch = self.text[pos]
        if ch == "{":
            return self.obj(pos + 1, path)
        if ch == "[":
            return self.arr(pos + 1, path)
        if ch == '"':
            return _string_end(self.text, pos)
        end = pos
        while end < len(self.text) and self.text[end] not in _WS + ",]}":
            end += 1
        return end

    def obj(self, pos: int, path: JsonPath) -> int:
        pos = self.skip(pos)
        if self.text[pos] == "}":
            return pos + 1
        while True:
            pos = self.skip(pos)
            end = _string_end(self.text, pos)
            key = json.loads(self.text[pos:end])
            pos = end
            pos = self.skip(pos) + 1  # the colon
            pos = self.skip(self.value(pos, (*path, key)))
            if self.text[pos] == "}":
                return pos + 1
            pos += 1  # the comma

    def arr(self, pos: int, path: JsonPath) -> int:
        pos = self.skip(pos)
        if self.text[pos] == "]":
            return pos + 1
        index = 0
        while True:
            pos = self.skip(self.value(pos, (*path, index)))
            index += 1
            if self.text[pos] == "]":
                return pos + 1
            pos += 1


@functools.lru_cache(maxsize=64)
def value_positions(text: str) -> Mapping[JsonPath, tuple[int, int]]:
    """Start (line, column) of every value in ``text`` (valid JSON), by path.

    Remembered for the last 64 texts, and shared (read-only): ``check`` asks
    for the positions of a render's ``wendy.json`` in several checks, and
    most picks render the same ``wendy.json``.
    """
    scanner = _Scanner(text)
    scanner.value(0, ())
    return MappingProxyType(scanner.positions)


class LazyPositions(Mapping[JsonPath, tuple[int, int]]):
    """:func:`value_positions` of ``text``, computed on first use: most loads of a
    valid manifest never ask for a line, and the walk costs more than the load."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._found: Mapping[JsonPath, tuple[int, int]] | None = None

    def _positions(self) -> Mapping[JsonPath, tuple[int, int]]:
        if self._found is None:
            self._found = value_positions(self._text)
        return self._found

    def __getitem__(self, path: JsonPath) -> tuple[int, int]:
        return self._positions()[path]

    def __iter__(self) -> Iterator[JsonPath]:
        return iter(self._positions())

    def __len__(self) -> int:
        return len(self._positions())
