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
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence

from wendy_llm.cli.parser import EXIT_USAGE

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import TextIO


def never_fail_on_text(stream: TextIO) -> None:
    """Make ``stream`` print what it cannot encode as backslash escapes."""
    if isinstance(stream, io.TextIOWrapper) and stream.errors != "backslashreplace":
        stream.reconfigure(errors="backslashreplace")


def name_failures(messages: Sequence[str]) -> int:
    """Print each message as an error on stderr, after everything stdout holds so
    far; the exit status: 2 (an input error) when there is one, else 0."""
    sys.stdout.flush()
    for message in messages:
        print(f"wendy-llm: error: {message}", file=sys.stderr)
    return EXIT_USAGE if messages else 0
