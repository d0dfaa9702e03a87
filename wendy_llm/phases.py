"""Named points of a run where a test can hold the program (a test hook).

Tests of interrupts must send their signal at a known point of a run, not
after a guessed delay.  With ``WENDY_LLM_TEST_PAUSE=PHASE:DIR`` in the
environment, a process that reaches ``PHASE`` (a call to :func:`reached`)
writes its pid to ``DIR/PHASE.reached`` (renamed into place, so a reader
sees the whole file or none) and then opens ``DIR/PHASE.go`` for reading,
which blocks until a writer opens it: the test makes ``PHASE.go`` a FIFO,
waits for ``PHASE.reached``, does what it tests (sends a signal, looks
at the temp dir) and, to let the run go on, opens the FIFO for writing.
A signal handler that raises (SIGINT, and SIGTERM on the command line)
interrupts the wait as it would any other.

The phases: ``cli-import`` (the command line is importing a subcommand's
modules), ``check-tools`` (``check`` has started Docker Compose and
ShellCheck in the background, in their temporary directories), ``staged``
(a tree writer has written the new tree into its hidden staging
directory, before putting it in place).  Without the variable (always,
outside tests) :func:`reached` does nothing.
"""

from __future__ import annotations

import os

ENV = "WENDY_LLM_TEST_PAUSE"


def reached(phase: str) -> None:
    """Hold here when the test hook names ``phase`` (see the module docstring)."""
    wanted = os.environ.get(ENV)
    if not wanted:
        return
    name, _, directory = wanted.partition(":")
    if name != phase:
        return
    marker = os.path.join(directory, f"{phase}.reached")
    partial = f"{marker}.{os.getpid()}.tmp"
    with open(partial, "w", encoding="utf-8") as handle:
        handle.write(f"{os.getpid()}\n")
    os.replace(partial, marker)
    os.close(os.open(os.path.join(directory, f"{phase}.go"), os.O_RDONLY))
