"""``wendy-llm picks``: list a template's picks (slug and the --var answers)."""

from __future__ import annotations

import argparse
import sys

from wendy_llm.cli.args import add_json, add_quiet, add_template_dir
from wendy_llm.render.picks import Pick
from wendy_llm.render.template import load_template

HELP = "list a template's picks (every reachable set of picker answers)"
DESCRIPTION = "List every pick of a template: its slug and the --var answers it stands for."
EPILOG = """\
examples:
  wendy-llm picks templates/python/llm
  wendy-llm picks templates/python/llm --json | jq -r '.picks[].slug'
  for slug in $(wendy-llm picks templates/python/llm -q); do echo "$slug"; done

Each line is a slug and the --var answers it stands for; render one with
  wendy-llm render templates/python/llm --app-id my-app --pick SLUG --out DIR
A pick without answers keeps every picker default. --quiet prints the slugs
only, one per line; --json the document of docs/json-reports.md (version 1).
Exit status: 0 listed, 2 usage or input error (the template cannot be loaded).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_template_dir(p)
    add_json(p, "print JSON (version 1) instead of text")
    add_quiet(p, "print only the slugs, one per line")


def picks_text(picks: list[Pick]) -> str:
    width = max((len(pick.slug) for pick in picks), default=0)
    lines = []
    for pick in picks:
        answers = " ".join(f"{key}={value}" for key, value in pick.answers.items())
        lines.append(f"{pick.slug:<{width}}  {answers or '(picker defaults)'}".rstrip())
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    template = load_template(args.template_dir)
    if not args.quiet:  # e.g. a symlinked picker: the picks would silently be "default"
        for warning in template.skipped_warnings():
            print(f"wendy-llm: warning: {warning}", file=sys.stderr)
    picks = template.picks()
    if args.json:
        # lazy: as in render_cmd, only --json needs the JSON documents module.
        from wendy_llm.reports.json import dumps, picks_json

        print(dumps(picks_json(template.id, [(p.slug, p.answers) for p in picks])), end="")
    elif args.quiet:
        print("\n".join(pick.slug for pick in picks))
    else:
        print(picks_text(picks))
    return 0
