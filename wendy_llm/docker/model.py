"""A Dockerfile's stages, arguments and environment, by BuildKit's rules.

BuildKit's parser (:mod:`wendy_llm.docker.syntax`) gives instructions; this
module adds what ``docker build`` does with them for given build arguments
(:class:`Build`):

- global ``ARG``s (before the first ``FROM``) are visible only to ``FROM``
  lines, with the builtin platform arguments; a stage sees a global
  argument only after redeclaring it (``ARG NAME``);
- an argument's value is the build argument when one is given, else its
  default (expanded with what is visible at that point), else, for a
  redeclared global, the global's value; build arguments nobody declares
  are ignored;
- ``ENV`` values are expanded with the variables visible before the
  instruction (so ``ENV A=1 B=$A`` gives ``B`` the earlier ``A``); an
  ``ENV`` always wins over an ``ARG`` of the same name; a stage built
  ``FROM`` another stage starts with that stage's ``ENV``;
- ``FROM`` names a stage (an ``AS`` name, case-insensitive) or an image;
  the stage built is the last one, or a named target.

What cannot be known is reported, never guessed: the ``ENV`` of an external
base image (:attr:`StageEnv.base_image`; any variable it might set is
unknown), and platform arguments (``TARGETARCH``, ...) unless supplied as
build arguments.  One assumption: the base image's ``ENV`` does not set a
name the Dockerfile itself declares with ``ARG``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from wendy_llm.docker.expand import Expansion, ExpansionError, Variables, expand
from wendy_llm.docker.syntax import Instruction, parse

#: Arguments BuildKit defines for every build (from ``--platform``).
PLATFORM_ARGS = (
    "BUILDPLATFORM",
    "BUILDOS",
    "BUILDARCH",
    "BUILDVARIANT",
    "TARGETPLATFORM",
    "TARGETOS",
    "TARGETARCH",
    "TARGETVARIANT",
)
SCRATCH = "scratch"


@dataclass(frozen=True)
class ArgDecl:
    """One name of an ``ARG`` instruction (``ARG A=1 B`` declares two)."""

    name: str
    default: str | None  # as written: not expanded, quotes kept
    instruction: Instruction


@dataclass(frozen=True)
class Stage:
    """A build stage: its ``FROM`` and the instructions up to the next one."""

    index: int
    base: str  # the image or stage reference as written
    name: str | None  # the ``AS`` name, lower case
    platform: str | None  # the ``--platform`` flag as written
    instruction: Instruction  # the FROM itself
    instructions: tuple[Instruction, ...]

    @property
    def line(self) -> int:
        return self.instruction.line


@dataclass(frozen=True)
class BaseRef:
    """What a stage builds on: an earlier stage, or an image (``scratch`` included)."""

    expansion: Expansion  # the FROM's reference, expanded
    stage: int | None  # the stage it names, or None for an image


@dataclass(frozen=True)
class StageEnv:
    """The ``ENV`` a stage's image carries.

    ``values`` are exact.  ``unknown`` names are set, but to a value that
    depends on something unseen (the base image's ``ENV``, a platform
    argument).  ``base_image`` is the external image the stage ultimately
    builds on (None for ``scratch``): its own ``ENV``, which this model does
    not see, also reaches the container, under the names not in ``values``.
    """

    values: Mapping[str, str]
    unknown: frozenset[str]
    base_image: str | None


_Walk = tuple[tuple[tuple[Instruction, Variables], ...], StageEnv]


def arg_decls(instruction: Instruction) -> list[ArgDecl]:
    """The declarations of an ``ARG`` instruction."""
    out = []
    for word in instruction.args:
        name, eq, default = word.partition("=")
        out.append(ArgDecl(name, default if eq else None, instruction))
    return out


class Dockerfile:
    """A parsed Dockerfile: global arguments, stages, escape character."""

    def __init__(self, text: str) -> None:
        parsed = parse(text)  # DockerfileSyntaxError when BuildKit's parser refuses it
        self.instructions = parsed.instructions
        self.escape = parsed.escape
        first_from = next(
            (i for i, ins in enumerate(self.instructions) if ins.keyword == "FROM"),
            len(self.instructions),
        )
        #: What comes before the first FROM (BuildKit allows only ARG there).
        self.preamble = self.instructions[:first_from]
        self.global_args = tuple(
            decl for ins in self.preamble if ins.keyword == "ARG" for decl in arg_decls(ins)
        )
        self.stages = tuple(_split_stages(self.instructions[first_from:]))

    def stage_named(self, name: str) -> Stage | None:
        return next((s for s in self.stages if s.name == name.lower()), None)

    def built_stage(self, target: str | None = None) -> Stage:
        """The stage ``docker build`` builds: the last, or ``--target``'s (KeyError if none)."""
        return self.stages[self.build().target(target)]

    def build(self, build_args: Mapping[str, str] | None = None) -> Build:
        """This Dockerfile built with ``build_args`` (``--build-arg`` values)."""
        return Build(self, dict(build_args or {}))

    def effective_env(self, stage: Stage, build_args: Mapping[str, str] | None = None) -> StageEnv:
        """The ``ENV`` of ``stage``'s image when built with ``build_args``."""
        return self.build(build_args).env(stage.index)

    def final_base_image(
        self, build_args: Mapping[str, str] | None = None, target: str | None = None
    ) -> str | None:
        """The external image the built stage ends up on after ``FROM <stage>`` chains.

        ``scratch`` for none; None when it depends on an unknown (a platform
        argument not supplied).
        """
        build = self.build(build_args)
        return build.final_base_image(build.target(target))


