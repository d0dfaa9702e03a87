"""What a ``RUN``'s commands write that the model can read reliably.

Per simple command (:mod:`~wendy_llm.docker.image.shell`): ``cd`` (for the
commands after it in the same ``RUN``), ``mkdir``, ``ln``, ``cp``, ``mv``,
``install``, ``touch``, ``tee`` and redirections (``>``, ``>>``), ``curl
-o``, ``wget -O``, ``chmod`` (exact path, glob, ``-R``), and OS package
installs (``apt-get``/``apt``/``apk``/``dnf``/``yum``/``microdnf``).  A
word with a variable the model cannot expand is skipped: nothing is
guessed.  Any other command may write anything; the model does not say it
did not.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Callable, Sequence

from wendy_llm.docker.image.facts import Entry
from wendy_llm.docker.image.state import State

Word = Callable[[str], str | None]  # expands a word; None when it cannot be known

_OCTAL = re.compile(r"^[0-7]{3,4}$")
_SYMBOLIC = re.compile(r"([-+=])([rwxXst]*)")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PACKAGE_TOOLS = {
    "apt-get": "install",
    "apt": "install",
    "apk": "add",
    "dnf": "install",
    "yum": "install",
    "microdnf": "install",
}


def command_words(words: Sequence[str]) -> list[str]:
    """``words`` without leading variable assignments, ``sudo`` and ``exec``."""
    out = list(words)
    while out and (out[0] in ("sudo", "exec", "command") or _ASSIGNMENT.match(out[0])):
        out = out[1:]
    return out


def execute_effect(mode: str) -> bool | None:
    """True when ``mode`` sets an execute bit on a 0644 file, False when it
    clears them all, None when it leaves them alone."""
    if _OCTAL.match(mode):
        return any(int(d) % 2 == 1 for d in mode[-3:])
    effect: bool | None = None
    for op, perms in _SYMBOLIC.findall(mode):
        if op in "+=" and "x" in perms:
            effect = True
        elif (op == "-" and "x" in perms) or (op == "=" and "x" not in perms):
            effect = False if effect is None else effect
    return effect


def apply_command(words: Sequence[str], state: State, cwd: str, line: int, word: Word) -> str:
    """Apply one simple command to ``state``; the working directory after it."""
    redirected = _redirections(words, state, cwd, line, word)
    command = command_words([w for w in words if w not in redirected])
    if not command:
        return cwd
    name = posixpath.basename(command[0])
    args = command[1:]
    if name == "cd" and args:
        target = word(args[0])
        return state.absolute(target, cwd) if target is not None else cwd
    handler = _HANDLERS.get(name)
    if handler is not None:
        handler(args, state, cwd, line, word)
    elif name in _PACKAGE_TOOLS and _PACKAGE_TOOLS[name] in args:
        after = args[args.index(_PACKAGE_TOOLS[name]) + 1 :]
        state.packages += [(w.split("=")[0], line) for w in after if not w.startswith("-")]
    if name != "chmod" and "chmod" in (posixpath.basename(w) for w in command[1:]):
        state.modes_unclear(line)  # `find -exec chmod`, `xargs chmod`: not followed
    return cwd


def _operands(args: Sequence[str], state: State, cwd: str, word: Word) -> list[str] | None:
    """The non-option arguments, absolute; None when one cannot be expanded."""
    out = []
    for arg in args:
        if arg.startswith("-"):
            continue
        value = word(arg)
        if value is None:
            return None
        out.append(state.absolute(value, cwd))
    return out


def _file(state: State, path: str, line: int, how: str, executable: bool | None) -> None:
    state.put(Entry(path, "file", line, how, True, executable))


def _mkdir(args: Sequence[str], state: State, cwd: str, line: int, word: Word) -> None:
    for path in _operands(args, state, cwd, word) or []:
        state.make_dir(path, line, "RUN mkdir")


def _touch(args: Sequence[str], state: State, cwd: str, line: int, word: Word) -> None:
    for path in _operands(args, state, cwd, word) or []:
        existing = state.entries.get(path)
        if existing is None:
            _file(state, path, line, "RUN touch", False)


def _tee(args: Sequence[str], state: State, cwd: str, line: int, word: Word) -> None:
    for path in _operands(args, state, cwd, word) or []:
        if not path.startswith("/dev/"):
            _file(state, path, line, "RUN tee", state.entries.get(path, _NONE).executable)


def _target(paths: list[str], state: State) -> tuple[list[str], str] | None:
    if len(paths) < 2:
        return None
    return paths[:-1], paths[-1]


def _copy_entries(
    args: Sequence[str],
    state: State,
    cwd: str,
    line: int,
    word: Word,
    how: str,
    executable: bool | None = None,
) -> list[str]:
    """``cp``/``mv``/``ln``/``install`` semantics: sources into a directory or onto a name."""
    operands = _operands(args, state, cwd, word)
    split = _target(operands or [], state)
    if split is None:
        return []
    sources, dest = split
    into = dest in state.dirs or len(sources) > 1
    for source in sources:
        landing = posixpath.join(dest, posixpath.basename(source)) if into else dest
        found = state.under(source)
        output = state.output_at(source)
        if not found:
            entry = Entry(landing, "file", line, how, True, executable)
            if output is not None:
                entry = dataclasses.replace(entry, needs=output.needs, built_at=output.how)
            state.put(entry)
            continue
        for entry in found:
            rel = entry.path[len(source) :].lstrip("/")
            path = posixpath.normpath(posixpath.join(landing, rel)) if rel else landing
            kind = "link" if how == "RUN ln" else entry.kind
            mode = entry.executable if executable is None else executable
            link = entry.path if how == "RUN ln" else entry.link_to
            state.put(dataclasses.replace(
                entry, path=path, kind=kind, line=line, how=how, executable=mode, link_to=link
            ))  # fmt: skip
    return sources


def _cp(args: Sequence[str], state: State, cwd: str, line: int, word: Word) -> None:
    _copy_entries(args, state, cwd, line, word, "RUN cp")


def _mv(args: Sequence[str], state: State, cwd: str, line: int, word: Word) -> None:
    for source in _copy_entries(args, state, cwd, line, word, "RUN mv"):
        for entry in state.under(source):
            del state.entries[entry.path]


def _ln(args: Sequence[str], state: State, cwd: str, line: int, word: Word) -> None:
    _copy_entries(args, state, cwd, line, word, "RUN ln")


def _install(args: Sequence[str], state: State, cwd: str, line: int, word: Word) -> None:
    if "-d" in args or "--directory" in args:
        _mkdir(args, state, cwd, line, word)
        return
    plain = []
    mode: bool | None = True  # install's default mode is 0755
    for index, arg in enumerate(args):
        if index and args[index - 1] in ("-m", "--mode", "-o", "-g", "--owner", "--group"):
            if args[index - 1] in ("-m", "--mode"):
                mode = execute_effect(arg)
        elif arg not in ("-m", "--mode", "-o", "-g", "--owner", "--group"):
            plain.append(arg)
    _copy_entries(plain, state, cwd, line, word, "RUN install", mode)


def _download(flags: tuple[str, ...]) -> Callable[[Sequence[str], State, str, int, Word], None]:
    def apply(args: Sequence[str], state: State, cwd: str, line: int, word: Word) -> None:
        for index, arg in enumerate(args):
            value = None
            if arg in flags and index + 1 < len(args):
                value = args[index + 1]
            elif any(arg.startswith(f + "=") for f in flags if f.startswith("--")):
                value = arg.partition("=")[2]
            path = word(value) if value not in (None, "-") else None
            if path is not None and value is not None:
                _file(state, state.absolute(path, cwd), line, "RUN download", False)

    return apply


def _chmod(args: Sequence[str], state: State, cwd: str, line: int, word: Word) -> None:
    recursive = False
    operands = []
    for arg in args:
        if arg in ("-R", "--recursive") or re.fullmatch(r"-[cfvR]*R[cfvR]*", arg):
            recursive = True
        elif arg.startswith("--") or re.fullmatch(r"-[cfv]+", arg):
            continue
        else:
            operands.append(arg)
    if len(operands) < 2 or any("$" in w or "`" in w for w in operands):
        state.modes_unclear(line)
        return
    effect = execute_effect(operands[0])
    if effect is None:
        return  # it leaves execute bits alone
    for target in operands[1:]:
        state.set_mode(state.absolute(target, cwd), recursive, effect, line)


def _redirections(words: Sequence[str], state: State, cwd: str, line: int, word: Word) -> set[str]:
    """Files written by ``>``/``>>``; the words that belong to the redirections."""
    used: set[str] = set()
    for index, token in enumerate(words):
        target = None
        if token in (">", ">>", "1>", "1>>") and index + 1 < len(words):
            target = words[index + 1]
            used |= {token, target}
        elif re.fullmatch(r"1?>>?[^>&].*", token):
            target = token.lstrip("1>")
            used.add(token)
        elif re.fullmatch(r"2>>?.*", token):
            used.add(token)
        path = word(target) if target else None
        if path is not None and not path.startswith("/dev/"):
            absolute = state.absolute(path, cwd)
            _file(state, absolute, line, "RUN >", state.entries.get(absolute, _NONE).executable)
    return used


_NONE = Entry("", "file", 0, "", False, False)
_HANDLERS: dict[str, Callable[[Sequence[str], State, str, int, Word], None]] = {
    "mkdir": _mkdir,
    "touch": _touch,
    "tee": _tee,
    "cp": _cp,
    "mv": _mv,
    "ln": _ln,
    "install": _install,
    "curl": _download(("-o", "--output")),
    "wget": _download(("-O", "--output-document")),
    "chmod": _chmod,
}
