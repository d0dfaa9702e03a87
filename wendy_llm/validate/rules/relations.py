"""Relations between values: ``same: [REF, ...]`` holds when every value reached is the same.

A reference is a path (into any document; ``@name`` segments select by
identity) or text captured from rendered files.  Values compare by their
text, as the template wrote them (``8000`` and ``"8000"`` are the same).
A reference that reaches nothing fails the relation unless it is
``optional``, which is how one rule covers a value that a later change
adds: "Open WebUI's key equals vLLM's, and its image's too once it has
one".  A reference may compare something derived from each value instead
(``key: true``, ``url: port``, ``map: TABLE``; :mod:`derive`): "Open
WebUI's backend URL has the port vLLM listens on", "the draft model is the
drafter of the target".
"""

from __future__ import annotations

from dataclasses import dataclass

from wendy_llm.errors import quoted
from wendy_llm.validate.rules.assertions import SameAssertion, ValueRef
from wendy_llm.validate.rules.derive import DeriveProblem, table_entry, url_part
from wendy_llm.validate.rules.subject import Subject
from wendy_llm.validate.rules.text import captures
from wendy_llm.validate.rules.values import describe_value, scalar_text, substitute
from wendy_llm.validate.schema import json_path


@dataclass(frozen=True)
class Value:
    """One value a reference reached, and where."""

    text: str | None  # None: not a single value (a list or a mapping)
    raw: object
    shown: str  # the concrete path, or the file
    file: str | None
    line: int | None
    keys: tuple[str | int, ...] = ()  # where a path found it (empty for captured text)


@dataclass(frozen=True)
class RelationProblem:
    file: str | None
    line: int | None
    message: str


def reached(ref: ValueRef, subject: Subject) -> tuple[list[Value], list[RelationProblem]]:
    """The values ``ref`` reaches (derived as it asks), and why some or all could not be."""
    values, missing = _reached_as_written(ref, subject)
    problems = [] if missing is None else [RelationProblem(None, None, missing)]
    if not (ref.key or ref.url or ref.table):
        return values, problems
    out = []
    for value in values:
        try:
            out.append(_derived(ref, value))
        except DeriveProblem as exc:
            problems.append(RelationProblem(value.file, value.line, f"{value.shown}: {exc}"))
    return out, problems


def _derived(ref: ValueRef, value: Value) -> Value:
    """``value`` with the reference's ``key``, ``url`` and ``map`` applied, in that order."""
    text, shown = value.text, value.shown
    if ref.key:
        if not value.keys:
            raise DeriveProblem("the whole document has no key")
        text = str(value.keys[-1])
        shown = f"the key of {shown}"
    if text is None:
        raise DeriveProblem(f"it is {describe_value(value.raw)}, not a single value")
    if ref.url is not None:
        shown = f"the {ref.url} of {shown} = {quoted(text)}"
        text = url_part(text, ref.url)
    if ref.table is not None:
        if ref.url is None:
            shown = f"{shown} = {quoted(text)}"
        text = table_entry(text, ref.table, dict(ref.entries))
        shown = f"the {ref.table} entry of {shown}"
    return Value(text, text, shown, value.file, value.line, value.keys)


def _reached_as_written(ref: ValueRef, subject: Subject) -> tuple[list[Value], str | None]:
    """The values ``ref`` reaches, or why it reaches none (None: it may reach none)."""
    if ref.path is None:
        assert ref.glob is not None and ref.capture is not None
        got = captures(ref.glob, ref.capture, subject.tree, subject.values)
        values = [Value(c.value, c.value, f"{c.file}:{c.line}", c.file, c.line) for c in got]
        return values, None if values or ref.optional else f"nothing in {ref.shown}"
    path, document, matches = subject.resolve(ref.path)
    if document is None:
        why = f"{substitute(ref.shown, subject.values)}: the render has no {path.document} document"
        return [], None if ref.optional else why
    values = [
        Value(
            scalar_text(m.value),
            m.value,
            json_path([path.document, *m.keys]),
            *document.locate(m.keys),
            m.keys,
        )
        for m in matches
    ]
    if not values and not ref.optional:
        empty = [n for n, keys in subject.selections(path).items() if not keys]
        hint = f" (nothing is {', '.join(empty)})" if empty else ""
        return [], f"{substitute(ref.shown, subject.values)} reaches nothing{hint}"
    return values, None


def _where(value: Value) -> str:
    if value.file is None or value.shown.startswith(f"{value.file}:"):
        return value.shown
    line = f":{value.line}" if value.line is not None else ""
    return f"{value.shown} ({value.file}{line})"


def check_same(assertion: SameAssertion, subject: Subject) -> list[RelationProblem]:
    """Why the relation does not hold (empty: it holds)."""
    values: list[Value] = []
    problems: list[RelationProblem] = []
    for ref in assertion.refs:
        got, missing = reached(ref, subject)
        problems += missing
        for value in got:
            if value.text is None:
                message = f"{value.shown} is {describe_value(value.raw)}, not a single value"
                problems.append(RelationProblem(value.file, value.line, message))
            else:
                values.append(value)
    if problems:
        return problems
    if not values:
        return []
    texts = [v.text for v in values]
    if len(set(texts)) == 1:
        return []
    # Point at a value that differs from the most common one: the odd one out.
    usual = max(texts, key=texts.count)
    other = next(v for v in values if v.text != usual)
    listed = "; ".join(
        f"{_where(v)} is {'absent' if v.text is None else quoted(v.text)}" for v in values
    )
    message = f"the values differ: {listed}"
    return [RelationProblem(other.file, other.line, message)]
