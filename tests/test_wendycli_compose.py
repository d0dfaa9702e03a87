"""The compose path's facts as data (wendy-run.md section 3): one case per rule."""

from __future__ import annotations

import pytest

from wendy_llm.wendycli import REVISION
from wendy_llm.wendycli.compose import (
    RESTART,
    SERVICE_KEYS,
    PortMapping,
    VolumeEntry,
    app_name,
    build_args,
    built_image,
    parse_port,
    parse_volume,
    qualify_image,
    restart_policy,
    split_command,
)


def test_the_facts_name_the_cli_revision() -> None:
    assert REVISION.startswith("f919a252")
    assert set(SERVICE_KEYS) == {
        "image",
        "build",
        "command",
        "ports",
        "volumes",
        "depends_on",
        "restart",
        "network_mode",
        "environment",
    }


@pytest.mark.parametrize(
    ("written", "policy"),
    [
        ("always", "unless-stopped"),
        ("unless-stopped", "unless-stopped"),
        ("on-failure", "on-failure"),
        ("no", "never"),
        ("", "never"),
        (None, "never"),  # absent: Go's empty string
        ("on-failure:3", "device-default"),
        ("sometimes", "device-default"),
    ],
)
def test_restart_mapping(written: str | None, policy: str) -> None:
    assert restart_policy(written) == policy
    assert set(RESTART.values()) <= {"unless-stopped", "on-failure", "never"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("serve --port 8000", ("serve", "--port", "8000")),
        ("  a \t b\n c ", ("a", "b", "c")),
        ("""sh -c 'echo "hi there"'""", ("sh", "-c", 'echo "hi there"')),
        ('run "two words" x', ("run", "two words", "x")),
        ('a"b c"d', ("ab cd",)),
        (r"echo a\ b", ("echo", "a\\", "b")),  # no backslash escapes
        (r'echo "a\"b"', ("echo", "a\\b")),  # the backslash does not escape the quote
        ("say 'unterminated rest", ("say", "unterminated rest")),
        ('x "" y', ("x", "y")),
        ("", ()),
    ],
)
def test_command_string_splitting(text: str, words: tuple[str, ...]) -> None:
    assert split_command(text) == words


@pytest.mark.parametrize(
    ("entry", "mapping"),
    [
        ("8080:80", PortMapping(8080, 80)),
        ("11434", PortMapping(11434, 11434)),
        ("+8000:8000", PortMapping(8000, 8000)),
        ("127.0.0.1:8080:80", None),
        ("8080:80/udp", None),
        ("8000-8010:8000-8010", None),
        ("0:80", None),
        ("-1:80", None),
        ("web", None),
        ("", None),
    ],
)
def test_port_entries(entry: str, mapping: PortMapping | None) -> None:
    assert parse_port(entry) == mapping


@pytest.mark.parametrize(
    ("entry", "volume", "kind"),
    [
        ("/data", VolumeEntry(None, "/data", None), "anonymous"),
        ("models:/models", VolumeEntry("models", "/models", None), "named"),
        ("models:/models:ro", VolumeEntry("models", "/models", "ro"), "named"),
        ("./data:/data", VolumeEntry("./data", "/data", None), "bind"),
        ("/srv/data:/data:rw", VolumeEntry("/srv/data", "/data", "rw"), "bind"),
        ("C:\\data:/data", VolumeEntry("C:\\data", "/data", None), "bind"),
        ("C:/data:/data:ro", VolumeEntry("C:/data", "/data", "ro"), "bind"),
        ("~/data:/data", VolumeEntry("~/data", "/data", None), "named"),  # not . or /
    ],
)
def test_volume_entries(entry: str, volume: VolumeEntry, kind: str) -> None:
    assert parse_volume(entry) == volume
    assert volume.kind == kind


@pytest.mark.parametrize(
    ("ref", "qualified"),
    [
        ("python:3.11-slim", "docker.io/library/python:3.11-slim"),
        ("ubuntu", "docker.io/library/ubuntu"),
        ("ollama/ollama:0.32.5", "docker.io/ollama/ollama:0.32.5"),
        ("docker.io/python", "docker.io/library/python"),
        ("index.docker.io/library/python:3", "docker.io/library/python:3"),
        ("nvcr.io/nvidia/vllm:26.06-py3", "nvcr.io/nvidia/vllm:26.06-py3"),
        ("localhost/app:1", "localhost/app:1"),
        ("registry:5000/app", "registry:5000/app"),
        ("python@sha256:abc", "docker.io/library/python@sha256:abc"),
    ],
)
def test_short_image_refs_are_qualified(ref: str, qualified: str) -> None:
    assert qualify_image(ref) == qualified


def test_app_and_image_names_follow_the_lowercased_project() -> None:
    assert app_name("My-App", "open-webui") == "my-app-open-webui"
    assert built_image("My-App", "vllm") == "my-app-vllm:latest"


def test_the_services_own_build_args_win() -> None:
    wendy = {"WENDY_PLATFORM": "linux/arm64", "WENDY_DEBUG": "false"}
    assert build_args(wendy, {"WENDY_DEBUG": "true", "X": "1"}) == {
        "WENDY_PLATFORM": "linux/arm64",
        "WENDY_DEBUG": "true",
        "X": "1",
    }
