"""``wendy-llm golden``: regenerate (``--update``) or verify (``--check``) fixtures."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping
from typing import Any

from wendy_llm.errors import GoldenError, GoldenUpdateRefused
from wendy_llm.golden import check_golden, update_golden
from wendy_llm.golden.report import check_json, check_text, update_json, update_text
from wendy_llm.golden.sources import DEFAULT_GOLDEN_DIR, DEFAULT_TEMPLATES_DIR
from wendy_llm.textdiff import DEFAULT_MAX_LINES

EPILOG = """\
examples:
  wendy-llm golden --update                      # = make golden: rewrite every fixture
  wendy-llm golden --check                       # compare every pick with golden/
  wendy-llm golden --check --template python/llm --pick gemma4-e2b
  wendy-llm golden --check --json > golden.json  # machine-readable problems
  CI=true wendy-llm golden --update --force      # write in CI anyway (you meant it)

Fixtures live in golden/<language>/<name>/: files identical for every pick under
_shared/, pick-specific renders under <slug>/, and golden.json (picks, answers,
canonical inputs, every file's SHA-256; copied files are only hashed).
--check exits 0 when every fixture matches, 1 when one is changed, missing or
stale (each problem ends with the command that refreshes it), 2 on bad input.
With CI=true (or 1) in the environment, --update refuses to write unless --force.
"""

_TRUE = {"1", "true", "yes", "on"}


def add_parser(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "golden",
        help="regenerate or check the golden fixtures of every pick",
        description=(
            "Render every pick of every template with the canonical inputs and "
            "write (--update) or compare (--check) the golden fixtures."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--update", action="store_true", help="rewrite the fixtures atomically")
    mode.add_argument("--check", action="store_true", help="compare; never write")
    p.add_argument(
        "templates_dir",
        nargs="?",
        default=DEFAULT_TEMPLATES_DIR,
        metavar="TEMPLATES_DIR",
        help=f"directory of <language>/<name>/ templates (default: {DEFAULT_TEMPLATES_DIR})",
    )
    p.add_argument(
        "--golden-dir",
        default=DEFAULT_GOLDEN_DIR,
        metavar="DIR",
        help=f"fixture root (default: {DEFAULT_GOLDEN_DIR})",
    )
    p.add_argument(
        "--template",
        action="append",
        dest="templates",
        metavar="ID",
        help="only this template, e.g. python/llm (repeatable)",
    )
    p.add_argument(
        "--pick",
        action="append",
        dest="picks",
        metavar="SLUG",
        help="--check only: only this pick (repeatable); others are not reported as stale",
    )
    p.add_argument("--force", action="store_true", help="--update: write even when CI is set")
    p.add_argument("--json", action="store_true", help="print a JSON document instead of text")
    p.add_argument(
        "--max-diff-lines",
        type=int,
        default=DEFAULT_MAX_LINES,
        metavar="N",
        help=f"cut each diff to N lines (default: {DEFAULT_MAX_LINES}; 0 = no limit)",
    )
    p.set_defaults(run=run)


def in_ci(environ: Mapping[str, str]) -> bool:
    return environ.get("CI", "").strip().lower() in _TRUE


def run(args: argparse.Namespace) -> int:
    if args.max_diff_lines < 0:
        raise GoldenError("--max-diff-lines must be 0 (no limit) or more")
    if args.update:
        return _update(args)
    result = check_golden(
        args.templates_dir,
        args.golden_dir,
        template_ids=args.templates,
        pick_slugs=args.picks,
        max_diff_lines=args.max_diff_lines or None,
    )
    if args.json:
        print(json.dumps(check_json(result), indent=2))
    else:
        print(check_text(result), end="")
    return 0 if result.ok else 1


def _update(args: argparse.Namespace) -> int:
    if args.picks:
        raise GoldenError(
            "--pick only applies to --check: an update rewrites a template's fixtures as a "
            "whole, because which files are shared depends on every pick"
        )
    if in_ci(os.environ) and not args.force:
        raise GoldenUpdateRefused(
            f"refusing to write fixtures: CI={os.environ.get('CI')} is set. In CI the fixtures "
            "must be checked, not regenerated: an update there would make any template change "
            "pass. Run `make golden` locally and commit the result, use "
            "`wendy-llm golden --check` in CI, or pass --force if you really mean to write here."
        )
    result = update_golden(args.templates_dir, args.golden_dir, template_ids=args.templates)
    if args.json:
        print(json.dumps(update_json(result), indent=2))
    else:
        print(update_text(result), end="")
    return 0
