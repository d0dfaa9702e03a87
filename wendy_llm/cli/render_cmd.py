"""``wendy-llm render``: render a template into a directory as `wendy init` would."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from wendy_llm.template import load_template

EPILOG = """\
examples:
  wendy-llm render templates/python/llm --app-id my-app --out /tmp/my-app
  wendy-llm render templates/python/llm --app-id my-app --pick laguna-s-2.1-dflash --out out/
  wendy-llm render templates/python/llm --app-id my-app \\
      --var OLLAMA_MODEL=gemma4:e4b --var PORT=3000 --out out/ --force

--var values are strings converted as wendy init converts them (integer,
boolean or raw string by the variable's type). --pick takes the answers of a
pick (see `wendy-llm picks`); explicit --var values override them.
By default the app id must be a safe project name and radio/checkbox answers
must be options; --no-strict accepts exactly what wendy init accepts.
The tree is written atomically (a temporary directory renamed into place);
a non-empty --out is refused unless --force. Lint warnings go to stderr and
do not change the exit code (0 written, 2 bad input or a render error).
"""


def _parse_var(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def add_parser(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "render",
        help="render a template into a directory exactly as `wendy init` does",
        description="Render a template with an app id and --var answers into --out.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("template_dir", metavar="TEMPLATE_DIR", help="the template directory")
    p.add_argument("--app-id", required=True, metavar="ID", help="the app id (APP_ID)")
    p.add_argument(
        "--var",
        action="append",
        type=_parse_var,
        default=[],
        metavar="KEY=VALUE",
        help="a variable or picker answer (repeatable; the last one for a key wins)",
    )
    p.add_argument("--pick", metavar="SLUG", help="start from this pick's answers")
    p.add_argument("--out", required=True, metavar="DIR", help="the directory to create")
    p.add_argument("--force", action="store_true", help="replace a non-empty --out")
    p.add_argument(
        "--no-strict",
        action="store_true",
        help="accept any app id and answer wendy init accepts",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    template = load_template(args.template_dir)
    overrides: dict[str, str] = {}
    if args.pick is not None:
        overrides.update(template.pick(args.pick).answers)
    overrides.update(dict(args.var))
    tree = template.render(args.app_id, overrides, strict=not args.no_strict)
    for warning in template.lint():
        print(f"wendy-llm: warning: {warning}", file=sys.stderr)
    out = tree.write(args.out, overwrite=args.force)
    rendered = sum(1 for item in tree.files.values() if item.rendered)
    print(f"wrote {len(tree)} files to {out} ({rendered} rendered, {len(tree) - rendered} copied)")
    return 0
