"""A template's rules file: ``golden/<language>/<name>.rules.yaml``.

One file per template holds what is true of its renders, as data rather
than as Python scattered through tests.  The format (validated by
``wendy_llm/schemas/rules.schema.json``; README, "The rules file", walks
through every part with examples):

.. code-block:: yaml

    version: 1
    documents:            # optional; compose = the root compose file's normalised model
      compose: docker-compose.yml
    sentinels:            # picker lint: option values that are not Ollama tags
      OLLAMA_MODEL:
        values: [laguna-s-2.1-dflash]
        tag_paths: [compose.services.*.environment.OLLAMA_MODEL]
    picker:
      option_fields: [label, size, parameters, comments]
    gate:                 # the baseline gate's files (globs): Rules.gate, the diff's scope
      files: [docker-compose.yml, wendy.json]
    selectors:            # services and volumes by what they are (selectors.py)
      services:
        ollama: {any: [{image: "ollama/ollama*"}, {port: 11434}]}
    tables:               # named lookups for relations (derive.py: map: NAME)
      drafters: {poolside/Laguna-S-2.1-NVFP4: poolside/Laguna-S-2.1-DFlash}
    rules:
      - name: dflash-has-no-ollama
        picks: {when: {OLLAMA_MODEL: laguna-s-2.1-dflash}}
        assert:             # assertions.py: path, services/volumes, same, file
          - {services: ollama, absent: true}
          - {path: "compose.volumes.${APP_ID}-models", absent: true}

A malformed file raises :class:`RulesError` naming the file, the line and
the rule (``rules[2] (name)``) or section at fault.

The file is read once, into one immutable :class:`Rules`: the ``check``
rules, the baseline check and ``wendy-llm diff`` (its scope is
:attr:`Rules.gate`) all read that value; every pattern in it is parsed
here, in the one glob dialect (:mod:`patterns`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml
from jsonschema.exceptions import ValidationError

from wendy_llm.bounded_yaml import yaml_load, yaml_problem
from wendy_llm.compare.scope import FileScope
from wendy_llm.engine.gofuncs import format_value as go_format_value
from wendy_llm.errors import RulesError, quoted
from wendy_llm.render.manifest.schemawords import violation_text
from wendy_llm.repo.globs import GlobError, parse_glob
from wendy_llm.safe_read import ReadRefused, read_text
from wendy_llm.validate.documents.locate import LineIndex
from wendy_llm.validate.documents.parse import Yaml12Loader
from wendy_llm.validate.rules.assertions import (
    AnyAssertion,
    Assertion,
    SameAssertion,
    Scalar,
    assertion_paths,
    assertion_selectors,
    doc_path,
    parse_assertion,
)
from wendy_llm.validate.rules.docpath import DocPath
from wendy_llm.validate.rules.selectors import (
    Kind,
    LocatedError,
    Named,
    check_references,
    find_cycle,
    parse_selector,
    uses_baseline,
)
from wendy_llm.validate.schema import json_path, most_specific, validator_for, violations

__all__ = ["AnyAssertion", "Assertion", "Rule", "Rules", "Scalar", "Sentinel", "load_rules"]

SCHEMA = "rules.schema.json"
DEFAULT_DOCUMENTS = ("compose", "device", "dockerfiles", "wendy")
#: No option field is required unless the rules file asks: the CLI reads only an
#: option's value and label, and a catalogue's conventions are its own.
DEFAULT_OPTION_FIELDS: tuple[str, ...] = ()


@dataclass(frozen=True)
class PickSelector:
    """Which picks a rule applies to; every given condition must hold."""

    only: tuple[str, ...] = ()
    except_: tuple[str, ...] = ()
    when: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unless: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def selects(self, slug: str, values: Mapping[str, object]) -> bool:
        """True when the pick ``slug``, rendered from ``values``, is selected.

        Answers compare as the CLI compares ``when`` conditions: on Go's
        ``%v`` text of the value (``8080``, ``true``).
        """
        if self.only and slug not in self.only:
            return False
        if slug in self.except_:
            return False
        if self.when and not _answers_match(self.when, values):
            return False
        return not (self.unless and _answers_match(self.unless, values))

    def named_slugs(self) -> tuple[str, ...]:
        return self.only + self.except_


def _answers_match(wanted: Mapping[str, tuple[str, ...]], values: Mapping[str, object]) -> bool:
    return all(
        name in values and go_format_value(values[name]) in accepted
        for name, accepted in wanted.items()
    )


@dataclass(frozen=True)
class Rule:
    name: str
    description: str
    picks: PickSelector
    assertions: tuple[AnyAssertion, ...]
    line: int | None
    uses_baseline: bool = False  # a selector reads the baseline render


@dataclass(frozen=True)
class Sentinel:
    """A picker question whose answers are Ollama tags, and its non-tag values."""

    question: str
    values: tuple[str, ...]
    tag_paths: tuple[DocPath, ...]
    #: Where the rules file declares each value (``file:line``, for findings).
    declared: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rules:
    """A parsed, validated rules file: immutable (its mappings are read-only views),
    read once and shared by every reader."""

    path: str
    documents: Mapping[str, str] = field(default_factory=dict)
    sentinels: Mapping[str, Sentinel] = field(default_factory=dict)
    option_fields: tuple[str, ...] = DEFAULT_OPTION_FIELDS
    #: ``gate.files``, parsed: the files the baseline gate compares (every file: none).
    gate: FileScope = field(default_factory=FileScope)
    rules: tuple[Rule, ...] = ()
    lines: LineIndex = field(default_factory=lambda: LineIndex({}))
    selectors: Mapping[str, Named] = field(default_factory=dict)
    #: Named tables (``tables:``) that relations look values up in (``map: NAME``).
    tables: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def gate_files(self) -> tuple[str, ...]:
        return self.gate.globs


def load_rules(path: Path, *, display: str | None = None, root: Path | None = None) -> Rules:
    """Read and validate a rules file (``display`` is the name used in messages)
    inside ``root`` (the repository; default: the folder it is in)."""
    shown = display or str(path)
    try:
        text = read_text(path, root, shown=shown)
    except ReadRefused as exc:
        raise RulesError(f"{shown}: cannot read the rules file: {exc.reason}", file=shown) from None
    except OSError as exc:
        raise RulesError(
            f"{shown}: cannot read the rules file: {exc.strerror}", file=shown
        ) from exc
    except UnicodeDecodeError as exc:
        raise RulesError(f"{shown}: not valid UTF-8 (byte {exc.start})", file=shown) from exc
    return parse_rules(text, shown)


def parse_rules(text: str, path: str) -> Rules:
    """Parse rules text; ``path`` names the file in messages."""
    try:
        data = yaml_load(text, Yaml12Loader)
    except yaml.YAMLError as exc:
        problem, line = yaml_problem(exc)
        location = path if line is None else f"{path}:{line}"
        raise RulesError(f"{location}: YAML: {problem}", file=path, line=line) from exc
    if data is None:
        data = {}
    lines = LineIndex.of(text)
    errors = violations(validator_for(SCHEMA), data)
    if errors:
        raise _schema_error(errors[0], data, lines, path)
    return _build(data, lines, path)


def _rule_label(index: int, data: object) -> str:
    name = None
    if isinstance(data, Mapping):
        rules = data.get("rules")
        if isinstance(rules, list) and index < len(rules) and isinstance(rules[index], Mapping):
            name = rules[index].get("name")
    return f"rules[{index}]" + (f" ({name})" if isinstance(name, str) else "")


def _fail(
    message: str, keys: Sequence[str | int], data: object, lines: LineIndex, path: str
) -> RulesError:
    """A RulesError at ``keys``: ``file:line: rules[2] (name): assert[0]: message``."""
    line = lines.line(list(keys))
    location = f"{path}:{line}" if line is not None else path
    if len(keys) >= 2 and keys[0] == "rules" and isinstance(keys[1], int):
        where = _rule_label(keys[1], data)
        inner = json_path(keys[2:]) if len(keys) > 2 else ""
    else:
        where = str(keys[0]) if keys else "(top level)"
        inner = json_path(keys[1:]) if len(keys) > 1 else ""
    text = f"{location}: {where}: " + (f"{inner}: " if inner else "") + message
    return RulesError(text, file=path, line=line, rule=where)


def _schema_error(err: ValidationError, data: object, lines: LineIndex, path: str) -> RulesError:
    best = most_specific(err)
    return _fail(violation_text(best), list(best.absolute_path), data, lines, path)


def _answers(raw: object) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, Mapping):
        return {}
    out = {}
    for name, value in raw.items():
        items = value if isinstance(value, list) else [value]
        out[str(name)] = tuple(go_format_value(v) for v in items)
    return out


def _build(data: Mapping[str, Any], lines: LineIndex, path: str) -> Rules:
    try:
        return _build_located(data, lines, path)
    except LocatedError as exc:
        raise _fail(str(exc), list(exc.keys), data, lines, path) from exc


def _build_located(data: Mapping[str, Any], lines: LineIndex, path: str) -> Rules:
    documents = {str(k): str(v) for k, v in (data.get("documents") or {}).items()}
    known = set(DEFAULT_DOCUMENTS) | set(documents)
    named = _selectors(data.get("selectors") or {})
    tables = {
        str(name): {str(k): str(v) for k, v in entries.items()}
        for name, entries in (data.get("tables") or {}).items()
    }
    sentinels = {}
    for question, spec in (data.get("sentinels") or {}).items():
        tag_paths = []
        for i, text in enumerate(spec.get("tag_paths", [])):
            where = ["sentinels", question, "tag_paths", i]
            tag_path = doc_path(text, where, known)
            if tag_path.selector_keys:
                raise LocatedError("a tag path cannot use @selectors", where)
            tag_paths.append(tag_path)
        values = tuple(spec["values"])
        declared = tuple(
            _at(path, lines.line(["sentinels", question, "values", i])) for i in range(len(values))
        )
        sentinels[str(question)] = Sentinel(str(question), values, tuple(tag_paths), declared)
    rules: list[Rule] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(data.get("rules") or []):
        name = raw["name"]
        if name in seen:
            message = f"the rule name {quoted(name)} is already used by rules[{seen[name]}]"
            raise LocatedError(message, ["rules", index, "name"])
        seen[name] = index
        picks = raw.get("picks") or {}
        selector = PickSelector(
            only=tuple(picks.get("only", ())),
            except_=tuple(picks.get("except", ())),
            when=MappingProxyType(_answers(picks.get("when"))),
            unless=MappingProxyType(_answers(picks.get("unless"))),
        )
        assertions = []
        baseline = False
        for a_index, item in enumerate(raw["assert"]):
            keys: list[str | int] = ["rules", index, "assert", a_index]
            assertion = parse_assertion(item, keys, known, lines.line(keys), tables)
            baseline = _check_selectors(assertion, named, keys) or baseline
            assertions.append(assertion)
        rules.append(
            Rule(
                name,
                raw.get("description", ""),
                selector,
                tuple(assertions),
                lines.line(["rules", index]),
                baseline,
            )
        )
    _check_tables_used(tables, rules)
    picker = data.get("picker") or {}
    return Rules(
        path=path,
        documents=MappingProxyType(documents),
        sentinels=MappingProxyType(sentinels),
        option_fields=tuple(picker.get("option_fields", DEFAULT_OPTION_FIELDS)),
        gate=_gate(data, path),
        rules=tuple(rules),
        lines=lines,
        selectors=MappingProxyType(named),
        tables=MappingProxyType({k: MappingProxyType(v) for k, v in tables.items()}),
    )


def _gate(data: Mapping[str, Any], path: str) -> FileScope:
    globs = []
    for index, text in enumerate((data.get("gate") or {}).get("files", ())):
        try:
            globs.append(parse_glob(text))
        except GlobError as exc:
            raise LocatedError(str(exc), ["gate", "files", index]) from None
    return FileScope.of(globs, path) if globs else FileScope()  # every file, from nowhere


def _check_tables_used(tables: Mapping[str, Mapping[str, str]], rules: Sequence[Rule]) -> None:
    """A table no relation looks anything up in guards nothing: say so."""
    used = {
        ref.table
        for rule in rules
        for assertion in rule.assertions
        if isinstance(assertion, SameAssertion)
        for ref in assertion.refs
    }
    for name in tables:
        if name not in used:
            message = f"the table {quoted(name)} is used by no relation (map: {name})"
            raise LocatedError(message, ["tables", name])


def _at(path: str, line: int | None) -> str:
    return path if line is None else f"{path}:{line}"


def _selectors(raw: Mapping[str, Any]) -> dict[str, Named]:
    """The named selectors, checked: unique names, references that exist, no cycle."""
    named: dict[str, Named] = {}
    for kind in ("services", "volumes"):
        for name, spec in (raw.get(kind) or {}).items():
            keys = ["selectors", kind, name]
            if name in named:
                message = f"the selector name {quoted(name)} is already used for {named[name].kind}"
                raise LocatedError(message, keys)
            kind_: Kind = "services" if kind == "services" else "volumes"
            named[name] = Named(name, kind_, parse_selector(spec, kind_, keys))
    for name, selector in named.items():
        problem = check_references(named, selector.node, selector.kind)
        if problem is not None:
            raise LocatedError(problem, ["selectors", selector.kind, name])
    cycle = find_cycle(named)
    if cycle is not None:
        message = f"selectors refer to each other in a circle: {' -> '.join(cycle)}"
        raise LocatedError(message, ["selectors", named[cycle[0]].kind, cycle[0]])
    return named


def _check_selectors(
    assertion: AnyAssertion, named: Mapping[str, Named], keys: list[str | int]
) -> bool:
    """Check an assertion's selector references; True when it reads the baseline."""
    baseline = False
    for kind, node in assertion_selectors(assertion):
        problem = check_references(named, node, kind)
        if problem is not None:
            raise LocatedError(problem, [*keys, kind])
        baseline = baseline or uses_baseline(named, node)
    for doc_path_ in assertion_paths(assertion):
        for name in doc_path_.selectors:
            if name not in named:
                known = ", ".join(sorted(named)) or "none"
                message = (
                    f"path {quoted(doc_path_.text)}: no selector is named {quoted(name)} "
                    f"(declared: {known})"
                )
                raise LocatedError(message, keys)
            baseline = baseline or uses_baseline(named, named[name].node)
    return baseline
