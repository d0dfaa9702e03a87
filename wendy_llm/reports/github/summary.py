"""The job summary of a gate's step: its Markdown reports joined, under GitHub's limit.

GitHub drops a step's summary **whole** when it is over 1 MiB, sometimes
without an error, and every ``check`` and ``diff`` report is capped on its
own: several of them together can still pass the limit.  The action's
summary step therefore writes one text, made here: the reports in order
(the check first, then the diffs with the base, then the stored
baselines), each whole while it fits.  The first that does not fit is cut
at a line, any fence or ``<details>`` block it leaves open is closed (so
the marker is not swallowed by a code block), and a marker says what was
left out and where every report is whole (the artifact).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

#: Bytes kept for the closing lines and the marker after a cut.
_MARKER_ROOM = 8192
#: Reports the marker names when several are left out (the rest are counted),
#: and the characters of each name it shows: the marker must fit its room.
_NAMED = 10
_NAME_CHARS = 80


class NamedReport(NamedTuple):
    """One Markdown report, by its file name (``check.md``), and its text."""

    name: str
    text: str


def report_order(name: str) -> tuple[int, str]:
    """Where a report goes in the summary: the check, the diff with the base,
    the stored baselines, anything else; by name within each."""
    for rank, prefix in enumerate(("check", "diff", "baseline-")):
        if name == f"{prefix}.md" or (prefix.endswith("-") and name.startswith(prefix)):
            return rank, name
    return 3, name


def step_summary(reports: Sequence[NamedReport], max_bytes: int, where: str) -> str:
    """The reports, in :func:`report_order`, as one Markdown text of at most
    ``max_bytes`` UTF-8 bytes; ``where`` (a short phrase) names where every
    report is whole."""
    where = _short(where)
    if max_bytes <= _MARKER_ROOM:
        raise ValueError(f"max_bytes must be over {_MARKER_ROOM}, not {max_bytes}")
    budget = max_bytes - _MARKER_ROOM
    parts: list[str] = []
    used = 0
    ordered = sorted(reports, key=lambda report: report_order(report.name))
    for index, report in enumerate(ordered):
        text = report.text if report.text.endswith("\n") else report.text + "\n"
        size = len(text.encode("utf-8")) + 1  # and the blank line after it
        if used + size <= budget:
            parts.append(text + "\n")
            used += size
            continue
        kept, total = _head(text, budget - used), len(text.encode("utf-8"))
        rest = [other.name for other in ordered[index + 1 :]]
        parts.append(kept + _closing(kept) + _marker(report.name, kept, total, rest, where))
        break
    joined = "".join(parts)
    assert len(joined.encode("utf-8")) <= max_bytes, "the marker outgrew its room"
    return joined


def _head(text: str, room: int) -> str:
    """The whole lines of ``text`` that fit in ``room`` bytes."""
    if room <= 0:
        return ""
    head = text.encode("utf-8")[:room].decode("utf-8", errors="ignore")
    cut = head.rfind("\n")
    return head[: cut + 1] if cut >= 0 else ""


def _closing(kept: str) -> str:
    """Lines that close what ``kept`` leaves open: a fenced block, ``<details>``."""
    lines = kept.splitlines()
    fences = sum(1 for line in lines if line.lstrip().startswith("```"))
    opened = sum(line.count("<details") for line in lines)
    closed = sum(line.count("</details>") for line in lines)
    closing = ["```"] if fences % 2 else []
    closing += ["</details>"] * min(_NAMED, max(0, opened - closed))
    return "".join(line + "\n" for line in closing)


def _short(name: str) -> str:
    return name if len(name) <= _NAME_CHARS else name[: _NAME_CHARS - 3] + "..."


def _marker(name: str, kept: str, total: int, rest: Sequence[str], where: str) -> str:
    shown = len(kept.encode("utf-8"))
    left = f"the rest of {_short(name)} ({total - shown} of its {total} bytes)"
    if rest:
        named = [_short(other) for other in rest[:_NAMED]]
        more = f" and {len(rest) - _NAMED} more" if len(rest) > _NAMED else ""
        left += f" and {len(rest)} more report(s) ({', '.join(named)}{more})"
    return (
        f"\n**wendy-llm: this summary is cut here to stay under GitHub's 1 MiB per step: "
        f"{left} left out; every report is whole in {where}.**\n"
    )
