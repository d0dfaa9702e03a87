"""Colour and terminal detection, in one place.

The rule (:func:`use_colour`): colour only when the stream is a terminal,
and never when ``NO_COLOR`` is set to anything non-empty (no-color.org).
Colour is applied while a report is formatted, through a :class:`Style`
that names what a piece of text is (a failure, a warning, an added line);
a formatter given ``Style(False)`` writes the very same text, plain.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TextIO

from wendy_llm import escape
from wendy_llm.reports.workflow import verbatim

RED = "\x1b[31m"
GREEN = "\x1b[32m"
YELLOW = "\x1b[33m"
CYAN = "\x1b[36m"
BOLD = "\x1b[1m"
BOLD_RED = "\x1b[1;31m"
RESET = "\x1b[0m"


def is_terminal(stream: TextIO) -> bool:
    """True when ``stream`` is a terminal (streams without ``isatty`` are not)."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


def use_colour(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (non-empty)."""
    env = os.environ if environ is None else environ
    return not env.get("NO_COLOR") and is_terminal(stream)


@dataclass(frozen=True)
class Style:
    """How a report's pieces look; every method returns ``text`` itself when not ``colour``."""

    colour: bool = False

    def _paint(self, code: str, text: str) -> str:
        return f"{code}{text}{RESET}" if self.colour and text else text

    def ok(self, text: str) -> str:
        """What holds, passes, or was added."""
        return self._paint(GREEN, text)

    def fail(self, text: str) -> str:
        """What fails."""
        return self._paint(BOLD_RED, text)

    def warn(self, text: str) -> str:
        """What warns, or changed without failing."""
        return self._paint(YELLOW, text)

    def removed(self, text: str) -> str:
        return self._paint(RED, text)

    def verdict(self, text: str, holds: bool) -> str:
        return self.ok(text) if holds else self.fail(text)

    def diff(self, lines: Iterable[str]) -> list[str]:
        """The lines of one unified diff (``textdiff.unified_diff``), escaped
        (:func:`~wendy_llm.escape.lines`): they are a user's file.

        File headers come before the first hunk; after it, a line starting
        with ``---`` is a removed line like any other.  Under GitHub Actions
        the lines are a verbatim block (:func:`~wendy_llm.reports.workflow.verbatim`).
        """
        out: list[str] = []
        in_hunks = False
        for line in escape.lines(lines):
            in_hunks = in_hunks or line.startswith("@@")
            if line.startswith("@@"):
                out.append(self._paint(CYAN, line))
            elif not in_hunks and line.startswith(("--- ", "+++ ")):
                out.append(self._paint(BOLD, line))
            elif in_hunks and line.startswith("+"):
                out.append(self.ok(line))
            elif in_hunks and line.startswith("-"):
                out.append(self.removed(line))
            else:
                out.append(line)
        return verbatim(out)
