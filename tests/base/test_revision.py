"""Every build names its exact revision (issue 36): the build backend stamps
``0.1.0+g<commit>`` (``.dirty``, or the bare release at its tag) into
``wendy_llm/VERSION``, and ``--version``, ``__version__``, every JSON report
and the SARIF driver say it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import wendy_backend

import wendy_llm
from wendy_llm.reports.github.sarif import check_sarif
from wendy_llm.reports.json import REPORT_KINDS, schema_path, versioned
from wendy_llm.revision import package_version

REPO = Path(__file__).resolve().parents[2]


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_version_names_the_commit_checked_out_here() -> None:
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist)")
    head = git(REPO, "rev-parse", "--short=12", "HEAD")
    version = package_version()
    assert version.startswith(f"0.1.0+g{head}"), (
        f"{version} does not name HEAD {head}: `make install` (or `make revision`) restamps it"
    )
    assert wendy_llm.__version__ == version
    shown = subprocess.run(
        [sys.executable, "-m", "wendy_llm", "--version"], capture_output=True, text=True
    )
    assert shown.stdout == f"wendy-llm {version}\n"


def test_the_sarif_driver_and_every_json_schema_carry_the_revision() -> None:
    driver = check_sarif([])["runs"][0]["tool"]["driver"]  # type: ignore[index]
    assert driver["version"] == package_version()
    for kind in REPORT_KINDS:
        assert versioned(kind, {})["wendy_llm_version"] == package_version()
        schema = json.loads(schema_path(kind).read_text(encoding="utf-8"))
        assert "wendy_llm_version" in schema["properties"], kind


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git work tree shaped as this one for the backend: pyproject.toml names the release."""
    root = tmp_path / "project"
    (root / "wendy_llm").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.wendy-llm]\nrelease = "0.1.0"\n', "utf-8")
    (root / ".gitignore").write_text("/wendy_llm/VERSION\n", "utf-8")
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    return root


def test_between_releases_the_stamp_is_the_commit(project: Path) -> None:
    head = git(project, "rev-parse", "--short=12", "HEAD")
    assert wendy_backend.write_stamp(project) == f"0.1.0+g{head}"
    assert (project / "wendy_llm" / "VERSION").read_text("utf-8") == f"0.1.0+g{head}\n"


def test_a_changed_tracked_file_marks_the_stamp_dirty(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.wendy-llm]\nrelease = "0.1.0"\n# x\n', "utf-8")
    assert wendy_backend.write_stamp(project).endswith(".dirty")


def test_at_the_release_tag_the_stamp_is_the_release(project: Path) -> None:
    git(project, "tag", "v0.1.0")
    assert wendy_backend.write_stamp(project) == "0.1.0"


def test_outside_its_work_tree_the_stamp_it_carries_is_kept(project: Path, tmp_path: Path) -> None:
    sdist = tmp_path / "unpacked"
    (sdist / "wendy_llm").mkdir(parents=True)
    (sdist / "pyproject.toml").write_text('[tool.wendy-llm]\nrelease = "0.1.0"\n', "utf-8")
    # No git, no stamp (a tarball of the repository): the digest of its sources.
    (sdist / "wendy_llm" / "cli.py").write_text("x = 1\n", "utf-8")
    named = wendy_backend.source_version(sdist)
    assert re.fullmatch(r"0\.1\.0\+src\.[0-9a-f]{12}", named)
    (sdist / "wendy_llm" / "cli.py").write_text("x = 2\n", "utf-8")
    assert wendy_backend.source_version(sdist) != named
    assert wendy_backend.write_stamp(sdist) == wendy_backend.source_version(sdist)
    # ... which the stamp it then wrote does not change (a build's own output).
    assert wendy_backend.source_version(sdist) == wendy_backend.write_stamp(sdist)
    (sdist / "wendy_llm" / "VERSION").write_text("0.1.0+gabcdef012345\n", "utf-8")
    assert wendy_backend.write_stamp(sdist) == "0.1.0+gabcdef012345"
    inner = project / "sub"  # inside another work tree, but not its top: not ours
    (inner / "wendy_llm").mkdir(parents=True)
    (inner / "pyproject.toml").write_text('[tool.wendy-llm]\nrelease = "0.1.0"\n', "utf-8")
    assert wendy_backend.revision_version(inner) is None
