"""Which output files a baseline comparison looks at.

A scope is a list of globs over output paths (posix, relative to the app
root), in the one glob dialect of :mod:`wendy_llm.repo.globs`: ``*`` and
``?`` stay inside one path component, ``**`` spans any number of them
(``vllm/**``, ``**/Dockerfile``), and a glob without a ``/`` matches at the
top level only (``wendy.json`` is the root one, not ``x/wendy.json``). No
globs means every file.

When the command line gives none, the scope is the ``gate.files`` of the
template's rules file, read once with the rest of that file
(``wendy_llm.validate.rules.file.Rules.gate``, which holds the globs
parsed there): this module reads no file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from wendy_llm.arguments import check_fields, value_error
from wendy_llm.errors import DiffError
from wendy_llm.repo.globs import Glob, GlobError, parse_glob


@dataclass(frozen=True)
class FileScope:
    globs: tuple[str, ...] = ()
    source: str | None = None  # where the globs came from, for the report
    #: ``globs`` parsed; given by :meth:`of` (parsed elsewhere), else parsed here.
    patterns: tuple[Glob, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        check_fields(self)  # a caller's value: FileScope("*.yml") is no tuple of globs
        if len(self.patterns) != len(self.globs):
            try:
                patterns = tuple(parse_glob(g) for g in self.globs)
            except GlobError as exc:
                raise value_error("FileScope()", "globs", f"holds a bad glob: {exc}") from None
            object.__setattr__(self, "patterns", patterns)

    @classmethod
    def of(cls, patterns: Sequence[Glob], source: str | None) -> FileScope:
        """The scope of globs parsed already (a rules file's ``gate.files``)."""
        return cls(tuple(p.text for p in patterns), source, tuple(patterns))

    @property
    def everything(self) -> bool:
        return not self.globs

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, str):
            return False
        return self.everything or any(p.matches(path) for p in self.patterns)

    def describe(self) -> str:
        if self.everything:
            return "all files"
        where = f" (from {self.source})" if self.source else ""
        return ", ".join(self.globs) + where


def scope_from_args(globs: Sequence[str] | None, gate: FileScope) -> FileScope:
    """``--files`` globs when given, else ``gate`` (the rules file's ``gate.files``)."""
    if not globs:
        return gate
    try:
        patterns = [parse_glob(g) for g in globs]
    except GlobError as exc:
        raise DiffError(f"--files: {exc}") from None
    return FileScope.of(patterns, "--files")


ALL_FILES = FileScope()
