"""Does the built image's ``CMD``/``ENTRYPOINT`` run a script that is not executable?

``wendy init`` writes every file 0644, and ``COPY`` keeps the mode, so a
script the container runs as a program (``ENTRYPOINT ["/entrypoint.sh"]``,
``CMD ./run.sh``, ``sh -c "exec /e.sh"``) needs an execute bit set in the
image: ``COPY --chmod=755`` or a later ``RUN chmod +x`` (exact path, glob or
``-R`` directory).  Otherwise the container fails to start ("permission
denied"): a failure.  A script handed to an interpreter (``["bash",
"/e.sh"]``) needs no execute bit.  When a later ``RUN`` changes modes in a
way this check cannot follow (``find ... -exec chmod``, ``install -m``, a
variable it cannot expand), the finding is a warning.  Only the stage that
is built is run, so only its command counts (following its ``FROM <stage>``
chain); its ``ENTRYPOINT``/``CMD`` follow BuildKit's rules as
:mod:`wendy_llm.docker.command` states them (the stage's ``SHELL`` runs a
shell form; ``ENTRYPOINT`` clears only an inherited ``CMD``).  Files from
another stage or a URL keep a mode this check does not know and are not
judged.
"""

from __future__ import annotations

import fnmatch
import functools
import posixpath
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from wendy_llm.docker.command import DEFAULT_SHELL
from wendy_llm.docker.context import BuildContext
from wendy_llm.docker.expand import Variables, exact_word
from wendy_llm.docker.model import Build
from wendy_llm.docker.syntax import Instruction

_INTERPRETERS = re.compile(
    r"^(?:sh|bash|dash|ash|zsh|ksh|python[0-9.]*|perl|node|ruby|php|uv|uvx)$"
)
#: Programs that execute the command after them, and how many plain
#: arguments of their own come first (gosu's user, timeout's duration).
_WRAPPERS = {
    "exec": 0,
    "env": 0,
    "tini": 0,
    "tini-static": 0,
    "dumb-init": 0,
    "catatonit": 0,
    "nohup": 0,
    "nice": 0,
    "setsid": 0,
    "stdbuf": 0,
    "gosu": 1,
    "su-exec": 1,
    "chroot": 1,
    "timeout": 1,
}
_PATH_DIRS = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
_ARCHIVE = re.compile(r"\.(?:tar|tgz|tbz2?|txz|tar\.(?:gz|bz2|xz|zst))$")
_OCTAL = re.compile(r"^[0-7]{3,4}$")
_SYMBOLIC = re.compile(r"([-+=])([rwxXst]*)")


_Word = Callable[[str], str | None]  # expands a word; None when it cannot be known


@dataclass(frozen=True)
class Problem:
    """A script the container runs without an execute bit."""

    line: int  # the CMD/ENTRYPOINT
    message: str
    certain: bool  # False: a RUN this check cannot follow may have fixed it


_Argv = list[tuple[str, Instruction]]  # each word with the instruction it comes from


@dataclass(frozen=True)
class _Command:
    """An ENTRYPOINT or CMD, with the SHELL in effect where it was written."""

    ins: Instruction
    shell: tuple[str, ...]

    @property
    def argv(self) -> _Argv:
        """What it executes: the list as written, or the shell form's text handed to SHELL."""
        words = self.ins.args if self.ins.exec_form else (*self.shell, " ".join(self.ins.args))
        return [(word, self.ins) for word in words]


@dataclass
class _Image:
    """What the built image holds, as far as this check follows it."""

    executable: dict[str, bool] = field(default_factory=dict)  # path -> has x bit
    copied_at: dict[str, int] = field(default_factory=dict)  # path -> line of the COPY
    unclear: dict[str, int] = field(default_factory=dict)  # path -> line of an opaque RUN
    dirs: set[str] = field(default_factory=lambda: {"/", *_PATH_DIRS})
    workdir: str = "/"
    shell: tuple[str, ...] = DEFAULT_SHELL  # SHELL, which runs the shell forms
    entrypoint: _Command | None = None
    cmd: _Command | None = None
    cmd_in_stage: bool = False  # the stage being followed set CMD itself


