"""The ``topology`` validator: a template's rules, checked on each pick's render.

The rules come from the template's rules file (:mod:`rules`); each pick's
render is a :class:`~wendy_llm.validate.subject.Subject` (its normalised
Compose model, its device view, ``wendy.json``, its files, and the stored
baseline rendered with the same answers).  Every rule whose ``picks``
selects the pick is evaluated; each failed assertion is one finding
naming the rule, pointing at the file and line at fault.

Path operators (one per assertion):

- ``absent: true`` / ``present: true``: the path reaches nothing / something;
- ``equals: X``: the path reaches something, and every value reached is X;
- ``contains: X``: the values reached, with lists contributing their items
  and mappings their keys, include X (so ``depends_on`` may be a list or a
  mapping); ``excludes: X`` is its negation (nothing reached excludes X);
- ``matches: RE``: the path reaches something, and every value reached
  matches the regular expression RE in full.

Scalars compare by their text when X is a string (``8080`` equals
``"8080"``, ``true`` equals ``"true"``), and by value and type otherwise.
Selector assertions (``services:``/``volumes:``), relations (``same:``)
and text assertions (``file:``) are described in :mod:`assertions`.

:func:`rule_coverage` checks the rules against the template as a whole:
a rule naming an unknown pick or question, or selecting no pick at all, is
an error (a rule that never runs guards nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wendy_llm.codes import Check
from wendy_llm.codes.builds import (
    TOP_RULE_FAILED,
    TOP_RULE_UNCHECKABLE,
    TOP_SELECTS_NOTHING,
    TOP_UNKNOWN_PICK,
    TOP_UNKNOWN_VARIABLE,
)
from wendy_llm.errors import quoted
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.rules.assertions import (
    AnyAssertion,
    Assertion,
    SameAssertion,
    SelectAssertion,
    TextAssertion,
)
from wendy_llm.validate.rules.docpath import DocPath, Match, resolve
from wendy_llm.validate.rules.file import Rule, Rules
from wendy_llm.validate.rules.relations import check_same
from wendy_llm.validate.rules.selectors import describe
from wendy_llm.validate.rules.subject import RuleDocument, Subject
from wendy_llm.validate.rules.text import check_text
from wendy_llm.validate.rules.values import (
    DocumentProblem,
    RuleProblem,
    UnknownVariable,
    describe_value,
    regex_full_match,
    same_value,
    scalar_text,
    substitute,
)
from wendy_llm.validate.schema import json_path

CHECK = Check.TOPOLOGY


def check_topology(rules: Rules, subject: Subject) -> list[Finding]:
    """Evaluate every rule that selects this pick; one finding per failed assertion.

    A document that cannot be read (a compose file Compose refuses) stops
    every rule reading it: that is one finding at the document, naming the
    rules, not one per assertion.
    """
    findings: list[Finding] = []
    blocked: dict[tuple[str, str, int | None], list[str]] = {}
    for rule in rules.rules:
        if not rule.picks.selects(subject.slug, subject.values):
            continue
        for assertion in rule.assertions:
            try:
                findings += _evaluate(rule, assertion, subject, rules.path)
            except DocumentProblem as exc:
                names = blocked.setdefault((str(exc), exc.file, exc.line), [])
                if rule.name not in names:
                    names.append(rule.name)
    for (problem, file, line), names in blocked.items():
        which = ", ".join(quoted(n) for n in names)
        noun = "rule" if len(names) == 1 else "rules"
        message = f"{noun} {which} cannot be checked: {problem}{whole_file(file, line)}"
        findings.append(error(TOP_RULE_UNCHECKABLE, message, file, line or 1, subject=problem))
    return findings


class _Where:
    """How one assertion's findings are worded and located."""

    def __init__(self, rule: Rule, assertion: AnyAssertion, rules_path: str) -> None:
        self.prefix = f"rule {quoted(rule.name)}: "
        self.subject = f"rule {rule.name}"
        self.suffix = f" ({assertion.message})" if assertion.message else ""
        self.rules_path = rules_path
        self.line = assertion.line

    def fail(self, text: str, file: str | None = None, line: int | None = None) -> Finding:
        if file is None:
            file, line = self.rules_path, self.line
        message = f"{self.prefix}{text}{self.suffix}{whole_file(file, line)}"
        return error(TOP_RULE_FAILED, message, file, line or 1, subject=self.subject)


def whole_file(file: str, line: int | None) -> str:
    """A finding about ``file`` as a whole (no ``line``) is at its line 1, and says so
    in these words (issue 37); "" when it has a line."""
    return "" if line is not None else f" (line 1: {file} as a whole)"


def _evaluate(
    rule: Rule, assertion: AnyAssertion, subject: Subject, rules_path: str
) -> list[Finding]:
    where = _Where(rule, assertion, rules_path)
    try:
        if isinstance(assertion, Assertion):
            found = _path(assertion, subject, where)
            return [] if found is None else [found]
        if isinstance(assertion, SelectAssertion):
            return _select(assertion, subject, where)
        if isinstance(assertion, SameAssertion):
            return [where.fail(p.message, p.file, p.line) for p in check_same(assertion, subject)]
        return _text(assertion, subject, where)
    except UnknownVariable as exc:
        return [where.fail(f"${{{exc.name}}} is not a variable of this render")]
    except DocumentProblem:
        raise
    except RuleProblem as exc:
        return [where.fail(f"cannot be checked: {exc}")]


