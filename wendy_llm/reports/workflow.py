"""GitHub workflow commands: the gate's own, and none from a template.

GitHub's runner reads any log line whose first non-blank characters are
``::`` as a workflow command.  Template text never starts a line that way
(:func:`wendy_llm.escape.line_start`), and, as a second wall, under
``GITHUB_ACTIONS=true`` every block printed verbatim from user files (a
diff, a tool's own output) is enclosed by :func:`verbatim` in
``::stop-commands::TOKEN`` ... ``::TOKEN::``: the runner ignores every
command in between.  ``TOKEN`` is random, drawn once per run, so text
inside the block cannot guess it and end the block early (GitHub's
guidance on stop-commands).  The gate's own commands (:func:`command`;
the annotations of a later issue) are written only between blocks: each
block is opened and closed within one write of a report.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence

from wendy_llm.escape import workflow_data, workflow_property

#: The variable GitHub Actions sets to ``true`` on its runners.
GITHUB_ACTIONS = "GITHUB_ACTIONS"


def on_github(environ: Mapping[str, str] | None = None) -> bool:
    """True under GitHub Actions (``GITHUB_ACTIONS=true``)."""
    env = os.environ if environ is None else environ
    return env.get(GITHUB_ACTIONS) == "true"


@functools.cache
def stop_token() -> str:
    """This run's random stop-commands token (drawn once per process)."""
    # lazy: only a run under GitHub Actions that prints a verbatim block needs it.
    import secrets

    return secrets.token_hex(16)


def markers() -> tuple[str, str]:
    """The lines that open and close a verbatim block in this run."""
    token = stop_token()
    return f"::stop-commands::{token}", f"::{token}::"


def is_marker(line: str) -> bool:
    """True for this run's own opening or closing line (never template text: the
    token is random, and no escaped line starts with ``::``)."""
    return line.startswith("::") and stop_token.cache_info().currsize > 0 and line in markers()


def verbatim(lines: Sequence[str], environ: Mapping[str, str] | None = None) -> list[str]:
    """``lines`` (already escaped) enclosed in a stop-commands block under GitHub
    Actions; unchanged elsewhere, or when there is nothing to enclose."""
    if not lines or not on_github(environ):
        return list(lines)
    start, end = markers()
    return [start, *lines, end]


def command(name: str, message: str, properties: Mapping[str, str]) -> str:
    """One workflow command line (``::error file=a.yml,line=3::message``), escaped."""
    props = ",".join(f"{key}={workflow_property(value)}" for key, value in properties.items())
    return f"::{name}{' ' + props if props else ''}::{workflow_data(message)}"
