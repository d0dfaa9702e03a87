"""What validators find, and the report that collects it.

A validator returns a list of :class:`Finding`; it never prints.  ``check``
attaches the template and the pick, groups the findings into one
:class:`CheckResult` per template x pick x check, and returns a
:class:`Report`, which ``report.py`` formats.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from wendy_llm.codes import Check, CodeInfo, Severity

#: ``suppressed``: every error of the result is recorded in the repository's
#: suppressions file (``validate/suppressions.py``), so it does not fail the run.
Status = Literal["ok", "fail", "warn", "suppressed"]

#: The pick column of results that concern a whole template (picker lint,
#: template lint, a malformed rules file) rather than one pick.
TEMPLATE_WIDE = ""
#: The template column of results that concern the repository, not one
#: template (the ``meta.json`` catalog: an entry that exists nowhere).
REPOSITORY = "(repository)"

#: Every validator id, in the order the report shows them (:class:`Check`, but
#: ``suppressions``, which judges the suppressions file rather than the render,
#: and ``policy``, which judges a change to the policy: each appears only when
#: it finds something).
CHECK_IDS: tuple[str, ...] = tuple(
    c.value for c in Check if c not in (Check.SUPPRESSIONS, Check.POLICY)
)


@dataclass(frozen=True, kw_only=True)
class Finding:
    """One problem: which check saw it, how bad it is, and where.

    ``file`` is a path inside the rendered tree (or the template / rules file
    for template-wide findings); ``line`` is 1-based when known.  Validators
    leave ``template`` and ``pick`` empty; ``check`` fills them in.
    """

    check: str
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    template: str = ""
    pick: str = TEMPLATE_WIDE
    variant: str | None = None  # the variant input it was found with (None: canonical)
    suppressed: bool = False  # an error recorded in the suppressions file: shown, not failing
    #: The stable code of this kind of finding (:mod:`wendy_llm.codes`).
    code: str = ""
    #: What the finding is about, in words that survive rewording and moved lines
    #: (a YAML/JSON path, a Dockerfile instruction, a ShellCheck code, a rule's
    #: name; "" when the file and code say it all): with the template, the file
    #: and the code, the fingerprint a suppression records.
    subject: str = ""
    #: True: a ``--ignore`` / ``ignore`` setting of wendy-llm.toml selects it away:
    #: shown and counted as ignored, never failing the run.
    ignored: bool = False

    @property
    def location(self) -> str:
        """``file:line``, ``file`` or ``""``: where a reader should look."""
        if self.file is None:
            return ""
        return self.file if self.line is None else f"{self.file}:{self.line}"

    def at(self, template: str, pick: str) -> Finding:
        """This finding, attributed to a template and a pick."""
        return dataclasses.replace(self, template=template, pick=pick)

    def with_variant(self, label: str) -> Finding:
        """This finding, found with a variant input: its message starts by naming it."""
        return dataclasses.replace(self, variant=label, message=f"variant {label}: {self.message}")


def finding(
    code: CodeInfo,
    message: str,
    file: str | None = None,
    line: int | None = None,
    *,
    subject: str = "",
) -> Finding:
    """A finding of the kind ``code`` names: its check and severity are the registry's."""
    return Finding(
        check=code.check,
        severity=code.severity,
        message=message,
        file=file,
        line=line,
        code=code.code,
        subject=subject,
    )


def error(
    code: CodeInfo,
    message: str,
    file: str | None = None,
    line: int | None = None,
    *,
    subject: str = "",
) -> Finding:
    """An error finding (``code`` must be an error's)."""
    return finding(code.as_severity("error"), message, file, line, subject=subject)


def warning(
    code: CodeInfo,
    message: str,
    file: str | None = None,
    line: int | None = None,
    *,
    subject: str = "",
) -> Finding:
    """A warning finding (``code`` must be a warning's)."""
    return finding(code.as_severity("warning"), message, file, line, subject=subject)


def note(
    code: CodeInfo,
    message: str,
    file: str | None = None,
    line: int | None = None,
    *,
    subject: str = "",
) -> Finding:
    """A note: shown, never failing a run, not even with ``--strict``."""
    return finding(code.as_severity("note"), message, file, line, subject=subject)


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check for one template x pick (pick ``""``: template-wide)."""

    template: str
    pick: str
    check: str
    findings: tuple[Finding, ...] = ()

    @property
    def status(self) -> Status:
        # An ignored finding (--ignore) is shown and counted as ignored: it sets no status.
        counted = [f for f in self.findings if not f.ignored]
        if any(f.severity == "error" and not f.suppressed for f in counted):
            return "fail"
        if any(f.suppressed for f in counted):
            return "suppressed"  # shown before its warnings: an accepted failure
        if any(f.severity == "warning" for f in counted):
            return "warn"
        return "ok"


@dataclass(frozen=True)
class Report:
    """Everything one ``check`` run found.

    ``results`` holds one entry per template x pick x check that ran, in a
    stable order (templates, then the template-wide row, then picks in the
    template's order, then checks in :data:`CHECK_IDS` order).  ``timings``
    is seconds of work per validator (plus ``load``, ``render`` and
    ``total``); validators that run in parallel overlap, so the parts can add
    up to more than ``total``.
    """

    results: tuple[CheckResult, ...]
    timings: Mapping[str, float] = field(default_factory=dict)

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.results for f in r.findings]

    @property
    def errors(self) -> list[Finding]:
        """The errors that fail the run (suppressed ones are :attr:`suppressed`,
        ignored ones :attr:`ignored`)."""
        return [
            f for f in self.findings if f.severity == "error" and not f.suppressed and not f.ignored
        ]

    @property
    def suppressed(self) -> list[Finding]:
        """The errors the repository's suppressions file accepts: shown, not failing."""
        return [f for f in self.findings if f.suppressed and not f.ignored]

    @property
    def ignored(self) -> list[Finding]:
        """The findings ``--ignore`` (or wendy-llm.toml) selects away: shown, not counted."""
        return [f for f in self.findings if f.ignored]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning" and not f.ignored]

    @property
    def notes(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "note" and not f.ignored]

    def passed(self, *, strict: bool = False) -> bool:
        """True when nothing failed (with ``strict``, when nothing warned either)."""
        return not self.errors and not (strict and self.warnings)

    def checks(self) -> list[str]:
        """The check ids that ran, in report order."""
        ran = {r.check for r in self.results}
        known = [c for c in CHECK_IDS if c in ran]
        return known + sorted(ran - set(CHECK_IDS))
