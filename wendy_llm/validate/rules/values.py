"""Values in rules: ``${VAR}`` substitution, and scalars compared by their text.

``${VAR}`` in paths, expected values, globs and texts is the pick's value
of ``VAR`` (``${APP_ID}``, ``${PORT}``, a picker answer), formatted as the
template engine prints it; ``$$`` stands for a literal ``$``
(``$${WENDY_HOSTNAME}``).  In a regular expression (and in a glob,
:mod:`patterns`) the value is escaped, so an app id's dots match dots.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence

from wendy_llm.engine import gofuncs
from wendy_llm.engine.gofuncs import format_value as go_format_value

_VAR = re.compile(r"\$\$|\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\}")


class LocatedError(ValueError):
    """A mistake in the rules file; ``keys`` locate it (``rules[2].assert[0].path``)."""

    def __init__(self, message: str, keys: Sequence[str | int]) -> None:
        super().__init__(message)
        self.keys = tuple(keys)


class RuleProblem(Exception):
    """A rule cannot be evaluated on this render (the message says why)."""


class DocumentProblem(RuleProblem):
    """A document the rule reads cannot be read (it does not parse, Compose refuses it).

    Every rule reading it is stopped by the same cause, so ``topology``
    reports it once, naming the rules, at the document.
    """

    def __init__(self, message: str, file: str, line: int | None) -> None:
        super().__init__(message)
        self.file = file
        self.line = line


class UnknownVariable(Exception):
    """A ``${VAR}`` that is not a variable of the render."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def substitute(
    text: str, values: Mapping[str, object], quote: Callable[[str], str] = lambda s: s
) -> str:
    """``text`` with ``${VAR}`` replaced by ``quote`` of the pick's value; ``$$`` is ``$``."""

    def one(match: re.Match[str]) -> str:
        name = match.group("name")
        if name is None:
            return "$"
        if name not in values:
            raise UnknownVariable(name)
        return quote(go_format_value(values[name]))

    return _VAR.sub(one, text)


def substitute_regex(text: str, values: Mapping[str, object]) -> str:
    """A regular expression with ``${VAR}`` replaced by the value, escaped."""
    return substitute(text, values, re.escape)


# The rules' regular expressions are Go's (RE2 syntax), run by the Go helper:
# its matching takes time linear in the text, where Python's backtracking
# ``re`` took minutes on ``^# (a|aa)+$`` and a 46-character line.


def regex_error(pattern: str) -> str | None:
    """Why ``pattern`` is no regular expression of the rules' dialect (Go's
    ``regexp.Compile`` error), or None."""
    return gofuncs.regexp_error(pattern)


def regex_search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches anywhere in ``text``, ``^``/``$`` at line ends."""
    return gofuncs.match_string(f"(?m){pattern}", text)


def regex_full_match(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches the whole of ``text``."""
    return gofuncs.match_string(rf"^(?:{pattern})\z", text)


def scalar_text(value: object) -> str | None:
    """A scalar's text as the document means it; None for containers."""
    if isinstance(value, Mapping | list):
        return None
    if value is None:
        return "null"
    return go_format_value(value)


def same_value(actual: object, expected: object) -> bool:
    """Scalars compare by text when ``expected`` is text (``8080`` equals ``"8080"``)."""
    if isinstance(expected, str):
        return scalar_text(actual) == expected
    if isinstance(actual, bool) != isinstance(expected, bool):
        return False
    return actual == expected


def describe_value(value: object) -> str:
    """A document's value as a finding shows it: JSON's spelling (``"x"``, ``8080``,
    ``null``, ``true``, ``{"a": 1}``); a string is :func:`wendy_llm.errors.quoted`."""
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
