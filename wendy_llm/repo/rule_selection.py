"""Which findings a run counts: ``--select`` / ``--ignore`` and ``[findings]`` of wendy-llm.toml.

As ruff's rule selection: a selector is a code (``DEV006``), a leading part
of codes (``DEV``, ``DF01``), a check id (``device``) or ``ALL``; a finding
is counted when the most specific selector naming its code is a ``select``
one (the longest wins; at equal length ``ignore`` does).  With no ``select``
every code is selected.  ``per-template-ignores`` and ``per-file-ignores``
ignore codes, whatever ``select`` says, for the templates (ids or globs) and
the files (as a finding names them: a rendered path, a template file; globs
of docs/rules.md) they name.  An ignored finding is still shown and counted as ignored, never
dropped (:mod:`wendy_llm.validate.selected`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wendy_llm.codes import CODES, PREFIXES, Check
from wendy_llm.repo.globs import Glob, parse_glob

#: The selector that names every code.
ALL = "ALL"


class SelectorError(ValueError):
    """A selector that names no code; ``str()`` says why and what is known."""


@dataclass(frozen=True)
class Selector:
    """One selector as written, the codes it names, and how specific it is."""

    text: str
    codes: frozenset[str]
    specificity: int

    def __str__(self) -> str:
        return self.text


def parse_selector(text: str) -> Selector:
    """The :class:`Selector` ``text`` writes; :class:`SelectorError` when it names no code."""
    wanted = text.strip()
    if wanted.upper() == ALL:
        return Selector(ALL, frozenset(CODES), 0)
    for check in Check:
        if wanted == check.value:
            named = frozenset(c.code for c in CODES.values() if c.check == check.value)
            return Selector(wanted, named, len(PREFIXES[check]))
    upper = wanted.upper()
    named = frozenset(code for code in CODES if code.startswith(upper)) if upper else frozenset()
    if not named:
        raise SelectorError(
            f"{text!r} is no code, prefix or check id (prefixes: {', '.join(PREFIXES.values())}; "
            f"check ids: {', '.join(c.value for c in Check)}; ALL; "
            "`wendy-llm explain --list` lists the codes)"
        )
    return Selector(upper, named, len(upper))


def parse_selectors(texts: Sequence[str]) -> tuple[Selector, ...]:
    """Each of ``texts`` (comma-separated lists too, as the command line gives them)."""
    return tuple(parse_selector(part) for text in texts for part in text.split(",") if part.strip())


def _best(selectors: Sequence[Selector], code: str) -> int:
    return max((s.specificity for s in selectors if code in s.codes), default=-1)


@dataclass(frozen=True)
class RuleSelection:
    """The selection of one run: the settings' ``[findings]``, then the command line's."""

    select: tuple[Selector, ...] = ()
    ignore: tuple[Selector, ...] = ()
    per_template: tuple[tuple[Glob, tuple[Selector, ...]], ...] = ()
    per_file: tuple[tuple[Glob, tuple[Selector, ...]], ...] = ()

    @property
    def everything(self) -> bool:
        """True when nothing is ever ignored (the default)."""
        return not (self.select or self.ignore or self.per_template or self.per_file)

    def ignores(self, code: str, template: str, file: str | None) -> bool:
        """Whether a finding of ``code`` in ``template`` and ``file`` is ignored."""
        local = [s for glob, named in self.per_template if glob.matches(template) for s in named]
        if file:
            local += [s for glob, named in self.per_file if glob.matches(file) for s in named]
        if any(code in s.codes for s in local):
            return True
        selected = _best(self.select, code) if self.select else 0
        return selected < 0 or selected <= _best(self.ignore, code)

    def with_command_line(
        self, select: Sequence[Selector], ignore: Sequence[Selector]
    ) -> RuleSelection:
        """``--select`` replaces the settings' select; ``--ignore`` adds to their ignore."""
        return RuleSelection(
            tuple(select) or self.select,
            self.ignore + tuple(ignore),
            self.per_template,
            self.per_file,
        )


def per_glob(
    table: Mapping[str, Sequence[str]],
) -> tuple[tuple[Glob, tuple[Selector, ...]], ...]:
    """``{glob: [selectors]}`` parsed (GlobError / SelectorError say what is wrong)."""
    return tuple((parse_glob(pattern), parse_selectors(named)) for pattern, named in table.items())
