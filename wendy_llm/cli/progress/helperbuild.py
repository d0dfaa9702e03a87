"""The command line says when it builds the Go helper, and what that cost.

A build on first use takes 10-40 s (a pure wheel, the sdist, a checkout:
a platform wheel ships the helper); without a word the command would seem
to hang.  The library only tells its listeners (:mod:`wendy_llm.engine.helper.announce`);
this module is the command line's listener, printing through :mod:`.output`.
"""

from __future__ import annotations

from collections.abc import Callable

from wendy_llm.cli import output
from wendy_llm.engine.helper.announce import HelperBuild, on_helper_build


def describe(event: HelperBuild) -> str:
    """The stderr line for one announcement: before the build, or after it."""
    if event.seconds is None:
        go = event.go_version.removeprefix("go version ")
        return (
            "wendy-llm: building the Go helper for this machine (first use): "
            f"{go} ({event.go}) into {event.binary.parent}; this takes 10-40 s, once"
        )
    return f"wendy-llm: built the Go helper in {event.seconds:.1f} s ({event.binary})"


def announce_builds() -> Callable[[], None]:
    """Print every helper build of this process on stderr; returns the function
    that stops it (``main`` may run more than once in one process)."""
    return on_helper_build(lambda event: output.say(describe(event)))
