"""A compose file as go-yaml v3 (the Wendy CLI's decoder) reads it: a tree of raw nodes.

The CLI keeps ``build``, ``command`` and ``depends_on`` as raw ``yaml.Node``
values, so the view needs nodes, not Python values: their kind (an alias
stays an alias, numbered as go-yaml numbers kinds), their tag and their
text (``null`` is the text "null").  Built from libyaml's events (go-yaml
v3 is a port of libyaml), with go-yaml's rules: only the first document
is read; an alias to an unknown anchor, or inside its own anchor's value,
fails; a mapping key repeated in one mapping fails the load as
``mapping key "a" already defined at line N`` (the facts: anywhere in the
file).  Decoding a node into a Go string or string list (:func:`text`,
:func:`strings`) follows go-yaml's: an int/float/bool scalar is its text, a
null is Go's zero value, an alias is followed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

import yaml

from wendy_llm import options
from wendy_llm.bounded_yaml import FAST_SAFE_LOADER

# go-yaml's Kind values (yaml.v3 node.go).
DOCUMENT: Final = 1
SEQUENCE: Final = 2
MAPPING: Final = 4
SCALAR: Final = 8
ALIAS: Final = 16
KIND_NAMES: Final = {SEQUENCE: "sequence", MAPPING: "mapping", SCALAR: "scalar", ALIAS: "alias"}
# Plain scalars go-yaml resolves to null (YAML 1.2 core schema).
_NULLS: Final = frozenset(("", "~", "null", "Null", "NULL"))
_MERGE: Final = "<<"
_NULL_TAGS: Final = ("tag:yaml.org,2002:null", "!!null")
_STR_TAGS: Final = ("tag:yaml.org,2002:str", "!!str")
_MAP_TAG: Final = "!!map"
_SEQ_TAG: Final = "!!seq"
_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(
    r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"
)


@dataclass(eq=False)
class Node:
    """One go-yaml node: kind, tag, text (a scalar's value, an alias's anchor), children."""

    kind: int
    tag: str
    value: str
    line: int  # 1-based, as go-yaml counts
    quoted: bool = False  # a quoted or block scalar: always a string
    content: list[Node] = field(default_factory=list)
    target: Node | None = None  # an alias's anchored node

    @property
    def is_null(self) -> bool:
        """A null scalar (decoding it into a string leaves Go's empty string)."""
        node = resolve(self)
        if node.kind != SCALAR or node.quoted:
            return False
        return node.tag in _NULL_TAGS or (node.tag == "" and node.value in _NULLS)

    def short_tag(self) -> str:
        """The tag as go-yaml's ``ShortTag`` shows it in decode errors (``!!seq``)."""
        node = resolve(self)
        if node.tag:
            return node.tag.replace("tag:yaml.org,2002:", "!!")
        if node.kind == MAPPING:
            return _MAP_TAG
        if node.kind == SEQUENCE:
            return _SEQ_TAG
        if node.quoted:
            return "!!str"
        if node.value in _NULLS:
            return "!!null"
        if node.value in ("true", "True", "TRUE", "false", "False", "FALSE"):
            return "!!bool"
        if _INT.fullmatch(node.value):
            return "!!int"
        return "!!float" if _FLOAT.fullmatch(node.value) else "!!str"

    def pairs(self) -> Iterator[tuple[Node, Node]]:
        """A mapping's key/value pairs, in file order."""
        for index in range(0, len(self.content) - 1, 2):
            yield self.content[index], self.content[index + 1]


class LoadError(Exception):
    """The file does not load: go-yaml's message and the line it names."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def resolve(node: Node) -> Node:
    """An alias's anchored node (go-yaml follows aliases when decoding into a value)."""
    while node.kind == ALIAS and node.target is not None:
        node = node.target
    return node


def load(text: str) -> Node | None:
    """The first document's root node (None for an empty file); raises :class:`LoadError`."""
    try:
        root = _compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(p for p in (exc.context, exc.problem) if p) or str(exc)
        raise LoadError(f"yaml: {problem}", None if mark is None else mark.line + 1) from None
    except yaml.YAMLError as exc:
        raise LoadError(f"yaml: {exc}", None) from None
    if root is not None:
        _no_duplicate_keys(root)
    return root


def _compose(text: str) -> Node | None:
    anchors: dict[str, Node] = {}
    open_anchors: set[str] = set()
    stack: list[tuple[Node, str | None]] = []
    root: Node | None = None
    count = 0
    loader = FAST_SAFE_LOADER(text)
    try:
        while True:
            event = loader.get_event()  # type: ignore[no-untyped-call]
            if isinstance(event, yaml.DocumentEndEvent | yaml.StreamEndEvent):
                return root  # only the first document is read
            line = event.start_mark.line + 1
            node: Node | None = None
            if isinstance(event, yaml.AliasEvent):
                name = str(event.anchor)
                if name not in anchors:
                    raise LoadError(f"yaml: unknown anchor '{name}' referenced", line)
                if name in open_anchors:
                    raise LoadError(f"yaml: anchor '{name}' value contains itself", line)
                node = Node(ALIAS, "", name, line, target=anchors[name])
            elif isinstance(event, yaml.ScalarEvent):
                tag = "" if event.tag in (None, "!") else str(event.tag)
                quoted = event.style is not None and event.style != ""
                node = Node(SCALAR, tag, str(event.value), line, quoted=quoted)
                if event.anchor:
                    anchors[str(event.anchor)] = node
            elif isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
                kind = SEQUENCE if isinstance(event, yaml.SequenceStartEvent) else MAPPING
                opened = Node(kind, "" if event.tag in (None, "!") else str(event.tag), "", line)
                anchor = str(event.anchor) if event.anchor else None
                if anchor is not None:
                    anchors[anchor] = opened
                    open_anchors.add(anchor)
                if len(stack) >= options.MAX_DOCUMENT_DEPTH:
                    raise LoadError(f"yaml: nested deeper than {options.MAX_DOCUMENT_DEPTH}", line)
                stack.append((opened, anchor))
                continue
            elif isinstance(event, yaml.SequenceEndEvent | yaml.MappingEndEvent):
                node, anchor = stack.pop()
                open_anchors.discard(anchor or "")
            else:
                continue  # stream and document starts
            count += 1
            if count > options.MAX_YAML_NODES:
                raise LoadError(f"yaml: more than {options.MAX_YAML_NODES} nodes", line)
            if stack:
                stack[-1][0].content.append(node)
            else:
                root = node
    finally:
        loader.dispose()


def _no_duplicate_keys(root: Node) -> None:
    """go-yaml's ``mapping key "a" already defined at line N``, for the first repeat."""
    todo = [root]
    while todo:
        node = todo.pop()
        if node.kind == MAPPING:
            seen: dict[tuple[int, str], Node] = {}
            for key, _ in node.pairs():
                if key.kind == SCALAR and key.value == _MERGE and not key.quoted:
                    continue
                first = seen.setdefault((key.kind, key.value), key)
                if first is not key:
                    raise LoadError(
                        f'mapping key "{key.value}" already defined at line {first.line}',
                        key.line,
                    )
        todo.extend(reversed(node.content))


def kind_name(node: Node) -> str:
    return KIND_NAMES.get(node.kind, "document")


def text(node: Node) -> str | None:
    """``node`` decoded into a Go string: a scalar's text ("" for a null); None when it is
    a mapping or sequence (go-yaml's "cannot unmarshal" error)."""
    node = resolve(node)
    if node.kind != SCALAR:
        return None
    return "" if node.is_null else node.value


def strings(node: Node) -> tuple[list[str], list[Node]]:
    """``node`` decoded into a Go ``[]string``: the items that decode (null items are
    dropped), and the items that do not (go-yaml's errors; the caller decides)."""
    node = resolve(node)
    if node.kind != SEQUENCE:
        return [], [node] if not node.is_null else []
    out: list[str] = []
    bad: list[Node] = []
    for item in node.content:
        if resolve(item).is_null:
            continue
        value = text(item)
        if value is None:
            bad.append(item)
        else:
            out.append(value)
    return out, bad


def mapping_items(node: Node) -> list[tuple[str, Node, int]]:
    """A mapping decoded into a struct or map: (key text, value, key line), merge keys
    (``<<: *x``) expanded first so that keys written here win."""
    return _mapping_items(node, {})


def _mapping_items(
    node: Node, memo: dict[int, list[tuple[str, Node, int]]]
) -> list[tuple[str, Node, int]]:
    # memo: each anchored mapping is expanded once, however often it is merged
    # (nested merges of merges would otherwise grow exponentially).
    node = resolve(node)
    done = memo.get(id(node))
    if done is not None:
        return done
    explicit: dict[str, tuple[str, Node, int]] = {}
    merged: dict[str, tuple[str, Node, int]] = {}
    for key, value in node.pairs():
        name = text(key)
        if key.kind == SCALAR and key.value == _MERGE and not key.quoted:
            sources = resolve(value).content if resolve(value).kind == SEQUENCE else [value]
            for source in sources:
                if resolve(source).kind == MAPPING:
                    for item in _mapping_items(source, memo):
                        merged.setdefault(item[0], item)
            continue
        if name is not None:
            explicit[name] = (name, value, key.line)
    items = [*(v for k, v in merged.items() if k not in explicit), *explicit.values()]
    memo[id(node)] = items
    return items
