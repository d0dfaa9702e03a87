"""What the commands print on stdout: JSON reports that are always valid, text that never fails.

File names, app ids and ``--var`` values are bytes on Linux; Python
carries the bytes that are not UTF-8 as lone surrogates (``\\udcff`` for
0xff), which a strict UTF-8 stdout refuses to print (after the tree was
written), and which a surrogateescape stdout prints as raw bytes (invalid
UTF-8, so invalid JSON).

- Every ``--json`` document is ASCII (:func:`wendy_llm.reports.json.dumps`):
  other characters are ``\\u`` escapes of four hex digits, so a
  surrogate is ``\\udcff`` (valid JSON; ``json.loads`` returns the same
  surrogate, ``os.fsencode`` the original bytes) whatever the locale
  (docs/json-reports.md).
- :func:`never_fail_on_text`: on stdout, a character the encoding cannot
  carry prints as a backslash escape (``\\udcff``) instead of raising.
- :func:`name_failures`: the templates a run over many could not load or
  render, each an error on stderr after what stdout printed (exit 2).

Every text the commands print goes through this module (issue 29; a test
of tests/cli/test_output_guard.py fails on any other module that prints or
touches ``sys.stdout``/``sys.stderr``): :func:`emit` for stdout, :func:`say`
for a ``wendy-llm: ...`` line on stderr, :func:`emit_command` for the
gate's own GitHub workflow commands.  The report formatters already escape
the user text they hold (:mod:`wendy_llm.escape`); :func:`guard`
checks every line once more on its way out: a raw control character is
shown escaped (colour on a terminal keeps the formatters' own SGR codes),
and a line that would start with ``::`` is not a workflow command unless it
is the run's own ``::stop-commands::`` pair (:mod:`wendy_llm.reports.workflow`).
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Mapping, Sequence

from wendy_llm import escape
from wendy_llm.cli.parser import EXIT_USAGE

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import TextIO


#: The colour codes the formatters write (:mod:`wendy_llm.reports.terminal`).
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def guard(text: str, *, colour: bool = False) -> str:
    """``text`` as it may be written: every line free of raw controls and unable
    to act as a workflow command (bar the run's own stop-commands pair)."""
    out = []
    for line in text.split("\n"):
        if line.startswith("::") and _is_marker(line):
            out.append(line)
            continue
        if colour:
            kept = _SGR.findall(line)
            parts = [escape.text_uncut(part) for part in _SGR.split(line)]
            line = "".join(p + c for p, c in zip(parts, [*kept, ""], strict=True))
        else:  # each field is cut by its formatter; a JSON line carries data whole
            line = escape.text_uncut(line)
        out.append(escape.line_start(line))
    return "\n".join(out)


def _is_marker(line: str) -> bool:
    # lazy: only a report's verbatim block holds a marker, and the reports
    # have loaded this module by then; `render` and `picks` never need it.
    from wendy_llm.reports import workflow

    return workflow.is_marker(line)


def emit(text: str, *, colour: bool = False, stream: TextIO | None = None) -> None:
    """Write a report's ``text`` to stdout (or ``stream``), guarded (:func:`guard`)."""
    (stream if stream is not None else sys.stdout).write(guard(text, colour=colour))


def emit_rows(rows: Sequence[Sequence[str]], stream: TextIO | None = None) -> None:
    """Tab-separated rows for a script to read (``golden --list-baselines``): each
    field guarded on its own, so the tabs and newlines between them stay real."""
    text = "".join("\t".join(guard(field) for field in row) + "\n" for row in rows)
    (stream if stream is not None else sys.stdout).write(text)


def say(line: str, stream: TextIO | None = None) -> None:
    """One ``wendy-llm: ...`` line (a warning, a note, an error) on stderr, guarded."""
    (stream if stream is not None else sys.stderr).write(guard(line) + "\n")


def emit_command(
    name: str,
    message: str,
    properties: Mapping[str, str] | None = None,
    environ: Mapping[str, str] = os.environ,
    *,
    force: bool = False,
) -> bool:
    """Write the gate's own workflow command (``::error file=...::message``) on
    stdout, escaped, when running under GitHub Actions (or ``force``: asked
    for, ``check --format github``); False elsewhere.  Every verbatim block
    is opened and closed within one :func:`emit`, so this is always written
    outside them."""
    # lazy: only the gate's own annotations need the workflow commands' module.
    from wendy_llm.reports import workflow

    if not force and not workflow.on_github(environ):
        return False
    sys.stdout.write(workflow.command(name, message, properties or {}) + "\n")
    return True


def stdout_colour() -> bool:
    """Whether reports on stdout are coloured (:func:`~wendy_llm.reports.terminal.use_colour`)."""
    # lazy: the colour rule's module loads only for a command that prints a report.
    from wendy_llm.reports.terminal import use_colour

    return use_colour(sys.stdout)


def prepare_stdout() -> None:
    """Make stdout print what it cannot encode as escapes (:func:`never_fail_on_text`)."""
    never_fail_on_text(sys.stdout)


def silence_stdout() -> None:
    """Point stdout at /dev/null (the reader left: the final flush must not raise)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def never_fail_on_text(stream: TextIO) -> None:
    """Make ``stream`` print what it cannot encode as backslash escapes."""
    if isinstance(stream, io.TextIOWrapper) and stream.errors != "backslashreplace":
        stream.reconfigure(errors="backslashreplace")


def name_failures(messages: Sequence[str]) -> int:
    """Print each message as an error on stderr, after everything stdout holds so
    far; the exit status: 2 (an input error) when there is one, else 0."""
    sys.stdout.flush()
    for message in messages:
        say(f"wendy-llm: error: {message}")
    return EXIT_USAGE if messages else 0
