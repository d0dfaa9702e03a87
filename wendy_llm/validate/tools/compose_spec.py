"""Which values of a compose file name a file: read from the Compose specification.

``docker-compose config`` reads every file a compose file names (an
``env_file``, a ``label_file``, an ``include``, ...); the gate must judge
each before Compose runs (:mod:`wendy_llm.validate.checks.confined`).  A
list of such keys written by hand trails the specification (``label_file``
slipped through one), so the keys are read from the specification's JSON
schema itself, as the very ``docker-compose`` binary the gate runs embeds
it (compose-go's ``compose_spec.json``): whatever that Compose reads, the
gate judges.

A key names a file when its name says so (``file``, ``path``,
``context``, ``contexts``, ``dockerfile``, ``directory``, alone or after an
underscore: ``env_file``, ``label_file``, ``additional_contexts``,
``project_directory``) or its description does ("Path to ...", "The file
path ...", "files containing ..."); a string form stands for the object
form's first key when the object form requires none (``include: [x.yml]``
is ``include: [{path: x.yml}]``; ``extends: web`` names a service, not a
file).  Keys that name a device of the machine the app runs on
(:data:`DEVICE_PATHS`) keep that meaning and are not judged: Compose never
reads them.
"""

from __future__ import annotations

import functools
import json
import mmap
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from wendy_llm.errors import ValidatorToolError
from wendy_llm.validate.tools.programs import find_tool

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Any

#: How the embedded schema starts (compose-go's ``schema/compose-spec.json``).
SCHEMA_MARK = b'"$id": "compose_spec.json"'
#: The most of the binary read as the schema from its opening brace (it is ~100 kB).
_SCHEMA_WINDOW = 4 << 20
_PATH_NAME = re.compile(r"(?:^|_)(?:file|path|context|contexts|dockerfile|directory)$")
_PATH_WORDS = re.compile(r"^path to\b|\bfile path\b|\bfiles? containing\b", re.IGNORECASE)
#: Definitions (``$defs``) whose ``path`` is a device of the machine the app
#: runs on (``/dev/sda``): the engine opens it when the container starts,
#: Compose never reads it, and an absolute path is its meaning.
DEVICE_PATHS = frozenset({"blkio_limit", "blkio_weight"})


@functools.cache
def compose_schema(binary: Path | None = None) -> Mapping[str, Any]:
    """The Compose specification's JSON schema ``binary`` (default: the installed
    ``docker-compose``) embeds; :class:`ValidatorToolError` when it holds none, so
    the gate never judges a compose file without knowing which keys name files."""
    binary = binary if binary is not None else find_tool("docker-compose")
    try:
        with (
            open(binary, "rb") as handle,
            mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data,
        ):
            mark = data.find(SCHEMA_MARK)
            start = data.rfind(b"{", 0, mark) if mark >= 0 else -1
            text = (
                data[start : start + _SCHEMA_WINDOW].decode("utf-8", "replace")
                if start >= 0
                else ""
            )
    except OSError as exc:
        raise ValidatorToolError(f"{binary}: cannot read it: {exc.strerror}") from exc
    try:
        schema, _ = json.JSONDecoder().raw_decode(text)
    except ValueError:
        schema = None
    if not isinstance(schema, dict) or "$defs" not in schema:
        raise ValidatorToolError(
            f"{binary}: no Compose specification schema found in it (looked for "
            f"{SCHEMA_MARK.decode()}): the gate cannot tell which compose keys name a "
            "file, so it does not run Compose"
        )
    return schema


