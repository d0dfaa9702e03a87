"""Parsing the structured files of a render: the compose file and ``wendy.json``.

Several validators look at the same parsed documents (``wendy-json``
cross-checks against compose, ``topology`` asserts over both, ``picker``
looks for where a tag landed), so a render is parsed once here.

YAML is read with the YAML 1.2 core schema, as Docker Compose (go-yaml v3)
reads it, not PyYAML's YAML 1.1 default: under 1.1 an unquoted
``8080:8080`` is the sexagesimal integer 492880 and ``on`` is ``True``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import ClassVar

import yaml

from wendy_llm.bounded import json_loads
from wendy_llm.bounded_yaml import FAST_SAFE_LOADER, yaml_load, yaml_problem
from wendy_llm.codes import PARSE_CODES
from wendy_llm.errors import quoted
from wendy_llm.render.manifest.jsonpos import value_positions
from wendy_llm.validate.documents.locate import LineIndex
from wendy_llm.validate.findings import Finding, error

#: Compose's own lookup order when several candidates sit in one directory.
COMPOSE_NAMES: tuple[str, ...] = (
    "compose.yaml",
    "compose.yml",
    "docker-compose.yaml",
    "docker-compose.yml",
)
WENDY_JSON = "wendy.json"


class Yaml12Loader(FAST_SAFE_LOADER):  # type: ignore[misc,valid-type]
    """A safe loader resolving plain scalars by the YAML 1.2 core schema."""

    yaml_implicit_resolvers: ClassVar[dict[str | None, list[tuple[str, re.Pattern[str]]]]] = {}


def _core_schema() -> None:
    resolvers: list[tuple[str, str, str]] = [
        ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
        ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", "~nN"),
        (
            "tag:yaml.org,2002:int",
            r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$",
            "-+0123456789",
        ),
        (
            "tag:yaml.org,2002:float",
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
            "-+.0123456789",
        ),
    ]
    for tag, pattern, first in resolvers:
        Yaml12Loader.add_implicit_resolver(tag, re.compile(pattern), list(first))
    # Compose files use merge keys (``<<: *defaults``), which go-yaml v3 keeps.
    Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^<<$"), ["<"])
    # The empty plain scalar is null; PyYAML keys that resolver on "".
    Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^$"), [""])


_core_schema()


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


Yaml12Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


@dataclass(frozen=True)
class Parsed:
    """One parsed document: ``data`` when it parsed, else ``problem``."""

    path: str
    data: object
    problem: Finding | None
    lines: LineIndex

    @property
    def ok(self) -> bool:
        return self.problem is None

    def line(self, *path: str | int) -> int | None:
        return self.lines.line(path)


def _decode(check: str, path: str, data: bytes) -> str | Finding:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return error(PARSE_CODES[check].not_utf8, f"not UTF-8 (byte {exc.start})", path)


def parse_yaml(path: str, data: bytes, *, check: str = "compose") -> Parsed:
    """Parse YAML text; a syntax error becomes a finding with its line."""
    text = _decode(check, path, data)
    if isinstance(text, Finding):
        return Parsed(path, None, text, LineIndex({}))
    try:
        value = yaml_load(text, Yaml12Loader)
    except yaml.YAMLError as exc:
        problem, line = yaml_problem(exc)
        return Parsed(
            path,
            None,
            error(PARSE_CODES[check].syntax, f"YAML: {problem}", path, line),
            LineIndex({}),
        )
    return Parsed(path, value, None, LineIndex.of(text))


class _DuplicateKeyError(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKeyError(key)
        seen[key] = value
    return seen


def parse_json(
    path: str, data: bytes, *, check: str = "wendy-json", duplicates: bool = False
) -> Parsed:
    """Parse JSON text; syntax errors and (unless ``duplicates``) duplicate keys
    become findings.

    ``wendy.json`` is parsed with ``duplicates``: the Wendy CLI accepts a key
    given twice (section 2 of the facts: Go's decoder fills in the first
    value from the later one), so the file still parses; ``data`` then holds
    the last value of each key, and the ``wendy-json`` check says what the CLI
    makes of the repeat.
    """
    text = _decode(check, path, data)
    if isinstance(text, Finding):
        return Parsed(path, None, text, LineIndex({}))
    try:
        value = (
            json_loads(text) if duplicates else json_loads(text, object_pairs_hook=_no_duplicates)
        )
    except json.JSONDecodeError as exc:
        message = f"JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        code = PARSE_CODES[check].syntax
        return Parsed(path, None, error(code, message, path, exc.lineno), LineIndex({}))
    except _DuplicateKeyError as exc:
        key = str(exc)
        line = _repeat_line(text, json.dumps(key))
        message = f"JSON: duplicate key {quoted(key)} (the Wendy CLI would keep only the last)"
        code = PARSE_CODES[check].duplicate
        found = error(code, message, path, line, subject=key)
        return Parsed(path, None, found, LineIndex({}))
    return Parsed(path, value, None, json_line_index(text))


def json_line_index(text: str) -> LineIndex:
    """Lines of every value of JSON text that ``json.loads`` accepted."""
    return LineIndex({k: line for k, (line, _) in value_positions(text).items()})


def _repeat_line(text: str, quoted_key: str) -> int | None:
    """The line where ``quoted_key`` appears as a key for the second time."""
    pattern = re.compile(re.escape(quoted_key) + r"\s*:")
    hits = [n for n, line in enumerate(text.splitlines(), start=1) if pattern.search(line)]
    return hits[1] if len(hits) > 1 else (hits[0] if hits else None)


def compose_files(tree: Mapping[str, bytes]) -> list[str]:
    """Every compose file in the tree, in path order."""
    return sorted(p for p in tree if PurePosixPath(p).name in COMPOSE_NAMES)


def root_compose_file(tree: Mapping[str, bytes]) -> str | None:
    """The compose file ``docker compose`` would pick in the tree's root."""
    for name in COMPOSE_NAMES:
        if name in tree:
            return name
    return None


@dataclass(frozen=True)
class Documents:
    """The parsed documents of one render (``None`` when the file is absent)."""

    compose: Parsed | None
    wendy: Parsed | None

    def get(self, name: str) -> Parsed | None:
        return {"compose": self.compose, "wendy": self.wendy}.get(name)


def parse_documents(tree: Mapping[str, bytes]) -> Documents:
    """Parse the root compose file and ``wendy.json`` of a render."""
    compose_path = root_compose_file(tree)
    compose = None if compose_path is None else parse_yaml(compose_path, tree[compose_path])
    wendy = (
        None
        if WENDY_JSON not in tree
        else parse_json(WENDY_JSON, tree[WENDY_JSON], duplicates=True)
    )
    return Documents(compose, wendy)
