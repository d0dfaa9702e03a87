"""The suite under load: ``python3 bench/loaded_suite.py [--runs N]``.

Reproduces the acceptance condition of "tests that hold on a loaded
machine": on a fresh clone of this repository (its committed ``HEAD``) run
``make check``, then run the whole suite (``make test``: lint and pytest)
``--runs`` times (default 5) while one CPU-bound process per core
(``--load-per-core``) spins beside it, and report each run's verdict, its
pytest summary and its wall time.  The load is ``python3 -c 'while True:
pass'`` per slot, started before the first run and killed (each by its
process id) when the script ends, however it ends.

It is not part of ``make bench`` (a run takes minutes) nor of the tests.
Exit status: 0 when ``make check`` and every run passed, 1 otherwise, 2 for
bad usage.  ``--here`` runs in the source checkout instead of a clone;
``--keep`` keeps the clone and the logs (the logs are always kept when a run
fails).  ``--check-command`` / ``--suite-command`` replace ``make check`` /
``make test`` (shell commands run in the clone).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

REPO = Path(__file__).resolve().parent.parent
BUSY_LOOP = "while True: pass"
# The last line pytest prints: "== 3 failed, 812 passed, 2 skipped in 201.4s ==".
_SUMMARY = re.compile(r"^=*\s*(\d+ (?:passed|failed|error).*? in [0-9.]+s.*?)\s*=*$")
_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)")


@dataclass(frozen=True)
class Step:
    name: str
    status: int
    seconds: float
    log: Path

    @property
    def passed(self) -> bool:
        return self.status == 0

    def summary(self) -> str:
        """Pytest's summary line and the failed tests, read from the log."""
        text = self.log.read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        found = [m.group(1) for m in map(_SUMMARY.match, lines) if m]
        failed = [m.group(1) for m in map(_FAILED.match, lines) if m]
        parts = [found[-1] if found else f"exit status {self.status}"]
        parts += [f"  failed: {name}" for name in failed]
        return "\n".join(parts)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bench/loaded_suite.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--runs", type=_count, default=5, metavar="N", help="suite runs (default 5)"
    )
    parser.add_argument(
        "--load-per-core",
        type=_count,
        default=1,
        metavar="K",
        help="CPU-bound processes per core beside the suite (default 1; 0: no load)",
    )
    parser.add_argument(
        "--source", type=Path, default=REPO, help="the repository to clone (default: this one)"
    )
    parser.add_argument("--here", action="store_true", help="run in --source, not in a clone")
    parser.add_argument("--keep", action="store_true", help="keep the clone and the logs")
    parser.add_argument(
        "--check-command", default="make check", metavar="CMD", help="(default: make check)"
    )
    parser.add_argument(
        "--suite-command", default="make test", metavar="CMD", help="(default: make test)"
    )
    return parser


def cores() -> int:
    return len(os.sched_getaffinity(0))


class _Interrupts:
    """SIGINT, SIGTERM and SIGHUP end the script through its ``finally``
    blocks (as ``KeyboardInterrupt``), but never between starting a process
    and taking note of it: there they wait until the note is taken, so no
    process is left behind unknown."""

    deferring = False
    pending = False

    @classmethod
    def install(cls) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, cls._handle)

    @classmethod
    def _handle(cls, signum: int, frame: FrameType | None) -> None:
        if cls.deferring:
            cls.pending = True
            return
        raise KeyboardInterrupt

    @classmethod
    @contextmanager
    def deferred(cls) -> Iterator[None]:
        cls.deferring = True
        try:
            yield
        finally:
            cls.deferring = False
            if cls.pending:
                cls.pending = False
                raise KeyboardInterrupt


@contextmanager
def cpu_load(processes: int) -> Iterator[list[int]]:
    """``processes`` busy loops for the duration of the block; their ids."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(processes):
            with _Interrupts.deferred():
                started.append(subprocess.Popen([sys.executable, "-c", BUSY_LOOP]))
        yield [p.pid for p in started]
    finally:
        for proc in started:
            proc.kill()
        for proc in started:
            proc.wait()


def run_step(name: str, command: str, cwd: Path, log: Path) -> Step:
    """Run ``command`` in ``cwd`` with its output in ``log``; print the verdict."""
    print(f"{name}: {command} ...", flush=True)
    started = time.monotonic()
    proc: subprocess.Popen[bytes] | None = None
    with log.open("wb") as sink:
        try:
            with _Interrupts.deferred():
                # Its own process group, so an interruption stops make and pytest too.
                proc = subprocess.Popen(
                    command,
                    shell=True,
                    cwd=cwd,
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            status = proc.wait()
        except BaseException:
            if proc is not None:
                with contextlib.suppress(ProcessLookupError):  # the whole group already ended
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            raise
    step = Step(name, status, time.monotonic() - started, log)
    verdict = "PASS" if step.passed else "FAIL"
    print(f"{name}: {verdict} in {step.seconds:.1f} s; {step.summary()}", flush=True)
    return step


def _clone(source: Path, into: Path) -> Path:
    target = into / "clone"
    subprocess.run(
        ["git", "clone", "--quiet", "--no-hardlinks", str(source), str(target)], check=True
    )
    head = subprocess.run(
        ["git", "-C", str(target), "log", "-1", "--format=%h %s"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"fresh clone of {source} at {head}: {target}", flush=True)
    return target


def report(check: Step, runs: Sequence[Step], load: int) -> bool:
    passed = [r for r in runs if r.passed]
    print(f"\n{check.name}: {'PASS' if check.passed else 'FAIL'} ({check.seconds:.1f} s)")
    print(f"suite under load ({load} busy process(es), {cores()} core(s)):")
    for run in runs:
        print(f"  {run.name}: {'PASS' if run.passed else 'FAIL'} {run.seconds:7.1f} s")
    if runs:
        seconds = [r.seconds for r in runs]
        print(
            f"passed {len(passed)}/{len(runs)}; wall time min {min(seconds):.1f} s, "
            f"median {statistics.median(seconds):.1f} s, max {max(seconds):.1f} s"
        )
    return check.passed and len(passed) == len(runs)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    _Interrupts.install()
    work = Path(tempfile.mkdtemp(prefix="wendy-loaded-suite-"))
    ok = False
    try:
        tree = args.source.resolve() if args.here else _clone(args.source, work)
        logs = work / "logs"
        logs.mkdir()
        check = run_step("make check", args.check_command, tree, logs / "check.log")
        load = cores() * args.load_per_core
        runs: list[Step] = []
        with cpu_load(load) as pids:
            print(f"load: {load} busy process(es), pids {' '.join(map(str, pids))}", flush=True)
            for index in range(1, args.runs + 1):
                log = logs / f"run-{index}.log"
                runs.append(run_step(f"run {index}/{args.runs}", args.suite_command, tree, log))
        ok = report(check, runs, load)
    except KeyboardInterrupt:
        print("interrupted; the load is stopped", file=sys.stderr)
        return 130
    except subprocess.CalledProcessError as exc:
        print(f"loaded_suite: error: {exc}", file=sys.stderr)
        return 2
    finally:
        if args.keep or not ok:
            print(f"kept: {work}", flush=True)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
