"""Globs as the rules file writes them: parsed once, when the file is read.

Every pattern of a rules file (``gate.files``, a ``file:`` assertion or
reference, a text trait of a selector) is a glob of the one dialect
(:mod:`wendy_llm.repo.globs`, docs/rules.md "Patterns").  A pattern is
parsed when the rules file is read, so an invalid one is a mistake in the
rules file (``file:line: rules[2] (name): assert[0].file: reason``), never
a surprise of one render.  A pattern holding ``${VAR}`` is checked then
with each variable standing for plain text, and parsed once per value
when a render is judged: the value is text (its ``*`` is a star), as a
value in a regular expression is escaped.  In a selector's list of globs,
one starting with ``!`` excludes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from wendy_llm.repo.globs import Glob, GlobError, parse_glob
from wendy_llm.validate.rules.values import LocatedError, substitute

_SPECIAL = re.compile(r"([\\*?\[\]])")


def _escaped(value: str) -> str:
    """A value as glob text that matches exactly it."""
    return _SPECIAL.sub(r"\\\1", value)


def _as_written(text: str) -> str:
    return text


@dataclass(frozen=True)
class RuleGlob:
    """A glob of the rules file: ``text`` as written (without a leading ``!``)."""

    text: str
    exclude: bool = False
    #: Parsed when the file was read; None when ``text`` holds ``${VAR}``.
    glob: Glob | None = None
    #: Applied to the text (after substitution) before it is parsed: ``build_context``
    #: reads ``./x``, ``x`` and ``x/`` as one.
    normalise: Callable[[str], str] = _as_written

    def resolve(self, values: Mapping[str, object]) -> Glob:
        """The glob for one render (``UnknownVariable`` propagates)."""
        if self.glob is not None:
            return self.glob
        return _parse_substituted(self.normalise(substitute(self.text, values, _escaped)))

    def __str__(self) -> str:
        return ("!" if self.exclude else "") + self.text


@functools.lru_cache(maxsize=1024)
def _parse_substituted(text: str) -> Glob:
    # Checked with a placeholder when the file was read, and a value is
    # escaped: this cannot fail.
    return parse_glob(text)


def rule_glob(
    written: str,
    keys: Sequence[str | int],
    *,
    negatable: bool = False,
    normalise: Callable[[str], str] = _as_written,
) -> RuleGlob:
    """The pattern ``written`` at ``keys`` of the rules file, parsed (LocatedError: why not)."""
    exclude = negatable and written.startswith("!")
    text = written[1:] if exclude else written
    checked = normalise(substitute(text, _Placeholders()))
    try:
        glob = parse_glob(checked)
    except GlobError as exc:
        raise LocatedError(str(exc), keys) from None
    return RuleGlob(text, exclude, glob if checked == normalise(text) else None, normalise)


class _Placeholders(Mapping[str, object]):
    """Every variable, standing for plain text (a pattern is checked before any render)."""

    def __getitem__(self, name: str) -> object:
        return "x"

    def __contains__(self, name: object) -> bool:
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


@dataclass(frozen=True)
class GlobSet:
    """A selector trait's globs for one render: a text matches one (or there is none
    but ``!`` ones) and no ``!`` one."""

    include: tuple[Glob, ...]
    exclude: tuple[Glob, ...] = ()

    def matches(self, text: str) -> bool:
        if any(glob.matches(text) for glob in self.exclude):
            return False
        return not self.include or any(glob.matches(text) for glob in self.include)


def glob_set(globs: Sequence[RuleGlob], values: Mapping[str, object]) -> GlobSet:
    include = tuple(g.resolve(values) for g in globs if not g.exclude)
    return GlobSet(include, tuple(g.resolve(values) for g in globs if g.exclude))
