"""The registry as text: one entry for ``wendy-llm explain``, every entry for ``docs/codes.md``.

``docs/codes.md`` is generated, never edited by hand: ``wendy-llm explain
--reference > docs/codes.md`` rewrites it, and a test fails when it differs
from :func:`reference_markdown`.
"""

from __future__ import annotations

from collections.abc import Iterable

from wendy_llm.codes import CODES, PREFIXES, Check, CodeInfo, codes_of

REFERENCE_COMMAND = "wendy-llm explain --reference > docs/codes.md"


def entry_text(code: CodeInfo) -> str:
    """One entry as ``wendy-llm explain CODE`` prints it."""
    retired = " (retired: kept so the code is never reused)" if code.retired else ""
    lines = [
        f"{code.code}: {code.title}{retired}",
        f"check: {code.check}    severity: {code.severity}",
        "",
        f"Why: {code.rationale}",
        f"Fact: {code.fact or '(none)'}",
        "",
        "Example:",
        *("    " + line for line in code.example.splitlines()),
    ]
    return "\n".join(lines) + "\n"


def listing(codes: Iterable[CodeInfo]) -> str:
    """One line per code: ``CODE  severity  check  title``."""
    lines = [
        f"{c.code:<7} {c.severity:<8} {c.check:<13} {c.title}" + (" (retired)" if c.retired else "")
        for c in codes
    ]
    return "\n".join(lines) + "\n"


def reference_markdown() -> str:
    """The text of ``docs/codes.md``: a prefix table, then one section per code."""
    out = [
        "# Finding codes",
        "",
        "<!-- Generated from the registry (wendy_llm/codes/): do not edit by hand; "
        f"`{REFERENCE_COMMAND}` rewrites it. -->",
        "",
        "Every finding `wendy-llm check` (and `plan`) reports carries a stable code: the",
        "prefix of its check and a number. A code is never reused; a retired one stays",
        "listed. Select or ignore findings by code or prefix (`--select`, `--ignore`,",
        "docs/configuration.md), record them in the suppressions file by code",
        "(docs/suppressions.md), and print one entry with `wendy-llm explain CODE`:",
        "",
        "```sh",
        "wendy-llm explain CMP001",
        "wendy-llm explain --list",
        "```",
        "",
        "| prefix | check | codes |",
        "|---|---|---|",
    ]
    for check in Check:
        out.append(f"| `{PREFIXES[check]}` | `{check.value}` | {len(codes_of(check))} |")
    out.append("")
    for code in CODES.values():
        retired = " (retired)" if code.retired else ""
        out += [
            f"## {code.code}{retired}",
            "",
            f"**{code.title}** (check `{code.check}`, {code.severity})",
            "",
            code.rationale,
            "",
            f"Fact: {code.fact or '(none)'}",
            "",
            "Example:",
            "",
            "```text",
            *code.example.splitlines(),
            "```",
            "",
        ]
    return "\n".join(out)
