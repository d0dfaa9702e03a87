"""The registry of finding codes: one entry per kind of finding (issue 27).

A code is a short prefix per check and three digits (``CMP001``), never
reused: a retired code stays registered with ``retired=True``.  Every
finding carries one (``validate.findings.error`` and its kin take the entry,
so severity and check come from here); ``wendy-llm explain CODE`` prints an
entry, ``docs/codes.md`` lists them all (generated: ``reference``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType

from wendy_llm.codes import builds, device, runtime, stored, template, tools
from wendy_llm.codes.model import PREFIXES, Check, CodeInfo, Severity


def _collect(modules: Iterable[ModuleType]) -> dict[str, CodeInfo]:
    found: dict[str, CodeInfo] = {}
    for module in modules:
        values = list(vars(module).values())
        values += [v for m in values if isinstance(m, Mapping) for v in m.values()]
        for value in values:
            if isinstance(value, CodeInfo):
                other = found.setdefault(value.code, value)
                if other is not value:
                    raise AssertionError(f"{value.code} is registered twice")
    return dict(sorted(found.items(), key=lambda item: _order(item[0])))


def _order(code: str) -> tuple[int, str]:
    checks = list(Check)
    prefix = code.rstrip("0123456789")
    check = next(c for c in checks if PREFIXES[c] == prefix)
    return checks.index(check), code


#: Every code, by code, in report order (by check, then number).
CODES: Mapping[str, CodeInfo] = MappingProxyType(
    _collect((tools, device, runtime, builds, template, stored))
)


def info(code: str) -> CodeInfo:
    """The entry of ``code`` (KeyError when it is not registered)."""
    return CODES[code]


def nearest(code: str, count: int = 3) -> list[str]:
    """The registered codes most like ``code`` (for "did you mean"): fewest edits
    (a swap of two neighbours is one), then registry order; none when all are far."""
    wanted = code.strip().upper()
    scored = sorted((_edits(wanted, known), index, known) for index, known in enumerate(CODES))
    return [known for edits, _, known in scored[:count] if edits <= max(2, len(wanted) // 2)]


def _edits(a: str, b: str) -> int:
    """Optimal string alignment distance: inserts, deletes, changes, neighbour swaps."""
    rows = [list(range(len(b) + 1))]
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            best = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                best = min(best, rows[-2][j - 2] + 1)
            row.append(best)
        rows.append(row)
    return rows[-1][-1]


def codes_of(check: Check | str) -> list[CodeInfo]:
    """The codes ``check`` reports, in number order."""
    return [c for c in CODES.values() if c.check == str(check)]


@dataclass(frozen=True)
class ParseCodes:
    """What a check calls a document that does not parse: bytes, syntax, a repeated key."""

    not_utf8: CodeInfo
    syntax: CodeInfo
    duplicate: CodeInfo


#: Per check that parses rendered documents, its parse codes.
PARSE_CODES: Mapping[str, ParseCodes] = MappingProxyType(
    {
        # YAML's reader refuses no repeated key (CMP007 is retired).
        Check.COMPOSE: ParseCodes(tools.COMPOSE_NOT_UTF8, tools.COMPOSE_YAML, tools.COMPOSE_YAML),
        # Only wendy.json is parsed for it (by the device view; the wendy-json
        # check decodes it as the CLI does and reports WJS001 itself).
        Check.WENDY_JSON: ParseCodes(
            tools.WENDY_JSON_SYNTAX, tools.WENDY_JSON_SYNTAX, tools.WENDY_JSON_SYNTAX
        ),
        Check.TOPOLOGY: ParseCodes(
            builds.TOP_NOT_UTF8, builds.TOP_DOCUMENT_SYNTAX, builds.TOP_DOCUMENT_DUPLICATE
        ),
    }
)

#: What a check that runs an external tool reports when the tool cannot run.
TOOL_FAILED: Mapping[str, CodeInfo] = MappingProxyType(
    {Check.COMPOSE: tools.COMPOSE_TOOL, Check.SHELL: tools.SHELL_TOOL}
)

__all__ = [
    "CODES",
    "PARSE_CODES",
    "PREFIXES",
    "TOOL_FAILED",
    "Check",
    "CodeInfo",
    "ParseCodes",
    "Severity",
    "codes_of",
    "info",
    "nearest",
]
