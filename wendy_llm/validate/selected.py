"""A ``check`` report read against the run's rule selection (``--select`` / ``--ignore``).

Each finding the selection ignores (:mod:`wendy_llm.repo.rule_selection`)
is marked ``ignored``: every report still shows it, as ignored and counted
apart, and it fails nothing (its result's status comes from the others).
Suppressions are read after, and never record nor match an ignored finding.
"""

from __future__ import annotations

import dataclasses

from wendy_llm.repo.rule_selection import RuleSelection
from wendy_llm.validate.findings import Report


def mark_ignored(report: Report, selection: RuleSelection) -> Report:
    """``report`` with each finding ``selection`` ignores marked so."""
    if selection.everything:
        return report
    results = []
    for result in report.results:
        findings = tuple(
            dataclasses.replace(f, ignored=True)
            if selection.ignores(f.code, f.template, f.file)
            else f
            for f in result.findings
        )
        results.append(dataclasses.replace(result, findings=findings))
    return dataclasses.replace(report, results=tuple(results))
