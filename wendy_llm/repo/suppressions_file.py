"""The suppressions file, ``wendy-llm-suppressions.json``: read, validated, written.

One machine-written file at the repository root (the layout finds it
beside ``wendy-llm.toml``), committed with the templates: the failures a
repository accepted when it adopted the gate, so ``check`` fails only on
new ones (docs/suppressions.md).  It is grouped as a reader looks for
things, template -> file -> failures, each failure keyed by its fingerprint
(its code and subject: what it is, never its wording nor its line) with a
count (version 2; ``message`` is what it said when recorded, for a reader,
never matched):

    {"version": 2, "suppressions": {"cpp/opencv-camera": {"wendy.json":
      [{"code": "WJS003", "subject": "entitlements[1].type", "count": 3,
        "message": "entitlements[1].type: ..."}]}}}

Version 1 files (template -> check -> file -> failures keyed by message)
are still read and matched as they were; ``--prune-suppressions`` rewrites
them as version 2.  Each version is validated against its schema
(``suppressions.schema.json``, ``suppressions.v2.schema.json``);
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
from wendy_llm.codes import CODES, Check, nearest
from wendy_llm.errors import SuppressionsError
from wendy_llm.safe_read import ReadRefused, read_bytes

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

    from wendy_llm.render.manifest.jsonpos import JsonPath

SUPPRESSIONS_FILE = "wendy-llm-suppressions.json"
#: The schema of each version the file may have.
SCHEMAS = {1: "suppressions.schema.json", 2: "suppressions.v2.schema.json"}
SCHEMA = SCHEMAS[1]
#: The version written.
VERSION = 2
COMMENT = (
    "Failures wendy-llm check accepts for now, written by `wendy-llm check --suppress-all`; "
    "`wendy-llm check --prune-suppressions` removes those fixed. Do not edit by hand "
    "(docs/suppressions.md)."
)

#: What identifies a kind of failure: version 2, template, code, file ("" for none),
#: subject; version 1, template, check, file, message key.
Key = tuple[str, str, str, str]


@dataclass(frozen=True)
class Suppression:
    """One kind of failure accepted ``count`` times; ``line`` is where the file records it.

    A version 2 entry has a ``code`` (``check`` is the code's) and a ``subject``,
    its fingerprint; its ``message`` is what the failure said when recorded, for
    a reader.  A version 1 entry (no code) is keyed by its ``message``.
    """

    template: str
    check: str
    file: str
    message: str
    count: int
    line: int | None = field(default=None, compare=False)
    code: str = ""
    subject: str = ""

    @property
    def key(self) -> Key:
        if self.code:
            return (self.template, self.code, self.file, self.subject)
        return (self.template, self.check, self.file, self.message)

    def describe(self) -> str:
        """``[check] file: message`` (version 2: ``[CODE] file: subject: message``)."""
        where = f"{self.file}: " if self.file else ""
        if self.code:
            about = f"{self.subject}: " if self.subject else ""
            return f"[{self.code}] {where}{about}{self.message}"
        return f"[{self.check}] {where}{self.message}"


@dataclass(frozen=True)
class Suppressions:
    """The entries of one file (none when it does not exist); ``shown`` names it;
    ``version`` is the file's (a file not yet written is the current version)."""

    entries: tuple[Suppression, ...] = ()
    shown: str = SUPPRESSIONS_FILE
    version: int = VERSION

    def counts(self) -> dict[Key, Suppression]:
        return {entry.key: entry for entry in self.entries}


def load_suppressions(path: Path, *, shown: str | None = None) -> Suppressions:
    """The file at ``path``; no file: no suppressions.  A bad file raises
    :class:`SuppressionsError` naming the line."""
    label = shown or str(path)
    try:  # beside it only: a suppressions file linked out of the repository is refused
        raw = read_bytes(path, shown=label)
    except FileNotFoundError:
        return Suppressions(shown=label)
    except ReadRefused as exc:
        raise SuppressionsError(f"{label}: cannot read it: {exc.reason}", file=label) from None
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
    raw_version = data.get("version") if isinstance(data, dict) else None
    version = raw_version if type(raw_version) is int else 0
    schema = SCHEMAS.get(version)
    if schema is None:
        line = _line_of(positions, ("version",))
        located = shown if line is None else f"{shown}:{line}"
        raise SuppressionsError(
            f"{located}: version: {json.dumps(raw_version)} is not a version of the file "
            f"(known: {', '.join(map(str, SCHEMAS))}; see docs/suppressions.md)",
            file=shown,
            line=line,
        )
    errors = sorted(
        validator_for(schema).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]
    )
    if errors:
        raise _schema_error(errors[0], positions, shown)
    read = _entries_v1 if version == 1 else _entries_v2
    entries = read(data["suppressions"], positions, shown)
    seen: dict[Key, int | None] = {}
    for entry in entries:
        if entry.key in seen:
            what = (
                json.dumps(entry.subject or entry.code) if entry.code else json.dumps(entry.message)
            )
            raise SuppressionsError(
                f"{shown}:{entry.line}: {entry.template}: the failure {what} is listed "
                f"twice (first at line {seen[entry.key]}): one entry per failure, with its count",
                file=shown,
                line=entry.line,
            )
        seen[entry.key] = entry.line
    return Suppressions(tuple(entries), shown, version)


