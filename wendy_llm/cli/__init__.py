"""The ``wendy-llm`` command: argument parsing and dispatch only.

Each subcommand lives in its own module with ``add_parser(subparsers)`` and
``run(args) -> int``; this module only wires them together and maps
library errors to exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from wendy_llm.cli.output import never_fail_on_text
from wendy_llm.cli.parser import EXIT_USAGE, PROG, WendyArgumentParser
from wendy_llm.errors import WendyLlmError

EXIT_FAILED = 1
EXIT_INTERRUPTED = 130  # the shell's 128 + SIGINT


SUBCOMMANDS = ("render", "picks", "golden", "check", "diff", "plan")


def _subcommand_modules() -> list[ModuleType]:
    import importlib

    return [importlib.import_module(f"wendy_llm.cli.{name}_cmd") for name in SUBCOMMANDS]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("wendy-llm")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = WendyArgumentParser(
        prog=PROG,
        description=(
            "Render Wendy templates exactly as `wendy init` does, and gate template changes."
        ),
        epilog="Run `wendy-llm COMMAND --help` for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for module in _subcommand_modules():
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    never_fail_on_text(sys.stdout)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
    except WendyLlmError as exc:
        print(f"wendy-llm: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `wendy-llm picks --json | head`: the reader left; say nothing more.
        # Point stdout at /dev/null so the interpreter's final flush does
        # not raise again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
    return result
