"""The assertions of a rule, read from the rules file (the schema checked their types).

Four kinds, told apart by their subject key (exactly one per assertion):

- ``path: P`` with one of ``absent``, ``present``, ``equals``,
  ``contains``, ``excludes``, ``matches``: a value in a document;
- ``services: SEL`` / ``volumes: SEL`` with ``absent``, ``present`` or
  ``count: N``: what a selector picks out of the render;
- ``same: [REF, ...]``: a relation: every value the references reach is
  the same (a reference is a path, or ``{path: P, optional: true}``, or
  ``{file: GLOB, capture: REGEX}``: the first group, else the whole match,
  of each match in the files; ``key: true``, ``url: PART`` and ``map:
  TABLE`` derive another value from each, :mod:`derive`);
- ``file: GLOB`` with ``contains``, ``excludes`` or ``matches``: a text
  assertion on rendered files.

Mistakes raise :class:`LocatedError` with the keys of the assertion at
fault; :mod:`rules` turns them into ``file:line: rules[2] (name):
assert[0]: message``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from wendy_llm.errors import quoted
from wendy_llm.validate.rules.docpath import DocPath, PathSyntaxError, parse_path
from wendy_llm.validate.rules.patterns import RuleGlob, rule_glob
from wendy_llm.validate.rules.selectors import Kind, LocatedError, Node, parse_selector
from wendy_llm.validate.rules.values import regex_error

Scalar = str | int | float | bool | None

SUBJECTS = ("path", "services", "volumes", "same", "file")
OPERATORS: Mapping[str, tuple[str, ...]] = {
    "path": ("absent", "present", "equals", "contains", "excludes", "matches"),
    "services": ("absent", "present", "count"),
    "volumes": ("absent", "present", "count"),
    "same": (),
    "file": ("contains", "excludes", "matches"),
}
ALL_OPERATORS = ("absent", "present", "equals", "contains", "excludes", "matches", "count")


@dataclass(frozen=True)
class Assertion:
    """A path assertion: a path, an operator and what it expects."""

    path: DocPath
    operator: str
    expected: Scalar
    message: str | None
    line: int | None


@dataclass(frozen=True)
class SelectAssertion:
    """What a selector picks out of the render: none, some, or exactly ``expected``."""

    kind: Kind
    node: Node
    label: str | None  # the selector's name; None for an inline one
    operator: str  # absent, present, count
    expected: int | None
    message: str | None
    line: int | None


@dataclass(frozen=True)
class ValueRef:
    """One side of a relation: a path, or text captured from files, and what is
    derived from each value before it compares (:mod:`derive`)."""

    shown: str
    path: DocPath | None = None
    file: str | None = None
    glob: RuleGlob | None = None  # ``file`` parsed
    capture: str | None = None
    optional: bool = False
    key: bool = False  # the last key of the path, not the value there
    url: str | None = None  # a part of a URL or address: scheme, host, port, path
    table: str | None = None  # the name of a table under ``tables:``
    entries: tuple[tuple[str, str], ...] = ()  # that table's entries


@dataclass(frozen=True)
class SameAssertion:
    """A relation: every value the references reach is the same."""

    refs: tuple[ValueRef, ...]
    message: str | None
    line: int | None


@dataclass(frozen=True)
class TextAssertion:
    """A text assertion on every rendered file matching ``file`` (a glob)."""

    file: str
    operator: str  # contains, excludes, matches
    expected: str
    message: str | None
    line: int | None
    glob: RuleGlob  # ``file`` parsed


AnyAssertion = Assertion | SelectAssertion | SameAssertion | TextAssertion


def parse_assertion(
    item: Mapping[str, object],
    keys: Sequence[str | int],
    known: Collection[str],
    line: int | None,
    tables: Mapping[str, Mapping[str, str]] | None = None,
) -> AnyAssertion:
    """One assertion; ``known`` are the document names a path may start with,
    ``tables`` the rules file's tables (for ``map:``)."""
    subjects = [k for k in SUBJECTS if k in item]
    if len(subjects) != 1:
        message = (
            f"an assertion needs exactly one of {', '.join(SUBJECTS)} "
            f"(it has {', '.join(subjects) or 'none'})"
        )
        raise LocatedError(message, keys)
    subject = subjects[0]
    allowed = OPERATORS[subject]
    present = [op for op in ALL_OPERATORS if op in item]
    wrong = [op for op in present if op not in allowed]
    if subject == "same":
        if wrong:
            message = f"a same assertion takes no operator (it has {', '.join(wrong)})"
            raise LocatedError(message, keys)
    elif wrong or len(present) != 1:
        message = (
            f"a {subject} assertion needs exactly one of {', '.join(allowed)} "
            f"(it has {', '.join(present) or 'none'})"
        )
        raise LocatedError(message, keys)
    message_text = item.get("message")
    note = message_text if isinstance(message_text, str) else None
    if subject == "path":
        operator = present[0]
        expected = item[operator]
        if operator == "matches":
            _regex(str(expected), [*keys, operator])
        path = doc_path(str(item["path"]), [*keys, "path"], known)
        return Assertion(path, operator, expected, note, line)  # type: ignore[arg-type]
    if subject in ("services", "volumes"):
        kind: Kind = "services" if subject == "services" else "volumes"
        raw = item[subject]
        node = parse_selector(raw, kind, [*keys, subject])
        label = raw if isinstance(raw, str) else None
        operator = present[0]
        count = item.get("count")
        expected = count if isinstance(count, int) else None
        return SelectAssertion(kind, node, label, operator, expected, note, line)
    if subject == "same":
        raw_refs = item["same"]
        assert isinstance(raw_refs, list)
        refs = tuple(
            _ref(r, [*keys, "same", i], known, tables or {}) for i, r in enumerate(raw_refs)
        )
        return SameAssertion(refs, note, line)
    operator = present[0]
    expected = item[operator]
    if not isinstance(expected, str):
        raise LocatedError(f"a file assertion's {operator} must be text", [*keys, operator])
    if operator == "matches":
        _regex(expected, [*keys, operator])
    file = str(item["file"])
    glob = rule_glob(file, [*keys, "file"])
    return TextAssertion(file, operator, expected, note, line, glob)


