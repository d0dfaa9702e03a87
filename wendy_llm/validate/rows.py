"""The report's rows, assembled once from the stages' frozen results.

Every stage of ``check`` (loading, rendering, the pure checks, the tools,
the rules, golden, baseline, catalog) returns its findings as
:data:`~wendy_llm.validate.pickrun.StageRows`: a frozen mapping from a row's
key (template id, pick slug, input label; a template's own row has
:func:`~wendy_llm.validate.pickrun.template_key`) to what it found there.
Here each row is joined from those values, stage by stage, in the order the
stages ran (a check two stages both report, a template's ``picker`` found
loading and linting it, lists the earlier stage's findings first), and a
pick's variants are joined to its row (:func:`merged_findings`).  Nothing is
joined by position: a row is looked up by its key in each stage.
"""

from __future__ import annotations

from collections.abc import Sequence

from wendy_llm.codes import Check
from wendy_llm.validate.checks.device import not_repeated
from wendy_llm.validate.findings import CHECK_IDS, TEMPLATE_WIDE, CheckResult, Finding
from wendy_llm.validate.pickrun import PickRun, RenderKey, StageRows, TemplateRun, template_key


def joined(stages: Sequence[StageRows], key: RenderKey) -> dict[str, list[Finding]]:
    """The findings of the row ``key`` per check, every stage's, in stage order."""
    row: dict[str, list[Finding]] = {}
    for stage in stages:
        found = stage.get(key)
        if found is None:
            continue
        for check, items in found.findings.items():
            row.setdefault(check, []).extend(items)
    # What Docker Compose refuses, the device check does not repeat (one defect, one finding).
    if Check.DEVICE in row and Check.COMPOSE in row:
        row[Check.DEVICE] = not_repeated(row[Check.DEVICE], row[Check.COMPOSE])
    return row


def merged_findings(pick_run: PickRun, stages: Sequence[StageRows]) -> dict[str, list[Finding]]:
    """The pick's findings per check, its variants' joined where they add something.

    A variant's finding is kept, naming the variant, unless the canonical
    input already failed that check in that file, or found the very same.
    """
    canonical = joined(stages, pick_run.key)
    merged = {check: list(found) for check, found in canonical.items()}
    for variant in pick_run.variants:
        for check, found in joined(stages, variant.key).items():
            mine = merged.setdefault(check, [])
            theirs = canonical.get(check, [])
            failed_files = {f.file for f in theirs if f.severity == "error"}
            same = {_identity(f) for f in theirs}
            mine += [
                f.with_variant(variant.inputs.label)
                for f in found
                if f.file not in failed_files and _identity(f) not in same
            ]
    return merged


def _identity(finding: Finding) -> tuple[object, ...]:
    return (finding.severity, finding.message, finding.file, finding.line)


def check_results(
    runs: Sequence[TemplateRun], stages: Sequence[StageRows], golden: bool
) -> tuple[CheckResult, ...]:
    """The report's results: each template's own row, then each pick's, the
    checks in :data:`CHECK_IDS` order (``golden`` left out unless ``golden``)."""
    order = [c for c in CHECK_IDS if golden or c != Check.GOLDEN]
    results: list[CheckResult] = []
    for run in runs:
        row = joined(stages, template_key(run.template_id))
        for check in order:
            if check in row:
                found = tuple(f.at(run.template_id, TEMPLATE_WIDE) for f in row[check])
                results.append(CheckResult(run.template_id, TEMPLATE_WIDE, check, found))
        for pick_run in run.picks:
            slug = pick_run.pick.slug
            merged = merged_findings(pick_run, stages)
            for check in order:
                if check in merged:
                    found = tuple(f.at(run.template_id, slug) for f in merged[check])
                    results.append(CheckResult(run.template_id, slug, check, found))
    return tuple(results)
