"""What a built service's image holds on a device: build args, ENV, base image, command.

Each service's Dockerfile is built (in the model: :mod:`wendy_llm.docker`)
once per device profile, with that profile's Wendy build args and then the
service's own ``build.args``, which win.  What comes out the same on every
profile is stated plainly; what differs is kept per profile.  The stage
built is always the last (the CLI does not read ``target``).  Parsed
Dockerfiles and the results are cached by content: picks render the same
Dockerfiles, and ``check`` builds every pick's view.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wendy_llm.device.model import BuildArg, Command, Environment
from wendy_llm.device.profiles import DeviceProfile
from wendy_llm.docker.command import ImageCommand, image_command
from wendy_llm.docker.expand import ExpansionError
from wendy_llm.docker.model import Dockerfile, StageEnv, arg_decls
from wendy_llm.docker.syntax import DockerfileSyntaxError
from wendy_llm.wendycli import REVISION
from wendy_llm.wendycli.compose import (
    DEFAULT_ARGV,
    WENDY_ARG_PREFIX,
    WENDY_BUILD_ARGS,
    build_args,
    command_argv,
)

_ArgsKey = tuple[tuple[str, str], ...]
#: The environment of an image nothing is known of (not built here, or not buildable).
NOTHING_KNOWN = Environment(False, {}, {}, (), ())


@dataclass(frozen=True)
class ImageOutcome:
    """One build of a Dockerfile with one set of build args."""

    env: StageEnv | None  # None when a FROM cannot be expanded
    base_image: str | None
    command: ImageCommand | None
    problem: str | None  # why the rest is None


@dataclass(frozen=True)
class BuiltImage:
    """A service's image across the device profiles considered."""

    args: tuple[BuildArg, ...]
    environment: Environment
    stage: str | None
    base_images: tuple[str, ...]
    command: ImageCommand | None  # None when it differs between devices or cannot be known
    problem: str | None
    env_lines: Mapping[str, int]  # where the built stage's ENV sets each name


@dataclass(frozen=True)
class UninjectedArg:
    """An ``ARG`` that looks like a Wendy build arg, but that the CLI does not pass."""

    name: str
    default: str | None
    line: int


@functools.lru_cache(maxsize=128)
def parse_dockerfile(text: str) -> Dockerfile | str:
    """The model of a Dockerfile, or why BuildKit refuses it (the ``dockerfile`` check says so)."""
    try:
        return Dockerfile(text)
    except DockerfileSyntaxError as exc:
        return str(exc)


@functools.lru_cache(maxsize=512)
def _build(text: str, args: _ArgsKey) -> ImageOutcome:
    dockerfile = parse_dockerfile(text)
    if isinstance(dockerfile, str):
        return ImageOutcome(None, None, None, f"BuildKit cannot parse it: {dockerfile}")
    if not dockerfile.stages:
        return ImageOutcome(None, None, None, "it has no FROM")
    build = dockerfile.build(dict(args))
    target = build.target()
    try:
        return ImageOutcome(
            build.env(target), build.final_base_image(target), image_command(build, target), None
        )
    except ExpansionError as exc:
        return ImageOutcome(None, None, None, str(exc))


def built_image(
    text: str, service_args: Mapping[str, str], devices: Sequence[DeviceProfile]
) -> BuiltImage:
    """Build ``text`` for every device: the args it gets, its ENV, base image and command."""
    outcomes = {}
    for device in devices:
        args = build_args(device.build_args, service_args)
        outcomes[device.name] = _build(text, tuple(sorted(args.items())))
    dockerfile = parse_dockerfile(text)
    stage = None
    if not isinstance(dockerfile, str) and dockerfile.stages:
        last = dockerfile.stages[-1]
        stage = last.name or str(last.index)
    problem = next((o.problem for o in outcomes.values() if o.problem), None)
    commands = {o.command for o in outcomes.values()}
    bases = [o.base_image for o in outcomes.values() if o.base_image is not None]
    return BuiltImage(
        args=_args(service_args, devices),
        environment=_environment({k: o.env for k, o in outcomes.items()}),
        stage=stage,
        base_images=tuple(dict.fromkeys(bases)),
        command=commands.pop() if len(commands) == 1 else None,
        problem=problem,
        env_lines=env_lines(text),
    )


@dataclass(frozen=True)
class EnvSetting:
    """One name an ``ENV`` instruction sets, and where."""

    name: str
    stage: int  # the index of its stage (-1: before the first FROM)
    instruction_line: int  # the instruction's first line
    line: int  # the line of a multi-line instruction where the name is written


@dataclass(frozen=True)
class EnvPositions:
    """Where a Dockerfile's ``ENV`` instructions set each name: computed once per
    Dockerfile (:func:`env_positions`), read by the device view (notes point at the
    instruction) and by the rules' documents (findings point at the exact line)."""

    settings: tuple[EnvSetting, ...]  # in the file's order
    #: The built stage's ``FROM`` chain, build args at their defaults, built stage first.
    chain: tuple[int, ...]

    def along_chain(self) -> Mapping[str, int]:
        """The instruction line of the last ``ENV`` setting each name along :attr:`chain`."""
        lines: dict[str, int] = {}
        for index in reversed(self.chain):
            lines.update((s.name, s.instruction_line) for s in self.settings if s.stage == index)
        return lines

    def in_file(self) -> Mapping[str, int]:
        """The exact line of the last ``ENV`` setting each name anywhere in the file."""
        return {s.name: s.line for s in self.settings}


