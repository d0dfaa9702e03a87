"""Ctrl-C and SIGTERM on the command line: one clean way out for both.

SIGTERM (what CI runners, ``timeout`` and ``kill`` send) raises
:class:`Interrupted`, a :class:`KeyboardInterrupt`, in the main thread, as
Ctrl-C does: every cleanup written for an interrupt runs for both (the Go
helper is killed, ``check``'s Docker Compose and ShellCheck processes are
killed and their temporary directories removed, a tree writer's staging
directory is removed).  The command then prints ``wendy-llm: interrupted``
and exits with the shell's status for the signal: 130 for SIGINT, 143 for
SIGTERM.

An interrupt that a finalizer swallows (Python prints "Exception ignored
in ..." for an exception raised in ``__del__`` or a weakref callback, and
goes on) is not printed; the next signal raises again, and the program
still ends with the interrupt's status.

Only the first signal raises.  A second one (an impatient Ctrl-C, or
SIGTERM then SIGINT from a runner) arriving while the first one's cleanup
runs is ignored: raised inside a ``finally``, a finalizer or a thread
pool's shutdown it would cut the cleanup short and end in a chained
traceback.  A signal whose disposition was "ignore" when the program
started (``nohup``, a background job) stays ignored.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

MESSAGE = "wendy-llm: interrupted"
HANDLED = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """The first SIGINT or SIGTERM the command line received."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


#: The signal the program received (None: none yet), set by :func:`signals_raise`'s handler.
received: int | None = None


def report(exc: BaseException | None = None) -> int:
    """Say ``wendy-llm: interrupted`` on stderr; the shell's exit status (128 +
    the number of the signal behind ``exc``, else of the one received)."""
    signum = getattr(exc, "signum", None) or received or signal.SIGINT
    # stderr may be gone (a closed terminal): the status still says it.
    with contextlib.suppress(OSError, ValueError):
        print(MESSAGE, file=sys.stderr, flush=True)
    return 128 + signum


#: An :class:`Interrupted` a finalizer swallowed (see :func:`_unraisable`).
_swallowed = False


def _raise_once(signum: int, frame: FrameType | None) -> None:
    global received, _swallowed
    if received is not None and not _swallowed:
        return  # see the module docstring: never twice
    received, _swallowed = signum, False
    raise Interrupted(signum)


def swallowed() -> bool:
    """Whether the interrupt received was swallowed by a finalizer, never raised on."""
    return received is not None and _swallowed


def _unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """An interrupt raised inside a finalizer (``__del__``, a weakref
    callback) is swallowed there; Python would print "Exception ignored
    in ...".  Instead, nothing is printed, the next signal raises again,
    and :func:`wendy_llm.cli.program` ends with the interrupt's status."""
    global _swallowed
    if isinstance(unraisable.exc_value, Interrupted):
        _swallowed = True
        return
    sys.__unraisablehook__(unraisable)


def _ignore(signum: int, frame: FrameType | None) -> None:
    global received
    if received is None:
        received = signum


@contextmanager
def signals_raise() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Interrupted` (once) in the block; after
    it they are only noted: what is left is the interpreter's exit (the Go
    helper closed, threads joined), which a traceback would only spoil.
    For the ``wendy-llm`` process itself, which ends right after."""
    previous = {signum: signal.getsignal(signum) for signum in HANDLED}
    wanted = [signum for signum, was in previous.items() if was is not signal.SIG_IGN]
    for signum in wanted:
        signal.signal(signum, _raise_once)
    sys.unraisablehook = _unraisable
    try:
        yield
    finally:
        for signum in wanted:
            signal.signal(signum, _ignore)
