"""The one reader: only regular files inside the repository, each within a size limit."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from wendy_llm import options
from wendy_llm.errors import WendyLlmError
from wendy_llm.safe_read import (
    ReadRefused,
    confined_dir,
    confined_target,
    read_bytes,
    read_text,
    scan_dir,
)

CANARY = "canary-3f9a1c: a host secret"


@pytest.fixture
def host(tmp_path: Path) -> Path:
    """A folder outside the repository, holding a canary file."""
    outside = tmp_path / "host"
    outside.mkdir()
    (outside / "secret.txt").write_text(CANARY)
    return outside


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    inside = tmp_path / "repo"
    (inside / "golden").mkdir(parents=True)
    (inside / "golden" / "rules.yaml").write_text("rules: []\n")
    return inside


def test_a_regular_file_inside_is_read(repo: Path) -> None:
    assert read_bytes(repo / "golden" / "rules.yaml", repo) == b"rules: []\n"
    assert read_text(repo / "golden" / "rules.yaml") == "rules: []\n"


def test_a_link_inside_the_repository_is_followed(repo: Path) -> None:
    (repo / "alias.yaml").symlink_to("golden/rules.yaml")
    assert read_bytes(repo / "alias.yaml", repo) == b"rules: []\n"


def test_a_file_linked_out_is_refused_naming_the_link(repo: Path, host: Path) -> None:
    (repo / "rules.yaml").symlink_to(host / "secret.txt")
    with pytest.raises(ReadRefused) as info:
        read_bytes(repo / "rules.yaml", repo, shown="rules.yaml")
    assert isinstance(info.value, WendyLlmError)
    assert str(info.value) == (
        f"rules.yaml: rules.yaml is a symbolic link to {host / 'secret.txt'}, outside the "
        "repository: the gate reads only files inside the repository it judges"
    )
    assert info.value.file == "rules.yaml"
    assert CANARY not in str(info.value)


def test_a_folder_linked_out_is_named_whatever_file_is_read(repo: Path, host: Path) -> None:
    (repo / "templates").symlink_to(host, target_is_directory=True)
    with pytest.raises(ReadRefused, match=r"templates is a symbolic link to .*host, outside"):
        read_bytes(repo / "templates" / "secret.txt", repo)
    with pytest.raises(ReadRefused, match=r"templates is a symbolic link"):
        confined_dir(repo / "templates", repo)
    with pytest.raises(ReadRefused, match=r"templates is a symbolic link"):
        scan_dir(repo / "templates", repo)


def test_without_a_root_the_file_stays_in_its_own_folder(repo: Path, host: Path) -> None:
    (repo / "wendy-llm.toml").symlink_to(host / "secret.txt")
    with pytest.raises(ReadRefused, match="outside the repository"):
        read_bytes(repo / "wendy-llm.toml")


def test_a_fifo_is_refused_without_hanging(repo: Path) -> None:
    os.mkfifo(repo / "pipe")
    with pytest.raises(ReadRefused, match=r"a named pipe \(FIFO\), not a regular file"):
        read_bytes(repo / "pipe", repo)


def test_a_device_is_refused_before_it_is_read(repo: Path) -> None:
    (repo / "zero").symlink_to("/dev/zero")  # outside, and a device: the link is named
    with pytest.raises(ReadRefused, match="zero is a symbolic link to /dev/zero"):
        read_bytes(repo / "zero", repo)
    with pytest.raises(ReadRefused, match="a character device, not a regular file"):
        read_bytes(Path("/dev/zero"), Path("/dev"))


def test_a_socket_and_a_directory_are_refused(repo: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(repo / "s"))
        with pytest.raises(ReadRefused, match="a socket, not a regular file"):
            read_bytes(repo / "s", repo)
    finally:
        server.close()
    with pytest.raises(ReadRefused, match="a directory, not a regular file"):
        read_bytes(repo / "golden", repo)


def test_a_file_over_the_limit_is_refused_unread(repo: Path) -> None:
    (repo / "big").write_bytes(b"x" * 101)
    assert read_bytes(repo / "big", repo, limit=101) == b"x" * 101
    with pytest.raises(ReadRefused, match="larger than 100 bytes"):
        read_bytes(repo / "big", repo, limit=100)
    assert options.READ_MAX_BYTES >= options.RENDER_MAX_OUTPUT_BYTES


def test_a_missing_file_is_file_not_found(repo: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_bytes(repo / "nothing", repo)


def test_a_write_target_linked_out_is_refused(repo: Path, host: Path) -> None:
    (repo / "golden" / "python").symlink_to(host, target_is_directory=True)
    with pytest.raises(ReadRefused, match="python is a symbolic link"):
        confined_target(repo / "golden" / "python" / "llm", repo / "golden")
    (repo / "golden" / "llm").symlink_to(repo / "golden" / "sub-none")
    with pytest.raises(ReadRefused, match="nothing is written through a link"):
        confined_target(repo / "golden" / "llm", repo / "golden")
    assert confined_target(repo / "golden" / "new", repo / "golden") == repo / "golden" / "new"
