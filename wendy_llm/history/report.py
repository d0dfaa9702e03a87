"""``replay``'s report: text for a reader, and the versioned JSON document.

The text names each commit (short id and subject), what it introduced
(``+``) and fixed (``-``), one line per finding, a finding the same in
several picks of a template once with the picks named; commits that
changed nothing are one line.  The JSON document (``replay --json``,
version 1, docs/json-reports.md) keeps one entry per finding and pick.
"""

from __future__ import annotations

from collections.abc import Sequence

from wendy_llm.escape import text as safe
from wendy_llm.history.replay import CommitReport, ReplayReport
from wendy_llm.reports.json import versioned
from wendy_llm.validate.findings import Finding

SHORT = 10


def replay_text(report: ReplayReport, *, quiet: bool = False) -> str:
    """The text report: a summary line, then each commit."""
    lines = [
        f"replay {report.base[:SHORT]}..{report.head[:SHORT]}: {len(report.commits)} commits, "
        f"{report.introduced} findings introduced, {report.fixed} fixed "
        f"(the base had {len(report.base_findings)})"
    ]
    for commit in report.commits:
        if quiet and not (commit.introduced or commit.fixed):
            continue
        lines += _commit_lines(commit)
    return "\n".join(lines) + "\n"


def _commit_lines(commit: CommitReport) -> list[str]:
    judged = ", ".join(commit.judged) or "nothing"
    head = (
        f"{commit.commit.id[:SHORT]} {safe(commit.commit.subject)}: +{len(commit.introduced)} "
        f"-{len(commit.fixed)} (judged {judged}; {commit.reused} kept)"
    )
    if commit.removed:
        head += f" (removed {safe(', '.join(commit.removed))})"
    lines = [head]
    lines += [f"  + {text}" for text in _grouped(commit.introduced)]
    lines += [f"  - {text}" for text in _grouped(commit.fixed)]
    return lines


def _grouped(findings: Sequence[Finding]) -> list[str]:
    """One line per finding, its picks named together."""
    picks: dict[tuple[object, ...], list[str]] = {}
    first: dict[tuple[object, ...], Finding] = {}
    for f in findings:
        key: tuple[object, ...] = (f.template, f.check, f.severity, f.file, f.line, f.message)
        picks.setdefault(key, []).append(f.pick or "(template)")
        first.setdefault(key, f)
    out = []
    for grouped, f in first.items():
        where = safe(f"{f.file}:{f.line}" if f.file and f.line else f.file or "")
        names = picks[grouped]
        shown = safe(names[0] if len(names) == 1 else f"picks {', '.join(names)}")
        said = f"{f.code} {safe(f.message)}" if f.code else safe(f.message)
        text = f"{safe(f.template)} {shown} [{f.check}] {f.severity} {where}: {said}"
        out.append(text)
    return out


def replay_json(report: ReplayReport) -> dict[str, object]:
    """``replay --json``: the range, a summary and each commit's changes."""
    return versioned(
        "replay",
        {
            "base": report.base,
            "head": report.head,
            "summary": {
                "commits": len(report.commits),
                "introduced": report.introduced,
                "fixed": report.fixed,
                "base_findings": len(report.base_findings),
            },
            "commits": [_commit_json(c) for c in report.commits],
        },
    )


def _commit_json(commit: CommitReport) -> dict[str, object]:
    return {
        "commit": commit.commit.id,
        "subject": commit.commit.subject,
        "judged": list(commit.judged),
        "kept": commit.reused,
        "removed": list(commit.removed),
        "introduced": [_finding(f) for f in commit.introduced],
        "fixed": [_finding(f) for f in commit.fixed],
    }


def _finding(finding: Finding) -> dict[str, object]:
    out: dict[str, object] = {
        "template": finding.template,
        "pick": finding.pick,
        "check": finding.check,
        "severity": finding.severity,
        "file": finding.file,
        "line": finding.line,
        "message": finding.message,
        "code": finding.code,
        "subject": finding.subject,
    }
    if finding.variant is not None:
        out["variant"] = finding.variant
    return out
