"""``check --suppress-all`` / ``--prune-suppressions``: the flags and their help.

The file is the repository's ``wendy-llm-suppressions.json``
(:mod:`wendy_llm.repo.suppressions_file`); reading it, matching a report to
it and writing it is the library's (:mod:`wendy_llm.validate.gate`), so
``wendy_llm.run_check`` gives the command line's verdict.  Both writing
flags refuse in CI (as ``golden --update`` does: an update there would make
any new failure pass) and with ``--pick`` (a pick subset sees a part of each
count).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from wendy_llm.repo.suppressions_file import SUPPRESSIONS_FILE

if TYPE_CHECKING:
    from wendy_llm.validate.gate import Record

EPILOG = f"""\
Suppressions: {SUPPRESSIONS_FILE} at the repository root (committed; never
edited by hand) records failures accepted for now, by template, file, code
and subject with a count, never by line nor wording. check shows them as suppressed and
fails only on failures it does not record, and on recorded ones that no
longer occur (until --prune-suppressions records the fix). --suppress-all
and --prune-suppressions write it (only for the --template given, if any)
and refuse when CI is set or with --pick. Format: docs/suppressions.md."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--suppress-all",
        action="store_true",
        help=f"record every current failure in {SUPPRESSIONS_FILE} (replacing what it "
        "records for the templates checked), then report with them suppressed",
    )
    mode.add_argument(
        "--prune-suppressions",
        action="store_true",
        help=f"remove from {SUPPRESSIONS_FILE} the failures that no longer occur (lower "
        "the counts of those that occur less often); add nothing",
    )


def writing(args: argparse.Namespace) -> Record | None:
    """What the writing flags ask the run to record, if anything."""
    if getattr(args, "suppress_all", False):
        return "all"
    if getattr(args, "prune_suppressions", False):
        return "prune"
    return None
