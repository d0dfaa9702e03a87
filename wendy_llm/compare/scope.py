"""Which output files a baseline comparison looks at.

A scope is a list of globs over output paths (posix, relative to the app
root): ``*`` and ``?`` stay inside one path component, ``**`` spans any
number of them (``vllm/**``, ``**/Dockerfile``), and a glob without a ``/``
matches at the top level only (``wendy.json`` is the root one, not
``x/wendy.json``). No globs means every file.

When the command line gives none, the scope comes from the ``gate.files``
list of the template's rules file ``golden/<language>/<name>.rules.yaml``
(the rest of that file belongs to ``wendy-llm check``; only ``gate.files``
is read here). A missing file, or one without a ``gate`` section, means
every file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import yaml

from wendy_llm.bounded_yaml import FAST_SAFE_LOADER, yaml_load, yaml_problem
from wendy_llm.errors import DiffError


@dataclass(frozen=True)
class FileScope:
    globs: tuple[str, ...] = ()
    source: str | None = None  # where the globs came from, for the report

    @property
    def everything(self) -> bool:
        return not self.globs

    @cached_property
    def _patterns(self) -> tuple[re.Pattern[str], ...]:
        return tuple(compile_glob(g) for g in self.globs)

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, str):
            return False
        return self.everything or any(p.fullmatch(path) for p in self._patterns)

    def describe(self) -> str:
        if self.everything:
            return "all files"
        where = f" (from {self.source})" if self.source else ""
        return ", ".join(self.globs) + where


def compile_glob(glob: str) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out))


def scope_from_rules(path: Path) -> FileScope:
    """The ``gate.files`` scope of a rules file (every file when absent)."""
    if not path.is_file():
        return FileScope()
    try:
        doc = yaml_load(path.read_text(encoding="utf-8"), FAST_SAFE_LOADER)
    except OSError as exc:
        raise DiffError(f"{path}: cannot read the rules file: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise DiffError(
            f"{path}: cannot read the rules file: not UTF-8 (byte {exc.start})"
        ) from None
    except yaml.YAMLError as exc:
        problem, line = yaml_problem(exc)
        where = path if line is None else f"{path}:{line}"
        raise DiffError(f"{where}: cannot read the rules file: {problem}") from None
    if doc is None:
        return FileScope()
    if not isinstance(doc, dict):
        raise DiffError(f"{path}: a rules file is a mapping at the top level")
    gate = doc.get("gate")
    if gate is None:
        return FileScope()
    if not isinstance(gate, dict):
        raise DiffError(f"{path}: gate must be a mapping (e.g. gate: {{files: [wendy.json]}})")
    files = gate.get("files")
    if files is None:
        return FileScope()
    if not isinstance(files, list) or not all(isinstance(f, str) and f for f in files):
        raise DiffError(f"{path}: gate.files must be a list of file globs (strings)")
    return FileScope(globs=tuple(files), source=str(path))


def scope_from_args(globs: Sequence[str] | None, rules: Path) -> FileScope:
    if globs:
        return FileScope(globs=tuple(globs), source="--files")
    return scope_from_rules(rules)


ALL_FILES = FileScope()
