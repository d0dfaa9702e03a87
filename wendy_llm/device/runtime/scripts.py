"""The entry scripts a service's container runs, read as shell.

The scripts are the render's files the program resolver
(:mod:`~wendy_llm.device.runtime.resolve`) finds the argv running, directly
(``ENTRYPOINT ["/e.sh"]``, ``CMD ["run"]`` by bare name) or through an
interpreter (``["bash", "/e.sh"]``).  A script
is read with :mod:`shlex` (as :mod:`wendy_llm.validate.dockerfiles.exec`
reads commands), line by line with continuations joined: the commands each
line runs (the first word after assignments and keywords), and the
variables it reads.  Heredoc bodies and function names are skipped.  This
is not a shell: what it cannot read it leaves alone (no finding).
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

_KEYWORDS = frozenset(
    [
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "do",
        "done",
        "while",
        "until",
        "for",
        "in",
        "case",
        "esac",
        "function",
        "select",
        "time",
        "!",
        "{",
        "}",
        "[[",
        "]]",
        "((",
        "))",
        "coproc",
    ]
)
#: Shell builtins: never looked up on PATH (the program resolver skips them).
BUILTINS = frozenset(
    (  # noqa: SIM905 (a word list reads better as text)
        ". : [ alias bg break builtin caller cd command compgen complete continue declare "
        "dirs disown echo enable eval exec exit export false fc fg getopts hash help "
        "history jobs kill let local logout mapfile popd printf pushd pwd read readarray "
        "readonly return set shift shopt source suspend test times trap true type typeset "
        "ulimit umask unalias unset wait"
    ).split()
)
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", ";;", "|&", "{", "}"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
_FUNCTION = re.compile(r"^\s*(?:function\s+)?([A-Za-z_][A-Za-z0-9_:.-]*)\s*\(\s*\)")
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
#: Programs that run the next word as a command (``exec prog``).
_PREFIXES = frozenset({"exec", "command", "nohup", "env", "nice", "setsid", "time", "builtin"})


@dataclass(frozen=True)
class Script:
    """An entry script: its path in the image and in the render, and its text."""

    image_path: str
    file: str  # in the render
    text: str


@dataclass(frozen=True)
class Call:
    """A command a script line runs: its first word, and how."""

    program: str
    line: int
    execs: bool  # ``exec program``: replaces the shell
    background: bool  # ends with ``&``
    text: str  # the line, stripped


def logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each line, continuations joined, heredoc bodies skipped."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start = i
        line = lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i]
        i += 1
        heredoc = _HEREDOC.search(line)
        if heredoc is not None:
            while i < len(lines) and lines[i].strip() != heredoc[2]:
                i += 1
            i += 1
        yield start + 1, line


@functools.lru_cache(maxsize=256)
def functions(text: str) -> frozenset[str]:
    """The names of the shell functions a script defines."""
    return frozenset(m[1] for _, line in logical_lines(text) if (m := _FUNCTION.match(line)))


def _words(line: str) -> list[str] | None:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:
        return None


def calls(text: str) -> tuple[Call, ...]:
    """Every command a script runs by its first word, in order (top level and nested)."""
    return _calls(text)


@functools.lru_cache(maxsize=256)
def _calls(text: str) -> tuple[Call, ...]:
    # Cached by text: every pick renders the same scripts, and several checks read them.
    out = []
    for number, line in logical_lines(text):
        if _FUNCTION.match(line):
            line = line[_FUNCTION.match(line).end() :]  # type: ignore[union-attr]
        words = _words(line)
        if words is None:
            continue
        expect, execs = True, False
        background = bool(words) and words[-1] == "&"
        for word in words:
            if word in _SEPARATORS:
                expect, execs = True, False
                continue
            if not expect:
                continue
            if word in _KEYWORDS or _ASSIGNMENT.match(word):
                continue
            if word in _PREFIXES:
                execs = execs or word == "exec"
                continue
            expect = False
            out.append(Call(word, number, execs, background, line.strip()))
    return tuple(out)
