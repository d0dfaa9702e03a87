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
    ("written", "policy", "default"),
    [
        ("always", "unless-stopped", False),
        ("unless-stopped", "unless-stopped", False),
        ("on-failure", "on-failure", False),
        ("no", "never", False),
        ("", "unless-stopped", True),  # empty: not used, the device default
        (None, "unless-stopped", True),  # absent: the device default
        ("on-failure:3", "unless-stopped", True),
        ("sometimes", "unless-stopped", True),
    ],
)
def test_restart_mapping(written: str | None, policy: str, default: bool) -> None:
    assert restart_policy(written) == (policy, default)
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
        ('x "" y', ("x", "", "y")),  # an empty pair is an empty token
        ("a\u00a0b", ("a\u00a0b",)),  # only space, tab, CR and LF separate
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
        ("127.0.0.1:8080:80", PortMapping(127, 8080)),  # split at the first ':'
        ("8080:80/udp", PortMapping(8080, 80)),
        ("53/udp", PortMapping(53, 53)),
        ("8000-8010:8000-8010", PortMapping(8000, 8000)),
        ("+8000:8000", None),  # Sscanf into a uint16 takes no sign
        ("70000:82", None),  # overflow leaves 0
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
        ("/data", VolumeEntry(None, "/data", None, 1), "anonymous"),
        ("models:/models", VolumeEntry("models", "/models", None, 2), "named"),
        ("models:/models:ro", VolumeEntry("models", "/models", "ro", 3), "named"),
        ("./data:/data", VolumeEntry("./data", "/data", None, 2), "bind"),
        ("/srv/data:/data:rw", VolumeEntry("/srv/data", "/data", "rw", 3), "bind"),
        ("C:\\data:/data", VolumeEntry("C:\\data", "/data", None, 2), "bind"),
        ("C:/data:/data:ro", VolumeEntry("C:/data", "/data", "ro", 3), "bind"),
        ("~/data:/data", VolumeEntry("~/data", "/data", None, 2), "named"),  # not . or /
        ("a:/data", VolumeEntry(None, "a:/data", None, 1), "anonymous"),  # a drive letter
        ("vol:/a:ro:x", VolumeEntry(None, None, None, 4), "unusable"),
        ("a:b:c:d", VolumeEntry("a:b", "c", "d", 3), "bind"),
        ("vol:", VolumeEntry("vol", "", None, 2), "unusable"),
        (":/data", VolumeEntry("", "/data", None, 2), "unusable"),
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
        ("Python", "Python"),  # does not parse: as written
    ],
)
def test_short_image_refs_are_qualified(ref: str, qualified: str) -> None:
    assert qualify_image(ref) == qualified


def test_app_and_image_names_follow_the_lowercased_project() -> None:
    assert app_name("My-App", "open-webui") == "my-app-open-webui"
    assert built_image("My-App", "vllm") == "localhost:5000/my-app-vllm:latest"


def test_the_services_own_build_args_win() -> None:
    wendy = {"WENDY_PLATFORM": "linux/arm64", "WENDY_DEBUG": "false"}
    assert build_args(wendy, {"WENDY_DEBUG": "true", "X": "1"}) == {
        "WENDY_PLATFORM": "linux/arm64",
        "WENDY_DEBUG": "true",
        "X": "1",
    }
