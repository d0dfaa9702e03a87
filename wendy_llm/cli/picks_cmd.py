"""``wendy-llm picks``: list a template's picks (slug and the --var answers)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from wendy_llm.picks import Pick
from wendy_llm.template import Template, load_template

EPILOG = """\
examples:
  wendy-llm picks templates/python/llm
  wendy-llm picks templates/python/llm --json | jq -r '.picks[].slug'

Each line is a slug and the --var answers it stands for; render one with
  wendy-llm render templates/python/llm --app-id my-app --pick SLUG --out DIR
A pick without answers keeps every picker default. Exits 2 when the template
cannot be loaded.
"""


def add_parser(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "picks",
        help="list a template's picks (every reachable set of picker answers)",
        description="List every pick of a template: its slug and the --var answers it stands for.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("template_dir", metavar="TEMPLATE_DIR", help="the template directory")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(run=run)


def picks_json(template: Template, picks: list[Pick]) -> str:
    document = {
        "template": template.id,
        "picks": [{"slug": pick.slug, "answers": dict(pick.answers)} for pick in picks],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def picks_text(picks: list[Pick]) -> str:
    width = max((len(pick.slug) for pick in picks), default=0)
    lines = []
    for pick in picks:
        answers = " ".join(f"{key}={value}" for key, value in pick.answers.items())
        lines.append(f"{pick.slug:<{width}}  {answers or '(picker defaults)'}".rstrip())
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    template = load_template(args.template_dir)
    picks = template.picks()
    print(picks_json(template, picks) if args.json else picks_text(picks))
    return 0
