"""The registry of finding codes: one entry per kind of finding (issue 27).

A skeleton that fixes the interface every output reads (SARIF rules,
annotations' titles, ``wendy-llm explain``); the entries are filled in by
the registry's own work.  A code is a short prefix per check and a number,
never reused: a retired code stays here with ``retired=True``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from wendy_llm.validate.findings import Severity


@dataclass(frozen=True, kw_only=True)
class CodeInfo:
    """What one code means: the reference entry a reader and every output share."""

    code: str  # e.g. "CMP001"
    check: str  # the check id that reports it
    severity: Severity
    title: str  # one line
    rationale: str  # why it matters, a few sentences
    fact: str  # the fact it follows: a Wendy CLI revision, a docs page ("" when none)
    example: str  # a minimal example that triggers it
    retired: bool = False  # kept so the code is never reused


#: Every code, by code.
CODES: Mapping[str, CodeInfo] = MappingProxyType({})


def info(code: str) -> CodeInfo:
    """The entry of ``code`` (KeyError when it is not registered)."""
    return CODES[code]
