"""The ``topology`` validator: a template's rules, checked on each pick's parsed render.

The rules come from the template's rules file (:mod:`rules`).  For each
pick, every rule whose ``picks`` selector selects it is evaluated on the
parsed documents of that pick's render; ``${VAR}`` in paths and expected
values is the pick's value of ``VAR`` (``${APP_ID}``, ``${PORT}``, or a
picker answer such as ``${OLLAMA_MODEL}``), formatted as the template
engine prints it; ``$$`` stands for a literal ``$`` (``$${WENDY_HOSTNAME}``).

Operators (one per assertion):

- ``absent: true`` / ``present: true``: the path reaches nothing / something;
- ``equals: X``: the path reaches something, and every value reached is X;
- ``contains: X``: the values reached, with lists contributing their items
  and mappings their keys, include X (so ``depends_on`` may be a list or a
  mapping); ``excludes: X`` is its negation (nothing reached excludes X);
- ``matches: RE``: the path reaches something, and every value reached
  matches the regular expression RE in full.

Scalars compare by their text when X is a string (``8080`` equals
``"8080"``, ``true`` equals ``"true"``), and by value and type otherwise.

:func:`rule_coverage` checks the rules against the template as a whole:
a rule naming an unknown pick or question, or selecting no pick at all, is
an error (a rule that never runs guards nothing).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from wendy_llm.engine.gofuncs import format_value as go_format_value
from wendy_llm.validate.docpath import DocPath, Match, resolve
from wendy_llm.validate.documents import Documents, Parsed, parse_json, parse_yaml
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.rules import Assertion, Rule, Rules
from wendy_llm.validate.schema import json_path

CHECK = "topology"

_VAR = re.compile(r"\$\$|\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\}")


class _UnknownVariable(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def substitute(text: str, values: Mapping[str, object]) -> str:
    """``text`` with ``${VAR}`` replaced by the pick's value of ``VAR``; ``$$`` is ``$``."""

    def one(match: re.Match[str]) -> str:
        name = match.group("name")
        if name is None:
            return "$"
        if name not in values:
            raise _UnknownVariable(name)
        return go_format_value(values[name])

    return _VAR.sub(one, text)


def rule_documents(
    rules: Rules, tree: Mapping[str, bytes], docs: Documents
) -> dict[str, Parsed | None]:
    """Every document the rules can name, parsed from the render (None: absent)."""
    out: dict[str, Parsed | None] = {"compose": docs.compose, "wendy": docs.wendy}
    for name, path in rules.documents.items():
        if path not in tree:
            out[name] = None
        elif PurePosixPath(path).suffix.lower() == ".json":
            out[name] = parse_json(path, tree[path], check=CHECK)
        else:
            out[name] = parse_yaml(path, tree[path], check=CHECK)
    return out


def check_topology(
    rules: Rules,
    slug: str,
    values: Mapping[str, object],
    tree: Mapping[str, bytes],
    docs: Documents,
) -> list[Finding]:
    """Evaluate every rule that selects this pick; one finding per failed assertion."""
    documents = rule_documents(rules, tree, docs)
    findings: list[Finding] = []
    for rule in rules.rules:
        if not rule.picks.selects(slug, values):
            continue
        for assertion in rule.assertions:
            found = _evaluate(rule, assertion, documents, values, rules.path)
            if found is not None:
                findings.append(found)
    return findings


def _describe_value(value: object) -> str:
    if isinstance(value, str):
        return repr(value)
    return json.dumps(value, sort_keys=True, default=str)


def _text(value: object) -> str | None:
    """A scalar's text as the document means it; None for containers."""
    if isinstance(value, Mapping | list):
        return None
    if value is None:
        return "null"
    return go_format_value(value)


def _same(actual: object, expected: object) -> bool:
    if isinstance(expected, str):
        return _text(actual) == expected
    if isinstance(actual, bool) != isinstance(expected, bool):
        return False
    return actual == expected


def _collection(matches: Sequence[Match]) -> list[object]:
    items: list[object] = []
    for match in matches:
        if isinstance(match.value, list):
            items += match.value
        elif isinstance(match.value, Mapping):
            items += [str(k) for k in match.value]
        else:
            items.append(match.value)
    return items


