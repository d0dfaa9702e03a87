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

PathKey = tuple[str | int, ...]

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class LineIndex:
    """1-based line numbers of the keys and items of one document."""

    def __init__(self, lines: Mapping[PathKey, int]) -> None:
        self._lines = dict(lines)

    @classmethod
    def of(cls, text: str) -> LineIndex:
        try:
            root = yaml.compose(text, Loader=_Loader)
        except yaml.YAMLError:
            return cls({})
        lines: dict[PathKey, int] = {}
        if root is not None:
            _walk(root, (), lines)
        return cls(lines)

    def line(self, path: Sequence[str | int]) -> int | None:
        """The line of ``path``, or of its nearest located ancestor."""
        key = tuple(path)
        while key:
            if key in self._lines:
                return self._lines[key]
            key = key[:-1]
        return self._lines.get(())


def _walk(node: yaml.Node, path: PathKey, out: dict[PathKey, int]) -> None:
    # setdefault: a key's line (recorded by the parent) beats its value's.
    out.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node)
            child = (*path, key)
            out[child] = key_node.start_mark.line + 1
            _walk(value_node, child, out)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            child = (*path, index)
            out[child] = item.start_mark.line + 1
            _walk(item, child, out)
