"""``wendy-llm golden``: regenerate (``--update``) or verify (``--check``) fixtures."""

from __future__ import annotations

import argparse
import os
import shlex

from wendy_llm.cli import output
from wendy_llm.cli.args import (
    add_directories,
    add_json,
    add_max_diff_lines,
    add_quiet,
    add_selection,
    layout,
)
from wendy_llm.cli.output import name_failures
from wendy_llm.cli.parser import EXIT_USAGE
from wendy_llm.cli.style import Progress
from wendy_llm.errors import GoldenError
from wendy_llm.golden import check_golden, update_golden
from wendy_llm.golden.guard import refuse_update_in_ci
from wendy_llm.repo.layout import (
    BASELINE_DIR,
    DIRECTORY_RULE,
    Layout,
    confined,
    display_path,
    iter_template_dirs,
)
from wendy_llm.repo.selection import TemplateFailure, refresh_commands
from wendy_llm.reports.golden import check_text, update_text
from wendy_llm.reports.json import dumps, golden_check_json, golden_update_json

HELP = "regenerate or check the golden fixtures of every pick"
DESCRIPTION = (
    "Render every pick of every template with the canonical inputs and "
    "write (--update) or compare (--check) the golden fixtures."
)
EPILOG = f"""\
examples:
  wendy-llm golden --update                      # rewrite every fixture
  wendy-llm golden --check                       # compare every pick with golden/
  wendy-llm golden --check --template python/llm --pick gemma4-e2b
  wendy-llm golden --check --json > golden.json  # machine-readable problems
  CI=true wendy-llm golden --update --force      # write in CI anyway (you meant it)
  wendy-llm golden --check --quiet               # silent unless a fixture is off
  wendy-llm golden --list-baselines              # <id><TAB><dir> of each stored baseline

Fixtures live in golden/<language>/<name>/: files identical for every pick under
_shared/, pick-specific renders under <slug>/, and golden.json (picks, answers,
canonical inputs and sample values, every file's SHA-256; copied files are
only hashed). A template that cannot be rendered (e.g. a variable without a
default and no sample value in wendy-llm.toml) is named first (--check: on
stdout, before the problems; --update and --json: on stderr); the others are
still written or checked. Stored baselines are <golden dir>/baseline/<language>/<name>/;
--list-baselines prints each one's template id and directory (the action's
baseline step reads them, so golden-dir in wendy-llm.toml is honoured).
{DIRECTORY_RULE}
With CI=true (or 1) in the environment, --update refuses to write unless --force.
--quiet prints nothing when all is well (--check: only the problems); --json
prints the documents of docs/json-reports.md (version 1).
Exit status: 0 the fixtures match (or were written), 1 one is changed, missing
or stale (each problem ends with the command that refreshes it), 2 usage or
input error (unknown template or pick, refused in CI, a template that cannot
be rendered).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--update", action="store_true", help="rewrite the fixtures atomically")
    mode.add_argument("--check", action="store_true", help="compare; never write")
    mode.add_argument(
        "--list-baselines",
        action="store_true",
        help="print each stored baseline: its template id and directory, tab-separated",
    )
    add_directories(p)
    add_selection(
        p,
        template_metavar="ID",
        template_help="only this template, e.g. python/llm (repeatable)",
        pick_help="--check only: only this pick (repeatable); others are not reported as stale",
        default=None,
    )
    p.add_argument("--force", action="store_true", help="--update: write even when CI is set")
    add_json(p, "print a JSON document (version 1)")
    add_quiet(p, "print nothing when all is well (--check: only the problems)")
    add_max_diff_lines(p, "each diff")


def run(args: argparse.Namespace) -> int:
    if args.update:
        return _update(args)
    if args.list_baselines:
        return _list_baselines(args)
    where = layout(args)
    with Progress("golden", "rendering and comparing every pick", enabled=not args.quiet):
        result = check_golden(
            where,
            where.golden_dir,
            template_ids=args.templates,
            pick_slugs=args.picks,
            max_diff_lines=args.max_diff_lines or None,
        )
    if args.json:
        output.emit(dumps(golden_check_json(result)))
    elif not (args.quiet and result.ok):
        # The text leads with what failed to render (template, file, line).
        colour = output.stdout_colour()
        output.emit(check_text(result, colour=colour), colour=colour)
        if result.failed:
            return EXIT_USAGE
    if result.failed:
        return _failures(result.failed)
    return 0 if result.ok else 1


def _list_baselines(args: argparse.Namespace) -> int:
    """Each stored baseline, ``<id>\t<directory>``, where the layout puts them."""
    where = layout(args)
    stored = where.golden_dir / BASELINE_DIR
    if stored.is_dir():  # a baseline folder linked out of the golden directory: exit 2, named
        found = iter_template_dirs(confined(stored, where.golden_dir), root=where.golden_dir)
        rows = [(each.id, display_path(each.path)) for each in found]
        output.emit_rows(rows)
    return 0


def _command(where: Layout, args: argparse.Namespace, mode: str) -> str:
    """``wendy-llm golden MODE`` as the user would run it here, for the same
    directories and templates: advice that works where it is read, with no
    Makefile target of this repository's (issue 37)."""
    words = shlex.split(refresh_commands(where.templates_root, where.golden_dir, mode=mode)(None))
    templates = [word for template in args.templates or () for word in ("--template", template)]
    return shlex.join([*words, *templates])


def _failures(failed: tuple[TemplateFailure, ...]) -> int:
    """Templates that could not be rendered: input errors, each named (exit 2)."""
    return name_failures([failure.message for failure in failed])


def _update(args: argparse.Namespace) -> int:
    if args.picks:
        raise GoldenError(
            "--pick only applies to --check: an update rewrites a template's fixtures as a "
            "whole, because which files are shared depends on every pick"
        )
    where = layout(args)
    update, check = (_command(where, args, mode) for mode in ("--update", "--check"))
    refuse_update_in_ci(os.environ, force=args.force, local_command=update, check_command=check)
    with Progress("golden", "rendering every pick", enabled=not args.quiet):
        result = update_golden(where, where.golden_dir, template_ids=args.templates)
    if args.json:
        output.emit(dumps(golden_update_json(result)))
    elif not args.quiet and (result.templates or not result.failed):
        colour = output.stdout_colour()
        output.emit(update_text(result, colour=colour), colour=colour)
    return _failures(result.failed) if result.failed else 0
