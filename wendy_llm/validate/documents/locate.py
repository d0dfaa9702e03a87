"""Line numbers for paths inside YAML and JSON documents.

Parsers hand back plain dicts and lists, which have forgotten where each
key was.  Findings should say ``docker-compose.yml:14``, so this module
composes the same text into PyYAML's node graph (which keeps marks) and
indexes every key path by its line.  JSON is (for every document a
template renders) valid YAML, so the same index serves ``wendy.json``.
Locating is best effort: text that does not compose gives an empty index
and findings simply carry no line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import yaml

from wendy_llm.bounded_yaml import FAST_SAFE_LOADER

PathKey = tuple[str | int, ...]


class LineIndex:
    """1-based line numbers of the keys and items of one document."""

    def __init__(self, lines: Mapping[PathKey, int]) -> None:
        self._lines = dict(lines)

    @classmethod
    def of(cls, text: str) -> LineIndex:
        try:
            root = yaml.compose(text, Loader=FAST_SAFE_LOADER)
        except yaml.YAMLError:
            return cls({})
        lines: dict[PathKey, int] = {}
        if root is not None:
            _walk(root, lines)
        return cls(lines)

    def line(self, path: Sequence[str | int]) -> int | None:
        """The line of ``path``, or of its nearest located ancestor."""
        key = tuple(path)
        while key:
            if key in self._lines:
                return self._lines[key]
            key = key[:-1]
        return self._lines.get(())


def _walk(root: yaml.Node, out: dict[PathKey, int]) -> None:
    """Record the line of every path, walking each node once.

    Iterative, and an alias (the very node its anchor made) is entered only
    the first time: deep documents, self-containing anchors and alias bombs
    cost one step per node instead of a crash or an exponential walk.
    """
    out.setdefault((), root.start_mark.line + 1)
    entered = {id(root)}
    stack: list[tuple[yaml.Node, PathKey]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, yaml.MappingNode):
            pairs = [
                (key.value if isinstance(key, yaml.ScalarNode) else str(key), key, value)
                for key, value in node.value
            ]
        elif isinstance(node, yaml.SequenceNode):
            pairs = [(index, item, item) for index, item in enumerate(node.value)]
        else:
            continue
        unseen: list[tuple[yaml.Node, PathKey]] = []
        for key, marker, child in pairs:
            child_path = (*path, key)
            # A key's line (recorded by the parent) beats its value's; of
            # repeated keys, the last one's, as the parsed data keeps it.
            out[child_path] = marker.start_mark.line + 1
            if id(child) not in entered:
                entered.add(id(child))
                unseen.append((child, child_path))
        stack.extend(reversed(unseen))
