"""A small Dockerfile reader: instructions, stages, ``ARG`` value sets, variables.

Enough of the Dockerfile syntax for the ``dockerfile`` validator to reason
about stages and files: parser directives (``# escape=``), line
continuations (comment and blank lines inside them are skipped, as BuildKit
does), heredocs (``RUN <<EOF ... EOF``), exec (JSON) and shell forms, and
``$VAR`` / ``${VAR}`` / ``${VAR:-word}`` / ``${VAR:+word}`` substitution.

``ARG`` value sets (what ``FROM base-${A}-${B}`` must resolve for) follow
this convention, documented in the README:

- a comment line directly above the ``ARG`` (no blank line between) of the
  form ``# values: a|b|c`` declares every value the argument may take;
  Docker has no trailing comments, so the ARG line itself cannot carry it;
- the build arguments the Wendy CLI injects always take every value the
  CLI can inject (``WENDY_GPU_VENDOR``: nvidia, generic;
  ``WENDY_JETPACK_MAJOR``: 0, 6, 7), plus any a ``# values:`` comment adds:
  a comment cannot narrow what the CLI passes;
- any other argument takes its default (or the empty string when it has
  none), as a plain ``docker build`` would.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: Build arguments the Wendy CLI passes to every build, and their values.
WENDY_BUILD_ARGS: Mapping[str, tuple[str, ...]] = {
    "WENDY_GPU_VENDOR": ("nvidia", "generic"),
    "WENDY_JETPACK_MAJOR": ("0", "6", "7"),
}

_DIRECTIVE = re.compile(r"^#\s*([a-zA-Z]+)\s*=\s*(\S+)\s*$")
_VALUES = re.compile(r"^#\s*values\s*:\s*(?P<values>.+?)\s*$", re.IGNORECASE)
_HEREDOC = re.compile(r"<<(?P<dash>-?)(?P<q>[\"']?)(?P<word>[A-Za-z_][A-Za-z0-9_]*)(?P=q)")
_VAR = re.compile(
    r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:[-+])(?P<word>[^}]*))?\}"
    r"|(?P<bare>[A-Za-z_][A-Za-z0-9_]*))"
)


@dataclass(frozen=True)
class Instruction:
    """One instruction: keyword (upper case), its text, and where it starts."""

    keyword: str
    args: str
    line: int
    comments: tuple[str, ...] = ()  # the comment lines directly above
    heredocs: tuple[str, ...] = ()  # bodies of ``<<WORD`` documents, in order

    def exec_form(self) -> list[str] | None:
        """The JSON array form's items, or None for the shell form."""
        text = self.args.strip()
        if not text.startswith("["):
            return None
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            return None
        if isinstance(value, list) and all(isinstance(x, str) for x in value):
            return value
        return None


def parse(text: str) -> list[Instruction]:
    """The instructions of a Dockerfile, in order."""
    lines = text.splitlines()
    escape = "\\"
    index = 0
    # Parser directives: only at the very top, before any other line.
    while index < len(lines):
        match = _DIRECTIVE.match(lines[index])
        if match is None:
            break
        if match.group(1).lower() == "escape" and match.group(2) in ("\\", "`"):
            escape = match.group(2)
        index += 1
    out: list[Instruction] = []
    comments: list[str] = []
    while index < len(lines):
        raw = lines[index]
        stripped = raw.strip()
        if not stripped:
            comments = []
            index += 1
            continue
        if stripped.startswith("#"):
            comments.append(stripped)
            index += 1
            continue
        start = index + 1
        parts: list[str] = []
        current = raw.rstrip()
        while True:
            if current.endswith(escape):
                parts.append(current[: -len(escape)])
                index += 1
                # Skip comment and blank lines inside a continuation.
                while index < len(lines) and (
                    not lines[index].strip() or lines[index].strip().startswith("#")
                ):
                    index += 1
                if index >= len(lines):
                    break
                current = lines[index].rstrip()
                continue
            parts.append(current)
            index += 1
            break
        joined = " ".join(p.strip() for p in parts)
        keyword, _, args = joined.partition(" ")
        heredocs: list[str] = []
        if keyword.upper() in ("RUN", "COPY", "ADD"):
            for match in _HEREDOC.finditer(args):
                body: list[str] = []
                while index < len(lines):
                    line = lines[index]
                    index += 1
                    check = line.lstrip("\t") if match.group("dash") else line
                    if check == match.group("word"):
                        break
                    body.append(line)
                heredocs.append("\n".join(body))
        out.append(
            Instruction(keyword.upper(), args.strip(), start, tuple(comments), tuple(heredocs))
        )
        comments = []
    return out


