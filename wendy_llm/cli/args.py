"""The options several subcommands share, declared once so that they read alike everywhere.

Each ``add_*`` adds one option (or one group) to a subcommand's parser with
the same name, metavar and wording wherever it appears; a subcommand passes
only what differs (the help of ``--quiet``, which diffs ``--max-diff-lines``
cuts). Cheap to import: the commands that only render load nothing else.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wendy_llm import options
from wendy_llm.errors import WendyLlmError, quoted

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from wendy_llm.render.template import Template
    from wendy_llm.repo.layout import Layout
    from wendy_llm.repo.rule_selection import Selector

__all__ = [
    "add_directories",
    "add_json",
    "add_max_diff_lines",
    "add_no_strict",
    "add_pick",
    "add_quiet",
    "add_report_files",
    "add_rule_selection",
    "add_selection",
    "add_template_dir",
    "add_vars",
    "answers",
    "layout",
    "parse_var",
]


def add_quiet(parser: argparse.ArgumentParser, help_text: str) -> None:
    """The same ``--quiet``/``-q`` on every subcommand (no progress line either)."""
    parser.add_argument("--quiet", "-q", action="store_true", help=help_text)


def add_json(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--json``: print the command's versioned JSON document instead of text."""
    parser.add_argument("--json", action="store_true", help=help_text)


def add_template_dir(parser: argparse.ArgumentParser) -> None:
    """The one template a command renders (``render``, ``picks``, ``plan``)."""
    parser.add_argument("template_dir", metavar="TEMPLATE_DIR", help="the template directory")


def parse_var(text: str) -> tuple[str, str]:
    """A ``--var KEY=VALUE`` argument (argparse ``type``)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {quoted(text)}")
    return key, value


def add_vars(parser: argparse.ArgumentParser) -> None:
    """``--var KEY=VALUE``, repeatable, as ``wendy init --var`` takes it."""
    parser.add_argument(
        "--var",
        action="append",
        type=parse_var,
        default=[],
        metavar="KEY=VALUE",
        help="a variable or picker answer (repeatable; the last one for a key wins)",
    )


def add_pick(parser: argparse.ArgumentParser) -> None:
    """``--pick SLUG``: start from one pick's answers (``--var`` overrides them)."""
    parser.add_argument("--pick", metavar="SLUG", help="start from this pick's answers")


def answers(template: Template, args: argparse.Namespace) -> dict[str, str]:
    """The ``--var`` overrides of :func:`add_pick` and :func:`add_vars`: the pick's
    answers, then each ``--var``."""
    found = dict(template.pick(args.pick).answers) if args.pick is not None else {}
    found.update(args.var)
    return found


def add_no_strict(parser: argparse.ArgumentParser) -> None:
    """``--no-strict``: accept exactly what ``wendy init`` accepts."""
    parser.add_argument(
        "--no-strict", action="store_true", help="accept any app id and answer wendy init accepts"
    )


def add_selection(
    parser: argparse.ArgumentParser,
    *,
    template_metavar: str,
    template_help: str,
    pick_help: str,
    default: list[str] | None,
) -> None:
    """``--template`` and ``--pick``, each repeatable: which templates and picks a run covers."""
    parser.add_argument(
        "--template",
        action="append",
        dest="templates",
        default=default,
        metavar=template_metavar,
        help=template_help,
    )
    parser.add_argument(
        "--pick", action="append", dest="picks", default=default, metavar="SLUG", help=pick_help
    )


def add_report_files(parser: argparse.ArgumentParser, junit_help: str) -> None:
    """``--junit FILE`` and ``--markdown FILE``: reports written beside the printed one."""
    parser.add_argument("--junit", metavar="FILE", default=None, help=junit_help)
    parser.add_argument(
        "--markdown", metavar="FILE", default=None, help="also write a Markdown summary"
    )


def add_format(parser: argparse.ArgumentParser, what: str) -> None:
    """``--format text|github``: the text report, or GitHub workflow annotations."""
    parser.add_argument(
        "--format",
        choices=("text", "github"),
        default="text",
        help=f"github: print GitHub workflow annotations ({what}, at the template source "
        "line) instead of the text report; under GitHub Actions they follow the text "
        "report anyway; --json prints neither (default: text)",
    )


