"""A local wheelhouse and fresh virtual environments installed from it, offline.

Installing from a wheelhouse (``pip install --no-index --find-links``) keeps
the network out of what the wheel tests and the cold-path benchmark measure;
the wheelhouse itself is filled once through the index (``pip wheel``).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]


def fill(house: Path, requirements: Sequence[str]) -> None:
    """Put ``requirements`` (wheel files or names) and all they depend on, as
    wheels, into ``house`` (through the index: the only step that may reach it)."""
    house.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [*PIP, "wheel", "--wheel-dir", str(house), *requirements],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"pip wheel {' '.join(requirements)} failed:\n{done.stderr}")


def create_venv(path: Path) -> Path:
    """An empty virtual environment (no pip: the outer pip installs into it); its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    return path / "bin" / "python"


def install(python: Path, house: Path, requirements: Sequence[str]) -> None:
    """Install ``requirements`` into ``python``'s environment from ``house`` only."""
    command = [*PIP, "--python", str(python), "install", "--no-index", "--find-links", str(house)]
    done = subprocess.run([*command, *requirements], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"installing {' '.join(requirements)} failed:\n{done.stderr}")


def tree_size(path: Path) -> int:
    """Bytes of every file under ``path`` (links not followed)."""
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())
