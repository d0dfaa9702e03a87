"""The ``wendy-llm`` command: argument parsing and dispatch only.

Each subcommand lives in its own module with ``add_parser(subparsers)`` and
``run(args) -> int``; this module only wires them together and maps
library errors to exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from wendy_llm.errors import WendyLlmError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def _subcommand_modules() -> list[ModuleType]:
    # Imported lazily so `wendy-llm --help` stays fast and a broken
    # subcommand module cannot take the others down at import time.
    import importlib

    names = ["render", "picks", "golden", "check", "diff"]
    modules = []
    for name in names:
        try:
            modules.append(importlib.import_module(f"wendy_llm.cli.{name}_cmd"))
        except ModuleNotFoundError as exc:
            if exc.name != f"wendy_llm.cli.{name}_cmd":
                raise
    return modules


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("wendy-llm")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wendy-llm",
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
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
    except WendyLlmError as exc:
        print(f"wendy-llm: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return result