@dataclass(frozen=True, eq=False)  # one node per place (expand keeps them): hashed by identity
class Node:
    """A place in the schema: its subschemas merged through ``$ref``, ``allOf``
    and the alternatives of ``oneOf``/``anyOf``.  ``own`` are the parts that
    describe the key itself (not one of its alternative forms); ``owner`` is
    the ``$defs`` entry it is in (for :data:`DEVICE_PATHS`)."""

    parts: tuple[Mapping[str, Any], ...]
    own: tuple[Mapping[str, Any], ...]
    owner: str = ""

    @functools.cache  # noqa: B019 (nodes live as long as the schema: the process)
    def child(self, key: str) -> tuple[Node, bool] | None:
        """The schema of ``key`` in an object here, and whether it is declared by name
        (False: a free key, matched by a pattern or ``additionalProperties``)."""
        for part in self.parts:
            declared = part.get("properties", {})
            if key in declared:
                return self._at(declared[key]), True
        for part in self.parts:
            for pattern, sub in part.get("patternProperties", {}).items():
                if re.search(pattern, key):
                    return self._at(sub), False
            extra = part.get("additionalProperties")
            if isinstance(extra, dict):
                return self._at(extra), False
        return None

    def items(self) -> Node | None:
        found = [part["items"] for part in self.parts if isinstance(part.get("items"), dict)]
        return self._at(*found) if found else None

    @functools.cache  # noqa: B019 (as child)
    def string_is_path(self) -> bool:
        """Whether a string here names a file: its own description says so, or it is
        the short form of an object whose first key does and which requires none."""
        if self.owner in DEVICE_PATHS:
            return False
        for part in self.parts:
            if part.get("type") == "string" and _PATH_WORDS.search(
                str(part.get("description", ""))
            ):
                return True
        objects = [p for p in self.parts if p.get("type") == "object" and p.get("properties")]
        strings = any(part.get("type") == "string" for part in self.parts)
        if not objects or not strings or any(p.get("required") for p in objects):
            return False
        first, sub = next(iter(objects[0]["properties"].items()))
        return names_a_file(first, self._at(sub))

    def may_be_boolean(self) -> bool:
        for part in self.own:
            kinds = part.get("type")
            if kinds == "boolean" or (isinstance(kinds, list) and "boolean" in kinds):
                return True
        return False

    def _at(self, *subs: Mapping[str, Any]) -> Node:
        return expand(subs, self.owner)


#: Nodes already expanded, by the identity of their subschemas (parts of the one
#: schema :func:`compose_schema` keeps for the process, so identities are stable):
#: every compose file of a run walks the same few nodes.
_EXPANDED: dict[tuple[tuple[int, ...], str], Node] = {}


def expand(subs: tuple[Mapping[str, Any], ...], owner: str) -> Node:
    """The node of ``subs``: each ``$ref`` followed (its ``$defs`` name becomes the
    owner), ``allOf``/``oneOf``/``anyOf`` flattened; the parts reached without an
    alternative are the node's own."""
    key = (tuple(id(sub) for sub in subs), owner)
    node = _EXPANDED.get(key)
    if node is None:
        node = _EXPANDED.setdefault(key, _expand(subs, owner))
    return node


def _expand(subs: tuple[Mapping[str, Any], ...], owner: str) -> Node:
    defs = compose_schema()["$defs"]
    parts: list[Mapping[str, Any]] = []
    own: list[Mapping[str, Any]] = []
    pending = [(sub, True) for sub in subs]
    while pending and len(parts) < 256:  # the schema is finite, and so is this walk
        sub, is_own = pending.pop(0)
        if not isinstance(sub, Mapping):
            continue
        ref = sub.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            owner = ref.removeprefix("#/$defs/")
            pending.append((defs.get(owner, {}), is_own))
        parts.append(sub)
        if is_own:
            own.append(sub)
        pending += [(alt, is_own) for alt in sub.get("allOf", ())]
        for keyword in ("oneOf", "anyOf"):
            pending += [(alt, False) for alt in sub.get(keyword, ())]
    return Node(tuple(parts), tuple(own), owner)


def root_node() -> Node:
    return expand((compose_schema(),), "")


@functools.cache
def names_a_file(key: str, node: Node) -> bool:
    """Whether the key ``key`` (schema ``node``) names a file Compose may read."""
    if node.owner in DEVICE_PATHS or node.may_be_boolean():  # a flag is never a path
        return False
    described = (str(part.get("description", "")) for part in node.own)
    return bool(_PATH_NAME.search(key)) or any(_PATH_WORDS.search(d) for d in described)


def file_keys(node: Node | None = None, prefix: str = "", depth: int = 0) -> list[str]:
    """Every key of the schema that names a file, as ``services.*.label_file``
    (``*`` a name, ``[]`` an item): what the gate judges, for the docs and tests."""
    node = node if node is not None else root_node()
    found: list[str] = []
    if depth > 8:
        return found
    names: dict[str, Mapping[str, Any]] = {}
    for part in node.parts:
        names.update(part.get("properties", {}))
        for sub in part.get("patternProperties", {}).values():
            names["*"] = sub  # a name of the user's: one schema for every name
    for key, sub in sorted(names.items()):
        child = node._at(sub)
        here = f"{prefix}.{key}" if prefix else key
        if key != "*" and names_a_file(key, child):
            found.append(here)
            continue
        if key != "*" and child.string_is_path():
            found.append(f"{here} (a string)")
        items = child.items()
        found += file_keys(child, here, depth + 1)
        if items is not None:
            found += [f"{here}[] (a string)"] if items.string_is_path() else []
            found += file_keys(items, f"{here}[]", depth + 1)
    return sorted(set(found))
