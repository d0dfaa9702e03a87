"""Mutation testing for a template: apply a known regression, run the suite, see it fail.

A :class:`Mutant` is data: edits (file, search string, replacement), each
search string required to occur exactly once in the pristine template, so a
mutant can never silently turn into a no-op when the template changes.

:func:`run_mutation` copies the template, its golden directory (rules
file, fixtures, stored baseline) into a temporary tree, then runs the suite
against the unmutated copy (the *control*, which must pass, or a kill
proves nothing) and against each mutant.  The suite is:

- ``wendy-llm check`` (:func:`wendy_llm.validate.run.run_check`): render, compose,
  wendy-json, shell, dockerfile, topology, picker, lint, golden and
  baseline (the picks the stored baseline has, canonical inputs), each a
  check of its own;
- ``baseline:inputs``: wider than ``check``'s ``baseline``, so kept here:
  every pick that is not a sentinel, the new ones too (the baseline renders
  their answers as ``wendy init`` would), renders the gated files
  (``gate.files`` of the rules file) byte for byte as the stored baseline
  template does, for several inputs (:data:`BASELINE_INPUTS`), so a
  hard-coded default cannot pass;
- ``entrypoint:<behaviour>``: the entrypoint behaviours
  (:mod:`harness.behaviours`), run for the scripts the mutant changes
  (a behaviour's outcome depends on its rendered script only).

A mutant is *killed* when a check other than ``golden`` fails.  The golden
fixtures fail on any byte that moves, and ``wendy-llm golden --update``
makes them agree with the mutant again, so a kill by them alone would show
nothing about the semantic checks; their failures are still reported.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from harness.behaviours import BEHAVIOURS, Behaviour, render_scripts, run_behaviours
from wendy_llm.errors import MutantError, WendyLlmError
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import Template, load_template
from wendy_llm.repo.layout import baseline_dir, rules_path
from wendy_llm.validate.rules import Rules, load_rules
from wendy_llm.validate.run import run_check

#: The checks whose failure alone does not kill a mutant (see the module docstring).
FIXTURE_CHECKS: Final = frozenset({"golden"})

#: The id of this module's own baseline comparison (``check``'s is ``baseline``).
BASELINE_INPUTS_CHECK: Final = "baseline:inputs"

#: (app id, overrides) the baseline comparison renders every pick with: the
#: canonical inputs, and a second set where every input differs from them
#: (PORT as ``--var`` gives it), so a hard-coded default cannot pass.
BASELINE_INPUTS: Final[tuple[tuple[str, Mapping[str, str]], ...]] = (
    (CANONICAL_APP_ID, {}),
    ("other_app.2", {"PORT": "3000"}),
)


@dataclass(frozen=True)
class Edit:
    """Replace the one occurrence of ``search`` in ``file`` (template-relative)."""

    file: str
    search: str
    replace: str


@dataclass(frozen=True)
class Mutant:
    """A known regression: what it breaks (``description``) and how (``edits``)."""

    name: str
    description: str
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
        """The failing checks that kill (everything but the fixture checks)."""
        return tuple(f.check for f in self.failures if f.check not in FIXTURE_CHECKS)

    @property
    def killed(self) -> bool:
        return bool(self.killers)


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
    """Apply ``mutant`` to the template copy at ``root`` (in place).

    Raises :class:`MutantError` when a search string does not occur exactly
    once in its file, or the file does not exist.
    """
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


def check_mutants(template_dir: Path, mutants: Iterable[Mutant]) -> None:
    """Apply every mutant to a scratch copy, raising :class:`MutantError` for
    the first that does not apply (no checks run)."""
    with tempfile.TemporaryDirectory(prefix="wendy-mutants-") as scratch:
        for mutant in mutants:
            copy = Path(scratch) / mutant.name
            shutil.copytree(template_dir, copy)
            apply_edits(copy, mutant)


# --- the suite ------------------------------------------------------------------


#: The warnings the control may have: check -> message prefixes.  ``device``:
#: at the Wendy CLI revision of the spec a device does not read ``wendy.json``
#: on the compose path (its gpu entitlement, readiness and hook are lost) and
#: ignores ``healthcheck``; the template README lists exactly these (issue 14
#: item 7, ``tests/test_llm_device.py``).  Anything else, e.g. a compose
#: ``environment`` that the image does not carry, fails the control.
EXPECTED_WARNINGS: Final[Mapping[str, tuple[str, ...]]] = {
    "device": (
        "wendy.json",
        "services.vllm.entitlements",
        "services.ollama.entitlements",
        "readiness:",
        "hooks:",
        "services.vllm.healthcheck:",
    ),
}


def expected_warning(check: str, message: str) -> bool:
    """Is this a warning the control may have (:data:`EXPECTED_WARNINGS`)?"""
    return message.startswith(EXPECTED_WARNINGS.get(check, ()))


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
                not warnings or expected_warning(finding.check, finding.message)
            ):
                continue
            where = f"{result.pick or '(template)'}: "
            location = f" [{finding.location}]" if finding.location else ""
            by_check.setdefault(result.check, []).append(f"{where}{finding.message}{location}")
    return [Failure(check, found[0], len(found)) for check, found in by_check.items()]


def _first_difference(old: bytes, new: bytes) -> str:
    old_lines, new_lines = old.splitlines(), new.splitlines()
    for number, (a, b) in enumerate(zip(old_lines, new_lines, strict=False), start=1):
        if a != b:
            return f"line {number}: baseline {a!r}, template {b!r}"
    number = min(len(old_lines), len(new_lines)) + 1
    if len(old_lines) != len(new_lines):
        return f"line {number}: baseline has {len(old_lines)} lines, template {len(new_lines)}"
    return "line endings differ"


def baseline_failures(template: Template, baseline: Template, rules: Rules) -> list[Failure]:
    """Every non-sentinel pick renders the gated files as the baseline does."""
    gate = rules.gate_files or ("docker-compose.yml", "wendy.json")
    problems: list[str] = []
    for pick in template.picks():
        if any(pick.answers.get(q) in s.values for q, s in rules.sentinels.items()):
            continue
        for app_id, extra in BASELINE_INPUTS:
            answers = {**pick.answers, **extra}
            inputs = ", ".join([f"app id {app_id}", *(f"{k}={v}" for k, v in extra.items())])
            try:
                ours = template.render(app_id, answers)
                # The baseline predates some options: render it as `wendy init` would.
                theirs = baseline.render(app_id, answers, strict=False)
            except WendyLlmError as exc:
                problems.append(f"{pick.slug} ({inputs}): does not render: {exc}")
                continue
            for path in gate:
                old, new = theirs.get(path), ours.get(path)
                if old != new:
                    detail = (
                        f"missing from the {'baseline' if old is None else 'template'} render"
                        if old is None or new is None
                        else _first_difference(old, new)
                    )
                    problems.append(f"{pick.slug} ({inputs}): {path} differs, {detail}")
    return [Failure(BASELINE_INPUTS_CHECK, problems[0], len(problems))] if problems else []


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


def _suite(
    work: _Workspace,
    baseline: Template,
    rules: Rules,
    control_scripts: Mapping[str, bytes] | None,
) -> list[Failure]:
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
    failures += baseline_failures(template, baseline, rules)
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
    rules = load_rules(rules_path(golden_dir, template_id))
    baseline = load_template(baseline_dir(golden_dir, template_id))
    with tempfile.TemporaryDirectory(prefix="wendy-mutation-") as scratch:
        work = _Workspace(Path(scratch), template_id)
        shutil.copytree(golden_dir, work.golden_dir)
        shutil.copytree(template_dir, work.template_dir)
        control = _suite(work, baseline, rules, None)
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
            failures = _suite(work, baseline, rules, known)
            result = MutantResult(mutant, tuple(failures), time.perf_counter() - started)
            results.append(result)
            if on_result is not None:
                on_result(result)
        return MutationReport(template_id, (), tuple(results))
