"""``python -m harness.mutants`` (``make mutants``): proof that the suite bites.

Applies each known regression of the python/llm template
(:data:`harness.catalogue.MUTANTS`) to a temporary copy and runs the whole
suite against it (see :mod:`harness.mutation`); every mutant must be killed
by each check it names (never the golden fixtures alone).  Prints one line
per mutant with the checks that failed, and the kill rate.

Exit status: 0 every mutant killed by the checks it names; 1 a mutant
survived, or was caught only by other checks (the check it names is blind
to it); 2 bad usage, a mutant that no longer applies to the template or
names no valid check, or a control run (the unmutated template) that does
not pass.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from harness.catalogue import MUTANTS, TEMPLATE_ID
from harness.mutation import Mutant, MutantError, MutantResult, MutationReport, run_mutation
from wendy_llm.errors import WendyLlmError
from wendy_llm.repo.layout import find_layout

EPILOG = """\
examples:
  python -m harness.mutants                 # every mutant (make mutants)
  python -m harness.mutants --list          # what each mutant breaks
  python -m harness.mutants --only drop-trim-marker --only no-retry-pause -v

A mutant is killed when every check it names fails (KILLED); caught only
by other checks, it is MISSED: the check it exists for is blind to it.
The golden fixtures never kill (`wendy-llm golden --update` would make
them agree with it). The control run (the unmutated template) must pass
every check first.
"""


def select(names: Sequence[str]) -> list[Mutant]:
    """The mutants named, in catalogue order (all when ``names`` is empty)."""
    if not names:
        return list(MUTANTS)
    known = {m.name for m in MUTANTS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise MutantError(
            f"no mutant {', '.join(unknown)} (mutants: {', '.join(m.name for m in MUTANTS)})"
        )
    return [m for m in MUTANTS if m.name in names]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m harness.mutants",
        description=(
            "Apply known regressions to a copy of the python/llm template and "
            "check that the suite fails for each."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--only", action="append", default=[], metavar="NAME", help="run this mutant (repeatable)"
    )
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument(
        "--templates-dir", type=Path, help="the templates directory (default: ./templates)"
    )
    parser.add_argument(
        "--golden-dir", type=Path, help="the golden directory (default: next to the templates)"
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="show each failing check's first problem"
    )
    return parser


def _first_line(message: str, limit: int = 240) -> str:
    line = message.split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 3] + "..."


def format_result(result: MutantResult, *, verbose: bool) -> list[str]:
    mutant = result.mutant
    checks = ", ".join(f.check for f in result.failures) or "nothing failed"
    if result.killed:
        status = "KILLED  "
    elif result.killers:
        status = "MISSED  "
        checks += f" (not {', '.join(result.missed_by)}: blind to it)"
    elif result.failures:
        status = "SURVIVED"
        checks += " (only the golden fixtures: not a kill)"
    else:
        status = "SURVIVED"
    lines = [f"  {status} {mutant.name:<36} {result.seconds:5.1f}s  {checks}"]
    if verbose or not result.killed:
        lines.append(f"           {mutant.description} [killed by {', '.join(mutant.killed_by)}]")
    if verbose:
        lines += [f"           {f.check}: {_first_line(f.message)}" for f in result.failures]
    return lines


def format_report(report: MutationReport) -> list[str]:
    if report.control:
        lines = [f"control run FAILED: the unmutated {report.template_id} does not pass:"]
        lines += [f"  {f.check}: {f.message} ({f.count} problem(s))" for f in report.control]
        return [*lines, "fix the template (or the checks) first: a kill would prove nothing"]
    total = len(report.results)
    rate = 100 * report.killed / total if total else 100.0
    lines = [f"kill rate: {report.killed}/{total} ({rate:.0f}%)"]
    missed = [r.mutant.name for r in report.results if r.killers and not r.killed]
    if missed:
        lines.append(
            f"caught only by other checks than they name: {', '.join(missed)} "
            "(the named check is blind: fix it, or name the check the mutant is for)"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        mutants = select(args.only)
        if args.list:
            for mutant in mutants:
                files = sorted({e.file for e in mutant.edits})
                print(
                    f"{mutant.name:<36} {mutant.description} [{', '.join(files)}] "
                    f"killed by {', '.join(mutant.killed_by)}"
                )
            return 0
        where = find_layout(args.templates_dir, args.golden_dir)
        templates_dir, golden_dir = where.templates_root, where.golden_dir
        print(
            f"mutation check of {TEMPLATE_ID}: {len(mutants)} mutant(s); "
            "control run (the unmutated template) first",
            flush=True,
        )
        started = time.perf_counter()
        report = run_mutation(
            templates_dir / TEMPLATE_ID,
            golden_dir,
            TEMPLATE_ID,
            mutants,
            on_result=lambda r: print(
                "\n".join(format_result(r, verbose=args.verbose)), flush=True
            ),
        )
    except WendyLlmError as exc:
        print(f"harness.mutants: error: {exc}", file=sys.stderr)
        return 2
    for line in format_report(report):
        print(line)
    print(f"({time.perf_counter() - started:.0f}s)")
    if report.control:
        return 2
    return 0 if report.all_killed else 1


if __name__ == "__main__":
    sys.exit(main())
