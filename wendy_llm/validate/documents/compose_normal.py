"""The normalised Compose model as rules read it: ``docker-compose config``'s JSON, made portable.

``docker-compose config --format json`` prints the project as Compose
understands it: every equivalent spelling reduced to one (``build: ./x``
and ``build: {context: ./x}`` both become ``{context, dockerfile}``, short
ports become ``{target, published, protocol, mode}``, an environment list
becomes a mapping, ``depends_on`` a mapping of conditions).  Two things in
it depend on where and how the check ran, not on the render, so they are
rewritten before anyone sees the model:

- paths: Compose makes build contexts, bind-mount sources and ``env_file``
  paths absolute, inside the temporary directory the render was written
  to.  Any string under that directory becomes a path relative to the
  project directory (``./vllm``, ``.`` for the project itself, ``../x``
  for a path outside it but inside the render);
- the project name: the check runs every render as the project
  ``wendy-llm-check``; the top-level ``name`` is dropped, and the names
  Compose derives from it (``wendy-llm-check_<key>`` for a volume or
  network without a ``name:``) are shown as the key alone.  A ``name:``
  written in the file is kept as written.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from pathlib import Path


def normalise_model(raw: object, project_dir: Path, root: Path, project: str) -> object:
    """``raw`` (Compose's JSON for a project in ``project_dir``, written under ``root``)
    with paths relative to the project and the run's project name taken out."""
    prefixes = _prefixes(root)
    relative = _relative_paths(raw, prefixes, project_dir)
    if not isinstance(relative, dict):
        return relative
    relative.pop("name", None)
    for section in ("volumes", "networks"):
        entries = relative.get(section)
        if isinstance(entries, dict):
            for key, entry in entries.items():
                if isinstance(entry, dict) and entry.get("name") == f"{project}_{key}":
                    entry["name"] = key
    return relative


def _prefixes(root: Path) -> tuple[str, ...]:
    # The directory as given and as resolved (a temporary directory may sit
    # behind a symlink, and Compose prints whichever it resolved).
    forms = {str(root), str(root.resolve())}
    return tuple(sorted(forms, key=len, reverse=True))


def _relative_paths(value: object, prefixes: tuple[str, ...], project_dir: Path) -> object:
    if isinstance(value, Mapping):
        return {k: _relative_paths(v, prefixes, project_dir) for k, v in value.items()}
    if isinstance(value, list):
        return [_relative_paths(v, prefixes, project_dir) for v in value]
    if isinstance(value, str):
        return _relative(value, prefixes, project_dir)
    return value


def _relative(text: str, prefixes: tuple[str, ...], project_dir: Path) -> str:
    for prefix in prefixes:
        if text == prefix or text.startswith(prefix + "/"):
            rel = posixpath.normpath(os.path.relpath(text, _same_form(project_dir, prefix)))
            if rel == ".":
                return "."
            return rel if rel.startswith("../") or rel == ".." else f"./{rel}"
    return text


def _same_form(project_dir: Path, prefix: str) -> Path:
    """``project_dir`` spelled from ``prefix`` (resolved or not), so relpath is exact."""
    for form in (project_dir, project_dir.resolve()):
        if str(form) == prefix or str(form).startswith(prefix + "/"):
            return form
    return project_dir