def _selectors(text: str) -> tuple[Selector, ...]:
    # lazy: the code registry, for the commands that take --select/--ignore only.
    from wendy_llm.repo.rule_selection import SelectorError, parse_selectors

    try:
        return parse_selectors([text])
    except SelectorError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_rule_selection(parser: argparse.ArgumentParser) -> None:
    """``--select`` / ``--ignore``: which finding codes a run counts (repeatable, or a,b)."""
    for flag, what in (
        ("--select", "count only these codes (replaces [findings] select of wendy-llm.toml)"),
        ("--ignore", "show these codes as ignored, not counted (adds to [findings] ignore)"),
    ):
        parser.add_argument(
            flag,
            type=_selectors,
            action="extend",
            default=[],
            metavar="CODES",
            help=f"{what}: codes, prefixes, check ids or ALL, comma-separated",
        )


def _diff_line_limit(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {quoted(text)}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (no limit) or more")
    return value


def add_max_diff_lines(parser: argparse.ArgumentParser, diffs: str) -> None:
    """The same ``--max-diff-lines`` on every subcommand that prints diffs."""
    parser.add_argument(
        "--max-diff-lines",
        type=_diff_line_limit,
        default=options.DIFF_MAX_LINES,
        metavar="N",
        help=(
            f"cut {diffs} to N lines and all of them to {options.DIFF_TOTAL_FACTOR}N "
            f"(default: {options.DIFF_MAX_LINES}; 0 = no limit)"
        ),
    )


def add_directories(parser: argparse.ArgumentParser, golden_help: str = "fixture root") -> None:
    """``[TEMPLATES_DIR]`` (alias ``--templates-dir DIR``) and ``--golden-dir`` alike everywhere.

    Defaults follow :mod:`wendy_llm.repo.layout`; they are resolved by
    :func:`layout`, not here, so the rule lives in one place.
    """
    parser.add_argument(
        "templates_dir",
        nargs="?",
        default=None,
        metavar="TEMPLATES_DIR",
        help=(
            "directory of <language>/<name>/ templates (default: the repository's templates/ "
            "when it holds templates, else the repository root)"
        ),
    )
    parser.add_argument(
        "--templates-dir",
        dest="templates_dir_option",
        default=None,
        metavar="DIR",
        help="the same as TEMPLATES_DIR",
    )
    parser.add_argument(
        "--golden-dir",
        default=None,
        metavar="DIR",
        help=f"{golden_help} (default: golden/ at the repository root; never outside it)",
    )


def layout(args: argparse.Namespace) -> Layout:
    """Where a run looks, from :func:`add_directories` flags (:func:`find_layout`)."""
    # lazy: render and picks declare their options here too, and never look for
    # a repository layout.
    from wendy_llm.repo.layout import find_layout

    positional, option = args.templates_dir, args.templates_dir_option
    if positional is not None and option is not None and Path(positional) != Path(option):
        raise WendyLlmError(
            f"two templates directories: {positional} and --templates-dir {option}; give one"
        )
    return find_layout(positional if positional is not None else option, args.golden_dir)


POLICY_EPILOG = """\
With --base REV (on a pull request: its base), the policy is read at REV
through git: the rules files (rules, gate.files, sentinels), wendy-llm.toml
([findings], ignore, rules-files, the places; not the sample values, which
are inputs) and, for check, the suppressions file. Each of them the work
tree changes, adds or removes is a POL001 failure showing the diff (for
diff: when it judges, with --expect-unchanged or --forbid-removed), until
--accept-policy-change accepts it (POL002, a note; the work tree's policy
then judges the run)."""


def add_policy_base(parser: argparse.ArgumentParser, *, base: bool = True) -> None:
    """``--base REV`` (unless the command has its own) and ``--accept-policy-change``."""
    if base:
        parser.add_argument(
            "--base",
            metavar="REV",
            default=None,
            help="judge by the policy at this git revision (on a pull request: its base)",
        )
    parser.add_argument(
        "--accept-policy-change",
        action="store_true",
        help="with --base: accept a change to the policy (rules files, wendy-llm.toml, "
        "suppressions); the work tree's policy judges the run",
    )


def refuse_accept_without_base(args: argparse.Namespace) -> None:
    """``--accept-policy-change`` accepts a change against ``--base``: alone it means nothing."""
    if args.accept_policy_change and args.base is None:
        raise WendyLlmError(
            "--accept-policy-change accepts a policy change against --base REV; add --base"
        )
