"""The argument parser of every ``wendy-llm`` command: one error prefix, user words.

- A usage error ends ``wendy-llm: error: <message>`` (exit status 2) like
  every other error; plain argparse says ``wendy-llm render: error:`` in a
  subcommand.
- A value attached to an option is that value, ``--`` included:
  ``--app-id=--`` is the app id ``--``, as the Go CLI's flag parser reads
  it. argparse before Python 3.12 drops a ``--`` it finds among an option's
  values (it takes it for the end-of-options marker), so the option got an
  empty list instead of a string, which failed much later as an
  ``AttributeError``.
- An unknown choice (a mistyped command) lists the choices plainly instead
  of as Python string literals, and an option whose value starts with
  ``-`` (``--app-id -x``) is told to write ``--app-id=-x``.
- Help is as wide as argparse makes it, without argparse's import of
  ``shutil`` (and of bz2, lzma and zlib with it) for the terminal's width:
  every ``add_argument`` makes a formatter, so even a render paid for it.
"""

from __future__ import annotations

import argparse
import os
import sys

from wendy_llm.errors import quoted

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Any, NoReturn

EXIT_USAGE = 2
PROG = "wendy-llm"


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``: ``COLUMNS``, else stdout's terminal, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    stdout = sys.__stdout__
    try:
        return (os.get_terminal_size(stdout.fileno()).columns if stdout else 0) or 80
    except (ValueError, OSError):
        return 80


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, its default width found as argparse finds it (above)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        # argparse leaves two columns free, as here.
        width = terminal_columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class RawDescriptionHelpFormatter(argparse.RawDescriptionHelpFormatter, HelpFormatter):
    """argparse's formatter for descriptions and epilogs written line by line."""


class WendyArgumentParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with the fixes above; subcommand parsers inherit it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        if message.endswith(": expected one argument"):
            # `--app-id -x`: argparse takes -x for an option, not a value.
            option = message.removeprefix("argument ").split(":", 1)[0].split("/")[-1]
            message += f" (write {option}=VALUE for a value that starts with a dash)"
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{PROG}: error: {message}\n")

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # A single-valued option sees exactly ["--"] only from `--opt=--`: a
        # separate `--opt --` never matches the option's one argument.
        if action.option_strings and action.nargs is None and arg_strings == ["--"]:
            value = self._get_value(action, "--")
            self._check_value(action, value)
            return value
        return super()._get_values(action, arg_strings)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(str(choice) for choice in action.choices)
            shown = quoted(value) if isinstance(value, str) else str(value)
            raise argparse.ArgumentError(action, f"invalid choice {shown} (choose from {choices})")
