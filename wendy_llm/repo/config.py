"""A templates repository's settings file, ``wendy-llm.toml``: read, validated, located.

One file at the repository root (:mod:`wendy_llm.repo.layout` finds it),
every key optional, validated against
``wendy_llm/schemas/settings.schema.json``.  ``tomllib`` gives no
positions, so :func:`key_lines` finds the line of every key in the text;
every mistake reads ``wendy-llm.toml:LINE: KEY: message``.  Paths in the
file are relative to the repository root and must stay inside it.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from wendy_llm.errors import SettingsError, quoted
from wendy_llm.repo.globs import Glob, GlobError, parse_glob
from wendy_llm.repo.rule_selection import (
    RuleSelection,
    Selector,
    SelectorError,
    parse_selectors,
    per_glob,
)
from wendy_llm.safe_read import ReadRefused, read_text

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

SETTINGS_FILE = "wendy-llm.toml"
SCHEMA = "settings.schema.json"

Keys = tuple[str, ...]

# TOML keys: bare, "basic" (JSON-like escapes) or 'literal', joined by dots.
_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_DOTTED = rf"{_KEY}(?:[ \t]*\.[ \t]*{_KEY})*"
_TABLE_LINE = re.compile(rf"[ \t]*\[\[?[ \t]*({_DOTTED})[ \t]*\]\]?")
_KEY_LINE = re.compile(rf"[ \t]*({_DOTTED})[ \t]*=")
_PART = re.compile(_KEY)
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_TOML_LINE = re.compile(r"at line (\d+)")


@dataclass(frozen=True)
class Settings:
    """The settings of one repository (all defaults when it has no file).

    ``shown`` is the file as messages name it; ``lines`` maps each key
    path to the line it is set on.  Values are as written (paths are
    resolved by the layout); sample values are strings, as ``--var`` gives.
    """

    path: Path | None = None
    shown: str = SETTINGS_FILE
    templates_dir: str | None = None
    golden_dir: str | None = None
    ignore: tuple[str, ...] = ()
    sample_values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    rules_files: Mapping[str, str] = field(default_factory=dict)
    #: ``golden-fixtures``: "lean" (a rendered file that is its template file
    #: is recorded by hash) or "full" (every rendered file is copied).
    golden_fixtures: str = "lean"
    lines: Mapping[Keys, int] = field(default_factory=dict)
    #: ``ignore`` parsed, in the one glob dialect (:mod:`wendy_llm.repo.globs`).
    ignore_globs: tuple[Glob, ...] = ()
    #: ``[findings]``: which codes a run counts (:mod:`wendy_llm.repo.rule_selection`).
    findings: RuleSelection = field(default_factory=RuleSelection)

    @property
    def full_fixtures(self) -> bool:
        return self.golden_fixtures == "full"

    def line(self, *keys: str) -> int | None:
        """The line that sets ``keys`` (or the nearest enclosing table); None if unknown."""
        return _line(self.lines, keys)

    def error(self, message: str, *keys: str) -> SettingsError:
        """``file:line: key: message`` for the setting at ``keys``."""
        return _located(message, keys, self.lines, self.shown)

    def ignores(self, template_id: str) -> bool:
        return any(glob.matches(template_id) for glob in self.ignore_globs)

    def values_for(self, template_id: str) -> dict[str, str]:
        return dict(self.sample_values.get(template_id, {}))

    def missing_value_hint(self, template_id: str, variable: str) -> str:
        """What to do about a variable without a default: which line, in which file."""
        table = key_text(["sample-values", template_id])
        line = self.lines.get(("sample-values", template_id))
        where = f" (line {line})" if line is not None else ""
        return (
            f"{variable} has no default and no sample value, so no pick can be rendered: "
            f'add the line {variable} = "..." under [{table}]{where} in {self.shown}'
        )


def key_text(keys: Sequence[str | int]) -> str:
    """A key path as TOML spells it: ``sample-values."python/openai-chat".PORT``."""
    parts: list[str] = []
    for key in keys:
        if isinstance(key, int):
            parts[-1:] = [f"{parts[-1] if parts else ''}[{key}]"]
        elif _BARE.fullmatch(key):
            parts.append(key)
        else:
            parts.append(json.dumps(key, ensure_ascii=False))
    return ".".join(parts) or "(top level)"


def key_lines(text: str) -> dict[Keys, int]:
    """Line (1-based) of every table header and key assignment in TOML ``text``.

    Keys inside inline tables and arrays are not listed: an error there is
    located at the key that holds them.
    """
    lines: dict[Keys, int] = {}
    table: Keys = ()
    in_string: str | None = None  # the delimiter of an open multi-line string
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string is not None:
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        header = _TABLE_LINE.match(line)
        if header is not None:
            table = _split(header.group(1))
            for depth in range(1, len(table) + 1):
                lines.setdefault(table[:depth], number)
            continue
        assignment = _KEY_LINE.match(line)
        if assignment is None:
            continue
        keys = (*table, *_split(assignment.group(1)))
        for depth in range(len(table) + 1, len(keys) + 1):
            lines.setdefault(keys[:depth], number)
        rest = line[assignment.end() :]
        for delimiter in ('"""', "'''"):
            if rest.count(delimiter) % 2 == 1:
                in_string = delimiter
    return lines


