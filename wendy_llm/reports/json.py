"""The versioned JSON documents of ``--json`` (shapes: docs/json-reports.md).

Every document is stamped by :func:`versioned` with its ``"version"`` and the
gate's exact revision (``"wendy_llm_version"``, :mod:`wendy_llm.revision`), and
each kind has a JSON Schema, :func:`schema_path` (the tests validate real
documents against it). A change that removes or renames a field, or changes
its meaning, is a new version.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from wendy_llm.repo.layout import display_path
from wendy_llm.revision import package_version
from wendy_llm.validate.findings import TEMPLATE_WIDE

if TYPE_CHECKING:
    from wendy_llm.compare.diff import FileChange, PolicyResult, Side, TemplateDiff
    from wendy_llm.device import DeviceProfile, DeviceView
    from wendy_llm.golden.check import GoldenCheck
    from wendy_llm.golden.update import GoldenUpdate
    from wendy_llm.render.files.tree import RenderedTree
    from wendy_llm.render.lints.checks import LintWarning
    from wendy_llm.repo.selection import TemplateFailure
    from wendy_llm.validate.findings import Finding, Report

ReportKind = Literal[
    "render", "picks", "golden-check", "golden-update", "check", "diff", "plan", "replay"
]
REPORT_KINDS: tuple[ReportKind, ...] = (
    "render",
    "picks",
    "golden-check",
    "golden-update",
    "check",
    "diff",
    "plan",
    "replay",
)
VERSION = 1
#: Kinds whose shape moved past version 1 (docs/json-reports.md says what changed).
VERSIONS: dict[ReportKind, int] = {"plan": 2}
_SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def versioned(kind: ReportKind, body: Mapping[str, object]) -> dict[str, object]:
    """``body`` as a document of ``kind``: ``"version"`` (its shape) first, then
    ``"wendy_llm_version"``, the exact revision of the gate that wrote it."""
    assert kind in REPORT_KINDS
    shape = VERSIONS.get(kind, VERSION)
    return {"version": shape, "wendy_llm_version": package_version(), **body}


def schema_path(kind: ReportKind) -> Path:
    """The JSON Schema the documents of ``kind`` follow."""
    return _SCHEMAS / f"report-{kind}.v{VERSIONS.get(kind, VERSION)}.schema.json"


def dumps(document: Mapping[str, object]) -> str:
    """How every document is printed: indented, ASCII, newline-terminated.

    The text is data, unchanged when read back; only its spelling is safe
    to print in a CI log: ASCII (controls are ``\\u`` escapes), and a
    ``##[`` (GitHub's legacy workflow command, read anywhere in a line) is
    spelled ``#\\u0023[``, which decodes to the same text (issue 29)."""
    return json.dumps(document, indent=2).replace("##[", "#\\u0023[") + "\n"


def render_json(
    template: str,
    app_id: str,
    out: Path,
    answers: Mapping[str, str],
    tree: RenderedTree,
    warnings: Sequence[LintWarning],
) -> dict[str, object]:
    """``render --json``: what was written where, and the lint warnings."""
    files = [
        {"path": f.path, "source": f.source, "rendered": f.rendered, "bytes": len(f.data)}
        for f in tree.files.values()
    ]
    said = [
        {"file": w.file, "line": w.line, "code": w.code, "message": w.message} for w in warnings
    ]
    return versioned(
        "render",
        {
            "template": template,
            "app_id": app_id,
            "out": str(out),
            "answers": dict(answers),
            "files": files,
            "warnings": said,
        },
    )


def picks_json(template: str, picks: Sequence[tuple[str, Mapping[str, str]]]) -> dict[str, object]:
    """``picks --json``: ``picks`` are (slug, answers)."""
    listed = [{"slug": slug, "answers": dict(answers)} for slug, answers in picks]
    return versioned("picks", {"template": template, "picks": listed})


def _finding(finding: Finding) -> dict[str, object]:
    found: dict[str, object] = {
        "severity": finding.severity,
        "message": finding.message,
        "file": finding.file,
        "line": finding.line,
        "code": finding.code,
        "subject": finding.subject,
    }
    if finding.ignored:
        found["ignored"] = True  # only where --ignore / wendy-llm.toml selects it away
    if finding.variant is not None:
        found["variant"] = finding.variant  # only where a variant input found it
    if finding.suppressed:
        found["suppressed"] = True  # only where the suppressions file accepts it
    return found


def check_json(report: Report, *, strict: bool = False) -> dict[str, object]:
    """``check --json``: one result per template x pick x check."""
    counts = {s: sum(1 for r in report.results if r.status == s) for s in ("ok", "fail", "warn")}
    summary: dict[str, object] = {
        "results": len(report.results),
        **counts,
        "errors": len(report.errors),
        "warnings": len(report.warnings),
        "notes": len(report.notes),
        "codes": dict(sorted(Counter(f.code for f in report.findings if not f.ignored).items())),
    }
    if report.ignored:  # only where --ignore / wendy-llm.toml selected some away
        summary["ignored"] = len(report.ignored)
    if report.suppressed:  # only where the suppressions file accepted some
        per_template: dict[str, int] = {}
        for finding in report.suppressed:
            per_template[finding.template] = per_template.get(finding.template, 0) + 1
        summary["suppressed"] = sum(1 for r in report.results if r.status == "suppressed")
        summary["suppressed_errors"] = len(report.suppressed)
        summary["suppressed_per_template"] = per_template
    return versioned(
        "check",
        {
            "ok": report.passed(strict=strict),
            "strict": strict,
            "summary": summary,
            "checks": report.checks(),
            "results": [
                {
                    "template": r.template,
                    "pick": None if r.pick == TEMPLATE_WIDE else r.pick,
                    "check": r.check,
                    "status": r.status,
                    "findings": [_finding(f) for f in r.findings],
                }
                for r in report.results
            ],
            "timings": {k: round(v, 4) for k, v in report.timings.items()},
        },
    )


