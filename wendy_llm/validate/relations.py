"""Relations between values: ``same: [REF, ...]`` holds when every value reached is the same.

A reference is a path (into any document; ``@name`` segments select by
identity) or text captured from rendered files.  Values compare by their
text, as the template wrote them (``8000`` and ``"8000"`` are the same).
A reference that reaches nothing fails the relation unless it is
``optional``, which is how one rule covers a value that a later change
adds: "Open WebUI's key equals vLLM's, and its image's too once it has
one".
"""

from __future__ import annotations

from dataclasses import dataclass

from wendy_llm.errors import quoted
from wendy_llm.validate.assertions import SameAssertion, ValueRef
from wendy_llm.validate.rulevalues import describe_value, scalar_text, substitute
from wendy_llm.validate.schema import json_path
from wendy_llm.validate.subject import Subject
from wendy_llm.validate.textrules import captures


@dataclass(frozen=True)
class Value:
    """One value a reference reached, and where."""

    text: str | None  # None: not a single value (a list or a mapping)
    raw: object
    shown: str  # the concrete path, or the file
    file: str | None
    line: int | None


@dataclass(frozen=True)
class RelationProblem:
    file: str | None
    line: int | None
    message: str


def reached(ref: ValueRef, subject: Subject) -> tuple[list[Value], str | None]:
    """The values ``ref`` reaches, or why it reaches none (None: it may reach none)."""
    if ref.path is None:
        assert ref.file is not None and ref.capture is not None
        got = captures(ref.file, ref.capture, subject.tree, subject.values)
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
        if missing is not None:
            problems.append(RelationProblem(None, None, missing))
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
