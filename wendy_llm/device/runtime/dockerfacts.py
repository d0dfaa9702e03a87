"""What a service's Dockerfile says about its container at run time, as far as it shows.

Read along the built stage's ``FROM <stage>`` chain (the last stage: the
CLI does not read ``target``), build args at their defaults: the ``PATH``
directories the Dockerfile adds, its ``USER``, ``WORKDIR`` and
``STOPSIGNAL``, the paths it fills (``COPY``/``ADD`` destinations,
``WORKDIR``s, ``RUN`` text), the virtualenvs it creates, and the programs
it installs into them.  What a base image holds is not seen: callers say
"unknown" for it.
"""

from __future__ import annotations

import contextlib
import functools
import posixpath
import re
import shlex
from dataclasses import dataclass

from wendy_llm.device.images import parse_dockerfile
from wendy_llm.docker.expand import ExpansionError, Variables, expand
from wendy_llm.wendycli.runtime import DEFAULT_PATH_DIRS

#: ``python -m venv DIR``, ``virtualenv DIR``, ``uv venv [opts] DIR``.
_VENV = re.compile(
    r"(?:-m\s+venv|\bvirtualenv|\buv\s+venv)((?:\s+--?[A-Za-z-]+(?:[ =][^\s-]\S*)?)*)\s+(/\S+)"
)
#: A pip install (``pip``, ``pipN``, ``python -m pip``, ``uv pip``) and its words.
_PIP_INSTALL = re.compile(r"(?:\S*/)?(?:pip[0-9.]*|-m\s+pip|uv\s+pip)\s+install\s+([^;&|]*)")
_REQUIREMENT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)")
#: Packaging tools a virtualenv upgrades in place; the base image has its own.
_TOOLING = frozenset({"pip", "setuptools", "wheel", "uv"})


@dataclass(frozen=True)
class Located:
    value: str
    line: int


@dataclass(frozen=True)
class DockerFacts:
    """What one Dockerfile shows about its built image."""

    path_added: tuple[Located, ...]  # PATH directories outside the default PATH, in order
    user: Located | None  # the last USER
    workdir: Located | None  # the last WORKDIR (absolute)
    stopsignal: Located | None
    # Paths the build puts content at: COPY/ADD destinations, and paths below a directory
    # a RUN names other than to create, own or chmod it (``mkdir`` alone leaves it empty).
    filled: tuple[Located, ...]
    runs: tuple[Located, ...]  # each RUN's command text
    venvs: tuple[Located, ...]  # virtualenv directories created
    installed: tuple[tuple[str, str], ...]  # (program name, directory) pip put there
    base_seen: bool  # False: the chain ends on an external image (its files are unseen)


def _word(text: str, scope: Variables, escape: str) -> str:
    try:
        return expand(text, scope, escape).text
    except ExpansionError:
        return text


def _path_parts(raw: str, scope: Variables, escape: str) -> list[str]:
    out = []
    for part in raw.split(":"):
        if "$" in part or not part:
            continue
        out.append(_word(part, scope, escape))
    return out


