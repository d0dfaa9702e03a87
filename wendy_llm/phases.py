"""Named points of a run where a test can hold the program (a test hook).

Tests of interrupts must send their signal at a known point of a run, not
after a guessed delay.  With ``WENDY_LLM_TEST_PAUSE=PHASE:DIR`` in the
environment, a process that reaches ``PHASE`` (a call to :func:`reached`)
writes its pid to ``DIR/PHASE.reached`` (renamed into place, so a reader
sees the whole file or none) and then waits on ``DIR/PHASE.go``, a FIFO
the test made: the test waits for ``PHASE.reached``, does what it tests
(sends a signal, looks at the temp dir) and, to let the run go on, opens
the FIFO for writing and writes a byte (or closes it again).
A signal handler that raises (SIGINT, and SIGTERM on the command line)
interrupts the wait (in the main thread, whenever the signal arrives: a
wakeup pipe, :func:`signal.set_wakeup_fd`, closes the race between
Python's last check for signals and a blocking call).

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
    go = os.path.join(directory, f"{phase}.go")
    # lazy: only a process a test holds gets here.
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        os.close(os.open(go, os.O_RDONLY))  # a signal interrupts the main thread
        return
    # A signal arriving between the last check Python makes and a blocking
    # open() would be noticed only when open() returns, which is never: the
    # test sends its signal as soon as it sees the marker.  The signal's
    # byte in a wakeup pipe ends the wait instead, whenever it came.
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    fifo = os.open(go, os.O_RDONLY | os.O_NONBLOCK)  # returns at once, writer or not
    previous = signal.set_wakeup_fd(wake_write)
    try:
        import select  # lazy: as above

        poller = select.poll()
        poller.register(fifo, select.POLLIN | select.POLLHUP)
        poller.register(wake_read, select.POLLIN)
        poller.poll()  # the handler (if it raises) runs right after this returns
    finally:
        signal.set_wakeup_fd(previous)
        for fd in (fifo, wake_read, wake_write):
            os.close(fd)