def _split(dotted: str) -> Keys:
    out = []
    for match in _PART.finditer(dotted):
        part = match.group(0)
        if part.startswith('"'):
            out.append(str(json.loads(part)))
        elif part.startswith("'"):
            out.append(part[1:-1])
        else:
            out.append(part)
    return tuple(out)


def _line(lines: Mapping[Keys, int], keys: Sequence[str | int]) -> int | None:
    path = tuple(k for k in keys if isinstance(k, str))
    for depth in range(len(path), 0, -1):
        found = lines.get(path[:depth])
        if found is not None:
            return found
    return None


def _located(
    message: str, keys: Sequence[str | int], lines: Mapping[Keys, int], shown: str
) -> SettingsError:
    line = _line(lines, keys)
    where = shown if line is None else f"{shown}:{line}"
    name = key_text(keys)
    return SettingsError(f"{where}: {name}: {message}", file=shown, line=line, key=name)


def _globs(patterns: Sequence[str], lines: Mapping[Keys, int], shown: str) -> tuple[Glob, ...]:
    out = []
    for index, pattern in enumerate(patterns):
        try:
            out.append(parse_glob(pattern))
        except GlobError as exc:
            raise _located(str(exc), ["ignore", index], lines, shown) from None
    return tuple(out)


def load_settings(path: Path, *, shown: str | None = None) -> Settings:
    """Read and validate ``path``; ``shown`` names it in messages (default: as given)."""
    label = shown or str(path)
    try:  # beside it only: a settings file linked out of the repository is refused
        text = read_text(path, shown=label)
    except ReadRefused as exc:
        raise SettingsError(f"{label}: cannot read it: {exc.reason}", file=label) from None
    except OSError as exc:
        raise SettingsError(f"{label}: cannot read it: {exc.strerror}", file=label) from exc
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{label}: not valid UTF-8 (byte {exc.start})", file=label) from exc
    return parse_settings(text, path=path, shown=label)