def unexecutable_scripts(build: Build, target: int, context: BuildContext) -> list[Problem]:
    """The scripts the built stage runs without an execute bit."""
    image = _Image()
    for index in reversed(list(build.chain(target))):
        image.cmd_in_stage = False
        for ins, scope in build.scopes(index):
            _apply(ins, scope, build.dockerfile.escape, image, context)
    problems = []
    for argv in _commands_run(image):
        for word, owner in _directly_executed(argv):
            path = _resolve_command(word, image)
            if path is None or image.executable[path]:
                continue
            message = (
                f"runs {path}, copied at line {image.copied_at[path]} without an execute bit "
                f"(wendy init writes files 0644): add `RUN chmod +x {path}` or `COPY --chmod=755`"
            )
            unclear = image.unclear.get(path)
            if unclear is not None:
                message += f"; line {unclear} may set it in a way this check cannot follow"
            problems.append(Problem(owner.line, message, unclear is None))
    return problems


def _apply(
    ins: Instruction, scope: Variables, escape: str, image: _Image, context: BuildContext
) -> None:
    def word(text: str) -> str | None:
        return exact_word(text, scope, escape)

    if ins.keyword == "WORKDIR" and ins.args:
        workdir = word(ins.args[0])
        if workdir is not None:
            image.workdir = posixpath.normpath(posixpath.join(image.workdir, workdir))
            image.dirs.add(image.workdir)
    elif ins.keyword in ("COPY", "ADD") and len(ins.args) >= 2:
        _copy(ins, word, image, context)
    elif ins.keyword == "RUN":
        commands = [list(ins.args)] if ins.exec_form else shell_commands(" ".join(ins.args))
        for heredoc in ins.heredocs:
            commands += shell_commands(heredoc.content)
        for words in commands:
            if not _chmod(words, image) and _may_change_modes(words):
                for path, executable in image.executable.items():
                    if not executable:
                        image.unclear[path] = ins.line
    elif ins.keyword == "SHELL" and ins.exec_form:
        image.shell = tuple(ins.args)
    elif ins.keyword == "ENTRYPOINT":
        image.entrypoint = _Command(ins, image.shell)
        if not image.cmd_in_stage:
            image.cmd = None  # BuildKit clears an inherited CMD (docker/command.py)
    elif ins.keyword == "CMD":
        image.cmd = _Command(ins, image.shell)
        image.cmd_in_stage = True


def _copy(ins: Instruction, word: _Word, image: _Image, context: BuildContext) -> None:
    *sources, raw_dest = ins.args
    dest = word(raw_dest)
    if dest is None:
        return
    mode = ins.flag("chmod")
    mode = word(mode) if mode is not None else None
    executable = mode is not None and _execute_effect(mode) is True
    dest_abs = posixpath.normpath(posixpath.join(image.workdir, dest))
    into_dir = dest.endswith("/") or len(sources) > 1 or dest_abs in image.dirs

    def land(rel: str) -> str:
        return posixpath.normpath(posixpath.join(dest_abs, rel) if into_dir else dest_abs)

    for raw in sources:
        if raw.startswith("<<"):
            _record(image, land(raw[2:].lstrip("-").strip("\"'")), executable, ins.line)
            continue
        source = word(raw)
        if source is None:
            continue
        if ins.flag("from") is not None or "://" in source or source.startswith("git@"):
            # Another stage's or a URL's file: its mode is not ours to know.
            _record(image, land(posixpath.basename(source)), True, ins.line)
            continue
        if ins.keyword == "ADD" and _ARCHIVE.search(source):
            continue  # a local archive is unpacked: what lands is not in the render
        resolved = context.resolve(source)
        for match in resolved.matches:
            single_file = match in context.files and not resolved.wildcard
            for path in context.files_under(match):
                if single_file:
                    target = land(posixpath.basename(path))
                elif path == match:
                    target = posixpath.join(dest_abs, posixpath.basename(path))
                else:
                    target = posixpath.join(dest_abs, path[len(match) :].lstrip("/"))
                _record(image, posixpath.normpath(target), executable, ins.line)
    if into_dir:
        image.dirs.add(dest_abs)


def _record(image: _Image, path: str, executable: bool, line: int) -> None:
    image.executable[path] = executable
    image.copied_at[path] = line
    image.unclear.pop(path, None)


def _execute_effect(mode: str) -> bool | None:
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


