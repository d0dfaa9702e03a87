"""``wendy-llm render``: render a template into a directory as `wendy init` would."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from wendy_llm.cli import output
from wendy_llm.cli.args import (
    add_json,
    add_no_strict,
    add_pick,
    add_quiet,
    add_template_dir,
    add_vars,
    answers,
)
from wendy_llm.errors import OutputDirNotEmpty, WendyLlmError
from wendy_llm.render.template import load_template

HELP = "render a template into a directory exactly as `wendy init` does"
DESCRIPTION = "Render a template with an app id and --var answers into --out."
EPILOG = """\
examples:
  wendy-llm render templates/python/llm --app-id my-app --out /tmp/my-app
  wendy-llm render templates/python/llm --app-id my-app --pick laguna-s-2.1-dflash --out out/
  wendy-llm render templates/python/llm --app-id my-app \\
      --var OLLAMA_MODEL=gemma4:e4b --var PORT=3000 --out out/ --force
  wendy-llm render templates/python/llm --app-id my-app --out out/ --json  # what was written

--var values are strings converted as wendy init converts them (integer,
boolean or raw string by the variable's type). --pick takes the answers of a
pick (see `wendy-llm picks`); explicit --var values override them.
By default the app id must be a safe project name and radio/checkbox answers
must be options; --no-strict accepts exactly what wendy init accepts.
The tree is written atomically (a temporary directory renamed into place);
a non-empty --out is refused unless --force. Lint warnings go to stderr and
never change the exit status; --quiet prints nothing but errors. --json
prints what was written (version 1, docs/json-reports.md).
Exit status: 0 written, 2 usage or input error (a bad --var or app id, an
unknown pick, a render error, a non-empty --out).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_template_dir(p)
    p.add_argument("--app-id", required=True, metavar="ID", help="the app id (APP_ID)")
    add_vars(p)
    add_pick(p)
    p.add_argument("--out", required=True, metavar="DIR", help="the directory to create")
    p.add_argument("--force", action="store_true", help="replace a non-empty --out")
    add_no_strict(p)
    add_json(p, "print a JSON report (version 1)")
    add_quiet(p, "print nothing but errors (no summary line, no lint warnings)")


def run(args: argparse.Namespace) -> int:
    template = load_template(args.template_dir)
    # Said before rendering: a skipped picker or file may be why the render fails.
    said = template.skipped_warnings()
    if not args.quiet:
        for warning in said:
            output.say(f"wendy-llm: warning: {warning}")
    overrides = answers(template, args)
    tree = template.render(args.app_id, overrides, strict=not args.no_strict)
    # The lints try every pick: a variable without a default needs the value
    # given here, or each pick would be reported as failing for want of it.
    needed = {v.name for v in template.manifest.variables if v.default is None}
    warnings = template.lint(values={k: v for k, v in overrides.items() if k in needed})
    if not args.quiet:
        for warning in warnings:
            if warning not in said:
                output.say(f"wendy-llm: warning: {warning}")
    # Everything printed afterwards is ready before the tree is written, so
    # nothing can fail once it is (write_tree returns this same path).
    out = Path(os.path.abspath(args.out))
    if args.json:
        # lazy: the JSON documents module reads the check's types; a render without
        # --json must not pay for them.
        from wendy_llm.reports.json import dumps, render_json

        report = dumps(render_json(template.id, args.app_id, out, overrides, tree, warnings))
    else:
        rendered = sum(1 for item in tree.files.values() if item.rendered)
        copied = len(tree) - rendered
        report = f"wrote {len(tree)} files to {out} ({rendered} rendered, {copied} copied)"
    try:
        tree.write(out, overwrite=args.force, warn=_warn)
    except OutputDirNotEmpty as exc:
        raise WendyLlmError(
            f"{exc.path}: directory is not empty; pass --force to replace it"
        ) from None
    if args.json:
        output.emit(report)
    elif not args.quiet:
        output.emit(report + "\n")
    return 0


def _warn(message: str) -> None:
    output.say(f"wendy-llm: warning: {message}")