def parse_settings(text: str, *, path: Path, shown: str) -> Settings:
    """Settings from TOML ``text`` (``path`` is where it lives: its directory is the root)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_LINE.search(str(exc))
        line = int(found.group(1)) if found else None
        where = shown if line is None else f"{shown}:{line}"
        raise SettingsError(f"{where}: not valid TOML: {exc}", file=shown, line=line) from exc
    except RecursionError:  # tomllib recurses per level of nesting (5,000 levels)
        raise SettingsError(f"{shown}: not valid TOML: nested too deep", file=shown) from None
    # lazy: jsonschema costs a tenth of a second to import, paid only by a
    # repository that has a settings file, never by `render`.
    from wendy_llm.render.manifest.schemawords import validator_for

    lines = key_lines(text)
    errors = sorted(
        validator_for(SCHEMA).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]
    )
    if errors:
        raise _schema_error(errors[0], lines, shown)
    ignore = tuple(data.get("ignore", ()))
    settings = Settings(
        path=path,
        shown=shown,
        templates_dir=data.get("templates-dir"),
        golden_dir=data.get("golden-dir"),
        ignore=ignore,
        ignore_globs=_globs(ignore, lines, shown),
        sample_values={
            template_id: {name: _as_var(value) for name, value in values.items()}
            for template_id, values in data.get("sample-values", {}).items()
        },
        rules_files=dict(data.get("rules-files", {})),
        golden_fixtures=data.get("golden-fixtures", "lean"),
        lines=lines,
        findings=_findings(data.get("findings", {}), lines, shown),
    )
    _check_paths(settings, path.parent)
    return settings


def _findings(table: Mapping[str, object], lines: Mapping[Keys, int], shown: str) -> RuleSelection:
    """``[findings]``: every selector and glob checked, a mistake named at its line."""

    def selectors(key: str) -> tuple[Selector, ...]:
        try:
            return parse_selectors(_strings(table.get(key, [])))
        except SelectorError as exc:
            raise _located(str(exc), ["findings", key], lines, shown) from None

    def globs(key: str) -> tuple[tuple[Glob, tuple[Selector, ...]], ...]:
        named = table.get(key, {})
        assert isinstance(named, Mapping)  # the schema holds it
        out: list[tuple[Glob, tuple[Selector, ...]]] = []
        for pattern, listed in named.items():
            try:
                out += per_glob({str(pattern): _strings(listed)})
            except (GlobError, SelectorError) as exc:
                raise _located(str(exc), ["findings", key, str(pattern)], lines, shown) from None
        return tuple(out)

    return RuleSelection(
        select=selectors("select"),
        ignore=selectors("ignore"),
        per_template=globs("per-template-ignores"),
        per_file=globs("per-file-ignores"),
    )


def _strings(value: object) -> list[str]:
    assert isinstance(value, list)  # the schema holds it
    return [str(item) for item in value]


def _as_var(value: str | int | bool) -> str:
    # The text a --var would carry: TOML's true/1 are the CLI's "true"/"1".
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _schema_error(error: ValidationError, lines: Mapping[Keys, int], shown: str) -> SettingsError:
    # lazy: as in parse_settings
    from jsonschema.exceptions import best_match

    from wendy_llm.render.manifest.schemawords import violation_text

    best = best_match([error])
    keys: list[str | int] = list(best.absolute_path)
    if best.validator == "additionalProperties" and isinstance(best.instance, Mapping):
        known = list(best.schema.get("properties", {})) if isinstance(best.schema, Mapping) else []
        unknown = [k for k in best.instance if k not in known]
        keys.append(str(unknown[0]))
        message = "unknown key" + (f" (known: {', '.join(known)})" if known else "")
        return _located(message, keys, lines, shown)
    if "propertyNames" in best.schema_path:
        keys.append(str(best.instance))  # jsonschema reports the key at its table's path
    return _located(violation_text(best), keys, lines, shown)


def _check_paths(settings: Settings, root: Path) -> None:
    """Every path setting is relative to ``root`` and stays inside it (symlinks resolved)."""
    dirs = {"templates-dir": settings.templates_dir, "golden-dir": settings.golden_dir}
    named: list[tuple[Keys, str]] = [((k,), v) for k, v in dirs.items() if v is not None]
    named += [(("rules-files", tid), value) for tid, value in settings.rules_files.items()]
    for keys, value in named:
        if Path(value).is_absolute() or not inside(root / value, root):
            raise settings.error(
                f"{quoted(value)} is outside the repository {root}: paths in {SETTINGS_FILE} "
                "are relative to the repository root and stay inside it",
                *keys,
            )


def inside(path: Path, root: Path) -> bool:
    """Whether ``path`` is ``root`` or below it, symlinks resolved."""
    return path.resolve().is_relative_to(root.resolve())
