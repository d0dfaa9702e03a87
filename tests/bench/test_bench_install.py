"""``bench/bench_install.py``'s cold machine: no Go to be found, empty caches,
and the environment's size told by package."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from bench_install import _environment, largest_packages


def test_the_cold_environment_has_no_go_and_empty_caches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WENDY_LLM_GO", "/usr/local/go/bin/go")
    monkeypatch.setenv("GOROOT", "/usr/local/go")
    monkeypatch.setenv("GOFLAGS", "-mod=mod")
    env = _environment(tmp_path / "cache")
    assert shutil.which("go", path=env["PATH"]) is None
    assert not {"WENDY_LLM_GO", "GOROOT", "GOFLAGS"} & set(env)
    for cache in ("WENDY_LLM_CACHE", "GOCACHE", "XDG_CACHE_HOME"):
        assert Path(env[cache]).is_relative_to(tmp_path) and not Path(env[cache]).exists()
    assert env["HOME"] == os.environ["HOME"]


def test_the_largest_packages_are_named_biggest_first(tmp_path: Path) -> None:
    site = tmp_path / "lib" / "python3.11" / "site-packages"
    (site / "big").mkdir(parents=True)
    (site / "big" / "blob").write_bytes(b"x" * 3_000_000)
    (site / "small.py").write_bytes(b"x" * 1_000_000)
    (site / "tiny.py").write_bytes(b"x")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "docker-compose").write_bytes(b"x" * 2_000_000)
    assert largest_packages(tmp_path, count=3) == (
        "big 3.0 MB, bin/docker-compose 2.0 MB, small.py 1.0 MB"
    )
