"""``check``'s outputs for a pull request: annotations (``--format github``) and SARIF.

Both report each distinct finding at its template source line
(:mod:`wendy_llm.reports.located`); the source map behind them is computed
only when one of them is asked for.  Annotations are printed under GitHub
Actions (``GITHUB_ACTIONS=true``) after the text report, or on request with
``--format github`` instead of it; never with ``--json``, whose stdout must
stay one JSON document.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

from wendy_llm.cli import output
from wendy_llm.cli.style import write_report
from wendy_llm.repo.layout import Layout
from wendy_llm.reports.annotations import workflow_annotations
from wendy_llm.reports.json import dumps
from wendy_llm.reports.located import LocatedFinding, located_findings
from wendy_llm.reports.markdown import check_markdown
from wendy_llm.reports.sarif import check_sarif
from wendy_llm.reports.sources import SourceLocator
from wendy_llm.reports.topology import report_topologies
from wendy_llm.reports.workflow import on_github
from wendy_llm.validate.findings import TEMPLATE_WIDE, Finding, Report

FORMATS = ("text", "github")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="github: print GitHub workflow annotations (one per distinct finding, at its "
        "template source line) instead of the text report; under GitHub Actions they "
        "follow the text report anyway (default: text)",
    )
    p.add_argument(
        "--sarif",
        metavar="FILE",
        default=None,
        help="also write a SARIF 2.1.0 report (for GitHub code scanning) at the template "
        "source lines",
    )


def wants_annotations(args: argparse.Namespace, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this run prints annotations: asked for, or under GitHub Actions without --json."""
    return args.format == "github" or (on_github(environ) and not args.json)


class Located:
    """The run's distinct findings at their sources, computed on first use."""

    def __init__(self, report: Report, layout: Layout) -> None:
        self.report = report
        self.locator = SourceLocator(layout)
        self._located: list[LocatedFinding] | None = None

    @property
    def findings(self) -> list[LocatedFinding]:
        if self._located is None:
            self._located = located_findings(self.report, self.locator)
        return self._located


def markdown(report: Report, located: Located, args: argparse.Namespace) -> str:
    """The Markdown summary: findings grouped with their template source, and the
    device topologies of the picks checked."""

    def source(finding: Finding) -> str | None:
        place = located.locator.locate(finding)
        return None if place is None else place.where

    picks = [(r.template, r.pick) for r in report.results if r.pick != TEMPLATE_WIDE]
    shapes = report_topologies(list(dict.fromkeys(picks)), located.locator)
    return check_markdown(report, strict=args.strict, sources=source, topologies=shapes)


def write_sarif(path: str, located: Located) -> None:
    write_report(path, dumps(check_sarif(located.findings)), "SARIF report")


def print_annotations(args: argparse.Namespace, located: Located) -> None:
    """The annotations on stdout (forced with ``--format github``, else under GitHub Actions)."""
    elsewhere = ["the job log"]
    if args.markdown:
        elsewhere.append("the step summary")
    if args.sarif:
        elsewhere.append("the SARIF report")
    if args.junit:
        elsewhere.append("the JUnit report")
    for each in workflow_annotations(located.findings, elsewhere=elsewhere):
        output.emit_command(
            each.command, each.message, each.properties, force=args.format == "github"
        )
