"""``check --suppress-all`` / ``--prune-suppressions``, and reading the file on every check.

The file is the repository's ``wendy-llm-suppressions.json``
(:mod:`wendy_llm.repo.suppressions_file`); what it means for a report is
:mod:`wendy_llm.validate.suppressions`.  Both writing flags refuse in CI
(as ``golden --update`` does: an update there would make any new failure
pass) and with ``--pick`` (a pick subset sees a part of each count).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TextIO

from wendy_llm.cli import output
from wendy_llm.errors import SuppressionsError
from wendy_llm.golden.guard import in_ci
from wendy_llm.repo.layout import Layout, display_path
from wendy_llm.repo.suppressions_file import (
    SUPPRESSIONS_FILE,
    Suppression,
    Suppressions,
    load_suppressions,
    write_suppressions,
)
from wendy_llm.validate.findings import Report
from wendy_llm.validate.suppressions import Scope, apply_suppressions, prune, record_all

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


def prepare(args: argparse.Namespace, layout: Layout, *, log: TextIO | None = None) -> Suppressions:
    """The recorded suppressions, read before the run (a bad file is exit 2 at once);
    exit 2 too when a writing flag cannot be honoured here."""
    path = layout.suppressions_path
    shown = display_path(path)
    flag = _writing_flag(args)
    if flag is not None and in_ci(os.environ):
        raise SuppressionsError(
            f"refusing to write {shown}: CI={os.environ.get('CI')} is set. In CI the "
            f"suppressions must be checked, not rewritten: {flag} there would make any new "
            f"failure pass. Run `wendy-llm check {flag}` locally and commit the file.",
            file=shown,
        )
    if flag is not None and args.picks:
        raise SuppressionsError(
            f"{flag} cannot be combined with --pick: a failure is counted over every pick "
            "of its template; select whole templates with --template",
            file=shown,
        )
    try:
        return load_suppressions(path, shown=shown)
    except SuppressionsError as exc:
        if not (args.suppress_all and not args.templates):
            raise
        # Recording every template's failures needs nothing from the old file.
        output.say(f"wendy-llm: replacing an invalid {shown}: {exc}", log)
        return Suppressions(shown=shown)


def scope_of(args: argparse.Namespace, layout: Layout) -> Scope:
    """What this run judges: the selected templates (all by default), every pick or not."""
    chosen = [t.id for t in layout.select(args.templates)] if args.templates else None
    return Scope.of_run(chosen, args.picks)


def settle(
    report: Report,
    args: argparse.Namespace,
    layout: Layout,
    recorded: Suppressions,
    *,
    log: TextIO | None = None,
) -> Report:
    """Write the file when asked, then ``report`` read against it."""
    path = layout.suppressions_path
    scope = scope_of(args, layout)
    flag = _writing_flag(args)
    if flag is not None:
        if args.suppress_all:
            entries = record_all(report, recorded, scope)
        else:
            entries = prune(report, recorded, scope)
        _write(path, entries, recorded.entries, recorded.shown, flag, log)
        recorded = load_suppressions(path, shown=recorded.shown)
    return apply_suppressions(report, recorded, scope)


def _writing_flag(args: argparse.Namespace) -> str | None:
    if getattr(args, "suppress_all", False):
        return "--suppress-all"
    if getattr(args, "prune_suppressions", False):
        return "--prune-suppressions"
    return None


def _write(
    path: Path,
    entries: list[Suppression],
    before: tuple[Suppression, ...],
    shown: str,
    flag: str,
    log: TextIO | None,
) -> None:
    failures = sum(e.count for e in entries)
    templates = len({e.template for e in entries})
    old = {(e.key, e.count) for e in before}
    new = {(e.key, e.count) for e in entries}
    if old == new and path.is_file():
        output.say(f"wendy-llm: {shown} unchanged ({failures} suppressed failure(s))", log)
        return
    try:
        write_suppressions(path, entries)
    except OSError as exc:
        raise SuppressionsError(f"{shown}: cannot write it: {exc.strerror}", file=shown) from exc
    what = "recorded" if flag == "--suppress-all" else "pruned to"
    output.say(
        f"wendy-llm: {what} {failures} suppressed failure(s) of {len(entries)} kind(s) in "
        f"{templates} template(s) in {shown}; commit it",
        log,
    )