@functools.lru_cache(maxsize=128)
def env_positions(text: str) -> EnvPositions:
    """The ``ENV`` positions of the Dockerfile ``text`` (none when it does not parse)."""
    dockerfile = parse_dockerfile(text)
    if isinstance(dockerfile, str):
        return EnvPositions((), ())
    source = text.splitlines()
    settings = []
    stage = -1
    for ins in dockerfile.instructions:
        if ins.keyword == "FROM":
            stage += 1
        elif ins.keyword == "ENV":
            settings += [
                EnvSetting(name, stage, ins.line, _line_of(source, name, ins.line, ins.end_line))
                for name in ins.args[::2]
            ]
    chain: list[int] = []
    if dockerfile.stages:
        build = dockerfile.build()
        # A FROM that cannot expand ends the walk: the stages seen so far.
        with contextlib.suppress(ExpansionError):
            for index in build.chain(build.target()):
                chain.append(index)
    return EnvPositions(tuple(settings), tuple(chain))


def env_lines(text: str) -> Mapping[str, int]:
    """The line of the last ``ENV`` setting each (literal) name along the built stage's
    ``FROM`` chain, build args at their defaults (for messages: where to change it)."""
    return env_positions(text).along_chain()


def _line_of(source: Sequence[str], name: str, start: int, end: int) -> int:
    """The line of a multi-line instruction where ``name`` is set."""
    for number in range(start, min(end, len(source)) + 1):
        words = source[number - 1].replace("=", " ").split()
        if name in words:
            return number
    return start


def container_command(compose: tuple[str, ...] | None, image: ImageCommand | None) -> Command:
    """What the container starts on a device.

    A compose command (the tokens the CLI sends; None: none) replaces the
    image's ENTRYPOINT and CMD together: its first token split once more on
    whitespace, the rest verbatim.  Without one, or with an empty or
    all-blank one, the image's ENTRYPOINT + CMD run, ``/bin/sh`` when both
    are empty.
    """
    entrypoint = None if image is None else image.entrypoint
    cmd = None if image is None else image.cmd
    argv = command_argv(compose)
    if argv is not None:
        return Command(argv, entrypoint, cmd, "compose", compose)
    if entrypoint is None or cmd is None:
        return Command(None, entrypoint, cmd, "unknown", compose)
    if not entrypoint and not cmd:
        return Command(DEFAULT_ARGV, entrypoint, cmd, "shell", compose)
    return Command((*entrypoint, *cmd), entrypoint, cmd, "image", compose)


def _args(
    service_args: Mapping[str, str], devices: Sequence[DeviceProfile]
) -> tuple[BuildArg, ...]:
    out = []
    for name in WENDY_BUILD_ARGS:
        if name in service_args:
            continue
        values = {d.name: d.build_args.get(name) for d in devices}
        if all(v is None for v in values.values()):
            continue
        same = len(set(values.values())) == 1
        value = next(iter(values.values())) if same else None
        out.append(BuildArg(name, value, {} if same else values, "wendy", True))
    out += [BuildArg(k, v, {}, "compose", False) for k, v in service_args.items()]
    return tuple(out)


def _environment(envs: Mapping[str, StageEnv | None]) -> Environment:
    if not envs or any(env is None for env in envs.values()):
        return NOTHING_KNOWN
    known = {k: env for k, env in envs.items() if env is not None}
    names: dict[str, None] = {}
    for env in known.values():
        names.update(dict.fromkeys(env.values))
        names.update(dict.fromkeys(sorted(env.unknown)))
    values: dict[str, str] = {}
    by_device: dict[str, dict[str, str | None]] = {}
    unknown: list[str] = []
    for name in names:
        if any(name in env.unknown for env in known.values()):
            unknown.append(name)
            continue
        seen = {device: env.values.get(name) for device, env in known.items()}
        first = next(iter(seen.values()))
        if first is not None and all(v == first for v in seen.values()):
            values[name] = first
        else:
            by_device[name] = seen
    bases = [env.base_image for env in known.values() if env.base_image is not None]
    return Environment(True, values, by_device, tuple(unknown), tuple(dict.fromkeys(bases)))


def uninjected_args(text: str, service_args: Mapping[str, str]) -> list[UninjectedArg]:
    """``ARG WENDY_*`` declarations the CLI never passes (and compose does not set)."""
    dockerfile = parse_dockerfile(text)
    if isinstance(dockerfile, str):
        return []
    found: dict[str, UninjectedArg] = {}
    for ins in dockerfile.instructions:
        if ins.keyword != "ARG":
            continue
        for decl in arg_decls(ins):
            name = decl.name
            if (
                name.startswith(WENDY_ARG_PREFIX)
                and name not in WENDY_BUILD_ARGS
                and name not in service_args
                and name not in found
            ):
                found[name] = UninjectedArg(name, decl.default, ins.line)
    return list(found.values())


def uninjected_message(arg: UninjectedArg) -> str:
    default = "no default (empty)" if arg.default is None else f"its default {arg.default}"
    return (
        f"ARG {arg.name} looks like a Wendy build arg, but the Wendy CLI ({REVISION}) does not "
        f"pass it: on a device it always takes {default} (the CLI passes "
        f"{', '.join(WENDY_BUILD_ARGS)})"
    )
