"""An image's ENTRYPOINT and CMD from its Dockerfile, as BuildKit sets them."""

from __future__ import annotations

import pytest

from wendy_llm.docker.command import ImageCommand, image_command
from wendy_llm.docker.model import Dockerfile


def command_of(text: str) -> ImageCommand:
    build = Dockerfile(text).build()
    return image_command(build, build.target())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('FROM ubuntu\nENTRYPOINT ["/e.sh"]\n', ImageCommand(("/e.sh",), ())),
        ('FROM ubuntu\nCMD ["serve", "-v"]\n', ImageCommand(None, ("serve", "-v"))),
        ("FROM ubuntu\nCMD serve -v\n", ImageCommand(None, ("/bin/sh", "-c", "serve -v"))),
        ("FROM ubuntu\n", ImageCommand(None, None)),
        ("FROM scratch\n", ImageCommand((), ())),
        # CMD set before ENTRYPOINT in the same stage is kept ...
        ('FROM ubuntu\nCMD ["x"]\nENTRYPOINT ["/e"]\n', ImageCommand(("/e",), ("x",))),
        # ... an inherited one is cleared.
        (
            'FROM ubuntu AS base\nCMD ["x"]\nFROM base\nENTRYPOINT ["/e"]\n',
            ImageCommand(("/e",), ()),
        ),
        (
            'FROM ubuntu AS base\nENTRYPOINT ["/e"]\nFROM base\nCMD ["y"]\n',
            ImageCommand(("/e",), ("y",)),
        ),
        (
            'FROM ubuntu\nSHELL ["/bin/bash", "-lc"]\nENTRYPOINT exec /e.sh\n',
            ImageCommand(("/bin/bash", "-lc", "exec /e.sh"), ()),
        ),
        # Not expanded: Docker does not substitute variables in them.
        ('FROM ubuntu\nENV X=1\nCMD ["echo", "$X"]\n', ImageCommand(None, ("echo", "$X"))),
    ],
)
def test_entrypoint_and_cmd(text: str, expected: ImageCommand) -> None:
    assert command_of(text) == expected


def test_an_unrelated_stage_does_not_count() -> None:
    text = 'FROM ubuntu AS tools\nENTRYPOINT ["/tool"]\nFROM scratch\nCMD ["/app"]\n'
    assert command_of(text) == ImageCommand((), ("/app",))
