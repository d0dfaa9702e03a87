"""Word expansion as BuildKit does it for ``FROM``, ``ARG``, ``ENV``, ``COPY``, ...

A port of BuildKit's ``frontend/dockerfile/shell/lex.go`` (``ProcessWord``):
quote removal (``'...'`` literal, ``"..."`` with ``\\"``, ``\\$`` and
``\\\\`` escapes), the escape character (``\\`` or the ``# escape=``
directive's), and variables: ``$VAR``, ``${VAR}``, ``${VAR-word}``,
``${VAR:-word}``, ``${VAR+word}``, ``${VAR:+word}``, ``${VAR?msg}``,
``${VAR:?msg}``, ``${VAR#pattern}``, ``${VAR##pattern}``,
``${VAR%pattern}``, ``${VAR%%pattern}``, ``${VAR/pattern/replacement}``,
``${VAR//pattern/replacement}``.  An unset variable expands to nothing.

Some variables cannot be known here (the ``ENV`` of a base image we do not
see, a platform argument nobody supplied): :class:`Variables` names them,
and an :class:`Expansion` that used one says so instead of guessing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from wendy_llm.errors import WendyLlmError

_SPECIAL_PARAMS = "@*#?-$!0"


class ExpansionError(WendyLlmError):
    """A word BuildKit cannot expand (bad substitution, an unmatched quote, ``${X:?}``)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Variables:
    """What a word is expanded with.

    ``values`` are the variables known to be set; ``unknown`` are names that
    may be set to something this model cannot see; with ``open`` every name
    outside ``values`` and ``unset`` is unknown (a base image's ``ENV`` may
    set anything).
    """

    values: Mapping[str, str] = field(default_factory=dict)
    unknown: frozenset[str] = frozenset()
    open: bool = False
    unset: frozenset[str] = frozenset()  # known to be unset, even when open

    def is_unknown(self, name: str) -> bool:
        if name in self.values or name in self.unset:
            return False
        return self.open or name in self.unknown


@dataclass(frozen=True)
class Expansion:
    """An expanded word; ``unknown`` lists the unknowable variables it used.

    When ``unknown`` is not empty, ``text`` is what the word would be were
    those variables unset: a guess, not a fact.
    """

    text: str
    unknown: tuple[str, ...] = ()

    @property
    def exact(self) -> bool:
        return not self.unknown


def expand(word: str, variables: Variables, escape: str = "\\") -> Expansion:
    """Expand one word as BuildKit's ``ProcessWord`` does."""
    lexer = _Lexer(word, variables, escape)
    text = lexer.word_until(None, raw_escapes=False)
    return Expansion(text, tuple(dict.fromkeys(lexer.unknown)))


def exact_word(word: str, variables: Variables, escape: str = "\\") -> str | None:
    """``word`` expanded, or None where it cannot be, or where it depends on a
    variable nobody can know (a check that needs a fact takes no guess)."""
    try:
        expansion = expand(word, variables, escape)
    except ExpansionError:
        return None
    return expansion.text if expansion.exact else None


