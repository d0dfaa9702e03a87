"""The ``ENTRYPOINT`` and ``CMD`` an image built from a Dockerfile ships, as BuildKit sets them.

Following the built stage's ``FROM <stage>`` chain from its root:

- an external base image's own ``ENTRYPOINT``/``CMD`` are not seen here
  (None: unknown) until the Dockerfile sets them; ``scratch`` has none;
- the exec form is the list as written; the shell form runs through the
  stage's ``SHELL`` (``["/bin/sh", "-c"]`` by default) with the text;
- ``ENTRYPOINT`` clears a ``CMD`` the stage inherited (not one the same
  stage set before it), as BuildKit's dispatcher does;
- neither is expanded: Docker does not substitute variables in them.
"""

from __future__ import annotations

from dataclasses import dataclass

from wendy_llm.docker.model import SCRATCH, Build
from wendy_llm.docker.syntax import Instruction

DEFAULT_SHELL = ("/bin/sh", "-c")


@dataclass(frozen=True)
class ImageCommand:
    """An image's ``ENTRYPOINT`` and ``CMD``: ``()`` none, None unknown (an unseen base's)."""

    entrypoint: tuple[str, ...] | None
    cmd: tuple[str, ...] | None


def image_command(build: Build, index: int) -> ImageCommand:
    """What stage ``index``'s image runs (ExpansionError if a ``FROM`` cannot expand)."""
    chain = list(build.chain(index))
    root = build.base(chain[-1])
    external = root.stage is None and root.expansion.text.lower() != SCRATCH
    entrypoint: tuple[str, ...] | None = None if external else ()
    cmd: tuple[str, ...] | None = None if external else ()
    shell: tuple[str, ...] = DEFAULT_SHELL
    for stage_index in reversed(chain):
        cmd_set = False
        for ins in build.dockerfile.stages[stage_index].instructions:
            if ins.keyword == "SHELL" and ins.exec_form:
                shell = tuple(ins.args)
            elif ins.keyword == "CMD":
                cmd, cmd_set = _form(ins, shell), True
            elif ins.keyword == "ENTRYPOINT":
                entrypoint = _form(ins, shell)
                if not cmd_set:
                    cmd = ()
    return ImageCommand(entrypoint, cmd)


def _form(ins: Instruction, shell: tuple[str, ...]) -> tuple[str, ...]:
    if ins.exec_form:
        return tuple(ins.args)
    return (*shell, " ".join(ins.args))
