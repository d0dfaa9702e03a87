"""Text, JSON and JUnit for a baseline comparison (the CLI prints what these return).

JSON shape, ``"version": 1``::

    {
      "version": 1,
      "template": "python/llm",
      "base": {"kind": "revision"|"baseline", "label": str, "path": str, "commit": str|null},
      "head": {"kind": "working-tree", "label": str, "path": str, "commit": null},
      "scope": {"files": [glob, ...], "source": str|null},   # [] = every file
      "summary": {"unchanged": n, "changed": n, "added": n, "removed": n},
      "policy": {"expect_unchanged": bool, "allow_changed": [slug, ...],
                 "forbid_removed": bool, "holds": bool,
                 "failing_picks": [slug, ...], "violations": [str, ...],
                 "exempted": [slug, ...], "warnings": [str, ...]},
      "picks": [{"slug": str, "status": "unchanged"|"changed"|"added"|"removed",
                 "answers": {...}, "base_answers": {...}|null,
                 "exempted": bool,
                 "files": [{"path": str, "status": "changed"|"added"|"removed",
                            "diff": [line, ...], "diff_index": int}],
                 "outside_scope": [{"path": str, "status": str}]}],
      "diffs": [{"path": str, "status": str, "picks": [slug, ...], "diff": [line, ...]}],
      "omitted_diff_lines": int
    }

``diffs`` holds each distinct in-scope change once, naming every changed
pick that shows it; ``files[].diff_index`` points there, and ``files[].diff``
is the group's diff in the first pick it names and ``[]`` in the others.
Each diff is cut to ``--max-diff-lines`` and all of them together to
``textdiff.total_budget`` of it; ``omitted_diff_lines`` counts what the
total budget left out.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict

from wendy_llm.compare.diff import (
    PICK_STATUSES,
    DiffGroup,
    PolicyResult,
    ShownDiffs,
    Side,
    TemplateDiff,
)
from wendy_llm.compare.textdiff import name_picks

JSON_VERSION = 1


def _side(side: Side) -> dict[str, object]:
    return {"kind": side.kind, "label": side.label, "path": side.path, "commit": side.commit}


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def group_title(group: DiffGroup, shown: ShownDiffs, which: str = "changed") -> str:
    """``pick a``, ``picks a, b`` or ``every changed pick (14)``: who shows ``group``."""
    n = len(group.picks)
    if n > 1 and n == len(shown.considered):
        return f"every {which} pick ({n})"
    return name_picks(group.picks)


def omitted_note(shown: ShownDiffs) -> str:
    return (
        f"{_count(shown.omitted_lines, 'diff line')} not shown (the run's diffs are capped; "
        "narrow it with --files, or --max-diff-lines 0)"
    )


def _diff_blocks(shown: ShownDiffs, which: str) -> list[str]:
    lines: list[str] = []
    for g in shown.groups:
        lines += ["", f"=== {group_title(g, shown, which)}: {g.path} ({g.status})", *g.diff]
    if shown.omitted_lines:
        lines += ["", f"diff: {omitted_note(shown)}"]
    return lines


def _file_json(shown: ShownDiffs, slug: str, path: str, status: str) -> dict[str, object]:
    at = shown.index[(slug, path)]
    group = shown.groups[at]
    diff = list(group.diff) if group.picks[0] == slug else []
    return {"path": path, "status": status, "diff": diff, "diff_index": at}


def diff_json(diff: TemplateDiff, result: PolicyResult) -> dict[str, object]:
    policy = result.policy
    shown = diff.shown_diffs()
    return {
        "version": JSON_VERSION,
        "template": diff.template_id,
        "base": _side(diff.base),
        "head": _side(diff.head),
        "scope": {"files": list(diff.scope.globs), "source": diff.scope.source},
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
        "picks": [
            {
                "slug": p.slug,
                "status": p.status,
                "answers": dict(p.answers),
                "base_answers": None if p.base_answers is None else dict(p.base_answers),
                "exempted": p.slug in result.exempted,
                "files": [_file_json(shown, p.slug, f.path, f.status) for f in p.files],
                "outside_scope": [{"path": f.path, "status": f.status} for f in p.outside_scope],
            }
            for p in diff.picks
        ],
        "diffs": [
            {"path": g.path, "status": g.status, "picks": list(g.picks), "diff": list(g.diff)}
            for g in shown.groups
        ],
        "omitted_diff_lines": shown.omitted_lines,
    }


def diff_junit(diff: TemplateDiff, result: PolicyResult) -> str:
    """JUnit XML: one test case per pick (``classname`` = the template id,
    ``name`` = ``<slug> diff``); a pick that breaks the policy is a
    ``<failure>`` whose message is the violation and whose text is the diff.
    Every case's ``<system-out>`` says what happened to the pick, so added,
    removed and exempted picks are visible without failing.
    """
    root = ET.Element("testsuites", name="wendy-llm diff")
    suite = ET.SubElement(root, "testsuite", name=diff.template_id)
    violations = dict(zip(result.failing_picks, result.violations, strict=True))
    for p in diff.picks:
        case = ET.SubElement(
            suite, "testcase", classname=diff.template_id, name=f"{p.slug} diff", time="0"
        )
        if p.slug in violations:
            failure = ET.SubElement(case, "failure", message=violations[p.slug], type="policy")
            failure.text = "\n".join(line for f in p.files for line in f.diff)
        files = ", ".join(f"{f.path} ({f.status})" for f in p.files)
        note = " (allowed by --allow-changed)" if p.slug in result.exempted else ""
        out = ET.SubElement(case, "system-out")
        out.text = f"{p.status}{note}" + (f": {files}" if files else "")
    if result.warnings:
        ET.SubElement(suite, "system-out").text = "\n".join(
            f"warning: {w}" for w in result.warnings
        )
    failures = str(len(violations))
    tests = str(len(diff.picks))
    for element in (root, suite):
        element.set("tests", tests)
        element.set("failures", failures)
        element.set("errors", "0")
    suite.set("skipped", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def diff_text(diff: TemplateDiff, result: PolicyResult) -> str:
    lines = [
        f"template {diff.template_id}: {diff.base.describe()} -> {diff.head.describe()}",
        f"scope: {diff.scope.describe()}",
        "",
    ]
    width = max([len("PICK"), *(len(p.slug) for p in diff.picks)])
    lines.append(f"  {'PICK':<{width}}  {'STATUS':<9}  FILES")
    for p in diff.picks:
        files = ", ".join(f"{f.path} ({f.status})" for f in p.files)
        mark = "  [allowed by --allow-changed]" if p.slug in result.exempted else ""
        if p.slug in result.failing_picks:
            mark = "  [FAILS the policy]"
        lines.append(f"  {p.slug:<{width}}  {p.status:<9}  {files}{mark}".rstrip())
    if not diff.picks:
        lines.append("  (no picks on either side)")

    outside: dict[tuple[str, str], int] = defaultdict(int)
    for p in diff.picks:
        for f in p.outside_scope:
            outside[(f.path, f.status)] += 1
    if outside:
        lines += ["", "outside the scope (not compared by the gate):"]
        lines += [
            f"  {path} ({status} in {n} pick{'s' if n != 1 else ''})"
            for (path, status), n in sorted(outside.items())
        ]

    lines += _diff_blocks(diff.shown_diffs(), "changed")
    moved = [p for p in diff.with_status("changed") if p.base_answers is not None]
    if moved:
        lines.append("")
    lines += [
        f"(pick {p.slug}: answers were {dict(p.base_answers or {})}, now {dict(p.answers)})"
        for p in moved
    ]

    counts = diff.counts()
    lines += ["", "summary: " + ", ".join(f"{counts[s]} {s}" for s in PICK_STATUSES)]
    lines += [f"warning: {w}" for w in result.warnings]
    lines.append(_policy_line(result))
    lines += [f"  {v}" for v in result.violations]
    return "\n".join(lines) + "\n"


def diff_failures_text(diff: TemplateDiff, result: PolicyResult) -> str:
    """``--quiet``: only what breaks the policy (the failing picks' diffs, the
    verdict and the violations); empty when the policy holds."""
    if result.holds:
        return ""
    lines = [f"template {diff.template_id}: {diff.base.describe()} -> {diff.head.describe()}"]
    lines += _diff_blocks(diff.shown_diffs(result.failing_picks), "failing")
    lines += ["", _policy_line(result)]
    lines += [f"  {v}" for v in result.violations]
    return "\n".join(lines) + "\n"


def _policy_line(result: PolicyResult) -> str:
    policy = result.policy
    rules = []
    if policy.expect_unchanged:
        allowed = sorted(policy.allow_changed)
        rules.append(
            "expect unchanged" + (f" (allowed to change: {', '.join(allowed)})" if allowed else "")
        )
    if policy.forbid_removed:
        rules.append("no removed picks")
    if not rules:
        return "policy: none (report only; use --expect-unchanged to gate)"
    verdict = "holds" if result.holds else f"FAILS ({len(result.violations)})"
    return f"policy: {'; '.join(rules)}: {verdict}"
