"""``wendy-llm check``: render every pick of every template and prove each render valid."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

from wendy_llm.cli import output, suppress
from wendy_llm.cli.args import (
    POLICY_EPILOG,
    add_directories,
    add_format,
    add_json,
    add_max_diff_lines,
    add_policy_base,
    add_quiet,
    add_report_files,
    add_rule_selection,
    add_selection,
    layout,
    refuse_accept_without_base,
)
from wendy_llm.cli.style import Progress, write_report
from wendy_llm.repo.layout import DIRECTORY_RULE
from wendy_llm.reports.check import format_details, format_table
from wendy_llm.reports.github.outputs import PullRequestOutputs
from wendy_llm.reports.json import check_json, dumps
from wendy_llm.reports.junit import check_junit
from wendy_llm.reports.workflow import on_github
from wendy_llm.validate.gate import check_verdict

HELP = "render every pick of every template and validate each render"
DESCRIPTION = (
    "Render every pick of every template with the canonical inputs and a variant, "
    "and validate each render: Compose, wendy.json, scripts, Dockerfiles, topology "
    "rules, the picker, the template's lints, the golden fixtures and the stored "
    "baseline."
)
EPILOG = f"""\
examples:
  wendy-llm check                                   # every pick of every template here
  wendy-llm check --template python/llm --pick laguna-s-2.1-dflash
  wendy-llm check --strict                          # lint warnings fail the run too
  wendy-llm check --json > check.json               # machine-readable report (version 1)
  wendy-llm check --junit reports/check.xml         # one test case per template x pick x check
  wendy-llm check --quiet --markdown reports/check.md  # CI: failures only, plus a summary
  wendy-llm check --format github                   # GitHub annotations at the template lines
  wendy-llm check --sarif reports/check.sarif       # SARIF 2.1.0 for GitHub code scanning
  wendy-llm check path/to/templates --golden-dir path/to/golden
  wendy-llm check --ignore DEV006,DEV007            # these codes shown as ignored, not counted
  wendy-llm check --select CMP,WJS                  # count only compose and wendy.json codes
  wendy-llm check --base origin/main                # a pull request: judged by the base's policy

Every pick is rendered with the canonical inputs (app id llm-app, defaults,
the pick's answers) and with the template's variant (app id my.app-2, other
numbers as --var types them: PORT=9080 for a PORT of 8080); every check but
golden runs on both, and a variant's finding names it.

Checks per pick: render, compose (YAML + `docker-compose config`), wendy-json
(as the Wendy CLI decodes and validates it), shell (bash -n + ShellCheck),
dockerfile (stage references for every build-arg combination, chmod of run
scripts), device (what `wendy run` does with it on a WendyOS device: what
makes it fail, what the device ignores; see `wendy-llm plan`), topology (the
rules in golden/<language>/<name>.rules.yaml), picker (no sentinel reaches
an Ollama pull), golden (fixtures match), baseline (every pick renders its
gate.files byte for byte as the stored baseline
golden/baseline/<language>/<name>/ does, with the same answers; a new pick
the baseline cannot render warns; '-' for sentinel picks and for templates
without a stored baseline). Per template: picker (manifests + lint), topology
(the rules file itself), lint (warnings), catalog (listed in meta.json, when
the repository has one; a (repository) row for the rest), baseline (picks it
lost). Notes (what the Wendy CLI ignores, e.g. an unknown wendy.json key)
never fail a run.

Every finding has a code (CMP001; `wendy-llm explain CODE`, docs/codes.md).
--select / --ignore take codes, prefixes (DEV), check ids (device) or ALL,
comma-separated or repeated; --select replaces [findings] select of
wendy-llm.toml, --ignore adds to its ignore. An ignored finding is shown
and counted as ignored, never failing the run (docs/configuration.md).

{suppress.EPILOG}

{POLICY_EPILOG}

{DIRECTORY_RULE}
--quiet prints only the failures (nothing when all hold) and no progress
line; it combines with --json, --junit and --markdown. Report shapes:
docs/json-reports.md.
Exit status: 0 everything holds, 1 a check failed (or, with --strict, warned;
suppressed failures do not fail it; a recorded one that no longer occurs does,
and so does a policy change since --base, until --accept-policy-change),
2 usage or input error (unknown template or pick, missing directory, a bad
suppressions file, --suppress-all or --prune-suppressions in CI).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_directories(p)
    add_selection(
        p,
        template_metavar="T",
        template_help="only this template, by id (python/llm) or name (llm); repeatable",
        pick_help="only this pick (repeatable)",
        default=[],
    )
    p.add_argument("--strict", action="store_true", help="warnings fail the run too")
    add_json(p, "print the JSON report (version 1) instead")
    add_quiet(p, "print only failures (nothing when all hold)")
    add_report_files(p, "also write a JUnit XML report")
    add_max_diff_lines(p, "each golden or baseline diff")
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="run docker-compose and ShellCheck on every input, without reading or writing "
        "their results kept in the per-user cache",
    )
    add_format(p, "one per distinct finding")
    p.add_argument(
        "--sarif",
        metavar="FILE",
        default=None,
        help="also write a SARIF 2.1.0 report (GitHub code scanning), at the template source lines",
    )
    add_rule_selection(p)
    suppress.add_arguments(p)
    add_policy_base(p)