def _ref(
    raw: object,
    keys: Sequence[str | int],
    known: Collection[str],
    tables: Mapping[str, Mapping[str, str]],
) -> ValueRef:
    if isinstance(raw, str):
        return ValueRef(raw, path=doc_path(raw, keys, known))
    assert isinstance(raw, Mapping)
    optional = bool(raw.get("optional", False))
    if ("path" in raw) == ("file" in raw):
        raise LocatedError("a reference needs exactly one of path, file", keys)
    derived = _derivations(raw, keys, tables)
    if "path" in raw:
        if "capture" in raw:
            raise LocatedError("capture goes with file, not path", [*keys, "capture"])
        text = str(raw["path"])
        path = doc_path(text, [*keys, "path"], known)
        return replace(derived, shown=text, path=path, optional=optional)
    if "capture" not in raw:
        raise LocatedError('a file reference needs "capture" (a regular expression)', keys)
    if raw.get("key"):
        raise LocatedError("key goes with path, not file (a file has no keys)", [*keys, "key"])
    capture = str(raw["capture"])
    _regex(capture, [*keys, "capture"])
    file = str(raw["file"])
    glob = rule_glob(file, [*keys, "file"])
    shown = f"{file} /{capture}/"
    return replace(derived, shown=shown, file=file, glob=glob, capture=capture, optional=optional)


def _derivations(
    raw: Mapping[str, object], keys: Sequence[str | int], tables: Mapping[str, Mapping[str, str]]
) -> ValueRef:
    """A reference's ``key``, ``url`` and ``map`` (schema-checked types), the table
    resolved, on a blank reference the caller completes."""
    url = raw.get("url")
    table = raw.get("map")
    entries: tuple[tuple[str, str], ...] = ()
    if isinstance(table, str):
        if table not in tables:
            declared = ", ".join(sorted(tables)) or "none"
            message = f"no table is named {quoted(table)} (declared under tables: {declared})"
            raise LocatedError(message, [*keys, "map"])
        entries = tuple(tables[table].items())
    return ValueRef(
        "",
        key=bool(raw.get("key", False)),
        url=url if isinstance(url, str) else None,
        table=table if isinstance(table, str) else None,
        entries=entries,
    )


def _regex(text: str, keys: Sequence[str | int]) -> None:
    problem = regex_error(text)
    if problem is not None:
        raise LocatedError(f"bad regular expression {quoted(text)}: {problem}", keys)


def doc_path(text: str, keys: Sequence[str | int], known: Collection[str]) -> DocPath:
    """A path, checked for syntax and for its document's name."""
    try:
        parsed = parse_path(text)
    except PathSyntaxError as exc:
        raise LocatedError(f"bad path {quoted(text)}: {exc}", keys) from exc
    if parsed.document not in known:
        message = (
            f"path {quoted(text)} names an unknown document {quoted(parsed.document)} "
            f"(known: {', '.join(sorted(known))}; declare others under documents:)"
        )
        raise LocatedError(message, keys)
    return parsed


def assertion_selectors(assertion: AnyAssertion) -> list[tuple[Kind, Node]]:
    """The inline selectors an assertion uses (for reference checks)."""
    if isinstance(assertion, SelectAssertion):
        return [(assertion.kind, assertion.node)]
    return []


def assertion_paths(assertion: AnyAssertion) -> list[DocPath]:
    """The paths an assertion walks (for ``@name`` checks)."""
    if isinstance(assertion, Assertion):
        return [assertion.path]
    if isinstance(assertion, SameAssertion):
        return [r.path for r in assertion.refs if r.path is not None]
    return []