def _command_words(words: Sequence[str]) -> list[str]:
    """``words`` without leading variable assignments and ``sudo``."""
    out = list(words)
    while out and (out[0] == "sudo" or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", out[0])):
        out = out[1:]
    return out


def _may_change_modes(words: Sequence[str]) -> bool:
    """A command that may set modes in a way :func:`_chmod` does not follow."""
    command = _command_words(words)
    if command and posixpath.basename(command[0]) == "install":
        return True
    return any(posixpath.basename(w) == "chmod" for w in words)


def _chmod(words: Sequence[str], image: _Image) -> bool:
    """Apply a ``chmod`` command; False when ``words`` is not one this check follows."""
    words = _command_words(words)
    if not words or posixpath.basename(words[0]) != "chmod":
        return False
    recursive = False
    operands = []
    for word in words[1:]:
        if word in ("-R", "--recursive") or re.fullmatch(r"-[cfvR]*R[cfvR]*", word):
            recursive = True
        elif word.startswith("--") or re.fullmatch(r"-[cfv]+", word):
            continue
        else:
            operands.append(word)
    if len(operands) < 2 or any("$" in w or "`" in w for w in operands):
        return False
    effect = _execute_effect(operands[0])
    if effect is None:
        return True  # it leaves execute bits alone
    for target in operands[1:]:
        resolved = posixpath.normpath(posixpath.join(image.workdir, target))
        for path in image.executable:
            if (
                path == resolved
                or fnmatch.fnmatchcase(path, resolved)
                or (recursive and path.startswith(resolved.rstrip("/") + "/"))
            ):
                image.executable[path] = effect
                image.unclear.pop(path, None)
    return True


def _commands_run(image: _Image) -> list[_Argv]:
    """The commands the container runs; each word knows its instruction."""
    ep, cmd = image.entrypoint, image.cmd
    if ep is None:
        return [] if cmd is None else [cmd.argv]
    if not ep.ins.exec_form or cmd is None:
        # A shell-form ENTRYPOINT ignores CMD.
        return [ep.argv]
    # An exec-form ENTRYPOINT receives CMD as its arguments.
    return [ep.argv + cmd.argv]


def _directly_executed(argv: _Argv) -> _Argv:
    """The words of one command executed as programs, not handed to an interpreter.

    Only the command word runs: ``["redis-server", "/etc/redis.conf"]`` runs
    redis-server and reads the file.  A wrapper that executes its argument
    (``tini --``, ``env A=1``, ``gosu user``, ``exec``) runs the next word
    too; an interpreter runs its ``-c`` snippet's commands and reads a script.
    """
    out: _Argv = []
    index = 0
    while index < len(argv):
        word, owner = argv[index]
        name = posixpath.basename(word)
        if _INTERPRETERS.match(name):
            rest = argv[index + 1 :]
            for flag_index, (flag, _) in enumerate(rest[:-1]):
                if re.fullmatch(r"-[a-zA-Z]*c[a-zA-Z]*", flag):
                    text, text_owner = rest[flag_index + 1]
                    for inner in shell_commands(text):
                        out += _directly_executed([(w, text_owner) for w in inner])
                    break
            return out
        out.append((word, owner))
        if name not in _WRAPPERS:
            return out
        index += 1
        # The wrapper's own options (and env's assignments) come before the program.
        while index < len(argv) and (
            argv[index][0].startswith("-") or (name == "env" and "=" in argv[index][0])
        ):
            index += 1
        index += _WRAPPERS[name]
    return out


def _resolve_command(word: str, image: _Image) -> str | None:
    if "/" in word:
        path = posixpath.normpath(posixpath.join(image.workdir, word))
        return path if path in image.executable else None
    for directory in _PATH_DIRS:
        path = f"{directory}/{word}"
        if path in image.executable:
            return path
    return None


def shell_commands(text: str) -> list[list[str]]:
    """The simple commands of a shell snippet, as word lists.

    Only the structure this check needs: words split like the shell does,
    commands split at ``;``, ``&``, ``&&``, ``|``, ``||``, parentheses and
    line ends.  A line with unbalanced quotes gives no commands rather than
    an exception.  Split once per distinct snippet (the checks ask again for
    each build-argument combination and each check; a caller gets its own lists).
    """
    return [list(words) for words in _split_commands(text)]


@functools.lru_cache(maxsize=256)
def _split_commands(text: str) -> tuple[tuple[str, ...], ...]:
    commands: list[tuple[str, ...]] = []
    for line in text.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        current: list[str] = []
        try:
            for token in lexer:
                if all(c in ";&|()" for c in token):
                    if current:
                        commands.append(tuple(current))
                    current = []
                else:
                    current.append(token)
        except ValueError:
            continue
        if current:
            commands.append(tuple(current))
    return tuple(commands)
