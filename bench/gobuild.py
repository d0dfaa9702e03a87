"""Building the benchmarks' small Go programs (``bench/gorender``, ``bench/pingpong``)
with the toolchain and build cache that build the helper, so both sides of a
comparison are compiled alike."""

from __future__ import annotations

import subprocess
from pathlib import Path

from wendy_llm.engine.toolchain import build_env, cache_dir, find_go


def build_go_program(source: Path, out_dir: Path) -> Path:
    """``go build`` the program in ``source`` into ``out_dir``; returns the binary."""
    go = find_go()
    binary = out_dir / source.name
    env = build_env(go, cache_dir())
    env["GOFLAGS"] = "-mod=mod"  # standard library only: no go.sum
    subprocess.run(
        [str(go), "build", "-o", str(binary), "."],
        cwd=source,
        env=env,
        check=True,
        capture_output=True,
    )
    return binary
