"""A YAML reader that refuses hostile shapes with a parse error, never a crash.

PyYAML's composer and every walker after it recurse per level of nesting; a
YAML anchor that contains itself (``&x [*x]``) made them recurse forever,
and nine levels of nine aliases expand to 9**9 nodes. Refused, as
``yaml.MarkedYAMLError`` errors pointing at the offending node: nesting
deeper than :data:`~wendy_llm.options.MAX_DOCUMENT_DEPTH`; an anchor used
inside its own value (go-yaml, as Docker Compose and the Wendy CLI use it,
refuses it too); aliases expanding past
:data:`~wendy_llm.options.MAX_YAML_NODES` nodes (go-yaml's "excessive
aliasing"). :func:`yaml_problem` words any YAML error with its line.

Nodes are counted while the document is composed (every node and alias an
event makes), so a rendered value of a million items stops at the limit
instead of being composed whole first: libyaml still scans and parses (in
C), the composing is :class:`CountingComposer`'s.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from wendy_llm import options

#: PyYAML's safe loader, in C (libyaml) when PyYAML was built with it: several
#: times faster on the renders' compose and rules files.
FAST_SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_DEPTH = options.MAX_DOCUMENT_DEPTH
MAX_YAML_NODES = options.MAX_YAML_NODES


class CountingComposer(yaml.composer.Composer):
    """PyYAML's composer, stopping once the document has more than
    :data:`MAX_YAML_NODES` nodes (aliases count as one each here; their
    expansion is :func:`check_yaml_node`'s)."""

    _composed = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self._composed += 1
        if self._composed > MAX_YAML_NODES:
            event = self.peek_event()  # type: ignore[attr-defined]  # the parser's
            raise yaml.MarkedYAMLError(
                problem=f"the document has more than {MAX_YAML_NODES} nodes",
                problem_mark=event.start_mark,
            )
        return super().compose_node(parent, index)


_COUNTING: dict[type[yaml.SafeLoader], type[yaml.SafeLoader]] = {}


def counting(loader: type[yaml.SafeLoader]) -> type[yaml.SafeLoader]:
    """``loader`` composing with :class:`CountingComposer` (its parser, libyaml's
    when it is one, still makes the events)."""
    made = _COUNTING.get(loader)
    if made is None:

        def __init__(self: yaml.SafeLoader, stream: str) -> None:
            loader.__init__(self, stream)  # not the composer's: it takes no stream
            self.anchors = {}  # the composer's state, which libyaml's parser lacks

        made = type(
            f"Counting{loader.__name__}", (CountingComposer, loader), {"__init__": __init__}
        )
        _COUNTING[loader] = made
    return made


def _problem(message: str, node: yaml.Node) -> yaml.MarkedYAMLError:
    return yaml.MarkedYAMLError(problem=message, problem_mark=node.start_mark)


_ANCHOR = re.compile(r"&([^\s,\[\]{}]+)")


def _anchor_of(node: yaml.Node, text: str) -> str:
    """``the anchor &name`` (read at the node's start: nodes forget their anchor)."""
    found = _ANCHOR.match(text, node.start_mark.index) if text else None
    return f"the anchor &{found.group(1)}" if found else "an anchor"


def check_yaml_node(root: yaml.Node, text: str = "") -> None:
    """Raise ``yaml.MarkedYAMLError`` for a node graph too deep, self-containing or too big
    (``text``, the document, names a self-containing anchor).

    Iterative, and linear in the number of distinct nodes: an alias is the
    very node object its anchor made, so expanded sizes are summed, not walked.
    """
    sizes: dict[int, int] = {}  # id(node) -> expanded node count, once finished
    on_path: set[int] = set()
    # (node, depth, children entered?) — a manual stack instead of recursion.
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, entered = stack.pop()
        children = _children(node)
        if entered:
            on_path.discard(id(node))
            sizes[id(node)] = 1 + sum(sizes[id(child)] for child in children)
            if sizes[id(node)] > MAX_YAML_NODES:
                raise _problem(
                    f"the document's aliases expand it to more than {MAX_YAML_NODES} nodes",
                    node,
                )
            continue
        if id(node) in sizes:
            continue  # an alias of a finished node
        if depth > MAX_DEPTH:
            raise _problem(f"nested deeper than {MAX_DEPTH} levels", node)
        on_path.add(id(node))
        stack.append((node, depth, True))
        for child in children:
            if id(child) in on_path:
                raise _problem(f"{_anchor_of(child, text)} contains itself", child)
            if id(child) not in sizes:
                stack.append((child, depth + 1, False))


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def yaml_problem(exc: yaml.YAMLError) -> tuple[str, int | None]:
    """What a YAML error says and its 1-based line (None when it has no mark)."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(p for p in (exc.context, exc.problem) if p) or str(exc)
        return problem, None if mark is None else mark.line + 1
    return str(exc), None


def yaml_load(text: str, loader: type[yaml.SafeLoader]) -> Any:
    """The single document in ``text`` read with ``loader`` (a safe loader class).

    Raises ``yaml.YAMLError`` for syntax errors and for the shapes above.
    """
    reader = counting(loader)(text)
    try:
        try:
            root = reader.get_single_node()
        except RecursionError:  # the composer recurses per level of nesting
            raise yaml.YAMLError(f"nested deeper than {MAX_DEPTH} levels") from None
        if root is None:
            return None
        check_yaml_node(root, text)
        return reader.construct_document(root)
    finally:
        reader.dispose()
