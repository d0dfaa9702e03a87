"""A check :class:`~wendy_llm.validate.findings.Report` as text: the table and the details.

A compact table (one row per template x pick, plus one ``(template)`` row
per template for template-wide checks; one column per check: ``ok`` /
``FAIL`` / ``warn`` / ``supp`` (failures the suppressions file accepts),
``-`` where the check does not apply at that level),
then the details of every failure (and warning and note), each as ``template pick
[check] file:line: CODE message`` (the code: docs/codes.md), and the findings
``--ignore`` selected away, shown and counted as ignored. Functions return strings; the CLI prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from wendy_llm import escape
from wendy_llm.compare.changes import name_group
from wendy_llm.repo.suppressions_file import SUPPRESSIONS_FILE
from wendy_llm.reports.terminal import Style
from wendy_llm.reports.workflow import verbatim
from wendy_llm.validate.findings import TEMPLATE_WIDE, CheckResult, Finding, Report, Status

TEMPLATE_ROW = "(template)"

_LABELS: dict[Status, str] = {"ok": "ok", "fail": "FAIL", "warn": "warn", "suppressed": "supp"}


def _paint(style: Style, status: Status) -> Callable[[str], str]:
    paint = {"ok": style.ok, "fail": style.fail, "warn": style.warn, "suppressed": style.warn}
    return paint[status]


def pick_label(pick: str) -> str:
    """The pick column: the slug, or ``(template)`` for template-wide results."""
    return TEMPLATE_ROW if pick == TEMPLATE_WIDE else pick


def _rows(report: Report) -> list[tuple[str, str, dict[str, CheckResult]]]:
    rows: dict[tuple[str, str], dict[str, CheckResult]] = {}
    for result in report.results:
        rows.setdefault((result.template, result.pick), {})[result.check] = result
    return [(t, p, cells) for (t, p), cells in rows.items()]


def format_table(report: Report, *, colour: bool = False) -> str:
    """The compact status table and a summary line."""
    checks = report.checks()
    rows = _rows(report)
    if not rows:
        return "no templates to check\n"
    headers = ["template", "pick", *checks]
    body = [
        [
            escape.text(t),
            escape.text(pick_label(p)),
            *(_LABELS[c[k].status] if k in c else "-" for k in checks),
        ]
        for t, p, c in rows
    ]
    widths = [max(len(r[i]) for r in [headers, *body]) for i in range(len(headers))]
    style = Style(colour)
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    for row in body:
        cells = []
        for index, (text, width) in enumerate(zip(row, widths, strict=True)):
            if index >= 2 and text != "-":
                status = next(s for s, label in _LABELS.items() if label == text)
                # Padding stays outside the colour, so the columns line up.
                text = _paint(style, status)(text) + " " * (width - len(text))
            cells.append(text.ljust(width))
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def summary_line(report: Report) -> str:
    counts = {s: sum(1 for r in report.results if r.status == s) for s in ("ok", "fail", "warn")}
    picks = {(r.template, r.pick) for r in report.results if r.pick != TEMPLATE_WIDE}
    templates = {r.template for r in report.results}
    total = report.timings.get("total")
    took = f" in {total:.2f} s" if total is not None else ""
    suppressed = len(report.suppressed)
    held = f", {suppressed} failure(s) suppressed" if suppressed else ""
    held += f", {len(report.ignored)} finding(s) ignored" if report.ignored else ""
    return (
        f"{len(templates)} template(s), {len(picks)} pick(s), {len(report.results)} checks: "
        f"{counts['ok']} ok, {counts['fail']} FAIL, {counts['warn']} warn{held}{took}"
    )


def suppressed_counts(report: Report) -> list[tuple[str, int]]:
    """(template, suppressed failures) for each template that has some, in report order."""
    counts: dict[str, int] = {}
    for finding in report.suppressed:
        counts[finding.template] = counts.get(finding.template, 0) + 1
    return list(counts.items())


def suppressed_line(report: Report) -> str:
    """``Suppressed (7) by wendy-llm-suppressions.json: a/b 3, c/d 4``, or ``""``."""
    counts = suppressed_counts(report)
    if not counts:
        return ""
    each = ", ".join(f"{escape.text(template)} {count}" for template, count in counts)
    return f"Suppressed ({len(report.suppressed)}) by {SUPPRESSIONS_FILE}: {each}"


def finding_line(finding: Finding, who: str | None = None) -> str:
    """``template pick [check] file:line: CODE message``, later lines of the message indented.

    ``who`` replaces the pick (e.g. ``every pick (17)`` for a shared finding).
    Every field is escaped (:mod:`~wendy_llm.escape`): a message's
    lines stay lines, a control character in any of them is shown escaped.
    """
    where = f"{escape.text(finding.location)}: " if finding.location else ""
    head, *rest = escape.lines(finding.message.rstrip("\n"))
    shown = escape.text(pick_label(finding.pick) if who is None else who)
    code = f"{finding.code} " if finding.code else ""
    check = escape.text(finding.check)
    text = f"{escape.text(finding.template)} {shown} [{check}] {where}{code}{head}"
    return "\n".join([text, *("    " + line for line in rest)])


def format_details(report: Report, *, warnings: bool = True, colour: bool = False) -> str:
    """Every failure (then every warning and note); a finding several picks share once.

    A finding the same in several picks of a template (the same check, place
    and message) is one entry naming them (``every pick (17)`` or ``picks
    a, b``), so a template-wide fact does not bury the rest.
    """
    out: list[str] = []
    sections: list[tuple[str, Sequence[Finding], Status]] = [("Failures", report.errors, "fail")]
    if warnings:
        sections.append(("Warnings", report.warnings, "warn"))
        # Notes never fail a run: what the Wendy CLI ignores by design.
        sections.append(("Notes", report.notes, "ok"))
        # Selected away by --ignore / wendy-llm.toml: shown, never counted.
        sections.append(("Ignored", report.ignored, "ok"))
    picks_of = picks_per_template(report)
    for title, findings, status in sections:
        if not findings:
            continue
        groups = shared(findings)
        count = (
            f"{len(findings)}"
            if len(groups) == len(findings)
            else (f"{len(findings)}, {len(groups)} distinct")
        )
        out.append(_paint(Style(colour), status)(f"{title} ({count}):"))
        for first, picks in groups:
            who = None if len(picks) == 1 else name_group(picks, picks_of[first.template])
            head, *rest = finding_line(first, who).split("\n")
            # A message's later lines are a tool's output or a file's diff.
            out += ["  " + head, *verbatim(["  " + line for line in rest])]
        out.append("")
    if warnings and report.suppressed:
        out += [_paint(Style(colour), "suppressed")(suppressed_line(report)), ""]
    return "\n".join(out)


def picks_per_template(report: Report) -> dict[str, list[str]]:
    """Every pick of each template, in report order (what a group's picks are named against)."""
    picks: dict[str, list[str]] = {}
    for result in report.results:
        listed = picks.setdefault(result.template, [])
        if result.pick != TEMPLATE_WIDE and result.pick not in listed:
            listed.append(result.pick)
    return picks


def shared(
    findings: Sequence[Finding], where: Callable[[Finding], object] | None = None
) -> list[tuple[Finding, list[str]]]:
    """(first finding, the picks that have it) per distinct finding, in order.

    Distinct: the template, check, code, severity, place, message, variant and
    whether it is template-wide; ``where`` gives the place (default: the
    rendered ``file:line``; the annotations give the template source's).
    """
    groups: dict[tuple[object, ...], tuple[Finding, list[str]]] = {}
    for finding in findings:
        place = finding.location if where is None else where(finding)
        key: tuple[object, ...] = (finding.template, finding.check, finding.code, finding.severity)
        key += (place, finding.message, finding.variant, finding.pick == TEMPLATE_WIDE)
        groups.setdefault(key, (finding, []))[1].append(finding.pick)
    return list(groups.values())


def format_timings(report: Report) -> str:
    """Seconds per validator, slowest first, then the total."""
    items = sorted(
        ((k, v) for k, v in report.timings.items() if k != "total"), key=lambda kv: -kv[1]
    )
    width = max((len(k) for k, _ in items), default=5)
    lines = [f"  {k.ljust(width)}  {v:7.3f} s" for k, v in items]
    if "total" in report.timings:
        lines.append(f"  {'total'.ljust(width)}  {report.timings['total']:7.3f} s (wall)")
    return "\n".join(lines) + "\n"
