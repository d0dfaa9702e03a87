"""``wendy-llm picks``: list a template's picks (slug and the --var answers); with no
template, every template's, found as every command finds them."""

from __future__ import annotations

import argparse
from pathlib import Path

from wendy_llm.cli import output
from wendy_llm.cli.args import add_json, add_quiet
from wendy_llm.cli.output import name_failures
from wendy_llm.errors import CheckSelectionError, WendyLlmError
from wendy_llm.render.picks import Pick
from wendy_llm.render.template import Template, load_template

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from wendy_llm.repo.layout import Layout

HELP = "list a template's picks (every reachable set of picker answers)"
DESCRIPTION = "List every pick of a template: its slug and the --var answers it stands for."
EPILOG = """\
examples:
  wendy-llm picks                                  # every template of the repository
  wendy-llm picks templates/python/llm
  wendy-llm picks python/llm                       # a template id works too
  wendy-llm picks templates/python/llm --json | jq -r '.picks[].slug'
  for slug in $(wendy-llm picks templates/python/llm -q); do echo "$slug"; done

Each line is a slug and the --var answers it stands for; render one with
  wendy-llm render templates/python/llm --app-id my-app --pick SLUG --out DIR
A pick without answers keeps every picker default. With no TEMPLATE, every
template is listed under its id (found as `wendy-llm check` finds them; one
that cannot be loaded is an error naming it, after the others). --quiet prints
the slugs only, one per line (with no TEMPLATE: "<id> <slug>"); --json the
document of docs/json-reports.md (version 1), for one template.
Exit status: 0 listed, 2 usage or input error (a template cannot be loaded).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "template_dir",
        nargs="?",
        default=None,
        metavar="TEMPLATE",
        help="a template directory, or a template id (default: every template)",
    )
    add_json(p, "print JSON (version 1) instead of text")
    add_quiet(p, "print only the slugs, one per line")


def picks_text(picks: list[Pick]) -> str:
    width = max((len(pick.slug) for pick in picks), default=0)
    lines = []
    for pick in picks:
        answers = " ".join(f"{key}={value}" for key, value in pick.answers.items())
        lines.append(f"{pick.slug:<{width}}  {answers or '(picker defaults)'}".rstrip())
    return "\n".join(lines)


def _one(reference: str) -> Template:
    """A template directory, else a template id of the repository here."""
    path = Path(reference)
    if path.is_dir() or reference.strip("/").count("/") != 1:
        return load_template(path)
    # lazy: a template directory, the usual reference, needs no repository layout.
    from wendy_llm.repo.layout import find_layout

    [found] = find_layout().select([reference])
    return load_template(found.path, id=found.id)


def _warn_skipped(template: Template, quiet: bool) -> None:
    if not quiet:  # e.g. a symlinked picker: the picks would silently be "default"
        for warning in template.skipped_warnings():
            output.say(f"wendy-llm: warning: {warning}")


def run(args: argparse.Namespace) -> int:
    if args.template_dir is None:
        if args.json:
            raise CheckSelectionError("--json lists one template's picks: name the TEMPLATE")
        # lazy: only a run over every template needs the repository layout.
        from wendy_llm.repo.layout import find_layout

        return _every(find_layout(), args.quiet)
    template = _one(args.template_dir)
    _warn_skipped(template, args.quiet)
    picks = template.picks()
    if args.json:
        # lazy: as in render_cmd, only --json needs the JSON documents module.
        from wendy_llm.reports.json import dumps, picks_json

        output.emit(dumps(picks_json(template.id, [(p.slug, p.answers) for p in picks])))
    elif args.quiet:
        output.emit("\n".join(pick.slug for pick in picks) + "\n")
    else:
        output.emit(picks_text(picks) + "\n")
    return 0


def _every(where: Layout, quiet: bool) -> int:
    """Every template's picks, under its id; one that fails is named at the end (exit 2)."""
    failed: list[str] = []
    blocks: list[str] = []
    for found in where.select():
        try:
            template = load_template(found.path, id=found.id)
            _warn_skipped(template, quiet)
            picks = template.picks()
        except WendyLlmError as exc:
            failed.append(f"template {found.id}: {exc}")
            continue
        if quiet:
            blocks.append("\n".join(f"{found.id} {pick.slug}" for pick in picks))
        else:
            indented = "\n".join(f"  {line}" for line in picks_text(picks).splitlines())
            blocks.append(f"{found.id}:\n{indented}")
    output.emit(("\n" if quiet else "\n\n").join(blocks) + "\n")
    return name_failures(failed)
