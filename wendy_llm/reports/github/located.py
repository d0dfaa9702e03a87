"""A check's distinct findings at their template source: what annotations and SARIF report.

One entry per distinct finding, not per pick: the findings of a run are
grouped as the terminal groups them (:func:`~wendy_llm.reports.check.shared`),
by their place in the repository (:mod:`~wendy_llm.reports.github.sources`)
instead of the rendered ``file:line``, so the same template line found in
17 picks is one entry naming them (``every pick (17)``).

Each entry has a rule id: the finding's code when the registry
(:mod:`wendy_llm.validate.codes`) knows it, else ``wendy-llm/<check>``,
so the outputs are whole before every finding has a code.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wendy_llm.compare.changes import name_group
from wendy_llm.reports.check import pick_label, picks_per_template, shared
from wendy_llm.reports.github.sources import SourceLocation, SourceLocator
from wendy_llm.validate.codes import CODES, CodeInfo
from wendy_llm.validate.findings import TEMPLATE_WIDE, Finding, Report

#: The prefix of the rule id of a finding without a registered code.
FALLBACK_PREFIX = "wendy-llm/"


def rule_id(finding: Finding, registry: Mapping[str, CodeInfo] = CODES) -> str:
    """The finding's code when registered, else ``wendy-llm/<check>``."""
    if finding.code and finding.code in registry:
        return finding.code
    return FALLBACK_PREFIX + finding.check


@dataclass(frozen=True)
class LocatedFinding:
    """One distinct finding: its first occurrence, the picks that have it, where it is."""

    finding: Finding
    picks: tuple[str, ...]
    who: str  # the picks as the terminal names them: "every pick (17)", "picks a, b", "(template)"
    rule: str
    location: SourceLocation | None
    count: int  # occurrences (one per pick and input)

    @property
    def severity(self) -> str:
        return self.finding.severity

    @property
    def message(self) -> str:
        """``template who: message``, with the source map's caveat when the line is not exact."""
        f = self.finding
        text = f"{f.template} {self.who}: {f.message}"
        if f.location and (self.location is None or self.location.where != f.location):
            text += f" (rendered {f.location})"
        if self.location is not None and self.location.note:
            text += f" [{self.location.note}]"
        return text

    def fingerprint(self) -> str:
        """The gate's own fingerprint: template, source file, rule and subject, no line
        number (a moved line keeps it), no pick (a pick added keeps it)."""
        f = self.finding
        path = self.location.path if self.location is not None else ""
        # The finding's subject (a YAML/JSON path, a Dockerfile instruction: what the
        # suppressions key on); a finding without one falls back to its message's head.
        head = f.message.split(":", 1)[0] if ":" in f.message else f.message
        subject = f.subject or head
        raw = "\0".join((f.template, path, self.rule, f.variant or "", subject))
        return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def located_findings(
    report: Report,
    locator: SourceLocator,
    registry: Mapping[str, CodeInfo] = CODES,
    findings: Sequence[Finding] | None = None,
) -> list[LocatedFinding]:
    """The distinct findings of ``report`` (or of ``findings``, a part of it), errors
    first, then suppressed errors, warnings and notes, each in report order."""
    chosen = report.findings if findings is None else list(findings)
    places: dict[int, SourceLocation | None] = {}

    def where(finding: Finding) -> object:
        place = places.get(id(finding))
        if id(finding) not in places:
            place = places[id(finding)] = locator.locate(finding)
        return None if place is None else (place.path, place.line)

    picks_of = picks_per_template(report)
    out = []
    for first, every in shared(_by_importance(chosen), where):
        picks = list(dict.fromkeys(every))  # a pick twice: two rendered lines, one source line
        if len(picks) == 1:
            who = pick_label(picks[0])
        else:
            who = name_group(picks, picks_of.get(first.template, picks))
        out.append(
            LocatedFinding(
                finding=first,
                picks=tuple(p for p in picks if p != TEMPLATE_WIDE),
                who=who,
                rule=rule_id(first, registry),
                location=places.get(id(first)),
                count=len(every),
            )
        )
    return out


def _by_importance(findings: Sequence[Finding]) -> list[Finding]:
    def rank(f: Finding) -> int:
        if f.severity == "error":
            return 1 if f.suppressed else 0
        return 2 if f.severity == "warning" else 3

    return sorted(findings, key=rank)  # stable: report order within a rank
