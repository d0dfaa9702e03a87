"""The gate reads only the repository: compose paths that lead out of the rendered app.

``wendy init`` copies only the template's own directory into the user's
project (docs/wendy-init-semantics.md), so a compose file that reads a
file outside it (``include: /etc/x.yml``, ``env_file: ../../.env``) never
works for a user, and checking it would make the gate read the CI host's
files (their content then quoted in a finding) and give a verdict that
depends on what happens to exist on the runner.  Before Compose runs,
:func:`outside_reads` names every path Compose (or the gate) reads while
judging a render and that resolves outside the rendered app directory:

- top level: ``include`` (its ``path``, ``env_file`` and
  ``project_directory``), file-backed ``configs`` and ``secrets``
  (``file:``);
- each service: ``extends.file``, ``env_file``, ``build.context`` (a local
  one; a git or URL context is not a path) and ``build.dockerfile``.

A path leads out when it is absolute, starts with ``~`` (a home
directory), climbs out with ``..``, or is interpolated (``${VAR}``: Compose
fills it from an environment or ``.env`` the gate cannot vouch for, so
where it points is unknown until then).  A symlink cannot lead out: the
render never holds one (a template's symlinks are skipped, not copied).
Compose files the render includes or extends are read the same way, from
their own directory.  Each such path is an error; the compose check runs
no tool on that file (so no file of the host is read).  Bind-mount
sources (``volumes:``) are not read at check time and keep their device
meaning (``/dev/...`` is a device), so they are not judged here.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from wendy_llm.codes import Check
from wendy_llm.codes.tools import COMPOSE_OUTSIDE
from wendy_llm.errors import quoted
from wendy_llm.validate.documents import compose_model
from wendy_llm.validate.documents.parse import Parsed, parse_yaml
from wendy_llm.validate.findings import Finding, error

CHECK = Check.COMPOSE

WHY = (
    "wendy init copies only the template's directory, so a user's project never has it, "
    "and the gate reads nothing outside the repository: no tool runs on this compose file "
    "until it is fixed"
)


@dataclass(frozen=True)
class _Read:
    """One path a compose file makes Compose read, where it is written."""

    key: str  # as a reader finds it: services.web.env_file[0]
    path: str  # as written
    base: str  # the directory it is relative to, in the render
    at: tuple[str | int, ...]  # the YAML path of its line
    compose: bool = False  # a compose file (included or extended): read in turn


def _strings(value: object) -> list[tuple[int | None, str]]:
    """A string, or each string of a list: (index or None, text)."""
    if isinstance(value, str):
        return [(None, value)]
    if isinstance(value, list):
        return [(i, v) for i, v in enumerate(value) if isinstance(v, str)]
    return []


def _env_files(value: object) -> list[tuple[int | None, str]]:
    """``env_file``: a path, or a list of paths or ``{path: ..., required: ...}``."""
    if isinstance(value, list):
        out: list[tuple[int | None, str]] = []
        for index, item in enumerate(value):
            path = item.get("path") if isinstance(item, Mapping) else item
            if isinstance(path, str):
                out.append((index, path))
        return out
    return _strings(value)


def _reads(doc: Mapping[str, object], base: str) -> Iterator[_Read]:
    def read(
        key: str, path: str, at: tuple[str | int, ...], under: str = base, compose: bool = False
    ) -> _Read:
        return _Read(key, path, under, at, compose)

    includes = doc.get("include")
    for index, item in enumerate(includes if isinstance(includes, list) else []):
        fields = {"path": item} if isinstance(item, str) else item
        if not isinstance(fields, Mapping):
            continue
        for name in ("path", "env_file", "project_directory"):
            for sub, path in _strings(fields.get(name)):
                suffix = f".{name}" if isinstance(item, Mapping) else ""
                key = f"include[{index}]{suffix}" + ("" if sub is None else f"[{sub}]")
                yield read(key, path, ("include", index), compose=name == "path")
    for section in ("configs", "secrets"):
        entries = doc.get(section)
        for name, entry in entries.items() if isinstance(entries, Mapping) else []:
            file = entry.get("file") if isinstance(entry, Mapping) else None
            if isinstance(file, str):
                yield read(f"{section}.{name}.file", file, (section, str(name), "file"))
    for name, service in compose_model.services(doc).items():
        where = f"services.{name}"
        extends = service.get("extends")
        file = extends.get("file") if isinstance(extends, Mapping) else None
        if isinstance(file, str):
            at = ("services", name, "extends")
            yield read(f"{where}.extends.file", file, at, compose=True)
        for position, path in _env_files(service.get("env_file")):
            key = f"{where}.env_file" + ("" if position is None else f"[{position}]")
            yield read(key, path, ("services", name, "env_file"))
        build = compose_model.build_of(service)
        if build is None or compose_model.is_remote_context(build.context):
            continue
        yield read(f"{where}.build.context", build.context, ("services", name, "build"))
        if build.dockerfile is not None:
            context = compose_model.normalise_path(build.context, base)
            at = ("services", name, "build")
            yield read(f"{where}.build.dockerfile", build.dockerfile, at, context)


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
