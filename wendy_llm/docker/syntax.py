"""A Dockerfile's instructions, read by BuildKit's own parser.

The `dockerfile` package wraps ``github.com/moby/buildkit/frontend/dockerfile/parser``,
so what counts as an instruction, a continuation, a heredoc or an exec
form is exactly what ``docker build`` reads.  This module gives its result
typed, named fields, plus what the parser keeps to itself: the parser
directives (``# escape=``) and the comment lines directly above each
instruction (for conventions such as ``# values:``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import dockerfile as buildkit

from wendy_llm.errors import WendyLlmError

#: Every instruction BuildKit knows, upper case.
KNOWN_INSTRUCTIONS = frozenset(name.upper() for name in buildkit.all_cmds())

# BuildKit's directive line (parser/directives.go); directives are read only
# from the consecutive matching lines at the very top of the file.
_DIRECTIVE = re.compile(r"^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$")
_KNOWN_DIRECTIVES = ("syntax", "escape", "check")


class DockerfileSyntaxError(WendyLlmError):
    """BuildKit's parser rejects the Dockerfile (``docker build`` fails the same way)."""


@dataclass(frozen=True)
class Heredoc:
    """A ``<<NAME`` document: its name and its body as written."""

    name: str
    content: str


@dataclass(frozen=True)
class Instruction:
    """One instruction as BuildKit's parser returns it.

    ``args`` is the parser's value list: the words of ``FROM``/``COPY``/...,
    the single command string of a shell-form ``RUN``/``CMD``/``ENTRYPOINT``,
    the items of an exec (JSON) form, or alternating names and values for
    ``ENV``/``LABEL``.  Nothing is expanded and quotes are kept (see
    :mod:`wendy_llm.docker.expand`).  ``keyword`` is upper case; ``trigger``
    is the instruction an ``ONBUILD`` wraps.
    """

    keyword: str
    args: tuple[str, ...]
    flags: tuple[str, ...]  # as written: ``--from=build``, ``--link``
    exec_form: bool  # the JSON array form
    line: int  # 1-based, where the instruction starts
    end_line: int
    heredocs: tuple[Heredoc, ...] = ()
    comments: tuple[str, ...] = ()  # the comment lines directly above, stripped
    trigger: str | None = None
    original: str = ""

    def flag(self, name: str) -> str | None:
        """The value of ``--name=value`` (the last one), ``""`` for a bare ``--name``."""
        values = self.flag_values(name)
        return values[-1] if values else None

    def flag_values(self, name: str) -> list[str]:
        """Every value given to ``--name`` (``--mount`` may repeat)."""
        out = []
        for flag in self.flags:
            key, eq, value = flag.removeprefix("--").partition("=")
            if key == name:
                out.append(value if eq else "")
        return out


@dataclass(frozen=True)
class ParsedDockerfile:
    """The instructions of a Dockerfile and the escape character it declares."""

    instructions: tuple[Instruction, ...]
    escape: str


def parse(text: str) -> ParsedDockerfile:
    """Parse a Dockerfile; :class:`DockerfileSyntaxError` when BuildKit would refuse it."""
    try:
        commands = buildkit.parse_string(text)
    except buildkit.GoParseError as exc:
        raise DockerfileSyntaxError(str(exc)) from exc
    except SystemError as exc:
        # The extension builds its result by calling Python; a Ctrl-C handled
        # meanwhile raises there, and the extension returns its result anyway,
        # which Python turns into a SystemError chained to the interrupt.
        # The interrupt is what happened: raise it, not a traceback about it.
        cause = exc.__context__
        while cause is not None and not isinstance(cause, KeyboardInterrupt):
            cause = cause.__context__
        if cause is not None:
            raise cause from None
        raise
    lines = text.removeprefix("\ufeff").splitlines()
    instructions: list[Instruction] = []
    previous_end = 0
    for command in commands:
        instructions.append(
            Instruction(
                keyword=command.cmd.upper(),
                args=command.value,
                flags=command.flags,
                exec_form=command.json,
                line=command.start_line,
                end_line=command.end_line,
                heredocs=tuple(Heredoc(h.name, h.content) for h in command.heredocs),
                comments=_comments_above(lines, command.start_line, previous_end),
                trigger=command.sub_cmd.upper() if command.sub_cmd else None,
                original=command.original,
            )
        )
        previous_end = command.end_line
    return ParsedDockerfile(tuple(instructions), directives(text).get("escape", "\\"))


def directives(text: str) -> dict[str, str]:
    """The parser directives at the top of a Dockerfile (names lower case)."""
    found: dict[str, str] = {}
    for line in text.removeprefix("\ufeff").splitlines():
        match = _DIRECTIVE.match(line.lstrip())
        if match is None or match.group(1).lower() not in _KNOWN_DIRECTIVES:
            break
        found.setdefault(match.group(1).lower(), match.group(2))
    return found


def _comments_above(lines: Sequence[str], start: int, previous_end: int) -> tuple[str, ...]:
    """The comment lines right above line ``start`` (no blank line between)."""
    out: list[str] = []
    index = start - 2  # 0-based index of the line above
    while index >= previous_end and index < len(lines):
        stripped = lines[index].strip()
        if not stripped.startswith("#"):
            break
        out.append(stripped)
        index -= 1
    return tuple(reversed(out))
