"""What a finding code is: its check (one enumeration of check ids) and its entry.

The lowest layer of the registry: it imports nothing of the package, so
every layer that reports findings (the device view as much as the checks)
names its codes from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

#: ``error`` fails the run; ``warning`` fails it only with ``--strict``; ``note``
#: never fails it (something the Wendy CLI ignores by design, e.g. an unknown
#: ``wendy.json`` key, shown for the reader's information).
Severity = Literal["error", "warning", "note"]


class Check(StrEnum):
    """Every check id, in the order the report shows them."""

    RENDER = "render"
    COMPOSE = "compose"
    WENDY_JSON = "wendy-json"
    SHELL = "shell"
    DOCKERFILE = "dockerfile"
    DEVICE = "device"
    TOPOLOGY = "topology"
    PICKER = "picker"
    LINT = "lint"
    CATALOG = "catalog"
    GOLDEN = "golden"
    BASELINE = "baseline"
    #: Recorded failures that no longer occur (validate/suppressions.py).
    SUPPRESSIONS = "suppressions"
    #: What a change does to the policy it is judged by (``--base``:
    #: validate/checks/policy.py).
    POLICY = "policy"


#: The code prefix of each check: a code is its check's prefix and three digits.
PREFIXES: dict[Check, str] = {
    Check.RENDER: "RND",
    Check.COMPOSE: "CMP",
    Check.WENDY_JSON: "WJS",
    Check.SHELL: "SH",
    Check.DOCKERFILE: "DF",
    Check.DEVICE: "DEV",
    Check.TOPOLOGY: "TOP",
    Check.PICKER: "PCK",
    Check.LINT: "LNT",
    Check.CATALOG: "CAT",
    Check.GOLDEN: "GLD",
    Check.BASELINE: "BAS",
    Check.SUPPRESSIONS: "SUP",
    Check.POLICY: "POL",
}


@dataclass(frozen=True, kw_only=True)
class CodeInfo:
    """What one code means: the reference entry a reader and every output share."""

    code: str  # e.g. "CMP001"
    check: str  # the check id that reports it (a :class:`Check` value)
    severity: Severity
    title: str  # one line
    rationale: str  # why it matters, a few sentences
    fact: str  # the fact it follows: a Wendy CLI revision, a docs page ("" when none)
    example: str  # a minimal example that triggers it
    retired: bool = False  # kept so the code is never reused

    def __post_init__(self) -> None:
        prefix = PREFIXES[Check(self.check)]
        digits = self.code.removeprefix(prefix)
        if not (self.code.startswith(prefix) and len(digits) == 3 and digits.isdigit()):
            raise ValueError(f"{self.code}: a {self.check} code is {prefix} and three digits")

    def as_severity(self, severity: str) -> CodeInfo:
        """This entry, checked to be of ``severity`` (an ``error(...)`` call given a
        warning's code is a programming error, caught the first time it runs)."""
        if self.severity != severity:
            raise ValueError(f"{self.code} is a {self.severity}, not a {severity}")
        return self


def entry(
    code: str,
    check: Check,
    severity: Severity,
    title: str,
    rationale: str,
    fact: str,
    example: str,
    *,
    retired: bool = False,
) -> CodeInfo:
    """One registry entry (positional, so a module of entries reads as a table)."""
    return CodeInfo(
        code=code,
        check=check.value,
        severity=severity,
        title=title,
        rationale=rationale,
        fact=fact,
        example=example,
        retired=retired,
    )
