"""Mutation testing for a template: apply a known regression, run the suite, see it fail.

A :class:`Mutant` is data: edits (file, search string, replacement), each
search string required to occur exactly once in the pristine template, so a
mutant can never silently turn into a no-op when the template changes; and
the checks that must kill it (``killed_by``), so a check that goes blind
shows even when another happens to catch the same regression.

:func:`run_mutation` copies the template, its golden directory (rules
file, fixtures, stored baseline) into a temporary tree, then runs the suite
against the unmutated copy (the *control*, which must pass, or a kill
proves nothing) and against each mutant.  The suite is:

- ``wendy-llm check`` (:func:`wendy_llm.validate.run.run_check`): render, compose,
  wendy-json, shell, dockerfile, device, topology, picker, lint, golden and
  baseline, each a check of its own, each on the canonical input and the
  template's variant (another app id, another port), and ``baseline``
  holding every non-sentinel pick, new ones too, to the stored baseline
  rendered with the same answers;
- ``entrypoint:<behaviour>``: the entrypoint behaviours
  (:mod:`harness.behaviours`), run for the scripts the mutant changes
  (a behaviour's outcome depends on its rendered script only).

A mutant may name one rule of the template's rules file as
``topology:<rule>``: it fails when ``topology`` reports a finding of that
rule, so a kill shows which decision caught the regression, not just that
some rule did.

A mutant is *killed* when every check it names in ``killed_by`` fails;
other checks failing too is fine, but a mutant that only other checks
catch is *missed*: the check it exists for is blind to it.  ``golden`` can
never be named: the golden fixtures fail on any byte that moves, and
``wendy-llm golden --update`` makes them agree with the mutant again, so a
kill by them would show nothing about the semantic checks; their failures
are still reported.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from harness.behaviours import BEHAVIOURS, Behaviour, render_scripts, run_behaviours
from wendy_llm.errors import WendyLlmError
from wendy_llm.render.template import load_template
from wendy_llm.repo.layout import rules_path
from wendy_llm.validate.findings import CHECK_IDS
from wendy_llm.validate.rules.file import load_rules
from wendy_llm.validate.run import run_check


class MutantError(WendyLlmError):
    """A mutant does not apply, names no check that can kill it, or is unknown."""


#: The checks whose failure never kills a mutant (see the module docstring).
FIXTURE_CHECKS: Final = frozenset({"golden"})

#: The prefix of the entrypoint behaviours' check names (``entrypoint:<behaviour>``).
ENTRYPOINT: Final = "entrypoint"

#: The prefix of one topology rule's check name (``topology:<rule>``).
TOPOLOGY: Final = "topology"
#: A topology finding of one rule (after ``variant <label>: `` when the variant found it).
_RULE_FINDING: Final = re.compile(r'(?:variant [^:]*: )?rule "([^"]+)": ')

#: Every check a mutant may name in ``killed_by``.
KILLING_CHECKS: Final = frozenset(
    [
        *(c for c in CHECK_IDS if c not in FIXTURE_CHECKS),
        *(f"{ENTRYPOINT}:{b.name}" for b in BEHAVIOURS),
    ]
)


@dataclass(frozen=True)
class Edit:
    """Replace the one occurrence of ``search`` in ``file`` (template-relative)."""

    file: str
    search: str
    replace: str


@dataclass(frozen=True)
class Mutant:
    """A known regression: what it breaks (``description``), the checks that must
    each fail for it (``killed_by``: ids of ``check``'s checks, or
    ``entrypoint:<behaviour>``), and how (``edits``)."""

    name: str
    description: str
    killed_by: tuple[str, ...]
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class Failure:
    """One failing check: its name and the first problem it reported."""

    check: str
    message: str
    count: int = 1


@dataclass(frozen=True)
class MutantResult:
    mutant: Mutant
    failures: tuple[Failure, ...]
    seconds: float

    @property
    def killers(self) -> tuple[str, ...]:
        """The failing checks that could kill (everything but the fixture checks)."""
        return tuple(f.check for f in self.failures if f.check not in FIXTURE_CHECKS)

    @property
    def missed_by(self) -> tuple[str, ...]:
        """The checks the mutant names that did not fail: each is blind to it."""
        failed = {f.check for f in self.failures}
        return tuple(c for c in self.mutant.killed_by if c not in failed)

    @property
    def killed(self) -> bool:
        """Every check the mutant names failed (others may have failed too)."""
        return bool(self.killers) and not self.missed_by


@dataclass(frozen=True)
class MutationReport:
    template_id: str
    control: tuple[Failure, ...]
    results: tuple[MutantResult, ...] = field(default=())

    @property
    def killed(self) -> int:
        return sum(1 for r in self.results if r.killed)

    @property
    def all_killed(self) -> bool:
        return not self.control and self.killed == len(self.results)


def apply_edits(root: Path, mutant: Mutant) -> None:
    """Apply ``mutant`` to the template copy at ``root`` (in place); a search
    string not found exactly once, or a missing file, is a :class:`MutantError`."""
    for number, edit in enumerate(mutant.edits, start=1):
        path = root / edit.file
        where = f"mutant {mutant.name}, edit {number} ({edit.file})"
        if not path.is_file():
            raise MutantError(f"{where}: the template has no file {edit.file}")
        text = path.read_text(encoding="utf-8")
        count = text.count(edit.search)
        if count != 1:
            raise MutantError(
                f"{where}: the search string occurs {count} times, expected exactly once "
                f"(update the mutant to the template): {edit.search!r}"
            )
        path.write_text(text.replace(edit.search, edit.replace), encoding="utf-8")


def check_killed_by(mutant: Mutant) -> None:
    """Raise :class:`MutantError` unless ``mutant`` names at least one check, each
    a check that can kill (:data:`KILLING_CHECKS`)."""
    if not mutant.killed_by:
        raise MutantError(
            f"mutant {mutant.name}: killed_by names no check (name the one it is for)"
        )
    for check in mutant.killed_by:
        if check in FIXTURE_CHECKS:
            raise MutantError(
                f"mutant {mutant.name}: killed_by names {check!r}, which fails on any byte "
                "that moves, so it proves nothing (name the check the mutant is for)"
            )
        if check.startswith(f"{TOPOLOGY}:") and check != f"{TOPOLOGY}:":
            continue  # a rule's name: checked against the rules file (check_rule_names)
        if check not in KILLING_CHECKS:
            raise MutantError(
                f"mutant {mutant.name}: killed_by names {check!r}, which is no check "
                f"(checks: {', '.join(sorted(KILLING_CHECKS))})"
            )


def check_rule_names(rules_file: Path, mutants: Iterable[Mutant]) -> None:
    """Raise :class:`MutantError` for a ``topology:<rule>`` naming no rule of ``rules_file``."""
    wanted = [(m.name, c) for m in mutants for c in m.killed_by if c.startswith(f"{TOPOLOGY}:")]
    if not wanted:
        return
    try:
        names = {r.name for r in load_rules(rules_file).rules}
    except WendyLlmError as exc:
        raise MutantError(f"the rules file the mutants name rules of does not load: {exc}") from exc
    for mutant, check in wanted:
        if check.split(":", 1)[1] not in names:
            raise MutantError(
                f"mutant {mutant}: killed_by names {check!r}, but {rules_file} has no such "
                f"rule (rules: {', '.join(sorted(names))})"
            )


def check_mutants(template_dir: Path, mutants: Iterable[Mutant]) -> None:
    """Check every mutant's ``killed_by`` and apply it to a scratch copy, raising
    :class:`MutantError` for the first that is wrong (no checks run)."""
    with tempfile.TemporaryDirectory(prefix="wendy-mutants-") as scratch:
        for mutant in mutants:
            check_killed_by(mutant)
            copy = Path(scratch) / mutant.name
            shutil.copytree(template_dir, copy)
            apply_edits(copy, mutant)


# --- the suite ------------------------------------------------------------------


@dataclass(frozen=True)
class ExpectedWarning:
    """A warning the control may have: its check, its file, how its message starts."""

    check: str
    file: str
    message: str


_NOT_READ = "(wendy.json is not read on the compose path"

#: The warnings the control may have, each pinned to its check, file and
#: message.  At the Wendy CLI revision of the spec a device does not read
#: ``wendy.json`` on the compose path (the file, with its backend's gpu
#: entitlement, its readiness check and its post-start hook, is lost) and
#: never runs the vLLM ``healthcheck``; the template README lists exactly
#: these per pick (issue 14 item 7, ``tests/templates/test_llm_device.py``).  Anything
#: else fails the control: a compose ``environment`` the image does not
#: carry, any other device warning, any warning of another check.
EXPECTED_WARNINGS: Final[tuple[ExpectedWarning, ...]] = (
    ExpectedWarning(
        "device",
        "wendy.json",
        "wendy.json: not read on the compose path (wendy run deploys docker-compose.yml)",
    ),
    *(
        ExpectedWarning(
            "device",
            "wendy.json",
            f"services.{backend}.entitlements[0]: the gpu entitlement of service {backend} "
            f"is lost on a device {_NOT_READ}",
        )
        for backend in ("ollama", "vllm")
    ),
    ExpectedWarning(
        "device", "wendy.json", f"readiness: the readiness check is lost on a device {_NOT_READ}"
    ),
    ExpectedWarning(
        "device", "wendy.json", f"hooks: the post-start hook is lost on a device {_NOT_READ}"
    ),
    ExpectedWarning(
        "device",
        "docker-compose.yml",
        "services.vllm.healthcheck: ignored on a device: only Docker Compose runs it",
    ),
    # The device's 64 MiB /dev/shm for vLLM (Wendy run facts, section 9; issue 32),
    # which the README explains after its list: at the entry script's line that runs
    # vLLM (issue 37).
    ExpectedWarning(
        "device", "vllm/entrypoint.sh", "service vllm runs vLLM, and its /dev/shm is 64 MiB"
    ),
)


def expected_warning(check: str, file: str | None, message: str) -> bool:
    """Is this a warning the control may have (:data:`EXPECTED_WARNINGS`)?"""
    return any(
        (w.check, w.file) == (check, file) and message.startswith(w.message)
        for w in EXPECTED_WARNINGS
    )


def _check_failures(
    templates_dir: Path, golden_dir: Path, template_id: str, *, warnings: bool
) -> list[Failure]:
    """``check``'s errors by check, and its warnings too when ``warnings`` (the
    control must be spotless but for :data:`EXPECTED_WARNINGS`; a mutant is
    killed only by what fails CI)."""
    report = run_check(templates_dir, templates=[template_id], golden_dir=golden_dir)
    by_check: dict[str, list[str]] = {}
    for result in report.results:
        for finding in result.findings:
            if finding.severity != "error" and (
                not warnings or expected_warning(finding.check, finding.file, finding.message)
            ):
                continue
            where = f"{result.pick or '(template)'}: "
            location = f" [{finding.location}]" if finding.location else ""
            shown = f"{where}{finding.message}{location}"
            by_check.setdefault(result.check, []).append(shown)
            rule = _RULE_FINDING.match(finding.message)
            if result.check == TOPOLOGY and rule is not None:
                by_check.setdefault(f"{TOPOLOGY}:{rule.group(1)}", []).append(shown)
    return [Failure(check, found[0], len(found)) for check, found in by_check.items()]


def entrypoint_failures(scripts_root: Path, behaviours: Sequence[Behaviour]) -> list[Failure]:
    return [
        Failure(f"entrypoint:{r.behaviour.name}", r.problems[0], len(r.problems))
        for r in run_behaviours(scripts_root, behaviours)
        if r.problems
    ]


@dataclass
class _Workspace:
    """The temporary copy: ``templates/<lang>/<name>`` and ``golden``."""

    root: Path
    template_id: str

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def template_dir(self) -> Path:
        return self.templates_dir / self.template_id

    @property
    def golden_dir(self) -> Path:
        return self.root / "golden"


def _suite(work: _Workspace, control_scripts: Mapping[str, bytes] | None) -> list[Failure]:
    """Run every check against the template in ``work``; ``control_scripts``
    (script -> bytes of the unmutated render) limits the entrypoint
    behaviours to changed scripts (None: run them all)."""
    control = control_scripts is None
    failures = _check_failures(
        work.templates_dir, work.golden_dir, work.template_id, warnings=control
    )
    try:
        template = load_template(work.template_dir, id=work.template_id)
    except WendyLlmError:
        return failures  # `check` reports the load failure (as `picker`)
    scripts = work.root / "rendered"
    shutil.rmtree(scripts, ignore_errors=True)
    try:
        render_scripts(template, scripts)
    except WendyLlmError as exc:
        return [*failures, Failure("entrypoint", f"the scripts do not render: {exc}")]
    chosen = [
        b
        for b in BEHAVIOURS
        if control_scripts is None or _read(scripts / b.script) != control_scripts.get(b.script)
    ]
    return failures + entrypoint_failures(scripts, chosen)


def _read(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def run_mutation(
    template_dir: Path,
    golden_dir: Path,
    template_id: str,
    mutants: Sequence[Mutant],
    *,
    on_result: Callable[[MutantResult], None] | None = None,
) -> MutationReport:
    """Run the control and every mutant (see the module docstring).

    Stops after the control when it fails (kills would prove nothing).
    ``on_result`` is called as each mutant finishes (progress output).
    """
    check_mutants(template_dir, mutants)
    check_rule_names(rules_path(golden_dir, template_id), mutants)
    with tempfile.TemporaryDirectory(prefix="wendy-mutation-") as scratch:
        work = _Workspace(Path(scratch), template_id)
        shutil.copytree(golden_dir, work.golden_dir)
        shutil.copytree(template_dir, work.template_dir)
        control = _suite(work, None)
        if control:
            return MutationReport(template_id, tuple(control))
        control_scripts = {b.script: _read(work.root / "rendered" / b.script) for b in BEHAVIOURS}
        known = {k: v for k, v in control_scripts.items() if v is not None}
        results = []
        for mutant in mutants:
            started = time.perf_counter()
            shutil.rmtree(work.template_dir)
            shutil.copytree(template_dir, work.template_dir)
            apply_edits(work.template_dir, mutant)
            failures = _suite(work, known)
            result = MutantResult(mutant, tuple(failures), time.perf_counter() - started)
            results.append(result)
            if on_result is not None:
                on_result(result)
        return MutationReport(template_id, (), tuple(results))