def _entries_v1(
    tree: Mapping[str, Mapping[str, Mapping[str, list[dict[str, object]]]]],
    positions: Mapping[JsonPath, tuple[int, int]],
    shown: str,
) -> list[Suppression]:
    entries = []
    known = [c.value for c in Check]
    for template, checks in tree.items():
        for check, files in checks.items():
            if check not in known:
                line = _line_of(positions, ("suppressions", template, check))
                raise SuppressionsError(
                    f"{shown}:{line}: {_path_text(('suppressions', template, check))}: "
                    f"unknown check {json.dumps(check)} (known: {', '.join(known)})",
                    file=shown,
                    line=line,
                )
            for file, failures in files.items():
                for index, failure in enumerate(failures):
                    where: JsonPath = ("suppressions", template, check, file, index)
                    line = _line_of(positions, (*where, "message"))
                    message, count = str(failure["message"]), int(str(failure["count"]))
                    entries.append(Suppression(template, check, file, message, count, line))
    return entries


def _entries_v2(
    tree: Mapping[str, Mapping[str, list[dict[str, object]]]],
    positions: Mapping[JsonPath, tuple[int, int]],
    shown: str,
) -> list[Suppression]:
    entries = []
    for template, files in tree.items():
        for file, failures in files.items():
            for index, failure in enumerate(failures):
                where: JsonPath = ("suppressions", template, file, index)
                line = _line_of(positions, (*where, "code"))
                code = CODES.get(str(failure["code"]))
                if code is None:
                    near = ", ".join(nearest(str(failure["code"])))
                    raise SuppressionsError(
                        f"{shown}:{line}: {_path_text((*where, 'code'))}: unknown code "
                        f"{json.dumps(failure['code'])}"
                        + (f" (nearest: {near})" if near else "")
                        + "; `wendy-llm explain --list` lists the codes",
                        file=shown,
                        line=line,
                    )
                entries.append(
                    Suppression(
                        template,
                        code.check,
                        file,
                        str(failure.get("message", "")),
                        int(str(failure["count"])),
                        line,
                        code=code.code,
                        subject=str(failure.get("subject", "")),
                    )
                )
    return entries


def dump_suppressions(entries: Iterable[Suppression]) -> str:
    """The file's text (version 2) for ``entries`` (each with a code): sorted,
    two-space indented, final newline."""
    tree: dict[str, dict[str, list[dict[str, object]]]] = {}
    for entry in sorted(entries, key=lambda e: e.key):
        if not entry.code:
            raise ValueError(f"a version 1 entry cannot be written: {entry.describe()}")
        failure: dict[str, object] = {"code": entry.code, "subject": entry.subject}
        failure.update(count=entry.count, message=entry.message)
        tree.setdefault(entry.template, {}).setdefault(entry.file, []).append(failure)
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