def _evaluate(
    rule: Rule,
    assertion: Assertion,
    documents: Mapping[str, Parsed | None],
    values: Mapping[str, object],
    rules_path: str,
) -> Finding | None:
    prefix = f"rule {rule.name!r}: "
    suffix = f" ({assertion.message})" if assertion.message else ""
    try:
        path = assertion.path.substitute(lambda text: substitute(text, values))
        expected = assertion.expected
        if isinstance(expected, str):
            expected = substitute(expected, values)
    except _UnknownVariable as exc:
        message = f"{prefix}${{{exc.name}}} is not a variable of this render"
        return error(CHECK, message, rules_path, assertion.line)
    shown = _path_text(path)
    op = assertion.operator
    document = documents.get(path.document)
    if document is None:
        if op in ("absent", "excludes"):
            return None
        message = f"{prefix}{shown}: the render has no {path.document} document{suffix}"
        return error(CHECK, message, rules_path, assertion.line)
    if document.problem is not None:
        message = f"{prefix}cannot check {shown}: {document.path} does not parse"
        return error(CHECK, message, document.path, document.problem.line)
    matches = resolve(path, document.data)

    def fail(text: str, keys: Sequence[str | int] = ()) -> Finding:
        line = document.lines.line(list(keys)) if keys else _nearest_line(path, document)
        return error(CHECK, f"{prefix}{text}{suffix}", document.path, line)

    if op == "absent":
        if matches:
            return fail(
                f"{_match_text(path, matches[0])} is present (must be absent)", matches[0].keys
            )
        return None
    if op == "excludes":
        if any(_same(item, expected) for item in _collection(matches)):
            return fail(f"{shown} contains {_describe_value(expected)} (must not)", matches[0].keys)
        return None
    if not matches:
        want = "" if op == "present" else f" (expected {op} {_describe_value(expected)})"
        return fail(f"{shown} is missing{want}")
    if op == "present":
        return None
    if op == "contains":
        items = _collection(matches)
        if any(_same(item, expected) for item in items):
            return None
        has = ", ".join(_describe_value(i) for i in items) or "nothing"
        return fail(
            f"{shown} does not contain {_describe_value(expected)} (it has {has})", matches[0].keys
        )
    for match in matches:
        if op == "equals" and not _same(match.value, expected):
            return fail(
                f"{_match_text(path, match)} is {_describe_value(match.value)}, "
                f"expected {_describe_value(expected)}",
                match.keys,
            )
        if op == "matches":
            text = _text(match.value)
            if text is None or re.fullmatch(str(expected), text) is None:
                return fail(
                    f"{_match_text(path, match)} is {_describe_value(match.value)}, "
                    f"which does not match /{expected}/",
                    match.keys,
                )
    return None


def _path_text(path: DocPath) -> str:
    parts: list[str | int] = [path.document]
    for index, segment in enumerate(path.segments):
        parts.append("*" if index in path.wildcard_keys else segment)
    return json_path(parts)


def _match_text(path: DocPath, match: Match) -> str:
    return json_path([path.document, *match.keys])


def _nearest_line(path: DocPath, document: Parsed) -> int | None:
    """The line of the deepest existing ancestor of a missing path."""
    best: tuple[str | int, ...] = ()
    for depth in range(1, len(path.segments) + 1):
        prefix = DocPath(path.text, path.document, path.segments[:depth], path.wildcard_keys)
        reached = resolve(prefix, document.data)
        if not reached:
            break
        best = reached[0].keys
    return document.lines.line(list(best)) if best else 1


def rule_coverage(
    rules: Rules,
    picks: Sequence[tuple[str, Mapping[str, object]]],
    questions: Sequence[str],
) -> list[Finding]:
    """Template-wide problems of the rules: unknown picks or questions, dead rules.

    ``picks`` is every pick of the template (slug, values), not a subset,
    so running ``check --pick X`` does not make other rules look dead.
    """
    findings: list[Finding] = []
    slugs = {slug for slug, _ in picks}
    known_vars = set(questions) | {name for _, values in picks for name in values}
    for rule in rules.rules:
        where = f"rule {rule.name!r}"
        for slug in rule.picks.named_slugs():
            if slug not in slugs:
                message = f"{where} names the pick {slug!r}, which the template does not have"
                findings.append(error(CHECK, message, rules.path, rule.line))
        for name in [*rule.picks.when, *rule.picks.unless]:
            if name not in known_vars:
                message = f"{where} selects on {name!r}, which is not a variable of the template"
                findings.append(error(CHECK, message, rules.path, rule.line))
        if not any(rule.picks.selects(slug, values) for slug, values in picks):
            message = f"{where} selects no pick, so it checks nothing"
            findings.append(error(CHECK, message, rules.path, rule.line))
    return findings
