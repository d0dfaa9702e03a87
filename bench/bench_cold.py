"""Cold ``check`` beside the tool floor: ``python bench/run.py cold`` (``make bench``).

A CI runner starts cold: no Compose or ShellCheck result kept.  This times
the command ``wendy-llm check --no-cache --quiet`` (interpreter start-up
included; the Go helper built, as after ``make install``) on the bundled
template and on the real-shaped repository (``realshape.py``), and, in the
same run, the floor: one ``docker-compose config`` of each distinct project
the check hands Compose (a project is the whole render Compose sees, so
identical renders are one), run back to back in one process each, as
``check`` runs them.  It prints each side's median wall time and its ratio
to its floor (the target, issue 26: at most 1.5x), and the CPU time both
took (the command's and its tools'): on a machine shared with other work
the wall time measures the share the scheduler gives as much as the work.
Each command runs once unmeasured first, with Python's bytecode cache on
(as an installed wheel has it), so no measured run compiles the package.

``--before BINARY`` also times another ``wendy-llm`` (e.g. main's
``/work/main/.venv/bin/wendy-llm``) on the same repositories, alternately
with this one, so that both are measured under the same load.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from machine import load_average
from realshape import build_real_shaped

from wendy_llm.engine.toolchain import helper_path
from wendy_llm.golden import update_golden
from wendy_llm.repo.layout import find_layout
from wendy_llm.validate.checks.compose import write_tree
from wendy_llm.validate.run import run_check
from wendy_llm.validate.tools.compose_run import isolated_env
from wendy_llm.validate.tools.pool import ToolRunner, available_cores
from wendy_llm.validate.tools.programs import find_tool

REPO = Path(__file__).resolve().parent.parent
TARGET_RATIO = 1.5


class _Recorder(ToolRunner):
    """Keeps every Compose job the check hands its runner (the distinct projects)."""

    def __init__(self) -> None:
        super().__init__()
        self.projects: dict[str, tuple[Mapping[str, bytes], str]] = {}

    def run_all(self, fn: Any, jobs: Sequence[Any]) -> list[tuple[Any, Any]]:
        for job in jobs:
            if hasattr(job, "compose_path"):
                self.projects[job.key] = (job.tree, job.compose_path)
        return super().run_all(fn, jobs)


def distinct_projects(templates: Path) -> list[tuple[Mapping[str, bytes], str]]:
    """Each distinct (project, compose file) a cold ``check`` of ``templates`` runs."""
    recorder = _Recorder()
    with recorder:
        run_check(layout=find_layout(start=templates), cache=False, tool_runner=recorder)
    return list(recorder.projects.values())


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def floor_seconds(projects: Sequence[tuple[Mapping[str, bytes], str]]) -> tuple[float, float]:
    """One ``docker-compose config`` per project, back to back: their wall
    time and their CPU time."""
    binary = find_tool("docker-compose")
    with tempfile.TemporaryDirectory(prefix="wendy-llm-bench-floor-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        env = isolated_env(home)
        dirs = []
        for index, (tree, compose_path) in enumerate(projects):
            out = Path(tmp) / f"p{index}"
            write_tree(tree, out)
            dirs.append((out / compose_path).parent)
        cpu, started = _children_cpu(), time.perf_counter()
        for directory, (_, compose_path) in zip(dirs, projects, strict=True):
            name = Path(compose_path).name
            argv = [str(binary), "-f", name, "config", "--format", "json"]
            subprocess.run(argv, cwd=directory, env=env, capture_output=True, check=False)
        return time.perf_counter() - started, _children_cpu() - cpu


def environment() -> dict[str, str]:
    """The command's environment: Python's bytecode cache on, as an installed
    wheel has its ``.pyc`` files (with ``PYTHONDONTWRITEBYTECODE`` set, every run
    would compile each of the 300 modules a ``check`` imports: a quarter to half
    a second that no installed ``wendy-llm`` pays)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def command_seconds(binary: str, cwd: Path) -> tuple[float, float]:
    """Wall and CPU time (the command's and its tools') of a cold ``check``."""
    cpu, started = _children_cpu(), time.perf_counter()
    subprocess.run(
        [binary, "check", "--no-cache", "--quiet"],
        cwd=cwd,
        env=environment(),
        capture_output=True,
        check=False,
    )
    return time.perf_counter() - started, _children_cpu() - cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_cold", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--before", metavar="BINARY", help="another wendy-llm to time alike")
    args = parser.parse_args(list(argv) if argv is not None else None)
    helper_path()  # a built helper: a cold check is about the tools, not Go
    this = str(Path(sys.executable).parent / "wendy-llm")
    binaries = {"this": this, **({"before": args.before} if args.before else {})}
    with tempfile.TemporaryDirectory(prefix="wendy-llm-bench-cold-") as tmp:
        root = Path(tmp) / "templates-repo"
        fixture = build_real_shaped(root)
        layout = find_layout(start=root)
        update_golden(layout, layout.golden_dir)
        fixture.commit("golden fixtures")
        sides = {"bundled": REPO, "real-shaped": root}
        projects = {name: distinct_projects(where) for name, where in sides.items()}
        for where in sides.values():
            for binary in binaries.values():
                command_seconds(binary, where)  # writes bytecode caches, warms the page cache
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        floors: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
        for _ in range(max(1, args.runs)):
            for name, where in sides.items():
                floors[name].append(floor_seconds(projects[name]))
                for who, binary in binaries.items():
                    times.setdefault((name, who), []).append(command_seconds(binary, where))
        load = load_average()
    status = 0
    print(f"cores available: {available_cores()}; load average after: {load}")
    for name in sides:
        floor, floor_cpu = _medians(floors[name])
        print(
            f"{name}: {len(projects[name])} distinct Compose projects; floor (back to back) "
            f"median {floor:.3f} s, {floor_cpu:.3f} s CPU"
        )
        for who in binaries:
            spent, cpu = _medians(times[(name, who)])
            ratio = spent / floor
            verdict = "within" if ratio <= TARGET_RATIO else "OVER"
            print(
                f"  cold `wendy-llm check --no-cache` ({who}): median {spent:.3f} s, "
                f"{ratio:.2f}x the floor ({verdict} the {TARGET_RATIO:g}x target); "
                f"{cpu:.3f} s CPU, {cpu / floor_cpu:.2f}x the floor's"
            )
            if who == "this" and ratio > TARGET_RATIO:
                status = 1
    return status


def _medians(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)


if __name__ == "__main__":
    sys.exit(main())
