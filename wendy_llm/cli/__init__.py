"""The ``wendy-llm`` command: argument parsing and dispatch only.

Each subcommand lives in its own module ``<name>_cmd``: ``HELP``,
``DESCRIPTION``, ``EPILOG``, ``add_arguments(parser)`` and ``run(args) ->
int``; this module only wires them together (importing only the one a
command line names) and maps library errors to exit code 2. :func:`main`
runs a command line; :func:`program` is the ``wendy-llm`` process itself.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
import traceback
import warnings
from collections.abc import Sequence
from types import ModuleType

from wendy_llm import phases
from wendy_llm.cli import interrupts, output
from wendy_llm.cli.parser import (
    EXIT_USAGE,
    PROG,
    RawDescriptionHelpFormatter,
    WendyArgumentParser,
)
from wendy_llm.cli.progress.helperbuild import announce_builds
from wendy_llm.errors import WendyLlmError, cli_text

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Any, TextIO

EXIT_FAILED = 1
EXIT_INTERRUPTED = 130  # the shell's 128 + SIGINT (143 for SIGTERM: cli/interrupts.py)


SUBCOMMANDS = (
    "render",
    "picks",
    "golden",
    "check",
    "diff",
    "plan",
    "replay",
    "explain",
    "summary",
)
#: The subcommands that render templates (``picks`` only lists them).
RENDERING = frozenset({"render", "golden", "check", "diff", "plan", "replay"})
#: Subcommands kept in a sub-package of cli/ (the others are ``cli/<name>_cmd.py``).
_GROUPED = {
    "replay": "wendy_llm.cli.history.replay_cmd",
    "explain": "wendy_llm.cli.codes.explain_cmd",
    "summary": "wendy_llm.cli.github.summary_cmd",
}


def _needed(argv: Sequence[str]) -> Sequence[str]:
    """The subcommands whose modules this command line needs: the one it
    names, when it starts with one (its options all follow it), else all of
    them (for ``--help``, ``--version`` or an unknown command)."""
    first = argv[0] if argv else None
    return (first,) if first in SUBCOMMANDS else SUBCOMMANDS


def _subcommand_modules(names: Sequence[str]) -> list[ModuleType]:
    """The subcommands' modules; for one command that renders, the Go helper
    is started first, so that Go gets ready while the command's modules import."""
    if RENDERING.issuperset(names):
        # lazy: the engine alone, before the command's other modules.
        from wendy_llm.engine.client import shared_renderer

        shared_renderer().start()
    phases.reached("cli-import")
    # lazy: each subcommand imports what it runs (`check` the validators,
    # `golden` the fixtures); `render` and `picks` must not pay for them.
    return [
        importlib.import_module(_GROUPED.get(name, f"wendy_llm.cli.{name}_cmd")) for name in names
    ]


class _VersionAction(argparse.Action):
    """``--version``, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(
            option_strings, dest, nargs=0, help="show program's version number and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        # lazy: only --version needs it.
        from wendy_llm.revision import package_version

        # The exact revision (0.1.0+g<commit>): a CI log names the gate that judged.
        output.emit(f"{parser.prog} {package_version()}\n")  # stdout, as argparse's own
        parser.exit()


def build_parser(subcommands: Sequence[str] = SUBCOMMANDS) -> argparse.ArgumentParser:
    parser = WendyArgumentParser(
        prog=PROG,
        description=(
            "Render Wendy templates exactly as `wendy init` does, and gate template changes."
        ),
        epilog="Run `wendy-llm COMMAND --help` for a command's options and examples.",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name, module in zip(subcommands, _subcommand_modules(subcommands), strict=True):
        sub = subparsers.add_parser(
            name,
            help=module.HELP,
            description=module.DESCRIPTION,
            epilog=module.EPILOG,
            formatter_class=RawDescriptionHelpFormatter,
        )
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    output.say(f"wendy-llm: warning: {message}")


def main(argv: Sequence[str] | None = None) -> int:
    output.prepare_stdout()
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_needed(arguments))
    args = parser.parse_args(arguments)
    stop_announcing = announce_builds()
    try:
        with warnings.catch_warnings():
            # The library's warnings (an unknown --var with --no-strict) in the
            # command's own words, not Python's file:line format.
            warnings.showwarning = _show_warning
            result: int = args.run(args)
    except WendyLlmError as exc:
        if interrupts.received is not None:  # a tool or the helper got the signal too
            return interrupts.report()
        return _stopped(args, cli_text(exc))
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM under program()
        return interrupts.report(exc)
    except BrokenPipeError:
        # `wendy-llm picks --json | head`: the reader left; say nothing more.
        # Point stdout at /dev/null so the interpreter's final flush does
        # not raise again.
        output.silence_stdout()
        return EXIT_FAILED
    except Exception as exc:  # a defect of wendy-llm itself, never of the input
        if interrupts.received is not None:
            return interrupts.report()
        # Said, with where it happened (each line guarded: a message may quote
        # template text), and the reports still written: a crash never leaves
        # the job's summary empty (issue 38).
        for line in "".join(traceback.format_exception(exc)).splitlines():
            output.say(line)
        message = (
            f"internal error: {type(exc).__name__}: {exc} (a defect of wendy-llm, "
            "not of your templates: please report it with the lines above)"
        )
        return _stopped(args, message)
    finally:
        stop_announcing()
    return result


def _stopped(args: argparse.Namespace, message: str) -> int:
    """A run that stopped on ``message``: said, and every report file the
    command was asked for written, holding it (exit 2)."""
    output.say(f"wendy-llm: error: {message}")
    # lazy: the terminal's styles are loaded by every command that writes reports.
    from wendy_llm.cli.style import write_failure_reports

    for problem in write_failure_reports(args, message):
        output.say(f"wendy-llm: error: {problem}")
    return EXIT_USAGE


def program() -> int:
    """The ``wendy-llm`` program (the console script, ``python -m wendy_llm``):
    :func:`main` in a process that exits when it returns.

    SIGTERM is handled as Ctrl-C, and either one, from the first import of
    a subcommand to the end, ends the program with ``wendy-llm:
    interrupted`` and no traceback (:mod:`wendy_llm.cli.interrupts`).
    """
    arguments = sys.argv[1:]
    with interrupts.signals_raise():
        try:
            code = _program(arguments)
        except KeyboardInterrupt as exc:  # while a subcommand's modules import
            return interrupts.report(exc)
        except BaseException:
            if interrupts.received is None:
                raise
            # Whatever the interrupt broke on its way out (a cleanup cut
            # short, an error chained to it) is the interrupt, said once.
            return interrupts.report()
        # An interrupt a finalizer swallowed still ends the program as one.
        return interrupts.report() if interrupts.swallowed() else code


def _program(arguments: list[str]) -> int:
    # What a command imports lives until the exit and holds no garbage, so
    # the collector has nothing to find in it: its passes during the imports
    # (a tenth of a render's time) are skipped, and frozen, the objects are
    # not walked by the passes the command itself causes. Only here: a
    # caller of main() in a longer-lived process keeps its collector as it was.
    gc.disable()
    try:
        _subcommand_modules(_needed(arguments))
    finally:
        gc.enable()
    gc.freeze()
    try:
        return main(arguments)
    finally:
        # The same for what the command made: the exit frees it, and the
        # interpreter's last collections would walk it for nothing.
        gc.freeze()
