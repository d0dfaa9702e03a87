"""wendy-llm's build backend: setuptools, after stamping the exact revision.

Every build (wheel, sdist, editable install) first writes
``wendy_llm/VERSION`` (:mod:`wendy_llm.revision` reads it): the release named in
pyproject.toml (``[tool.wendy-llm] release``), and, between releases, the
commit it was built from as a PEP 440 local label, ``0.1.0+g<12 hex>``, with
``.dirty`` when tracked files differ from that commit.  pyproject.toml takes
the package's version from that file, so the metadata, ``wendy-llm
--version``, ``wendy_llm.__version__``, the JSON reports and the SARIF driver
all name one revision.  Built where there is no git work tree of this
project (an unpacked sdist), the stamp the sdist carries is kept; with
neither (a tarball of the repository, as GitHub hands a remote action), the
version names the source itself, ``0.1.0+src.<12 hex>``: a digest of every
file the package is built from, so two builds of the same files say the
same and any other source says otherwise.

``python tools/wendy_backend.py`` rewrites the stamp of the work tree (``make
install`` runs it, so an editable install names the commit checked out now).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools  # type: ignore[import-untyped]

# Every hook is setuptools' own; those below stamp the revision first.
from setuptools.build_meta import *  # type: ignore[import-untyped]  # noqa: F403

STAMP = Path("wendy_llm") / "VERSION"


def _git(root: Path, *args: str) -> str | None:
    """``git args`` in ``root``: its output, or None where git fails or is missing."""
    try:
        done = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def release(root: Path) -> str:
    """The release pyproject.toml names (``[tool.wendy-llm] release``)."""
    with (root / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["tool"]["wendy-llm"]["release"])


def revision_version(root: Path) -> str | None:
    """The version naming the commit checked out in ``root``, or None when
    ``root`` is not the top of a git work tree (an unpacked sdist)."""
    top = _git(root, "rev-parse", "--show-toplevel")
    if top is None or Path(top).resolve() != root.resolve():
        return None
    commit = _git(root, "rev-parse", "--short=12", "HEAD")
    if not commit:
        return None
    base = release(root)
    dirty = bool(_git(root, "status", "--porcelain", "--untracked-files=no"))
    tagged = _git(root, "tag", "--points-at", "HEAD", "--list", f"v{base}") == f"v{base}"
    if tagged and not dirty:
        return base  # the release itself
    return f"{base}+g{commit}" + (".dirty" if dirty else "")


#: What a build reads, relative to the project root (the stamp and the
#: artefacts of earlier builds left out: they are written by builds).
_SOURCES = ("pyproject.toml", "MANIFEST.in", "tools", "wendy_llm")
_BUILT = ("wendy_llm/VERSION", "wendy_llm/engine/helper/bin/")


def source_version(root: Path) -> str:
    """``<release>+src.<12 hex>``: the digest of every source file under ``root``."""
    digest = hashlib.sha256()
    for top in _SOURCES:
        where = root / top
        found = sorted(where.rglob("*")) if where.is_dir() else [where]
        for path in found:
            name = path.relative_to(root).as_posix()
            if not path.is_file() or "__pycache__" in path.parts or name.startswith(_BUILT):
                continue
            digest.update(f"{name}\0{path.stat().st_size}\0".encode())
            digest.update(path.read_bytes())
    return f"{release(root)}+src.{digest.hexdigest()[:12]}"


def write_stamp(root: Path) -> str:
    """Write (when it changed) and return the version of the package in ``root``."""
    stamp = root / STAMP
    version = revision_version(root)
    if version is None:
        if stamp.is_file():
            return stamp.read_text(encoding="utf-8").strip()
        version = source_version(root)
    text = f"{version}\n"
    if not stamp.is_file() or stamp.read_text(encoding="utf-8") != text:
        stamp.write_text(text, encoding="utf-8")
    return version


def get_requires_for_build_wheel(*args: Any, **kwargs: Any) -> list[str]:
    write_stamp(Path.cwd())  # setuptools reads the version (the stamp) to answer
    return list(_setuptools.get_requires_for_build_wheel(*args, **kwargs))


def get_requires_for_build_sdist(*args: Any, **kwargs: Any) -> list[str]:
    write_stamp(Path.cwd())
    return list(_setuptools.get_requires_for_build_sdist(*args, **kwargs))


def get_requires_for_build_editable(*args: Any, **kwargs: Any) -> list[str]:
    write_stamp(Path.cwd())
    return list(_setuptools.get_requires_for_build_editable(*args, **kwargs))


def build_wheel(wheel_directory: str, *args: Any, **kwargs: Any) -> str:
    write_stamp(Path.cwd())
    return str(_setuptools.build_wheel(wheel_directory, *args, **kwargs))


def build_sdist(sdist_directory: str, *args: Any, **kwargs: Any) -> str:
    write_stamp(Path.cwd())
    return str(_setuptools.build_sdist(sdist_directory, *args, **kwargs))


def build_editable(wheel_directory: str, *args: Any, **kwargs: Any) -> str:
    write_stamp(Path.cwd())
    return str(_setuptools.build_editable(wheel_directory, *args, **kwargs))


def prepare_metadata_for_build_wheel(metadata_directory: str, *args: Any, **kwargs: Any) -> str:
    write_stamp(Path.cwd())
    return str(_setuptools.prepare_metadata_for_build_wheel(metadata_directory, *args, **kwargs))


def prepare_metadata_for_build_editable(metadata_directory: str, *args: Any, **kwargs: Any) -> str:
    write_stamp(Path.cwd())
    return str(_setuptools.prepare_metadata_for_build_editable(metadata_directory, *args, **kwargs))


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    sys.stdout.write(write_stamp(root) + "\n")
