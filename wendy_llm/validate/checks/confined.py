"""The gate reads only the repository: compose paths that lead out of the rendered app.

``wendy init`` copies only the template's own directory into the user's
project (docs/wendy-init-semantics.md), so a compose file that reads a
file outside it (``include: /etc/x.yml``, ``label_file: /etc/passwd``,
``env_file: ../../.env``) never works for a user, and checking it would
make the gate read the CI host's files (their content then quoted in a
finding, or ``/dev/zero`` read until memory runs out) and give a verdict
that depends on what happens to exist on the runner.  Before Compose runs,
:func:`outside_reads` names every value that names a file, as the Compose
specification's own schema says (:mod:`wendy_llm.validate.tools.compose_spec`:
``env_file``, ``label_file``, ``include``, ``extends.file``, ``build``
contexts and Dockerfiles, file-backed ``configs`` and ``secrets``, and
whatever key a newer Compose adds), and that resolves outside the rendered
app directory, or that is a remote resource Compose would fetch (an
``include`` or a build context at a URL or git address: Compose runs ``git
ls-remote`` to an address the template chooses).

A path leads out when it is absolute, starts with ``~`` (a home
directory), climbs out with ``..``, or is interpolated (``${VAR}``: Compose
fills it from an environment or ``.env`` the gate cannot vouch for, so
where it points is unknown until then).  A symlink cannot lead out: the
render never holds one (a template's symlinks are skipped, not copied).
Compose files the render includes or extends are read the same way, from
their own directory.  Each such value is an error; the compose check runs
no tool on that file (so no file of the host is read, no address reached).
Bind-mount sources (``volumes:``) and device paths are not read at check
time and keep their device meaning (``/dev/...`` is a device), so they are
not judged here.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from wendy_llm.codes import Check
from wendy_llm.codes.tools import COMPOSE_OUTSIDE, COMPOSE_REMOTE
from wendy_llm.errors import quoted
from wendy_llm.validate.documents import compose_model
from wendy_llm.validate.documents.parse import Parsed, parse_yaml
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.tools.compose_spec import Node, names_a_file, root_node

CHECK = Check.COMPOSE

WHY = (
    "wendy init copies only the template's directory, so a user's project never has it, "
    "and the gate reads nothing outside the repository: no tool runs on this compose file "
    "until it is fixed"
)


WHY_REMOTE = (
    "Compose would fetch it from the network (git ls-remote, a download) from the machine "
    "running the gate, to an address the template chooses: no tool runs on this compose "
    "file until it names a file of the app instead"
)


@dataclass(frozen=True)
class _Read:
    """One path a compose file makes Compose read, where it is written."""

    key: str  # as a reader finds it: services.web.env_file[0]
    path: str  # as written
    base: str  # the directory it is relative to, in the render
    at: tuple[str | int, ...]  # the YAML path of its line
    compose: bool = False  # a compose file (included or extended): read in turn


#: Addresses fetched from the network: git and HTTP(S) remotes, OCI artifacts.
_REMOTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|git@|github\.com/)", re.IGNORECASE)
#: Named build contexts that are an image or another stage, not a file (BuildKit's).
_NOT_FILES = re.compile(r"^(?:docker-image://|service:|target:)", re.IGNORECASE)


def _is_compose_file(at: tuple[str | int, ...]) -> bool:
    """Whether the value at ``at`` names a compose file Compose reads in turn."""
    if at[:1] == ("include",):
        return len(at) == 2 or (len(at) >= 3 and at[2] == "path")
    return at[-2:] == ("extends", "file")


def _walk(
    value: object, node: Node, at: tuple[str | int, ...], key: str, naming: bool, base: str
) -> Iterator[_Read]:
    """Each value under ``value`` (schema ``node``) that names a file; ``naming``:
    the key it is under names one (so every string under it does)."""
    if isinstance(value, str):
        if node.owner == "list_or_dict" and naming and "=" in value:
            value = value.split("=", 1)[1]  # a mapping written as a list: NAME=VALUE
        if naming or node.string_is_path():
            yield _Read(key, value, base, at, _is_compose_file(at))
        return
    if isinstance(value, list):
        items = node.items()
        if items is None:
            return
        for index, item in enumerate(value):
            yield from _walk(item, items, (*at, index), f"{key}[{index}]", naming, base)
        return
    if not isinstance(value, Mapping):
        return
    context = value.get("context")
    for name, sub_value in value.items():
        found = node.child(name) if isinstance(name, str) else None
        if found is None:
            continue
        sub, declared = found
        under = base
        if name == "dockerfile" and isinstance(context, str) and not _REMOTE.match(context):
            under = compose_model.normalise_path(context, base)  # relative to its context
        here = f"{key}.{name}" if key else name
        names = names_a_file(name, sub) if declared else naming
        yield from _walk(sub_value, sub, (*at, name), here, names, under)


def _reads(doc: Mapping[str, object], base: str) -> Iterator[_Read]:
    return _walk(doc, root_node(), (), "", False, base)


def leads_out(path: str, base: str) -> str | None:
    """Why ``path`` (relative to ``base``, a directory of the render) resolves
    outside the render, or None when it stays inside."""
    raw = path.strip()
    if "$" in raw.replace("$$", ""):
        return "it is interpolated (${...}), so where it points depends on an environment"
    if raw.startswith("~"):
        return "it is in a home directory (~)"
    if PurePosixPath(raw).is_absolute():
        return "it is an absolute path"
    joined = posixpath.normpath(posixpath.join(base, raw)) if raw else base
    if joined == ".." or joined.startswith("../"):
        return "it leads out of the app (..)"
    return None


def outside_reads(parsed: Parsed, tree: Mapping[str, bytes]) -> list[Finding]:
    """An error for each path ``parsed`` (or a compose file it includes or
    extends, read from the render) makes Compose read outside the render."""
    findings: list[Finding] = []
    seen: set[str] = set()
    pending = [parsed]
    while pending:
        current = pending.pop(0)
        if current.path in seen or not isinstance(current.data, Mapping):
            continue
        seen.add(current.path)
        base = str(PurePosixPath(current.path).parent)
        for item in _reads(current.data, base):
            if _NOT_FILES.match(item.path.strip()):
                continue
            if _REMOTE.match(item.path.strip()):
                message = f"{item.key}: {quoted(item.path)} is a remote resource; {WHY_REMOTE}"
                line = current.line(*item.at)
                findings.append(
                    error(COMPOSE_REMOTE, message, current.path, line, subject=item.key)
                )
                continue
            why = leads_out(item.path, item.base)
            if why is not None:
                message = (
                    f"{item.key}: {quoted(item.path)} is outside the rendered app ({why}); {WHY}"
                )
                findings.append(
                    error(
                        COMPOSE_OUTSIDE,
                        message,
                        current.path,
                        current.line(*item.at),
                        subject=item.key,
                    )
                )
                continue
            target = compose_model.normalise_path(item.path, item.base)
            if item.compose and target in tree and target not in seen:
                pending.append(parse_yaml(target, tree[target], check=CHECK))
    return findings
