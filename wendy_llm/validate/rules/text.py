"""Text assertions on rendered files, and text captured from them for relations.

``file: GLOB`` names rendered files by path (a glob of the one dialect,
:mod:`wendy_llm.repo.globs`, as ``gate.files``; parsed when the rules file
is read, ``${VAR}`` in it standing for the value, :mod:`patterns`).  Every file it
matches must satisfy the operator:

- ``contains: TEXT`` / ``excludes: TEXT``: a plain substring;
- ``matches: REGEX``: a regular expression (Go's ``regexp``, RE2 syntax,
  linear in the text) found anywhere in the file, with ``^``/``$`` matching
  at line ends; a ``${VAR}`` in it stands for the value, escaped.

A glob that matches no file fails ``contains`` and ``matches`` (the file
the rule is about is gone) and holds ``excludes``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wendy_llm.engine import gofuncs
from wendy_llm.errors import quoted
from wendy_llm.repo.globs import Glob
from wendy_llm.validate.rules.assertions import TextAssertion
from wendy_llm.validate.rules.patterns import RuleGlob
from wendy_llm.validate.rules.values import regex_search, substitute, substitute_regex


@dataclass(frozen=True)
class TextProblem:
    """A failed text assertion: where (None: the rules file) and what."""

    file: str | None
    line: int | None
    message: str


@dataclass(frozen=True)
class Captured:
    value: str
    file: str
    line: int


def matching_files(tree: Mapping[str, bytes], glob: Glob) -> list[str]:
    return sorted(p for p in tree if glob.matches(p))


def _line_at(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _decoded(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def check_text(
    assertion: TextAssertion, tree: Mapping[str, bytes], values: Mapping[str, object]
) -> list[TextProblem]:
    """Every way ``assertion`` fails on the render (``UnknownVariable`` propagates)."""
    glob = assertion.glob.resolve(values)
    files = matching_files(tree, glob)
    op = assertion.operator
    if op == "matches":
        wanted = substitute_regex(assertion.expected, values)
    else:
        wanted = substitute(assertion.expected, values)
    if not files:
        if op == "excludes":
            return []
        return [TextProblem(None, None, f"no rendered file matches {glob}")]
    out = []
    for path in files:
        text = _decoded(tree[path])
        if op == "contains" and wanted not in text:
            out.append(TextProblem(path, None, f"{path} does not contain {quoted(wanted)}"))
        elif op == "excludes" and wanted in text:
            line = _line_at(text, text.index(wanted))
            out.append(TextProblem(path, line, f"{path} contains {quoted(wanted)} (must not)"))
        elif op == "matches" and not regex_search(wanted, text):
            out.append(TextProblem(path, None, f"{path} has nothing matching /{wanted}/"))
    return out


def captures(
    glob: RuleGlob, capture: str, tree: Mapping[str, bytes], values: Mapping[str, object]
) -> list[Captured]:
    """Each match of ``capture`` in the files ``glob`` names: its first group, else the match."""
    pattern = "(?m)" + substitute_regex(capture, values)
    out = []
    for path in matching_files(tree, glob.resolve(values)):
        text = _decoded(tree[path]).encode()  # Go's offsets are in UTF-8 bytes
        for at, start, end in gofuncs.find_all(pattern, text.decode()):
            value = text[start:end].decode()
            out.append(Captured(value, path, text.count(b"\n", 0, at) + 1))
    return out
