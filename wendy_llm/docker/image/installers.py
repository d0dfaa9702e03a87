"""Virtualenvs, and what installers put into them or into a prefix.

- ``python -m venv DIR``, ``virtualenv DIR``, ``uv venv [DIR]`` make a
  virtualenv: ``DIR/bin`` with ``python`` (and ``pip``, but for ``uv venv``
  without ``--seed``);
- ``pip``/``uv pip install``: the packages named, and those of every ``-r
  FILE`` the model can read (a file the build copied from the context, or
  bound by the ``RUN``'s mount), go to the ``bin`` of the virtualenv the
  ``pip`` belongs to (its path, ``--python``, or the first image ``PATH``
  directory holding a ``pip``), or of ``--prefix``/``--target``/``--user``.
  What cannot be read (``pip install .``, an unseen file) is recorded as
  ``*``: something was installed there, the model cannot say what;
- ``npm install -g``, ``cargo install``, ``go install``: the program named
  after the package (not certain: a package may name its program otherwise).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence

from wendy_llm.docker.image.facts import Entry, Install
from wendy_llm.docker.image.runwrites import Word, command_words
from wendy_llm.docker.image.state import State

Reader = Callable[[str], str | None]  # an image path's text, when the model knows it

_PIP = re.compile(r"^pip[0-9.]*$")
_PYTHON = re.compile(r"^python[0-9.]*$")
_REQUIREMENT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)")
_VALUED = frozenset(
    (
        *("-r", "--requirement", "-c", "--constraint", "-i", "--index-url", "--extra-index-url"),
        *("-f", "--find-links", "--prefix", "--target", "-t", "--python", "-p", "--root"),
        *("--src", "-e", "--editable", "--cache-dir", "--platform", "--python-version"),
        *("--implementation", "--abi", "--trusted-host"),
    )
)
#: Packaging tools a virtualenv upgrades in place: they name no program the service runs.
_TOOLING = frozenset({"pip", "setuptools", "wheel", "uv"})
UNKNOWN = "*"  # an install whose packages the model cannot read


def apply_installers(
    words: Sequence[str], state: State, cwd: str, line: int, word: Word, read: Reader
) -> None:
    command = command_words(words)
    if not command:
        return
    name = posixpath.basename(command[0])
    rest = command[1:]
    if _PYTHON.match(name) and rest[:2] == ["-m", "venv"]:
        _venv(rest[2:], state, cwd, line, word, pip=True)
    elif name == "virtualenv":
        _venv(rest, state, cwd, line, word, pip=True)
    elif name == "uv" and rest[:1] == ["venv"]:
        _venv(rest[1:], state, cwd, line, word, pip="--seed" in rest, default=".venv")
    elif name == "uv" and rest[:2] == ["pip", "install"]:
        _pip(command[0], rest[2:], state, cwd, line, word, read, uv=True)
    elif _PIP.match(name) and rest[:1] == ["install"]:
        _pip(command[0], rest[1:], state, cwd, line, word, read)
    elif _PYTHON.match(name) and rest[:3] == ["-m", "pip", "install"]:
        _pip(command[0], rest[3:], state, cwd, line, word, read)
    elif name == "npm" and rest[:1] in (["install"], ["i"]) and {"-g", "--global"} & set(rest):
        _programs(rest[1:], "/usr/local/bin", state, line, "npm install -g", _npm_name)
    elif name == "cargo" and rest[:1] == ["install"]:
        home = "/usr/local/cargo" if _on_path(state, "/usr/local/cargo/bin") else "/root/.cargo"
        root = _value(rest, "--root")
        _programs(rest[1:], f"{root or home}/bin", state, line, "cargo install", _plain_name)
    elif name == "go" and rest[:1] == ["install"]:
        gobin = "/go/bin" if _on_path(state, "/go/bin") else "/root/go/bin"
        _programs(rest[1:], gobin, state, line, "go install", _go_name)


def _on_path(state: State, directory: str) -> bool:
    return any(d == directory for d, _ in state.path_dirs)


def _value(args: Sequence[str], flag: str) -> str | None:
    for index, arg in enumerate(args):
        if arg == flag and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith(flag + "="):
            return arg.partition("=")[2]
    return None


def _positional(args: Sequence[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _VALUED:
            skip = True
        elif not arg.startswith("-"):
            out.append(arg)
    return out


def _venv(
    args: Sequence[str],
    state: State,
    cwd: str,
    line: int,
    word: Word,
    *,
    pip: bool,
    default: str | None = None,
) -> None:
    places = [a for a in _positional(args)] or ([default] if default else [])
    if not places:
        return
    directory = word(places[-1])
    if directory is None:
        return
    root = state.absolute(directory, cwd)
    how = "RUN (virtualenv)"
    state.make_dir(root, line, how)
    state.venvs.append(state.entries[root])
    state.make_dir(f"{root}/bin", line, how)
    for program in ("python", "python3", "activate", *(("pip", "pip3") if pip else ())):
        state.put(Entry(f"{root}/bin/{program}", "file", line, how, True, program != "activate"))


def _pip_bin(program: str, args: Sequence[str], state: State, cwd: str, uv: bool) -> str | None:
    """The ``bin`` directory a pip install puts console scripts into (None: not known)."""
    for flag, suffix in (("--prefix", "/bin"), ("--target", "/bin"), ("-t", "/bin")):
        value = _value(args, flag)
        if value is not None:
            return state.absolute(value, cwd) + suffix
    if "--user" in args:
        return "/root/.local/bin"
    python = _value(args, "--python") or _value(args, "-p")
    if python is not None:
        python = state.absolute(python, cwd)
        return python if python in state.dirs else posixpath.dirname(python)
    if uv and "--system" in args:
        return "/usr/local/bin"
    if "/" in program:
        return posixpath.dirname(state.absolute(program, cwd))
    wanted = "pip" if not uv else "python"
    for directory, _ in state.path_dirs:
        if f"{directory}/{wanted}" in state.entries or f"{directory}/{program}" in state.entries:
            return directory
    return None if uv else "/usr/local/bin"


def _pip(
    program: str,
    args: Sequence[str],
    state: State,
    cwd: str,
    line: int,
    word: Word,
    read: Reader,
    *,
    uv: bool = False,
) -> None:
    target = _pip_bin(program, args, state, cwd, uv)
    if target is None:
        return
    shown = "uv pip install" if uv else "pip install"
    for arg in _positional(args):
        match = _REQUIREMENT.match(word(arg) or "")
        local = arg.startswith((".", "/")) or "://" in arg
        if match is None or local:
            state.installs.append(Install(UNKNOWN, target, line, f"{shown} {arg}", False))
        elif match[1].lower() not in _TOOLING:
            state.installs.append(Install(match[1].lower(), target, line, f"{shown} {arg}", True))
    for index, arg in enumerate(args):
        if arg in ("-r", "--requirement") and index + 1 < len(args):
            _requirements(args[index + 1], target, state, cwd, line, word, read, shown, 0)
        elif arg.startswith("--requirement="):
            _requirements(arg.partition("=")[2], target, state, cwd, line, word, read, shown, 0)


def _requirements(
    raw: str,
    target: str,
    state: State,
    cwd: str,
    line: int,
    word: Word,
    read: Reader,
    shown: str,
    depth: int,
) -> None:
    name = word(raw)
    path = state.absolute(name, cwd) if name is not None else None
    text = read(path) if path is not None and depth < 3 else None
    if text is None or path is None:
        state.installs.append(Install(UNKNOWN, target, line, f"{shown} -r {raw} (unread)", False))
        return
    for number, requirement in enumerate(text.splitlines(), start=1):
        requirement = re.sub(r"(^|\s)#.*$", "", requirement).strip()
        if requirement.startswith(("-r ", "--requirement ")):
            nested = requirement.split(None, 1)[1]
            folder = posixpath.dirname(path)
            _requirements(nested, target, state, folder, line, word, read, shown, depth + 1)
            continue
        match = _REQUIREMENT.match(requirement)
        if match is None or requirement.startswith("-"):
            continue
        via = f"{raw}:{number} ({shown} -r)"
        if match[1].lower() not in _TOOLING:
            state.installs.append(Install(match[1].lower(), target, line, via, True))


def _plain_name(arg: str) -> str:
    return arg.split("@")[0]


def _npm_name(arg: str) -> str:
    scoped = arg.startswith("@")
    name = arg[1:].split("@")[0] if scoped else arg.split("@")[0]
    return name.rsplit("/", 1)[-1]


def _go_name(arg: str) -> str:
    parts = arg.split("@")[0].rstrip("/").split("/")
    if len(parts) > 1 and re.fullmatch(r"v\d+", parts[-1]):
        parts = parts[:-1]
    return parts[-1]


def _programs(
    args: Sequence[str],
    bin_dir: str,
    state: State,
    line: int,
    how: str,
    program: Callable[[str], str],
) -> None:
    for arg in _positional(args):
        name = program(arg)
        if not name or name.startswith(".") or "$" in name:
            continue
        state.installs.append(Install(name, bin_dir, line, f"{how} {arg}", False))
        state.put(Entry(f"{bin_dir}/{name}", "file", line, f"RUN {how}", False, True))
