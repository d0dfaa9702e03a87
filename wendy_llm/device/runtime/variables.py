"""Variables an entry script (or a shell-form CMD/ENTRYPOINT) reads that the container lacks.

On a device the container's environment is its image's ``ENV`` then the
agent's own entries, nothing else (Wendy run facts, section 9):
compose ``environment`` is not sent (section 3) and a build arg exists at
run time only where the Dockerfile copies it into ``ENV``.  A read of a
name nothing sets (not the image's ``ENV``, not the agent's, not the
script's own assignment) is a warning:

- read bare (``$X``, ``${X}``, ``${#X}``): the script sees an empty value
  (or dies under ``set -u``);
- read with a default (``${X:-d}``, ``${X-d}``, ``${X:=d}``, ...), which is
  fine on its own, only when the name looks meant for something the
  container does have (a near name: ``WENDY_DEVICE_HOSTNAME`` for
  ``WENDY_HOSTNAME``) or is a Wendy name (``WENDY_*``) nothing sets.

An unseen base image may set any other name: the message says so.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Sequence

from wendy_llm.codes import runtime as RC
from wendy_llm.device.model import Service
from wendy_llm.device.notes import Notes
from wendy_llm.device.runtime.scripts import Script, calls, logical_lines
from wendy_llm.wendycli.runtime import RUN_FACTS

SPEC = RUN_FACTS
_REF = re.compile(
    r"\$(?:\{(?P<hash>#?)(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?P<op>[^}]?)|(?P<bare>[A-Za-z_][A-Za-z0-9_]*))"
)
_SINGLE_QUOTED = re.compile(r"'[^']*'")
_ASSIGNED = re.compile(
    r"(?:^|[\s;&|({!])(?:(?:export|local|declare|typeset|readonly)(?:\s+-[A-Za-z]+)*\s+)?"
    r"([A-Za-z_][A-Za-z0-9_]*)(?:\[[^]]*\])?\+?="
)
_DECLARED = re.compile(r"\b(?:local|declare|typeset|export|readonly|read|unset)\b([^;&|]*)")
_FOR = re.compile(r"\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\b")
#: ``printf -v NAME``, ``getopts SPEC NAME``, ``mapfile``/``readarray`` [opts] NAME.
_OTHER_SETTERS = re.compile(
    r"\bprintf\s+-v\s+([A-Za-z_]\w*)|\bgetopts\s+\S+\s+([A-Za-z_]\w*)"
    r"|\b(?:mapfile|readarray)(?:\s+-\w+(?:\s+\S+)?)*\s+([A-Za-z_]\w*)"
)
_ASSIGN_DEFAULT = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?=")
#: Names bash itself sets (or that a script's shell always has).
SHELL_NAMES = frozenset(
    [
        "BASH",
        "BASHOPTS",
        "BASHPID",
        "BASH_ALIASES",
        "BASH_ARGC",
        "BASH_ARGV",
        "BASH_COMMAND",
        "BASH_LINENO",
        "BASH_REMATCH",
        "BASH_SOURCE",
        "BASH_SUBSHELL",
        "BASH_VERSINFO",
        "BASH_VERSION",
        "COLUMNS",
        "COMP_WORDS",
        "DIRSTACK",
        "EPOCHREALTIME",
        "EPOCHSECONDS",
        "EUID",
        "FUNCNAME",
        "GROUPS",
        "HISTCMD",
        "HOSTNAME",
        "HOSTTYPE",
        "IFS",
        "LINENO",
        "LINES",
        "MACHTYPE",
        "OLDPWD",
        "OPTARG",
        "OPTERR",
        "OPTIND",
        "OSTYPE",
        "PIPESTATUS",
        "PPID",
        "PS1",
        "PS2",
        "PS4",
        "PWD",
        "RANDOM",
        "REPLY",
        "SECONDS",
        "SHELL",
        "SHELLOPTS",
        "SHLVL",
        "SRANDOM",
        "UID",
    ]
)


@functools.lru_cache(maxsize=256)
def _assigned(text: str) -> frozenset[str]:
    names: set[str] = set()
    for _, line in logical_lines(text):
        names.update(_ASSIGNED.findall(line))
        names.update(_FOR.findall(line))
        names.update(_ASSIGN_DEFAULT.findall(line))
        for match in _OTHER_SETTERS.finditer(line):
            names.update(n for n in match.groups() if n)
        for match in _DECLARED.finditer(line):
            names.update(re.findall(r"(?<![$\w-])([A-Za-z_][A-Za-z0-9_]*)", match[1].split("=")[0]))
    return frozenset(names)


@functools.lru_cache(maxsize=256)
def _reads(text: str) -> tuple[tuple[str, int, bool], ...]:
    """(name, line, read with a default) of every ``$NAME`` outside single quotes."""
    out = []
    for number, line in logical_lines(text):
        code = _SINGLE_QUOTED.sub("''", line.split(" #", 1)[0])
        if code.lstrip().startswith("#"):
            continue
        for match in _REF.finditer(code):
            name = match["braced"] or match["bare"]
            defaulted = bool(match["braced"]) and not match["hash"] and match["op"] in "-=+:?"
            defaulted = defaulted and match["op"] != ""
            out.append((name, number, defaulted))
    return tuple(out)


def provided_names(service: Service) -> frozenset[str] | None:
    """The names the container is given, or None when its ENV is not known at all."""
    runtime = service.runtime
    if runtime is None or not service.environment.known:
        return None
    # An agent entry that may be left out (WENDY_HOSTNAME) still counts: it is meant to be there.
    return frozenset(e.name for e in runtime.environment if e.source != "base image")


def variable_findings(service: Service, scripts: Sequence[Script], notes: Notes) -> None:
    provided = provided_names(service)
    if provided is None:
        return
    argv = service.command.argv or ()
    sources = [(s.file, s.text, 0) for s in scripts]
    if len(argv) >= 3 and argv[1] == "-c" and service.build is not None:
        sources.append((service.build.dockerfile, argv[2], 0))
    bases = service.runtime.base_env_unknown if service.runtime else ()
    args = {a.name for a in service.build.args} if service.build else set()
    for file, text, _ in sources:
        own = _assigned(text) | SHELL_NAMES
        # A script that sources another file may get any name from it: only Wendy
        # names and near names are judged there.
        sources_files = any(c.program in (".", "source") for c in calls(text))
        seen: set[str] = set()
        for name, line, defaulted in _reads(text):
            if name in provided or name in own or name in seen:
                continue
            near = difflib.get_close_matches(name, sorted(provided), n=1, cutoff=0.75)
            wendy = name.startswith("WENDY_")
            if (defaulted or sources_files) and not near and not wendy:
                continue
            seen.add(name)
            notes.warn(
                RC.VARIABLE_UNSET,
                _message(service, name, near, wendy, name in args, bases, defaulted),
                file,
                line,
            )


def _message(
    service: Service,
    name: str,
    near: list[str],
    wendy: bool,
    build_arg: bool,
    bases: Sequence[str],
    defaulted: bool,
) -> str:
    how = "with a default" if defaulted else "with no default (empty, or an error under set -u)"
    text = (
        f"service {service.name} reads ${name} ({how}), which its container does not have on a "
        f"device: neither its image's ENV nor the agent sets it ({SPEC}; compose environment "
        "is not sent)"
    )
    if build_arg:
        text += (
            f"; {name} is a build arg, which exists at run time only where the Dockerfile "
            "copies it into ENV"
        )
    if near:
        text += f"; did you mean {near[0]}, which the container has?"
    elif bases and not wendy:
        text += f" (unless the unseen ENV of {', '.join(bases)} sets it)"
    return text
