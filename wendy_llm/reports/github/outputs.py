"""A check's outputs for a pull request, computed once and on first use.

The source map behind them (:mod:`.sources`) costs a render per distinct
rendered file a finding names: only the outputs asked for (annotations,
SARIF, the Markdown summary) pay for it, never a plain ``check``.
"""

from __future__ import annotations

from collections.abc import Sequence

from wendy_llm.options import MARKDOWN_MAX_BYTES
from wendy_llm.repo.layout import Layout
from wendy_llm.reports.github.annotations import Annotation, workflow_annotations
from wendy_llm.reports.github.located import LocatedFinding, located_findings
from wendy_llm.reports.github.sarif import check_sarif
from wendy_llm.reports.github.sources import SourceLocator
from wendy_llm.reports.github.topology import report_topologies
from wendy_llm.reports.json import dumps
from wendy_llm.reports.markdown import check_markdown
from wendy_llm.validate.findings import TEMPLATE_WIDE, Finding, Report


class PullRequestOutputs:
    """The distinct findings of ``report`` at their template sources, and what is made of them."""

    def __init__(self, report: Report, layout: Layout) -> None:
        self.report = report
        self.locator = SourceLocator(layout)
        self._located: list[LocatedFinding] | None = None

    @property
    def findings(self) -> list[LocatedFinding]:
        if self._located is None:
            self._located = located_findings(self.report, self.locator)
        return self._located

    def sarif(self) -> str:
        """The SARIF 2.1.0 document."""
        return dumps(check_sarif(self.findings))

    def annotations(self, elsewhere: Sequence[str]) -> list[Annotation]:
        """The workflow annotations; ``elsewhere`` names where every finding is."""
        return workflow_annotations(self.findings, elsewhere=elsewhere)

    def markdown(self, *, strict: bool = False, max_bytes: int = MARKDOWN_MAX_BYTES) -> str:
        """The Markdown summary: findings grouped with their template source, and the
        device topologies of the picks checked."""

        def source(finding: Finding) -> str | None:
            place = self.locator.locate(finding)
            return None if place is None else place.where

        picks = [(r.template, r.pick) for r in self.report.results if r.pick != TEMPLATE_WIDE]
        shapes = report_topologies(list(dict.fromkeys(picks)), self.locator)
        return check_markdown(
            self.report, strict=strict, sources=source, topologies=shapes, max_bytes=max_bytes
        )