def _failed(failed: Sequence[TemplateFailure]) -> list[dict[str, str]]:
    return [{"template": f.template_id, "message": f.message} for f in failed]


def golden_check_json(result: GoldenCheck) -> dict[str, object]:
    """``golden --check --json``."""
    checked = [{"template": c.template_id, "picks": list(c.picks)} for c in result.checked]
    problems = [
        {
            "kind": p.kind,
            "template": p.template_id,
            "picks": list(p.picks),
            "path": p.path,
            "fixture": p.fixture,
            "summary": p.summary,
            "diff": list(p.diff),
            "command": p.command,
        }
        for p in result.problems
    ]
    return versioned(
        "golden-check",
        {
            "mode": "check",
            "ok": result.ok,
            "golden_dir": display_path(result.golden_root),
            "checked": checked,
            "problems": problems,
            "omitted_diff_lines": result.omitted_diff_lines,
            "failed": _failed(result.failed),
        },
    )


def golden_update_json(result: GoldenUpdate) -> dict[str, object]:
    """``golden --update --json``; paths are relative to each ``fixture_dir``."""
    templates = [
        {
            "template": t.template_id,
            "fixture_dir": display_path(t.fixture_dir),
            "deleted": t.deleted,
            "added": list(t.added),
            "changed": list(t.changed),
            "removed": list(t.removed),
        }
        for t in result.templates
    ]
    return versioned(
        "golden-update",
        {
            "mode": "update",
            "golden_dir": display_path(result.golden_root),
            "written": result.written,
            "templates": templates,
            "failed": _failed(result.failed),
        },
    )


def _side(side: Side) -> dict[str, object]:
    return {"kind": side.kind, "label": side.label, "path": side.path, "commit": side.commit}


def diff_json(diff: TemplateDiff, result: PolicyResult) -> dict[str, object]:
    """``diff --json``: each distinct change once in ``diffs``, which ``files[].diff_index``
    points at (``files[].diff`` is its diff in the first pick it names, else ``[]``)."""
    policy = result.policy
    shown = diff.shown_diffs()

    def file_json(slug: str, change: FileChange) -> dict[str, object]:
        at = shown.index[(slug, change.path)]
        group = shown.groups[at]
        lines = list(group.diff) if group.picks[0] == slug else []
        return {
            "path": change.path,
            "status": change.status,
            "diff": lines,
            "diff_index": at,
            "variant": change.variant,
        }

    picks = [
        {
            "slug": p.slug,
            "status": p.status,
            "answers": dict(p.answers),
            "base_answers": None if p.base_answers is None else dict(p.base_answers),
            "exempted": p.slug in result.exempted,
            "files": [file_json(p.slug, f) for f in p.files],
            "outside_scope": [{"path": f.path, "status": f.status} for f in p.outside_scope],
            "compared_with": p.compared_with,
            "reason": p.reason,
            "skipped_inputs": [{"variant": label, "reason": why} for label, why in p.skipped],
        }
        for p in diff.picks
    ]
    return versioned(
        "diff",
        {
            "template": diff.template_id,
            "base": _side(diff.base),
            "head": _side(diff.head),
            "scope": {"files": list(diff.scope.globs), "source": diff.scope.source},
            "inputs": [
                {"label": i.label, "app_id": i.app_id, "vars": dict(i.overrides)}
                for i in diff.inputs
            ],
            "summary": diff.counts(),
            "policy": {
                "expect_unchanged": policy.expect_unchanged,
                "allow_changed": sorted(policy.allow_changed),
                "forbid_removed": policy.forbid_removed,
                "holds": result.holds,
                "failing_picks": list(result.failing_picks),
                "violations": list(result.violations),
                "exempted": list(result.exempted),
                "warnings": list(result.warnings),
            },
            "picks": picks,
            "diffs": [
                {
                    "path": g.path,
                    "status": g.status,
                    "picks": list(g.picks),
                    "diff": list(g.diff),
                    "variant": g.variant,
                }
                for g in shown.groups
            ],
            "omitted_diff_lines": shown.omitted_lines,
        },
    )


def plan_json(
    view: DeviceView,
    *,
    template: str,
    pick: str | None,
    app_id: str,
    answers: Mapping[str, str],
    devices: Sequence[DeviceProfile],
) -> dict[str, object]:
    """``plan --json``: the device view with its field names (``view``), and the inputs."""
    profiles = [
        {"name": d.name, "label": d.label, "build_args": dict(d.build_args)} for d in devices
    ]
    return versioned(
        "plan",
        {
            "template": template,
            "pick": pick,
            "app_id": app_id,
            "answers": dict(answers),
            "ok": not view.errors,
            "profiles": profiles,
            "view": dataclasses.asdict(view),
        },
    )
