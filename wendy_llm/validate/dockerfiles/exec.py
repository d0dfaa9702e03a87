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
judged.  What the image holds (each file, its mode, the line that made
it) is the image model's (:mod:`wendy_llm.docker.image`): this check reads
it and tracks only the ``SHELL``, ``ENTRYPOINT`` and ``CMD``.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from wendy_llm.docker.command import DEFAULT_SHELL
from wendy_llm.docker.image.facts import Entry, StageImage
from wendy_llm.docker.image.shell import shell_commands
from wendy_llm.docker.model import Build
from wendy_llm.docker.syntax import Instruction

__all__ = ["Problem", "shell_commands", "unexecutable_scripts"]

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
class _Commands:
    """The SHELL in effect and the ENTRYPOINT and CMD the built image ends with."""

    shell: tuple[str, ...] = DEFAULT_SHELL  # SHELL, which runs the shell forms
    entrypoint: _Command | None = None
    cmd: _Command | None = None
    cmd_in_stage: bool = False  # the stage being followed set CMD itself


def unexecutable_scripts(build: Build, target: int, image: StageImage) -> list[Problem]:
    """The scripts the built stage (``image``, the model of stage ``target``) runs without
    an execute bit."""
    commands = _Commands()
    for index in reversed(list(build.chain(target))):
        commands.cmd_in_stage = False
        for ins, _ in build.scopes(index):
            _apply(ins, commands)
    problems = []
    for argv in _commands_run(commands):
        for word, owner in _directly_executed(argv):
            entry = _resolve_command(word, image)
            if entry is None or entry.executable is not False:
                continue
            path = entry.path
            made = "copied" if entry.how in ("COPY", "ADD") else f"written ({entry.how})"
            message = (
                f"runs {path}, {made} at line {entry.line} without an execute bit "
                f"(wendy init writes files 0644): add `RUN chmod +x {path}` or `COPY --chmod=755`"
            )
            unclear = entry.mode_unclear
            if unclear is not None:
                message += f"; line {unclear} may set it in a way this check cannot follow"
            problems.append(Problem(owner.line, message, unclear is None))
    return problems


def _apply(ins: Instruction, commands: _Commands) -> None:
    if ins.keyword == "SHELL" and ins.exec_form:
        commands.shell = tuple(ins.args)
    elif ins.keyword == "ENTRYPOINT":
        commands.entrypoint = _Command(ins, commands.shell)
        if not commands.cmd_in_stage:
            commands.cmd = None  # BuildKit clears an inherited CMD (docker/command.py)
    elif ins.keyword == "CMD":
        commands.cmd = _Command(ins, commands.shell)
        commands.cmd_in_stage = True


def _commands_run(commands: _Commands) -> list[_Argv]:
    """The commands the container runs; each word knows its instruction."""
    ep, cmd = commands.entrypoint, commands.cmd
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


def _resolve_command(word: str, image: StageImage) -> Entry | None:
    """The model's entry for a command word: a path (from the WORKDIR), or a bare name
    in the default ``PATH``."""
    if "/" in word:
        return image.followed(posixpath.normpath(posixpath.join(image.workdir, word)))
    for directory in _PATH_DIRS:
        entry = image.followed(f"{directory}/{word}")
        if entry is not None:
            return entry
    return None