class Build:
    """A Dockerfile with its build arguments applied: scopes, bases, ``ENV``."""

    def __init__(self, dockerfile: Dockerfile, build_args: Mapping[str, str]) -> None:
        self.dockerfile = dockerfile
        self.build_args = dict(build_args)
        meta: dict[str, str | None] = {
            name: build_args[name] for name in PLATFORM_ARGS if name in build_args
        }
        unknown = {name for name in PLATFORM_ARGS if name not in build_args}
        for decl in dockerfile.global_args:
            if decl.name in build_args:
                meta[decl.name] = build_args[decl.name]
            elif decl.default is not None:
                scope = Variables(_set_values(meta), frozenset(unknown))
                value = _expand(decl.default, scope, dockerfile.escape, decl.instruction)
                meta[decl.name] = value.text
                if not value.exact:
                    unknown.add(decl.name)
            else:
                meta.setdefault(decl.name, None)
        #: Global arguments: None for a declared one without a value.
        self.meta = meta
        self.meta_unknown = frozenset(unknown)
        self._bases: dict[int, BaseRef] = {}
        self._walks: dict[int, _Walk] = {}

    def from_scope(self) -> Variables:
        """What ``FROM`` lines see: a declared global without a value is empty."""
        values = {k: v or "" for k, v in self.meta.items()}
        return Variables(values, self.meta_unknown)

    def target(self, name: str | None = None) -> int:
        """The index of the stage built: ``name``'s, or the last.  KeyError if unknown."""
        if name is None:
            return len(self.dockerfile.stages) - 1
        stage = self.dockerfile.stage_named(name)
        if stage is None:
            raise KeyError(f"no stage named {name!r}")
        return stage.index

    def base(self, index: int) -> BaseRef:
        """What stage ``index`` builds on (ExpansionError if its FROM cannot expand)."""
        if index not in self._bases:
            stage = self.dockerfile.stages[index]
            scope = self.from_scope()
            expansion = _expand(stage.base, scope, self.dockerfile.escape, stage.instruction)
            ref = self.stage_ref(expansion.text)
            self._bases[index] = BaseRef(expansion, ref if ref != index else None)
        return self._bases[index]

    def stage_ref(self, text: str) -> int | None:
        """The stage a reference names (an ``AS`` name or an index), else None."""
        stage = self.dockerfile.stage_named(text) if text else None
        if stage is not None:
            return stage.index
        if text.isdecimal() and int(text) < len(self.dockerfile.stages):
            return int(text)
        return None

    def chain(self, index: int) -> Iterator[int]:
        """Stage ``index``, then each stage it builds ``FROM`` in turn, up to the one on
        an image (or up to a cycle, which BuildKit refuses).  ExpansionError from a
        ``FROM`` that cannot expand is raised when the walk reaches it."""
        seen = [index]
        yield index
        while (parent := self.base(seen[-1]).stage) is not None and parent not in seen:
            seen.append(parent)
            yield parent

    def final_base_image(self, index: int) -> str | None:
        root = self.base(list(self.chain(index))[-1])
        if root.stage is not None:
            return None  # a cycle: BuildKit refuses the build
        return root.expansion.text if root.expansion.exact else None

    def scopes(self, index: int) -> tuple[tuple[Instruction, Variables], ...]:
        """Each instruction of stage ``index`` with the variables it is expanded with."""
        return self._walk(index)[0]

    def env(self, index: int) -> StageEnv:
        """The ``ENV`` of stage ``index``'s image."""
        return self._walk(index)[1]

    def _walk(self, index: int) -> _Walk:
        """Stage ``index`` walked after every stage it builds ``FROM``, from the
        chain's root up: a loop, as a chain of 600 stages would exhaust Python's
        recursion."""
        chain: list[int] = []
        current: int | None = index
        while current is not None and current not in self._walks and current not in chain:
            chain.append(current)
            current = self.base(current).stage
        for stage in reversed(chain):
            self._walks[stage] = self._walk_stage(stage)
        return self._walks[index]

    def _walk_stage(self, index: int) -> _Walk:
        """One stage, its base stage's walk done (or a cycle's, still undone)."""
        base = self.base(index)
        if base.stage is not None and base.stage in self._walks:
            inherited = self._walks[base.stage][1]
        elif base.stage is not None:
            inherited = StageEnv({}, frozenset(), None)  # a cycle; BuildKit refuses it
        elif base.expansion.exact and base.expansion.text.lower() != SCRATCH:
            inherited = StageEnv({}, frozenset(), base.expansion.text)
        else:
            # scratch has no ENV; an image we cannot name may have any
            image = None if base.expansion.exact else base.expansion.text
            inherited = StageEnv({}, frozenset(), image)
        env = dict(inherited.values)
        env_unknown = set(inherited.unknown)
        args: dict[str, str] = {}
        args_unknown: set[str] = set()
        declared: set[str] = set()  # ARG names of this stage (assumed not in the image's ENV)
        opened = inherited.base_image is not None or not base.expansion.exact
        out = []
        for ins in self.dockerfile.stages[index].instructions:
            # ENV wins over ARG; the base image's ENV is open (may set anything).
            scope = Variables(
                {**{k: v for k, v in args.items() if k not in env_unknown}, **env},
                frozenset(env_unknown | args_unknown),
                open=opened,
                unset=frozenset(declared - args.keys() - args_unknown - env.keys()),
            )
            out.append((ins, scope))
            if ins.keyword == "ARG":
                for decl in arg_decls(ins):
                    self._declare(decl, scope, args, args_unknown)
                    declared.add(decl.name)
            elif ins.keyword == "ENV":
                pairs = zip(ins.args[::2], ins.args[1::2], strict=False)
                for raw_key, raw_value in pairs:
                    key = _expand(raw_key, scope, self.dockerfile.escape, ins)
                    value = _expand(raw_value, scope, self.dockerfile.escape, ins)
                    env[key.text] = value.text
                    if key.exact and value.exact:
                        env_unknown.discard(key.text)
                    else:
                        env_unknown.add(key.text)
        known = {k: v for k, v in env.items() if k not in env_unknown}
        return tuple(out), StageEnv(known, frozenset(env_unknown), inherited.base_image)

    def _declare(
        self, decl: ArgDecl, scope: Variables, args: dict[str, str], unknown: set[str]
    ) -> None:
        args.pop(decl.name, None)
        unknown.discard(decl.name)
        if decl.name in self.build_args:
            args[decl.name] = self.build_args[decl.name]
        elif decl.default is not None:
            value = _expand(decl.default, scope, self.dockerfile.escape, decl.instruction)
            args[decl.name] = value.text
            if not value.exact:
                unknown.add(decl.name)
        elif decl.name in self.meta_unknown:
            unknown.add(decl.name)
        elif self.meta.get(decl.name) is not None:
            args[decl.name] = self.meta[decl.name] or ""

    def reachable(self, target: int) -> list[int]:
        """The stages a build of ``target`` runs: its bases, ``--from`` and mount sources."""
        seen: set[int] = set()
        todo = [target]
        while todo:
            index = todo.pop()
            if index in seen:
                continue
            seen.add(index)
            base = self.base(index)
            if base.stage is not None:
                todo.append(base.stage)
            for ins, scope in self.scopes(index):
                for ref in _from_refs(ins):
                    try:
                        text = expand(ref, scope, self.dockerfile.escape).text
                    except ExpansionError:
                        continue  # reported where the instruction is checked
                    stage = self.stage_ref(text)
                    if stage is not None:
                        todo.append(stage)
        return sorted(seen)


