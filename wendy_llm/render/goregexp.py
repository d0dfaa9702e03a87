"""Evaluate a Go (RE2) regexp the way ``regexp.MatchString`` does, in Python.

``validate.pattern`` in ``template.json`` is a Go regexp matched unanchored
against an override.  Python's ``re`` has a different syntax and different
meanings for the same characters, so the pattern is translated, not passed
through.  ``MatchString`` only asks whether *some* match exists, so the two
engines' different match-selection rules (leftmost-first backtracking vs
RE2) never matter; only the language each pattern denotes does.

What the translation does (Go meaning -> Python spelling):

- ``$`` outside multi-line mode is the end of the text (Python's ``$`` also
  matches before a final newline): emitted as ``\\Z``.  ``\\z`` -> ``\\Z``.
- ``\\d \\w \\s \\b \\B`` and POSIX classes (``[[:alpha:]]``) are ASCII-only
  in Go: emitted as explicit ASCII sets (``\\s`` is ``[\\t\\n\\f\\r ]``, no
  ``\\v``).  Under ``(?i)`` both engines fold these sets the same way.
- Character classes are re-emitted item by item with every character
  escaped, so ``[``/``-``/``^`` quirks of the two syntaxes cannot leak.
- A ``{`` that does not start a valid ``{n}``, ``{n,}``, ``{n,m}`` repeat
  is a literal in Go (Python 3.11 reads ``{,5}`` as a repeat): escaped.
- Octal escapes (``\\0``, ``\\12``, ``\\123``), ``\\x{10FFFF}`` and
  ``\\Q...\\E`` literals are emitted as escaped characters.
- A bracket class holding negated sets (``[a\\D]``, ``[^[:^alpha:]x]``)
  becomes an alternation / lookahead combination with the same members.
- Flag groups in the middle of a group, ``a(?i)b``, apply to the rest of
  the enclosing group in Go; Python 3.11 only accepts global flags at the
  start, so they become a scoped ``(?i:...)`` closed with the group.  The
  ``U`` (ungreedy) flag cannot change whether a match exists and is dropped.
- ``(?<name>...)`` (Go >= 1.22) becomes ``(?P<name>...)``.

Rejected like Go rejects them (``GoRegexpError``, Go's wording): Perl
constructs RE2 lacks (lookarounds, backreferences, atomic groups,
possessive or doubled quantifiers, ``(?#...)``, conditionals), unknown
escapes (``\\e``, ``\\Z``, escaped non-ASCII characters), repeat counts
above 1000, unbalanced parentheses, bad ranges and empty classes.

Not translatable (``GoRegexpUnsupported``, a subclass): Unicode classes
``\\pL``/``\\p{Greek}`` (Python's ``re`` has no equivalent); the error
says so instead of guessing.  Group names are dropped (they never change
whether a match exists), which also accepts Go's duplicate names.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

_MAX_REPEAT = 1000

_WORD = "0-9A-Za-z_"
_PERL = {"d": "0-9", "s": "\t\n\f\r ", "w": _WORD}
_POSIX = {
    "alnum": "0-9A-Za-z",
    "alpha": "A-Za-z",
    "ascii": "\x00-\x7f",
    "blank": "\t ",
    "cntrl": "\x00-\x1f\x7f",
    "digit": "0-9",
    "graph": "!-~",
    "lower": "a-z",
    "print": " -~",
    "punct": "!-/:-@[-`{-~",
    "space": "\t\n\v\f\r ",
    "upper": "A-Z",
    "word": _WORD,
    "xdigit": "0-9A-Fa-f",
}
_SIMPLE_ESCAPES = {"a": "\a", "f": "\f", "t": "\t", "n": "\n", "r": "\r", "v": "\v"}
_WORD_CLASS = f"[{_WORD}]"
# Go's \b looks at ASCII word characters and ignores (?i): `(?-i:` keeps
# Python from case-folding the Kelvin sign or the long s into the set.
_WORD_BOUNDARY = f"(?-i:(?<={_WORD_CLASS})(?!{_WORD_CLASS})|(?<!{_WORD_CLASS})(?={_WORD_CLASS}))"
_NOT_WORD_BOUNDARY = (
    f"(?-i:(?<={_WORD_CLASS})(?={_WORD_CLASS})|(?<!{_WORD_CLASS})(?!{_WORD_CLASS}))"
)
_REPEAT_RE = re.compile(r"\{(\d+)(,(\d*))?\}")


class GoRegexpError(ValueError):
    """The pattern is not a valid Go regexp (Go's error wording)."""


class GoRegexpUnsupported(GoRegexpError):
    """A valid Go regexp this translation cannot express in Python's ``re``."""


def _lit(ch: str) -> str:
    # One escaped code point; valid both inside and outside a Python class.
    return f"\\U{ord(ch):08x}"


def _expand_ranges(spec: str) -> list[tuple[str, str]]:
    """``"0-9A-Z_"`` -> ``[("0","9"), ("A","Z"), ("_","_")]``."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            out.append((spec[i], spec[i + 2]))
            i += 3
        else:
            out.append((spec[i], spec[i]))
            i += 1
    return out


def _class_body(ranges: list[tuple[str, str]]) -> str:
    return "".join(_lit(lo) if lo == hi else f"{_lit(lo)}-{_lit(hi)}" for lo, hi in ranges)


def _class_regex(
    ranges: list[tuple[str, str]], negated_sets: list[list[tuple[str, str]]], *, negate: bool
) -> str:
    """A Python expression for one Go bracket class.

    Go's class is the union of ``ranges`` and the complements of
    ``negated_sets`` (then complemented as a whole when ``negate``).
    """
    if not negated_sets:
        return f"[{'^' if negate else ''}{_class_body(ranges)}]"
    positive = f"[{_class_body(ranges)}]" if ranges else ""
    complements = [f"[^{_class_body(n)}]" for n in negated_sets]
    if not negate:
        return "(?:" + "|".join(([positive] if positive else []) + complements) + ")"
    # Not in the union: outside `ranges` and inside every negated set.
    guards = [f"(?!{positive})"] if positive else []
    guards += [f"(?=[{_class_body(n)}])" for n in negated_sets]
    return "(?:" + "".join(guards) + _ANY_CHAR + ")"


_ANY_CHAR = f"[{_lit(chr(0))}-{_lit(chr(0x10FFFF))}]"


@dataclass
class _Group:
    # Scoped flag groups (`(?i:`) opened inside this group by `(?i)`: closed
    # before each `|` and reopened after it, and closed with the group.
    flag_scopes: list[str] = field(default_factory=list)
    multiline: bool = False
    # Index in the output of this group's opener.
    start: int = 0


@dataclass
class _Translator:
    pattern: str
    pos: int = 0
    out: list[str] = field(default_factory=list)
    stack: list[_Group] = field(default_factory=lambda: [_Group()])
    # Whether the last emitted item can take a repetition operator, and
    # whether it already is a repetition (Go rejects `a**`).
    can_repeat: bool = False
    last_was_repeat: bool = False
    # Where the `(?i:` openers emitted since the last item start: Go lets
    # `a(?i)*` repeat `a`, so a repeat right here goes before them.
    flags_at: int | None = None
    # Index in the output where the last repeatable item starts.
    atom_at: int = 0
    # Where in the pattern the last repeat operator ended.
    repeat_end: int = -1

    def fail(self, code: str, expr: str) -> GoRegexpError:
        return GoRegexpError(f"error parsing regexp: {code}: `{expr}`")

    def unsupported(self, what: str) -> GoRegexpUnsupported:
        return GoRegexpUnsupported(
            f"Go regexp {self.pattern!r} uses {what}, which Python's re cannot express"
        )

    def translate(self) -> str:
        p = self.pattern
        while self.pos < len(p):
            ch = p[self.pos]
            if ch == "(":
                self.open_group()
            elif ch == ")":
                self.close_group()
            elif ch == "|":
                self.pos += 1
                scopes = self.stack[-1].flag_scopes
                self.emit(")" * len(scopes) + "|" + "".join(scopes), repeatable=False)
            elif ch in "*+?":
                self.repeat(ch, ch)
            elif ch == "{":
                match = _REPEAT_RE.match(p, self.pos)
                if match is None:
                    self.pos += 1
                    self.emit(_lit("{"))
                else:
                    self.check_repeat_counts(match)
                    self.repeat(match.group(0), match.group(0))
            elif ch == "[":
                self.char_class()
            elif ch == "\\":
                self.escape()
            elif ch == "^":
                # Grouped: Go lets an assertion take a repeat, Python does not.
                self.pos += 1
                self.emit("(?:^)")
            elif ch == "$":
                self.pos += 1
                self.emit("(?:$)" if self.stack[-1].multiline else r"(?:\Z)")
            elif ch == ".":
                self.pos += 1
                self.emit(".")
            else:
                self.pos += 1
                self.emit(_lit(ch))
        if len(self.stack) > 1:
            raise self.fail("missing closing )", p)
        self.out.append(")" * len(self.stack[0].flag_scopes))
        return "".join(self.out)

    def emit(self, text: str, *, repeatable: bool = True) -> None:
        self.atom_at = len(self.out)
        self.out.append(text)
        self.can_repeat = repeatable
        self.last_was_repeat = False
        self.flags_at = None

    def repeat(self, op: str, text: str) -> None:
        start = self.pos
        self.pos += len(op)
        lazy = self.pos < len(self.pattern) and self.pattern[self.pos] == "?"
        if lazy:
            self.pos += 1
        expr = self.pattern[start : self.pos]
        # Go only rejects `**` when the operators touch: `a*(?i)+` is fine.
        if self.repeat_end == start:
            prev_start = start - 1
            raise self.fail(
                "invalid nested repetition operator", self.pattern[prev_start : self.pos]
            )
        if not self.can_repeat:
            raise self.fail("missing argument to repetition operator", expr)
        operator = text + ("?" if lazy else "")
        if self.flags_at is None:
            self.out.append(operator)
            self.last_was_repeat = True
            self.repeat_end = self.pos
            return
        if self.last_was_repeat:
            # `a*(?i)+` is `(a*)+` in Go; Python would read `a*+` as possessive.
            self.out.insert(self.atom_at, "(?:")
            self.flags_at += 1
            operator = ")" + operator
        self.out.insert(self.flags_at, operator)
        self.flags_at += 1
        self.last_was_repeat = True
        self.repeat_end = self.pos

    def check_repeat_counts(self, match: re.Match[str]) -> None:
        low = int(match.group(1))
        high_text = match.group(3)
        high = low if match.group(2) is None else (int(high_text) if high_text else None)
        if low > _MAX_REPEAT or (high is not None and (high > _MAX_REPEAT or high < low)):
            raise self.fail("invalid repeat count", match.group(0))

    def open_group(self) -> None:
        p = self.pattern
        start = self.pos
        if p.startswith("(?", start):
            if p.startswith("(?P<", start) or (
                p.startswith("(?<", start) and not p.startswith(("(?<=", "(?<!"), start)
            ):
                name_start = p.index("<", start) + 1
                end = p.find(">", name_start)
                name = p[name_start:end] if end >= 0 else ""
                if end < 0 or not re.fullmatch(r"[A-Za-z0-9_]+", name):
                    raise self.fail(
                        "invalid named capture", p[start : end + 1 if end >= 0 else None]
                    )
                self.pos = end + 1
                # Names never change what matches; plain groups also accept
                # the duplicate names Go allows and Python rejects.
                self.push("(")
                return
            self.flags_group()
            return
        self.pos += 1
        self.push("(")

    def push(self, text: str) -> None:
        self.stack.append(_Group(multiline=self.stack[-1].multiline, start=len(self.out)))
        self.out.append(text)
        self.can_repeat = False
        self.last_was_repeat = False
        self.flags_at = None

    def flags_group(self) -> None:
        p = self.pattern
        start = self.pos
        i = start + 2
        on: list[str] = []
        off: list[str] = []
        negated = False
        multiline = self.stack[-1].multiline
        while i < len(p):
            c = p[i]
            if c in "imsU":
                (off if negated else on).append(c)
                if c == "m":
                    multiline = not negated
                i += 1
            elif c == "-" and not negated:
                negated = True
                i += 1
            elif c in ":)":
                break
            else:
                raise self.fail("invalid or unsupported Perl syntax", p[start : i + 1])
        if i >= len(p):
            raise self.fail("missing closing )", p[start:])
        if negated and not off:
            raise self.fail("invalid or unsupported Perl syntax", p[start : i + 1])
        on_py = "".join(f for f in on if f != "U")
        off_py = "".join(f for f in off if f != "U")
        scoped = f"(?{on_py}{'-' + off_py if off_py else ''}:" if on_py or off_py else "(?:"
        self.pos = i + 1
        if c == ":":
            self.push(scoped)
            self.stack[-1].multiline = multiline
            return
        # `(?i)`: applies to the rest of the enclosing group.
        if self.flags_at is None:
            self.flags_at = len(self.out)
        self.out.append(scoped)
        self.stack[-1].flag_scopes.append(scoped)
        self.stack[-1].multiline = multiline

    def close_group(self) -> None:
        if len(self.stack) == 1:
            raise self.fail("unexpected )", self.pattern)
        group = self.stack.pop()
        self.pos += 1
        self.out.append(")" * len(group.flag_scopes) + ")")
        self.atom_at = group.start
        self.can_repeat = True
        self.last_was_repeat = False
        self.flags_at = None

    def escape(self) -> None:
        p = self.pattern
        start = self.pos
        if start + 1 >= len(p):
            raise self.fail("trailing backslash at end of expression", "")
        c = p[start + 1]
        self.pos = start + 2
        if c in "dswDSW":
            body = _class_body(_expand_ranges(_PERL[c.lower()]))
            self.emit(f"[{'^' if c.isupper() else ''}{body}]")
        elif c == "b":
            self.emit(_WORD_BOUNDARY)
        elif c == "B":
            self.emit(_NOT_WORD_BOUNDARY)
        elif c == "A":
            self.emit(r"(?:\A)")
        elif c == "z":
            self.emit(r"(?:\Z)")
        elif c in "pP":
            raise self.unsupported("a Unicode class (\\p)")
        elif c == "Q":
            end = p.find("\\E", self.pos)
            literal = p[self.pos :] if end < 0 else p[self.pos : end]
            self.pos = len(p) if end < 0 else end + 2
            if literal:
                # Go treats the quoted text as a sequence of literals: a
                # following repeat applies to the last character only.
                self.emit("".join(_lit(ch) for ch in literal[:-1]) + _lit(literal[-1]))
        else:
            self.pos = start
            self.emit(_lit(self.escaped_char()))

    def escaped_char(self) -> str:
        """Parse one escape that denotes a single character (Go's parseEscape)."""
        p = self.pattern
        start = self.pos
        c = p[start + 1] if start + 1 < len(p) else ""
        self.pos = start + 2
        if not c:
            raise self.fail("trailing backslash at end of expression", "")
        if "1" <= c <= "7" and not (self.pos < len(p) and "0" <= p[self.pos] <= "7"):
            raise self.fail("invalid escape sequence", p[start : self.pos])
        if "0" <= c <= "7":
            value = int(c)
            for _ in range(2):
                if self.pos < len(p) and "0" <= p[self.pos] <= "7":
                    value = value * 8 + int(p[self.pos])
                    self.pos += 1
            return chr(value)
        if c == "x":
            return self.hex_escape(start)
        if c in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[c]
        if ord(c) < 0x80 and not c.isalnum():
            return c
        raise self.fail("invalid escape sequence", p[start : self.pos])

    def hex_escape(self, start: int) -> str:
        p = self.pattern
        if self.pos < len(p) and p[self.pos] == "{":
            end = p.find("}", self.pos)
            digits = p[self.pos + 1 : end] if end >= 0 else ""
            if end < 0 or not re.fullmatch(r"[0-9A-Fa-f]+", digits) or int(digits, 16) > 0x10FFFF:
                raise self.fail("invalid escape sequence", p[start : end + 1 if end >= 0 else None])
            self.pos = end + 1
            return chr(int(digits, 16))
        digits = p[self.pos : self.pos + 2]
        if not re.fullmatch(r"[0-9A-Fa-f]{2}", digits):
            raise self.fail("invalid escape sequence", p[start : self.pos + len(digits)])
        self.pos += 2
        return chr(int(digits, 16))

    def char_class(self) -> None:
        p = self.pattern
        start = self.pos
        self.pos += 1
        negate = self.pos < len(p) and p[self.pos] == "^"
        if negate:
            self.pos += 1
        ranges: list[tuple[str, str]] = []
        # Negated Perl/POSIX sets inside the brackets (`[a\D]`): Python
        # cannot nest them, so they are combined with lookaheads below.
        negated_sets: list[list[tuple[str, str]]] = []
        first = True
        while self.pos >= len(p) or p[self.pos] != "]" or first:
            if self.pos >= len(p):
                raise self.fail("missing closing ]", p[start:])
            first = False
            if p.startswith("[:", self.pos):
                end = p.find(":]", self.pos + 2)
                if end >= 0:
                    name = p[self.pos + 2 : end]
                    base = name.removeprefix("^")
                    if base not in _POSIX:
                        raise self.fail("invalid character class range", p[self.pos : end + 2])
                    members = _expand_ranges(_POSIX[base])
                    if base == name:
                        ranges.extend(members)
                    else:
                        negated_sets.append(members)
                    self.pos = end + 2
                    continue
            if p.startswith("\\", self.pos) and self.pos + 1 < len(p):
                c = p[self.pos + 1]
                if c in "dsw":
                    ranges.extend(_expand_ranges(_PERL[c]))
                    self.pos += 2
                    continue
                if c in "DSW":
                    negated_sets.append(_expand_ranges(_PERL[c.lower()]))
                    self.pos += 2
                    continue
                if c in "pP":
                    raise self.unsupported("a Unicode class (\\p)")
            lo_start = self.pos
            lo = self.class_char()
            hi = lo
            if p.startswith("-", self.pos) and self.pos + 1 < len(p) and p[self.pos + 1] != "]":
                self.pos += 1
                hi = self.class_char()
                if hi < lo:
                    raise self.fail("invalid character class range", p[lo_start : self.pos])
            ranges.append((lo, hi))
        self.pos += 1
        self.emit(_class_regex(ranges, negated_sets, negate=negate))

    def class_char(self) -> str:
        p = self.pattern
        if p[self.pos] == "\\":
            return self.escaped_char()
        ch = p[self.pos]
        self.pos += 1
        return ch


def translate_go_regexp(pattern: str) -> str:
    """The Python ``re`` spelling of a Go regexp (raises ``GoRegexpError``)."""
    return _Translator(pattern).translate()


@functools.lru_cache(maxsize=256)
def compile_go_regexp(pattern: str) -> re.Pattern[str]:
    """Compile a Go regexp into a Python pattern with the same language.

    Use ``.search(text) is not None`` for Go's ``MatchString``.
    """
    translated = translate_go_regexp(pattern)
    try:
        return re.compile(translated)
    except re.error as exc:  # a translation gap, not the user's fault
        raise GoRegexpUnsupported(
            f"Go regexp {pattern!r} could not be translated to Python's re: {exc}"
        ) from exc


def go_match_string(pattern: str, text: str) -> bool:
    """``regexp.MatchString(pattern, text)`` (raises ``GoRegexpError``)."""
    return compile_go_regexp(pattern).search(text) is not None