def substitute(text: str, values: Mapping[str, str]) -> str:
    """Expand variables as BuildKit does; unknown variables expand to ``""``."""

    def one(match: re.Match[str]) -> str:
        name = match.group("braced") or match.group("bare")
        value = values.get(name)
        op = match.group("op")
        if op == ":-":
            return value if value else match.group("word")
        if op == ":+":
            return match.group("word") if value else ""
        return value or ""

    return _VAR.sub(one, text)


def variables_in(text: str) -> list[str]:
    """The variable names ``text`` refers to, in order, without repeats."""
    names: list[str] = []
    for match in _VAR.finditer(text):
        name = match.group("braced") or match.group("bare")
        if name not in names:
            names.append(name)
    return names


def literal_pattern(text: str) -> re.Pattern[str]:
    """A regex matching every expansion of ``text`` (variables as wildcards)."""
    pieces = []
    last = 0
    for match in _VAR.finditer(text):
        pieces.append(re.escape(text[last : match.start()]))
        pieces.append(".*")
        last = match.end()
    pieces.append(re.escape(text[last:]))
    return re.compile("".join(pieces), re.IGNORECASE)


def literal_text(text: str) -> str:
    """``text`` with every variable reference removed."""
    return _VAR.sub("", text)


@dataclass(frozen=True)
class ArgDecl:
    """An ``ARG`` declaration: name, default, the values it may take, its line."""

    name: str
    default: str | None
    declared_values: tuple[str, ...]
    line: int


def arg_decls(instruction: Instruction) -> list[ArgDecl]:
    """The declarations of one ``ARG`` instruction (``ARG A=1 B`` declares two)."""
    try:
        words = shlex.split(instruction.args)
    except ValueError:
        words = instruction.args.split()
    declared: tuple[str, ...] = ()
    for comment in reversed(instruction.comments):
        match = _VALUES.match(comment)
        if match is not None:
            declared = tuple(v.strip() for v in match.group("values").split("|") if v.strip())
            break
    out = []
    for word in words:
        name, eq, default = word.partition("=")
        # A values comment is only unambiguous for a single declaration.
        values = declared if len(words) == 1 else ()
        out.append(ArgDecl(name, default if eq else None, values, instruction.line))
    return out


def value_set(decl: ArgDecl) -> tuple[str, ...]:
    """Every value an argument may take at build time (see the module doc)."""
    injected = WENDY_BUILD_ARGS.get(decl.name)
    if injected is not None:
        return injected + tuple(v for v in decl.declared_values if v not in injected)
    if decl.declared_values:
        return decl.declared_values
    return (decl.default if decl.default is not None else "",)


@dataclass
class Stage:
    """A build stage: its FROM instruction, name, and the instructions after it."""

    source: str  # the image or stage reference as written
    name: str | None  # lower-cased ``AS`` name
    line: int
    instructions: list[Instruction] = field(default_factory=list)


def split_stages(instructions: Sequence[Instruction]) -> tuple[list[ArgDecl], list[Stage]]:
    """The global ``ARG``s (before the first FROM) and the stages."""
    global_args: list[ArgDecl] = []
    stages: list[Stage] = []
    for ins in instructions:
        if ins.keyword == "FROM":
            words = [w for w in ins.args.split() if not w.startswith("--")]
            source = words[0] if words else ""
            name = words[2].lower() if len(words) >= 3 and words[1].lower() == "as" else None
            stages.append(Stage(source, name, ins.line))
        elif not stages:
            if ins.keyword == "ARG":
                global_args += arg_decls(ins)
        else:
            stages[-1].instructions.append(ins)
    return global_args, stages


def shell_commands(text: str) -> list[list[str]]:
    """The simple commands of a shell snippet, as word lists.

    Only the structure the validator needs: words split like the shell
    does, commands split at ``;``, ``&``, ``&&``, ``|``, ``||``, parentheses
    and line ends.  A line with unbalanced quotes gives no commands rather
    than an exception.
    """
    commands: list[list[str]] = []
    for line in text.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        current: list[str] = []
        try:
            for token in lexer:
                if all(c in ";&|()" for c in token):
                    if current:
                        commands.append(current)
                    current = []
                else:
                    current.append(token)
        except ValueError:
            continue
        if current:
            commands.append(current)
    return commands
