"""The Go helper a platform wheel ships, used only when it is the one these sources make.

``make wheels`` (tools/platform_wheels.py) cross-compiles the helper for each
platform and puts it in that platform's wheel as ``bin/wendy-helper`` (beside
this module), with ``bin/identity``: the digest of the sources it was built from
(:func:`~.sources.source_digest`), the binary's own SHA-256, its GOOS and
GOARCH and the ``go version`` that built it.  At first use the binary is
taken only if all of these hold on this machine; anything else (no binary, a
changed source, a truncated or replaced binary, another platform's wheel)
falls back to building from source, as a pure wheel or the sdist does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from wendy_llm.engine.helper.sources import (
    HELPER_SOURCE_DIR,
    helper_sources,
    sha256_hex,
    source_digest,
)
from wendy_llm.errors import ToolchainError

SHIPPED_DIR = Path(__file__).resolve().parent / "bin"
BINARY_NAME = "wendy-helper"
IDENTITY_NAME = "identity"

#: ``os.uname().machine`` as Go names the architecture.
_GOARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}


def this_platform() -> tuple[str, str]:
    """This machine as Go names it: (GOOS, GOARCH); the raw names when Go has none."""
    machine = os.uname().machine
    return sys.platform, _GOARCH.get(machine.lower(), machine)


def identity_text(
    sources: Mapping[str, bytes], binary: bytes, goos: str, goarch: str, go_version: str
) -> str:
    """The ``identity`` file of a helper built from ``sources`` for ``goos``/``goarch``."""
    fields = {
        "source": source_digest(sources),
        "sha256": sha256_hex([binary]),
        "goos": goos,
        "goarch": goarch,
        "go": go_version.strip(),
    }
    return "".join(f"{key}={value}\n" for key, value in fields.items())


def parse_identity(text: str) -> dict[str, str]:
    """The ``key=value`` lines of an ``identity`` file."""
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def mismatch(shipped_dir: Path = SHIPPED_DIR, source_dir: Path = HELPER_SOURCE_DIR) -> str | None:
    """Why the shipped helper in ``shipped_dir`` must not be used here, or None if it may."""
    binary = shipped_dir / BINARY_NAME
    try:
        recorded = parse_identity((shipped_dir / IDENTITY_NAME).read_text(encoding="utf-8"))
        content = binary.read_bytes()
    except OSError as exc:
        return f"no shipped helper ({exc.strerror}: {exc.filename})"
    goos, goarch = this_platform()
    shipped_for = f"{recorded.get('goos')}/{recorded.get('goarch')}"
    if shipped_for != f"{goos}/{goarch}":
        return f"shipped for {shipped_for}, this machine is {goos}/{goarch}"
    try:
        sources = source_digest(helper_sources(source_dir))
    except ToolchainError as exc:
        return str(exc)
    if recorded.get("source") != sources:
        return f"built from other sources ({recorded.get('source')}, these are {sources})"
    if recorded.get("sha256") != sha256_hex([content]):
        return f"{binary} is not the binary that was built (its SHA-256 differs)"
    if not os.access(binary, os.X_OK):
        return f"{binary} is not executable"
    return None
