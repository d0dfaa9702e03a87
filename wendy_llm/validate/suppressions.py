"""Suppressions: a ``check`` report read against the failures a repository accepted.

A repository adopting the gate on templates that already have defects
records them once (``check --suppress-all``) in its suppressions file
(:mod:`wendy_llm.repo.suppressions_file`); after that:

- an error the file records is *suppressed*: shown (terminal, JSON, JUnit,
  Markdown), never failing the run;
- an error it does not record fails as before, and so does one occurring
  more often than recorded (the ones beyond the count say so);
- a recorded failure that occurs less often than recorded, or no longer,
  fails the ``suppressions`` check of its template until ``check
  --prune-suppressions`` lowers or removes it: a fixed defect stays fixed.

A failure is identified by what it is, never where: :func:`finding_key`
is the template, the check, the file and the message's first line with
line numbers and the variant input stripped, so an edit above a defect
does not unsuppress it.  Counts are over every pick and input of the
template.

A run over a subset judges only that subset (:class:`Scope`): ``--template
X`` never calls another template's entries unused, nor prunes or records
outside X; ``--pick`` judges nothing unused (a pick subset sees a part of
each count).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from wendy_llm.codes.stored import SUPPRESSION_UNUSED
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.repo.suppressions_file import Key, Suppression, Suppressions
from wendy_llm.validate.findings import TEMPLATE_WIDE, CheckResult, Finding, Report, error

#: The check that fails on recorded failures that no longer occur.
CHECK = "suppressions"
PRUNE_COMMAND = "wendy-llm check --prune-suppressions"

# ``Dockerfile:4``, ``simulator/Dockerfile:4:2``, ``wendy.json:12`` (a name with
# a letter extension, or a Dockerfile/Containerfile): the number goes.  Not
# ``broker:1883`` nor ``127.0.0.1:8080``, which are what the finding is about.
_FILE_LINE = re.compile(
    r"((?:[\w.-]+/)*(?:[\w.-]*\.[A-Za-z][\w-]*|[\w.-]*(?:Dockerfile|Containerfile)))"
    r":\d+(?::\d+)?\b"
)
_LINE_WORD = re.compile(r"\b(lines?|column|col\.?)\s+\d+(?:\s*-\s*\d+)?", re.IGNORECASE)
_VARIANT_APP_ID = re.compile(r"\bapp-id=(\S+)")
# What names wendy-llm's own facts rather than the failure (the Wendy CLI
# revision a rule follows, ``f919a252 (2026-05-21)``): an upgrade changes it.
_REVISION = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
_DATE = re.compile(r"\s*\(\d{4}-\d{2}-\d{2}\)")


@dataclass(frozen=True)
class Scope:
    """What a run judges: ``templates`` (None: all of them, the repository row
    and templates gone since included); ``complete``: every pick of them ran,
    so a count below the recorded one is a fix, not a subset."""

    templates: frozenset[str] | None = None
    complete: bool = True

    @classmethod
    def of_run(cls, templates: Collection[str] | None, picks: Collection[str]) -> Scope:
        chosen = None if templates is None else frozenset(templates)
        return cls(chosen, complete=not picks)

    def covers(self, template: str) -> bool:
        return self.templates is None or template in self.templates

    @property
    def everything(self) -> bool:
        return self.templates is None and self.complete


def message_key(finding: Finding) -> str:
    """What the finding says, without where: its first line, the variant input,
    line numbers and the Wendy CLI revision stripped, the variant's app id read
    as the canonical one."""
    message = finding.message
    app_id = None
    if finding.variant is not None:
        message = message.removeprefix(f"variant {finding.variant}: ")
        found = _VARIANT_APP_ID.search(finding.variant)
        app_id = found.group(1) if found else None
    first = (message.splitlines() or [""])[0].strip()
    if app_id:
        first = first.replace(app_id, CANONICAL_APP_ID)
    first = _FILE_LINE.sub(r"\1", first)
    first = _DATE.sub("", _REVISION.sub("<revision>", first))
    return _LINE_WORD.sub(lambda m: f"{m.group(1)} N", first) or "(no message)"


def finding_key(finding: Finding) -> Key:
    file = finding.file or ""
    if finding.variant is not None:
        found = _VARIANT_APP_ID.search(finding.variant)
        if found:
            file = file.replace(found.group(1), CANONICAL_APP_ID)
    return (finding.template, finding.check, file, message_key(finding))


def current_failures(report: Report, scope: Scope) -> Counter[Key]:
    """How often each kind of error occurs in the templates ``scope`` covers
    (suppressed or not; never the ``suppressions`` check's own)."""
    return Counter(
        finding_key(f)
        for f in report.findings
        if f.severity == "error" and f.check != CHECK and scope.covers(f.template)
    )


def record_all(report: Report, recorded: Suppressions, scope: Scope) -> list[Suppression]:
    """``--suppress-all``: the entries outside ``scope`` kept, those inside
    replaced by exactly the failures this run found."""
    kept = [e for e in recorded.entries if not scope.covers(e.template)]
    found = current_failures(report, scope)
    return kept + [Suppression(*key, count) for key, count in found.items()]


def prune(report: Report, recorded: Suppressions, scope: Scope) -> list[Suppression]:
    """``--prune-suppressions``: each entry inside ``scope`` lowered to what this
    run found (gone at zero); nothing added, nothing outside ``scope`` touched."""
    found = current_failures(report, scope)
    out = []
    for entry in recorded.entries:
        if scope.covers(entry.template):
            count = min(entry.count, found.get(entry.key, 0))
            if count:
                out.append(dataclasses.replace(entry, count=count))
        else:
            out.append(entry)
    return out


def apply_suppressions(report: Report, recorded: Suppressions, scope: Scope) -> Report:
    """``report`` with the recorded errors suppressed, and a failing
    ``suppressions`` result per template whose entries ran short (when ``scope``
    can judge it)."""
    if not recorded.entries:
        return report
    by_key = recorded.counts()
    left = {key: entry.count for key, entry in by_key.items()}
    found: Counter[Key] = Counter()
    results: list[CheckResult] = []
    for result in report.results:
        marked = []
        for finding in result.findings:
            if finding.severity == "error" and scope.covers(finding.template):
                key = finding_key(finding)
                found[key] += 1
                if left.get(key, 0) > 0:
                    left[key] -= 1
                    finding = dataclasses.replace(finding, suppressed=True)
                elif key in by_key:
                    finding = _beyond_count(finding, by_key[key], recorded.shown)
            marked.append(finding)
        results.append(dataclasses.replace(result, findings=tuple(marked)))
    if scope.complete:
        short = [e for e in recorded.entries if scope.covers(e.template) and left[e.key] > 0]
        results = _with_unused(results, short, found, recorded.shown)
    return dataclasses.replace(report, results=tuple(results))


def _beyond_count(finding: Finding, entry: Suppression, shown: str) -> Finding:
    note = (
        f"(one more than the {entry.count} {shown} accepts for {entry.template}: "
        "a new occurrence, not suppressed)"
    )
    return dataclasses.replace(finding, message=f"{finding.message}\n{note}")


def _with_unused(
    results: list[CheckResult],
    short: Iterable[Suppression],
    found: Counter[Key],
    shown: str,
) -> list[CheckResult]:
    per_template: dict[str, list[Finding]] = {}
    for entry in short:
        now = found.get(entry.key, 0)
        said = "no longer occurs" if now == 0 else f"occurs {now} time(s), not {entry.count}"
        message = (
            f"a suppressed failure {said} (fixed?): {entry.template} {entry.describe()}; "
            f"run `{PRUNE_COMMAND}` to record that, so it stays fixed"
        )
        finding = error(SUPPRESSION_UNUSED, message, shown, entry.line).at(
            entry.template, TEMPLATE_WIDE
        )
        per_template.setdefault(entry.template, []).append(finding)
    for template, findings in per_template.items():
        added = CheckResult(template, TEMPLATE_WIDE, CHECK, tuple(findings))
        last = max((i for i, r in enumerate(results) if r.template == template), default=None)
        if last is None:
            # A template gone from the repository (or the repository row) goes last.
            results.append(added)
        else:
            results.insert(last + 1, added)
    return results


__all__ = [
    "CHECK",
    "PRUNE_COMMAND",
    "Scope",
    "apply_suppressions",
    "current_failures",
    "finding_key",
    "message_key",
    "prune",
    "record_all",
]
