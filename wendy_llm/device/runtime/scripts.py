"""What a service's container runs: its argv and the entry scripts it starts, read as shell.

The scripts are the render's files the image ``COPY``s (from its build
context) to the path the argv names, directly (``ENTRYPOINT
["/e.sh"]``) or through an interpreter (``["bash", "/e.sh"]``).  A script
is read with :mod:`shlex` (as :mod:`wendy_llm.validate.dockerfiles.exec`
reads commands), line by line with continuations joined: the commands each
line runs (the first word after assignments and keywords), and the
variables it reads.  Heredoc bodies and function names are skipped.  This
is not a shell: what it cannot read it leaves alone (no finding).
"""

from __future__ import annotations

import functools
import posixpath
import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from wendy_llm.device.images import parse_dockerfile
from wendy_llm.device.model import Service

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
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", ";;", "|&", "{", "}"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
_FUNCTION = re.compile(r"^\s*(?:function\s+)?([A-Za-z_][A-Za-z0-9_:.-]*)\s*\(\s*\)")
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
_INTERPRETER = re.compile(r"^(?:/usr)?(?:/local)?(?:/s?bin/)?(?:ba|da|a|z|k)?sh$")
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


def _copies(service: Service, tree: Mapping[str, bytes]) -> dict[str, str]:
    """Image path -> render file, for every single-file ``COPY``/``ADD`` from the context."""
    build = service.build
    if build is None or not build.found:
        return {}
    dockerfile = parse_dockerfile(tree[build.dockerfile].decode("utf-8", "replace"))
    if isinstance(dockerfile, str):
        return {}
    out: dict[str, str] = {}
    workdir = "/"
    for ins in dockerfile.instructions:
        if ins.keyword == "WORKDIR" and ins.args:
            workdir = posixpath.join(workdir, ins.args[0])
        if ins.keyword not in ("COPY", "ADD") or ins.flag("from") is not None:
            continue
        if len(ins.args) != 2 or "$" in "".join(ins.args):
            continue
        source, dest = ins.args
        # "." and a trailing "/" name a directory (the working directory exists).
        into_directory = dest.endswith("/") or dest in (".", "..")
        dest = posixpath.join(workdir, dest)
        if into_directory:
            dest = posixpath.join(dest, posixpath.basename(source))
        render = posixpath.normpath(posixpath.join(build.directory, source))
        if render in tree:
            out[posixpath.normpath(dest)] = render
    return out


def entry_scripts(service: Service, tree: Mapping[str, bytes]) -> list[Script]:
    """The render's scripts the service's argv starts (directly or via ``sh``/``bash``)."""
    # With the base image's ENTRYPOINT unseen, the CMD names the script: base images'
    # entrypoints (node's, python's none) run a CMD that is a command.
    argv = service.command.argv or service.command.cmd
    if not argv:
        return []
    copies = _copies(service, tree)
    candidates = [argv[0]]
    if _INTERPRETER.match(argv[0]) and len(argv) > 1 and not argv[1].startswith("-"):
        candidates.append(argv[1])
    out = []
    for word in candidates:
        file = copies.get(posixpath.normpath(word)) if word.startswith("/") else None
        if file is not None:
            out.append(Script(word, file, tree[file].decode("utf-8", "replace")))
    return out


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