def _from_refs(ins: Instruction) -> list[str]:
    """The stage or image references of ``COPY --from`` and ``RUN --mount=from=``."""
    refs = list(ins.flag_values("from")) if ins.keyword in ("COPY", "ADD") else []
    for mount in ins.flag_values("mount"):
        for field in mount.split(","):
            key, _, value = field.partition("=")
            if key.strip() == "from" and value:
                refs.append(value.strip())
    return refs


def _split_stages(instructions: tuple[Instruction, ...]) -> list[Stage]:
    stages: list[Stage] = []
    start = 0
    for index, ins in enumerate(instructions):
        if ins.keyword != "FROM" or index == 0:
            continue
        stages.append(_stage(len(stages), instructions[start], instructions[start + 1 : index]))
        start = index
    if instructions:
        stages.append(_stage(len(stages), instructions[start], instructions[start + 1 :]))
    return stages


def _stage(index: int, from_: Instruction, body: tuple[Instruction, ...]) -> Stage:
    words = from_.args
    name = words[2].lower() if len(words) == 3 and words[1].lower() == "as" else None
    return Stage(index, words[0] if words else "", name, from_.flag("platform"), from_, body)


def _set_values(meta: Mapping[str, str | None]) -> dict[str, str]:
    return {k: v for k, v in meta.items() if v is not None}


def _expand(word: str, scope: Variables, escape: str, ins: Instruction) -> Expansion:
    try:
        return expand(word, scope, escape)
    except ExpansionError as exc:
        raise ExpansionError(f"{ins.keyword} at line {ins.line}: {exc}", line=ins.line) from None