def _text(assertion: TextAssertion, subject: Subject, where: _Where) -> list[Finding]:
    return [
        where.fail(p.message, p.file, p.line)
        for p in check_text(assertion, subject.tree, subject.values)
    ]


_NOUNS = {"services": "service", "volumes": "volume"}


def _select(assertion: SelectAssertion, subject: Subject, where: _Where) -> list[Finding]:
    evaluator = subject.evaluator
    if assertion.kind == "services":
        chosen = [(s.name, s.line, r) for s, r in evaluator.services(assertion.node)]
    else:
        chosen = [(v.key, v.line, r) for v, r in evaluator.volumes(assertion.node)]
    noun = _NOUNS[assertion.kind]
    if assertion.label is not None:
        is_ = f"is {assertion.label}"
        are = f"are {assertion.label}"
    else:
        shown = substitute(describe(assertion.node), subject.values)
        is_, are = f"matches {shown}", f"match {shown}"
    file = _compose_file(subject)
    if assertion.operator == "absent":
        return [
            where.fail(
                f"{noun} {quoted(name)} {is_} ({'; '.join(why)}), which must be absent", file, line
            )
            for name, line, why in chosen
        ]
    if assertion.operator == "present":
        return [] if chosen else [where.fail(f"no {noun} {is_} (one must)")]
    expected = assertion.expected
    if len(chosen) == expected:
        return []
    names = ", ".join(quoted(name) for name, _, _ in chosen) or "none"
    word = noun if len(chosen) == 1 else assertion.kind
    return [
        where.fail(
            f"{len(chosen)} {word} {is_ if len(chosen) == 1 else are} ({names}), "
            f"expected {expected}"
        )
    ]


def _compose_file(subject: Subject) -> str | None:
    compose = subject.documents.get("compose")
    if compose is not None:
        return compose.file
    return subject.view.path_file if subject.view is not None else None


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


def _path(assertion: Assertion, subject: Subject, where: _Where) -> Finding | None:
    path, document, matches = subject.resolve(assertion.path)
    expected = assertion.expected
    if isinstance(expected, str):
        expected = substitute(expected, subject.values)
    shown = substitute(assertion.path.text, subject.values) + _selected(path, subject)
    op = assertion.operator
    if document is None:
        if op in ("absent", "excludes"):
            return None
        return where.fail(f"{shown}: the render has no {path.document} document")

    def fail(text: str, keys: Sequence[str | int] | None = None) -> Finding:
        if keys is not None:
            return where.fail(text, *document.locate(keys))
        return where.fail(text, document.file, _nearest_line(path, document, subject))

    if op == "absent":
        if matches:
            return fail(
                f"{_match_text(path, matches[0])} is present (must be absent)", matches[0].keys
            )
        return None
    if op == "excludes":
        if any(same_value(item, expected) for item in _collection(matches)):
            return fail(f"{shown} contains {describe_value(expected)} (must not)", matches[0].keys)
        return None
    if not matches:
        want = "" if op == "present" else f" (expected {op} {describe_value(expected)})"
        return fail(f"{shown} is missing{want}")
    if op == "present":
        return None
    if op == "contains":
        items = _collection(matches)
        if any(same_value(item, expected) for item in items):
            return None
        has = ", ".join(describe_value(i) for i in items) or "nothing"
        return fail(
            f"{shown} does not contain {describe_value(expected)} (it has {has})", matches[0].keys
        )
    for match in matches:
        if op == "equals" and not same_value(match.value, expected):
            return fail(
                f"{_match_text(path, match)} is {describe_value(match.value)}, "
                f"expected {describe_value(expected)}",
                match.keys,
            )
        if op == "matches":
            text = scalar_text(match.value)
            if text is None or not regex_full_match(str(expected), text):
                return fail(
                    f"{_match_text(path, match)} is {describe_value(match.value)}, "
                    f"which does not match /{expected}/",
                    match.keys,
                )
    return None


def _selected(path: DocPath, subject: Subject) -> str:
    """`` (@vllm: "llm")``: what each ``@name`` of the path stands for here."""
    parts = []
    for name, keys in subject.selections(path).items():
        parts.append(f"@{name}: " + (", ".join(quoted(k) for k in keys) or f"nothing is {name}"))
    return f" ({'; '.join(parts)})" if parts else ""


def _match_text(path: DocPath, match: Match) -> str:
    return json_path([path.document, *match.keys])


def _nearest_line(path: DocPath, document: RuleDocument, subject: Subject) -> int | None:
    """The line of the deepest existing ancestor of a missing path."""
    best: tuple[str | int, ...] = ()
    selections = subject.selections(path)
    for depth in range(1, len(path.segments) + 1):
        reached = resolve(path.prefix(depth), document.data, selections)
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
        where = f"rule {quoted(rule.name)}"
        for slug in rule.picks.named_slugs():
            if slug not in slugs:
                message = f"{where} names the pick {quoted(slug)}, which the template does not have"
                findings.append(
                    error(TOP_UNKNOWN_PICK, message, rules.path, rule.line, subject=where)
                )
        for name in [*rule.picks.when, *rule.picks.unless]:
            if name not in known_vars:
                message = (
                    f"{where} selects on {quoted(name)}, which is not a variable of the template"
                )
                findings.append(
                    error(TOP_UNKNOWN_VARIABLE, message, rules.path, rule.line, subject=where)
                )
        if not any(rule.picks.selects(slug, values) for slug, values in picks):
            message = f"{where} selects no pick, so it checks nothing"
            findings.append(
                error(TOP_SELECTS_NOTHING, message, rules.path, rule.line, subject=where)
            )
    return findings
