"""``wendy-llm explain``: what a finding code means (like ``ruff rule``)."""

from __future__ import annotations

import argparse

from wendy_llm.cli import output
from wendy_llm.cli.parser import EXIT_USAGE
from wendy_llm.codes import CODES, PREFIXES, Check, codes_of, nearest
from wendy_llm.codes.reference import entry_text, listing, reference_markdown

HELP = "print what a finding code means (e.g. CMP001), or list the codes"
DESCRIPTION = (
    "Print a finding code's entry: its check, severity, title, why it matters, the fact "
    "it follows and a minimal example. A check id or a prefix lists that check's codes."
)
EPILOG = """\
examples:
  wendy-llm explain CMP001          # one code
  wendy-llm explain DEV             # every code of a prefix
  wendy-llm explain wendy-json      # every code of a check
  wendy-llm explain --list          # every code, one line each
  wendy-llm explain --reference > docs/codes.md

Exit status: 0 printed, 2 an unknown code (the nearest ones are named).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("code", nargs="?", metavar="CODE", help="a code, a prefix, or a check id")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--list", action="store_true", help="list every code, one line each")
    shown.add_argument(
        "--reference", action="store_true", help="print docs/codes.md (Markdown, generated)"
    )


def run(args: argparse.Namespace) -> int:
    if args.reference:
        output.emit(reference_markdown())
        return 0
    if args.list or args.code is None:
        output.emit(listing(CODES.values()))
        return 0
    wanted = str(args.code).strip()
    code = CODES.get(wanted.upper())
    if code is not None:
        output.emit(entry_text(code))
        return 0
    check = _check_of(wanted)
    if check is not None:
        output.emit(listing(codes_of(check)))
        return 0
    near = nearest(wanted)
    hint = f"; nearest: {', '.join(near)}" if near else ""
    output.say(
        f"wendy-llm explain: no code {wanted!r}{hint} (`wendy-llm explain --list` lists them all)"
    )
    return EXIT_USAGE


def _check_of(text: str) -> Check | None:
    """The check a check id or a code prefix names (None: neither)."""
    for check in Check:
        if text == check.value or text.upper() == PREFIXES[check]:
            return check
    return None
