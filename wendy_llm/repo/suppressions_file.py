"""The suppressions file, ``wendy-llm-suppressions.json``: read, validated, written.

One machine-written file at the repository root (the layout finds it
beside ``wendy-llm.toml``), committed with the templates: the failures a
repository accepted when it adopted the gate, so ``check`` fails only on
new ones (docs/suppressions.md).  It is grouped as a reader looks for
things, template -> check -> file -> failures, each failure keyed by what
it is (its message, line numbers stripped) with a count, never by line:

    {"version": 1, "suppressions": {"cpp/opencv-camera": {"wendy-json":
      {"wendy.json": [{"message": "entitlements[1].type: ...", "count": 3}]}}}}

It is validated against ``wendy_llm/schemas/suppressions.schema.json``;
every mistake reads ``wendy-llm-suppressions.json:LINE: where: message``.
Writes are atomic and deterministic (sorted keys), so a rewrite that
changes nothing changes no byte.  Matching findings to entries is
:mod:`wendy_llm.validate.suppressions`; this module knows no finding.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from wendy_llm.atomic import write_file_atomically
from wendy_llm.bounded import json_loads
from wendy_llm.errors import SuppressionsError

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

    from wendy_llm.render.manifest.jsonpos import JsonPath

SUPPRESSIONS_FILE = "wendy-llm-suppressions.json"
SCHEMA = "suppressions.schema.json"
VERSION = 1
COMMENT = (
    "Failures wendy-llm check accepts for now, written by `wendy-llm check --suppress-all`; "
    "`wendy-llm check --prune-suppressions` removes those fixed. Do not edit by hand "
    "(docs/suppressions.md)."
)

#: What identifies a kind of failure: template, check, file ("" for none), message key.
Key = tuple[str, str, str, str]


@dataclass(frozen=True)
class Suppression:
    """One kind of failure accepted ``count`` times; ``line`` is where the file records it."""

    template: str
    check: str
    file: str
    message: str
    count: int
    line: int | None = field(default=None, compare=False)

    @property
    def key(self) -> Key:
        return (self.template, self.check, self.file, self.message)

    def describe(self) -> str:
        """``[check] file: message`` as the report names a finding."""
        where = f"{self.file}: " if self.file else ""
        return f"[{self.check}] {where}{self.message}"


@dataclass(frozen=True)
class Suppressions:
    """The entries of one file (none when it does not exist); ``shown`` names it."""

    entries: tuple[Suppression, ...] = ()
    shown: str = SUPPRESSIONS_FILE

    def counts(self) -> dict[Key, Suppression]:
        return {entry.key: entry for entry in self.entries}


def load_suppressions(path: Path, *, shown: str | None = None) -> Suppressions:
    """The file at ``path``; no file: no suppressions.  A bad file raises
    :class:`SuppressionsError` naming the line."""
    label = shown or str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Suppressions(shown=label)
    except OSError as exc:
        raise SuppressionsError(f"{label}: cannot read it: {exc.strerror}", file=label) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SuppressionsError(f"{label}: not valid UTF-8 (byte {exc.start})", file=label) from exc
    return parse_suppressions(text, shown=label)


def parse_suppressions(text: str, *, shown: str = SUPPRESSIONS_FILE) -> Suppressions:
    """The suppressions in JSON ``text``, validated (errors name ``shown`` and the line)."""
    try:
        data = json_loads(text)
    except json.JSONDecodeError as exc:
        message = f"{shown}:{exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})"
        raise SuppressionsError(message, file=shown, line=exc.lineno) from exc
    # lazy: jsonschema costs a tenth of a second to import, paid only by a
    # repository that has a suppressions file.
    from wendy_llm.render.manifest.jsonpos import value_positions
    from wendy_llm.render.manifest.schemawords import validator_for

    positions = value_positions(text)
    errors = sorted(
        validator_for(SCHEMA).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]
    )
    if errors:
        raise _schema_error(errors[0], positions, shown)
    entries: list[Suppression] = []
    seen: dict[Key, int | None] = {}
    for template, checks in data["suppressions"].items():
        for check, files in checks.items():
            for file, failures in files.items():
                for index, failure in enumerate(failures):
                    where: JsonPath = ("suppressions", template, check, file, index)
                    line = _line_of(positions, (*where, "message"))
                    entry = Suppression(
                        template, check, file, failure["message"], failure["count"], line
                    )
                    if entry.key in seen:
                        raise SuppressionsError(
                            f"{shown}:{line}: {_path_text(where)}: the failure "
                            f"{json.dumps(entry.message)} is listed twice (first at line "
                            f"{seen[entry.key]}): one entry per failure, with its count",
                            file=shown,
                            line=line,
                        )
                    seen[entry.key] = line
                    entries.append(entry)
    return Suppressions(tuple(entries), shown)


def dump_suppressions(entries: Iterable[Suppression]) -> str:
    """The file's text for ``entries``: sorted, two-space indented, final newline."""
    tree: dict[str, dict[str, dict[str, list[dict[str, object]]]]] = {}
    for entry in sorted(entries, key=lambda e: e.key):
        failures = tree.setdefault(entry.template, {}).setdefault(entry.check, {})
        failures.setdefault(entry.file, []).append({"message": entry.message, "count": entry.count})
    document = {"version": VERSION, "comment": COMMENT, "suppressions": tree}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_suppressions(path: Path, entries: Iterable[Suppression]) -> None:
    """Replace the file at ``path`` atomically with ``entries``."""
    write_file_atomically(path, dump_suppressions(entries).encode("utf-8"))


def _line_of(positions: Mapping[JsonPath, tuple[int, int]], path: JsonPath) -> int | None:
    for depth in range(len(path), -1, -1):
        found = positions.get(path[:depth])
        if found is not None:
            return found[0]
    return None


def _path_text(path: JsonPath) -> str:
    return "".join(f"[{json.dumps(part)}]" for part in path) or "(top level)"


def _schema_error(
    error: ValidationError, positions: Mapping[JsonPath, tuple[int, int]], shown: str
) -> SuppressionsError:
    # lazy: as in parse_suppressions
    from jsonschema.exceptions import best_match

    from wendy_llm.render.manifest.schemawords import violation_text

    best = best_match([error])
    where: JsonPath = tuple(best.absolute_path)
    if best.validator == "additionalProperties" and isinstance(best.instance, Mapping):
        known = list(best.schema.get("properties", {})) if isinstance(best.schema, Mapping) else []
        unknown = [str(k) for k in best.instance if k not in known]
        message = f"unknown key {json.dumps(unknown[0])}" + (
            f" (known: {', '.join(known)})" if known else ""
        )
    else:
        message = violation_text(best)
    line = _line_of(positions, where)
    located = shown if line is None else f"{shown}:{line}"
    return SuppressionsError(
        f"{located}: {_path_text(where)}: {message} (the file is written by "
        "`wendy-llm check --suppress-all`; see docs/suppressions.md)",
        file=shown,
        line=line,
    )
