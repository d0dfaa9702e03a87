"""What a service's Dockerfile says about its container at run time, as far as it shows.

Read along the built stage's ``FROM <stage>`` chain (the last stage: the
CLI does not read ``target``), build args at their defaults: its ``USER``,
``WORKDIR`` and ``STOPSIGNAL``, and the paths it fills (``COPY``/``ADD``
destinations, ``WORKDIR``s, ``RUN`` text) for the persist checks.  What
the image holds, file by file (``PATH``, virtualenvs, installs), is the
image model's (:mod:`wendy_llm.docker.image`), which the program resolver
reads.
"""

from __future__ import annotations

import contextlib
import functools
import posixpath
import re
from dataclasses import dataclass

from wendy_llm.device.images import parse_dockerfile
from wendy_llm.docker.expand import ExpansionError, Variables, expand


@dataclass(frozen=True)
class Located:
    value: str
    line: int


@dataclass(frozen=True)
class DockerFacts:
    """What one Dockerfile shows about its built image."""

    user: Located | None  # the last USER
    workdir: Located | None  # the last WORKDIR (absolute)
    stopsignal: Located | None
    # Paths the build puts content at: COPY/ADD destinations, and paths below a directory
    # a RUN names other than to create, own or chmod it (``mkdir`` alone leaves it empty).
    filled: tuple[Located, ...]
    runs: tuple[Located, ...]  # each RUN's command text
    base_seen: bool  # False: the chain ends on an external image (its files are unseen)


def _word(text: str, scope: Variables, escape: str) -> str:
    try:
        return expand(text, scope, escape).text
    except ExpansionError:
        return text


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
    user = workdir = stop = None
    filled: list[Located] = []
    runs: list[Located] = []
    cwd = "/"
    escape = dockerfile.escape
    for index in reversed(chain):
        for ins, scope in build.scopes(index):
            kw = ins.keyword
            if kw == "USER" and ins.args:
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
    root = build.base(chain[-1])
    base_seen = root.stage is None and root.expansion.text.lower() == "scratch"
    return DockerFacts(
        user,
        workdir,
        stop,
        tuple(filled),
        tuple(runs),
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
