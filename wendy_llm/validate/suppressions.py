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

A failure is identified by what it is, never where nor how it is worded:
:func:`fingerprint` is the template, the finding's code, the file and its
subject (a YAML/JSON path, a Dockerfile stage and instruction, ...; the
variant's app id read as the canonical one), so neither an edit above a
defect nor a reworded message unsuppresses it (version 2 of the file).  A
version 1 file is matched as it was written, by :func:`finding_key` (the
check, the file and the message's first line with line numbers and the
variant input stripped), until ``--prune-suppressions`` rewrites it as
version 2.  Counts are over every pick and input of the template.

A run over a subset judges only that subset (:class:`Scope`): ``--template
X`` never calls another template's entries unused, nor prunes or records
outside X; ``--pick`` judges nothing unused (a pick subset sees a part of
each count).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from wendy_llm.codes import CODES, Check
from wendy_llm.codes.stored import SUPPRESSION_UNUSED
from wendy_llm.errors import SuppressionsError
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.repo.suppressions_file import Key, Suppression, Suppressions
from wendy_llm.validate.findings import TEMPLATE_WIDE, CheckResult, Finding, Report, error

#: The check that fails on recorded failures that no longer occur.
CHECK = Check.SUPPRESSIONS
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


def _canonical(finding: Finding, text: str) -> str:
    """``text`` with the variant's app id read as the canonical one."""
    if finding.variant is not None:
        found = _VARIANT_APP_ID.search(finding.variant)
        if found:
            return text.replace(found.group(1), CANONICAL_APP_ID)
    return text


def finding_key(finding: Finding) -> Key:
    """A version 1 file's key: template, check, file, :func:`message_key`."""
    file = _canonical(finding, finding.file or "")
    return (finding.template, finding.check, file, message_key(finding))


def fingerprint(finding: Finding) -> Key:
    """A version 2 file's key: template, code, file, subject (never the message)."""
    file = _canonical(finding, finding.file or "")
    return (finding.template, finding.code, file, _canonical(finding, finding.subject))


def key_of(version: int) -> Callable[[Finding], Key]:
    """How a file of ``version`` names a failure."""
    return finding_key if version == 1 else fingerprint


def _failing(report: Report, scope: Scope) -> list[Finding]:
    """The errors of the templates ``scope`` covers (suppressed or not; never
    the ``suppressions`` check's own, nor one ``--ignore`` selects away)."""
    return [
        f
        for f in report.findings
        if f.severity == "error" and f.check != CHECK and not f.ignored and scope.covers(f.template)
    ]


def current_failures(report: Report, scope: Scope, version: int = 2) -> Counter[Key]:
    """How often each kind of error occurs in the templates ``scope`` covers."""
    return Counter(map(key_of(version), _failing(report, scope)))


def _entries(findings: Iterable[Finding]) -> list[Suppression]:
    """Version 2 entries counting ``findings``; each keeps the first one's words."""
    counts: Counter[Key] = Counter()
    said: dict[Key, str] = {}
    for finding in findings:
        key = fingerprint(finding)
        counts[key] += 1
        said.setdefault(key, message_key(finding))
    return [
        Suppression(template, CODES[code].check, file, said[key], count, code=code, subject=subject)
        for key, count in counts.items()
        for template, code, file, subject in [key]
    ]


def _refuse_mixing(recorded: Suppressions, scope: Scope, flag: str) -> None:
    outside = [e for e in recorded.entries if not scope.covers(e.template)]
    if recorded.version == 1 and outside:
        raise SuppressionsError(
            f"{recorded.shown} is a version 1 file, which {flag} rewrites as version 2 for "
            f"every template at once; it records {outside[0].template}, outside this run: "
            f"run `wendy-llm check {flag}` without --template",
            file=recorded.shown,
        )


def record_all(report: Report, recorded: Suppressions, scope: Scope) -> list[Suppression]:
    """``--suppress-all``: the entries outside ``scope`` kept, those inside
    replaced by exactly the failures this run found (version 2)."""
    _refuse_mixing(recorded, scope, "--suppress-all")
    kept = [e for e in recorded.entries if not scope.covers(e.template)]
    return kept + _entries(_failing(report, scope))


def prune(report: Report, recorded: Suppressions, scope: Scope) -> list[Suppression]:
    """``--prune-suppressions``: each entry inside ``scope`` lowered to what this
    run found (gone at zero); nothing added, nothing outside ``scope`` touched.
    A version 1 file comes back as version 2: each entry becomes the
    fingerprints of the failures it accepts."""
    if recorded.version == 1:
        _refuse_mixing(recorded, scope, "--prune-suppressions")
        left = {e.key: e.count for e in recorded.entries}
        accepted = []
        for finding in _failing(report, scope):
            key = finding_key(finding)
            if left.get(key, 0) > 0:
                left[key] -= 1
                accepted.append(finding)
        return _entries(accepted)
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
    key_for = key_of(recorded.version)
    left = {key: entry.count for key, entry in by_key.items()}
    found: Counter[Key] = Counter()
    results: list[CheckResult] = []
    for result in report.results:
        marked = []
        for finding in result.findings:
            if (
                finding.severity == "error"
                and not finding.ignored
                and scope.covers(finding.template)
            ):
                key = key_for(finding)
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
    "fingerprint",
    "key_of",
    "message_key",
    "prune",
    "record_all",
]
