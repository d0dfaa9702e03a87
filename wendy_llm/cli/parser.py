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
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from wendy_llm.errors import quoted

EXIT_USAGE = 2
PROG = "wendy-llm"


class WendyArgumentParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with the fixes above; subcommand parsers inherit it."""

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