class _Lexer:
    def __init__(self, word: str, variables: Variables, escape: str) -> None:
        self.text = word
        self.pos = 0
        self.variables = variables
        self.escape = escape
        self.unknown: list[str] = []

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def next(self) -> str:
        ch = self.peek()
        self.pos += 1 if ch else 0
        return ch

    def lookup(self, name: str) -> tuple[str, bool]:
        """(value, set); an unknowable variable counts as unset and is recorded."""
        if name in self.variables.values:
            return self.variables.values[name], True
        if self.variables.is_unknown(name):
            self.unknown.append(name)
        return "", False

    def word_until(self, stop: str | None, raw_escapes: bool) -> str:
        out: list[str] = []
        while self.peek():
            ch = self.peek()
            if stop is not None and ch == stop:
                self.next()
                return "".join(out)
            if ch == "$":
                out.append(self.dollar())
            elif ch == "'":
                out.append(self.single_quoted())
            elif ch == '"':
                out.append(self.double_quoted())
            else:
                ch = self.next()
                if ch == self.escape:
                    if raw_escapes:
                        out.append(ch)
                    ch = self.next()
                    if not ch:
                        break
                out.append(ch)
        if stop is not None:
            raise ExpansionError(f"unexpected end of statement while looking for matching {stop}")
        return "".join(out)

    def single_quoted(self) -> str:
        self.next()
        start = self.pos
        end = self.text.find("'", start)
        if end < 0:
            raise ExpansionError(
                "unexpected end of statement while looking for matching single-quote"
            )
        self.pos = end + 1
        return self.text[start:end]

    def double_quoted(self) -> str:
        self.next()
        out: list[str] = []
        while True:
            ch = self.peek()
            if not ch:
                raise ExpansionError(
                    "unexpected end of statement while looking for matching double-quote"
                )
            if ch == '"':
                self.next()
                return "".join(out)
            if ch == "$":
                out.append(self.dollar())
                continue
            ch = self.next()
            if ch == self.escape:
                following = self.peek()
                if not following:
                    continue  # an escape at the end of the word is dropped
                if following in ('"', "$", self.escape):
                    ch = self.next()
            out.append(ch)

    def name(self) -> str:
        ch = self.peek()
        if ch.isdecimal():
            start = self.pos
            while self.peek().isdecimal():
                self.next()
            return self.text[start : self.pos]
        if ch and ch in _SPECIAL_PARAMS:
            return self.next()
        start = self.pos
        while self.peek() and (
            self.peek().isalpha() or self.peek().isdecimal() or self.peek() == "_"
        ):
            self.next()
        return self.text[start : self.pos]

    def dollar(self) -> str:
        self.next()
        if self.peek() != "{":
            name = self.name()
            return self.lookup(name)[0] if name else "$"
        self.next()
        if not self.peek():
            raise ExpansionError("syntax error: missing '}'")
        if self.peek() in "{}:":
            raise ExpansionError("syntax error: bad substitution")
        name = self.name()
        op = self.next()
        if not op:
            raise ExpansionError("syntax error: missing '}'")
        if op == "}":
            return self.lookup(name)[0]
        if op == "/":
            return self.replace(name)
        null_is_unset = op == ":"
        if null_is_unset:
            op += self.next()
        kind = op[-1]
        if kind not in "+-?#%" or (null_is_unset and kind in "#%"):
            raise ExpansionError(f"unsupported modifier ({op}) in substitution")
        try:
            word = self.word_until("}", raw_escapes=kind in "#%")
        except ExpansionError:
            raise ExpansionError("syntax error: missing '}'") from None
        value, is_set = self.lookup(name)
        empty = not is_set or (null_is_unset and value == "")
        if kind == "-":
            return word if empty else value
        if kind == "+":
            return "" if empty else word
        if kind == "?":
            if empty and not self.variables.is_unknown(name):
                default = (
                    "is not allowed to be unset" if not is_set else "is not allowed to be empty"
                )
                raise ExpansionError(f"{name}: {word or default}")
            return value
        greedy = word.startswith(kind)
        pattern = word[1:] if greedy else word
        if kind == "#":
            return _trim_prefix(pattern, value, greedy)
        return _trim_prefix(_reverse_pattern(pattern), value[::-1], greedy)[::-1]

    def replace(self, name: str) -> str:
        replace_all = self.peek() == "/"
        if replace_all:
            self.next()
        try:
            pattern = self.word_until("/", raw_escapes=True)
        except ExpansionError:
            raise ExpansionError("syntax error: missing '/' in ${}") from None
        try:
            replacement = self.word_until("}", raw_escapes=True)
        except ExpansionError:
            raise ExpansionError("syntax error: missing '}'") from None
        value, _ = self.lookup(name)
        regex = _shell_pattern(pattern, greedy=True, anchored=False)
        return regex.sub(lambda _: replacement, value, count=0 if replace_all else 1)


def _shell_pattern(pattern: str, greedy: bool, anchored: bool) -> re.Pattern[str]:
    """BuildKit's ``convertShellPatternToRegex``: ``*``, ``?`` and ``\\`` escapes."""
    out = ["^"] if anchored else []
    index = 0
    while index < len(pattern):
        ch = pattern[index]
        index += 1
        if ch == "*":
            out.append(".*" if greedy else ".*?")
        elif ch == "?":
            out.append(".")
        elif ch == "\\":
            following = pattern[index : index + 1]
            if following in ("}", "/"):
                continue  # the escape belonged to the ${...} syntax
            if following not in ("*", "?", "\\"):
                raise ExpansionError(f"invalid pattern ({pattern}) in substitution")
            out.append(re.escape(following))
            index += 1
        else:
            out.append(re.escape(ch))
    return re.compile("".join(out))


def _trim_prefix(pattern: str, value: str, greedy: bool) -> str:
    match = _shell_pattern(pattern, greedy, anchored=True).search(value)
    return value[match.end() :] if match else value


def _reverse_pattern(pattern: str) -> str:
    """A pattern reversed, keeping each escape before the character it escapes."""
    tokens: list[str] = []
    index = 0
    while index < len(pattern):
        if pattern[index] == "\\" and index + 1 < len(pattern):
            tokens.append(pattern[index : index + 2])
            index += 2
        else:
            tokens.append(pattern[index])
            index += 1
    return "".join(reversed(tokens))