def run(args: argparse.Namespace) -> int:
    where = layout(args)
    refuse_accept_without_base(args)
    with Progress("check", "rendering and validating every pick", enabled=not args.quiet):
        report = check_verdict(
            where,
            templates=args.templates,
            picks=args.picks,
            max_diff_lines=args.max_diff_lines or None,
            cache=not args.no_cache,
            select=[str(s) for s in args.select],
            ignore=[str(s) for s in args.ignore],
            record=suppress.writing(args),
            log=output.say,
            base=args.base,
            accept_policy_change=args.accept_policy_change,
        )
    outputs = PullRequestOutputs(report, where)  # computed only when asked for
    if args.sarif:
        write_report(args.sarif, outputs.sarif(), "SARIF report")
    if args.junit:
        write_report(args.junit, check_junit(report, strict=args.strict), "JUnit report")
    if args.markdown:
        write_report(args.markdown, outputs.markdown(strict=args.strict), "Markdown summary")
    if args.json:
        output.emit(dumps(check_json(report, strict=args.strict)))
    elif args.format == "github":
        pass  # the annotations below are the report
    elif args.quiet:
        details = format_details(report, warnings=args.strict)
        if details:
            output.emit(details)
    else:
        colour = output.stdout_colour()
        output.emit(format_table(report, colour=colour), colour=colour)
        details = format_details(report, colour=colour)
        if details:
            output.emit("\n" + details, colour=colour)
    if wants_annotations(args):
        print_annotations(args, outputs)
    return 0 if report.passed(strict=args.strict) else 1


def wants_annotations(args: argparse.Namespace, environ: Mapping[str, str] = os.environ) -> bool:
    """Annotations are printed when asked for (``--format github``), or under GitHub
    Actions after the text report; never with ``--json`` (stdout is one JSON document)."""
    return not args.json and (args.format == "github" or on_github(environ))


def print_annotations(args: argparse.Namespace, outputs: PullRequestOutputs) -> None:
    """The annotations, written outside any stop-commands block (each report's
    blocks are closed within its own write)."""
    # With --format github the log holds only the annotations.
    elsewhere = ["the text report (--format text)" if args.format == "github" else "the job log"]
    elsewhere += ["the step summary"] if args.markdown else []
    elsewhere += ["the SARIF report"] if args.sarif else []
    elsewhere += ["the JUnit report"] if args.junit else []
    for each in outputs.annotations(elsewhere):
        force = args.format == "github"
        output.emit_command(each.command, each.message, each.properties, force=force)