@functools.lru_cache(maxsize=128)
def docker_facts(text: str) -> DockerFacts | None:
    """The facts of a Dockerfile's built stage (None: it does not parse or has no FROM)."""
    dockerfile = parse_dockerfile(text)
    if isinstance(dockerfile, str) or not dockerfile.stages:
        return None
    build = dockerfile.build()
    chain: list[int] = []
    with contextlib.suppress(ExpansionError):
        chain.extend(build.chain(build.target()))
    if not chain:
        return None
    added: list[Located] = []
    user = workdir = stop = None
    filled: list[Located] = []
    runs: list[Located] = []
    venvs: list[Located] = []
    installed: list[tuple[str, str]] = []
    cwd = "/"
    escape = dockerfile.escape
    for index in reversed(chain):
        for ins, scope in build.scopes(index):
            kw = ins.keyword
            if kw == "ENV":
                for key, raw in zip(ins.args[::2], ins.args[1::2], strict=False):
                    if key == "PATH":
                        added = [
                            Located(d, ins.line)
                            for d in _path_parts(raw, scope, escape)
                            if d not in DEFAULT_PATH_DIRS
                        ] + [a for a in added if "$PATH" in raw or "${PATH}" in raw]
            elif kw == "USER" and ins.args:
                user = Located(_word(ins.args[0], scope, escape), ins.line)
            elif kw == "STOPSIGNAL" and ins.args:
                stop = Located(ins.args[0], ins.line)
            elif kw == "WORKDIR" and ins.args:
                cwd = posixpath.normpath(posixpath.join(cwd, _word(ins.args[0], scope, escape)))
                workdir = Located(cwd, ins.line)
            elif kw in ("COPY", "ADD") and len(ins.args) >= 2:
                dest = _word(ins.args[-1], scope, escape)
                filled.append(Located(posixpath.normpath(posixpath.join(cwd, dest)), ins.line))
            elif kw == "RUN":
                command = " ".join(ins.args)
                for doc in ins.heredocs:
                    command += "\n" + doc.content
                runs.append(Located(command, ins.line))
                filled += _run_writes(command, ins.line)
                venvs += [Located(m[2].rstrip("/"), ins.line) for m in _VENV.finditer(command)]
                installed += _installs(command, scope, added, venvs)
    root = build.base(chain[-1])
    base_seen = root.stage is None and root.expansion.text.lower() == "scratch"
    return DockerFacts(
        tuple(added),
        user,
        workdir,
        stop,
        tuple(filled),
        tuple(runs),
        tuple(venvs),
        tuple(dict.fromkeys(installed)),
        base_seen,
    )


_PATH_WORD = re.compile(r"(?<![\w$:.-])(/[A-Za-z0-9._@+-]+(?:/[A-Za-z0-9._@+*-]+)+)")
_ONLY_MAKES = re.compile(r"^\s*(?:mkdir|chmod|chown|chgrp|test|\[)\b")


def _run_writes(command: str, line: int) -> list[Located]:
    """Absolute paths a RUN's commands name, except in ``mkdir``/``chmod``/``chown``."""
    out = []
    for part in re.split(r"&&|\|\||;|\n", command):
        if _ONLY_MAKES.match(part):
            continue
        out += [Located(m[1].rstrip("/"), line) for m in _PATH_WORD.finditer(part)]
    return out


def _installs(
    command: str, scope: Variables, added: list[Located], venvs: list[Located]
) -> list[tuple[str, str]]:
    """(program, directory) for each package a pip install puts into a virtualenv.

    The console script a package installs is assumed to carry the package's
    name (``open-webui``, ``vllm``, ``uvicorn``): the render shows nothing
    more.  The virtualenv is the one its ``--python``/path names, else the
    first ``PATH`` directory the Dockerfile added (a bare ``pip`` runs from
    it at build time, where the image's own ``PATH`` applies).
    """
    out: list[tuple[str, str]] = []
    for match in _PIP_INSTALL.finditer(command):
        before = command[: match.start()].rsplit("&&", 1)[-1] + match.group(0)
        target = next(
            (
                f"{v.value}/bin"
                for v in venvs
                if f"{v.value}/bin/" in before or f"{v.value}/bin/" in match.group(0)
            ),
            None,
        )
        if target is None and added:
            target = added[0].value
        if target is None:
            continue
        try:
            words = shlex.split(match.group(1))
        except ValueError:
            continue
        skip = False
        for word in words:
            if skip:
                skip = False
                continue
            if word in ("--python", "-r", "-c", "--requirement", "--constraint", "-e"):
                skip = True
                continue
            if word.startswith("-") or ("$" in word and word.startswith("$")):
                continue
            name = _REQUIREMENT.match(_plain(word, scope))
            if name is not None and name.group(1).lower() not in _TOOLING:
                out.append((name.group(1).lower(), target))
    return out


def _plain(word: str, scope: Variables) -> str:
    with contextlib.suppress(ExpansionError):
        return expand(word, scope).text
    return word
