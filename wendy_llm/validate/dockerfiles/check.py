"""The ``dockerfile`` validator: a Dockerfile fails only where ``docker build`` would.

Every Dockerfile of a render is read with BuildKit's own parser
(:mod:`wendy_llm.docker`) and checked for what makes the build, or the
container, fail:

- the parser refuses it, an instruction BuildKit does not know, an
  instruction other than ``ARG`` before the first ``FROM``, a ``FROM``
  without one or three words (``image AS name``), an invalid or repeated
  stage name, a ``COPY``/``ADD`` without a source and a destination, a
  word that cannot be expanded (``${X:?}``, an unmatched quote);
- a ``FROM`` that expands to nothing, or that is meant as a stage
  reference (``FROM base-${WENDY_GPU_VENDOR}``) and
  names no stage, for any value combination of its build arguments (see
  :mod:`dockerfile_args`);
- a ``COPY``/``ADD`` source missing from the build context, by BuildKit's
  rules (:mod:`wendy_llm.docker.context`: a wildcard may match nothing,
  its directory must exist; ``.dockerignore`` applies; ``--from``, URLs
  and heredocs are not in the context), in a stage the build runs;
- the built stage's command runs a script that is not executable
  (:mod:`dockerfile_exec`);
- a ``RUN`` writes, moves or links over ``/etc/hosts`` or
  ``/etc/resolv.conf``, which BuildKit binds into the step
  (:mod:`etcwrites`; docs/checks.md, "Build-time and run-time files");
- an install command that needs a lockfile (``npm ci``, ``uv sync
  --locked``, ...: the table in :mod:`lockfacts`) runs where the image
  does not hold it (:mod:`lockcheck`).

The build context of a Dockerfile is the directory compose builds it from
when the compose file says so, else the Dockerfile's own directory (the
template root for a root ``Dockerfile``).
"""

from __future__ import annotations

import functools
import itertools
import posixpath
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from wendy_llm import options
from wendy_llm.codes import Check
from wendy_llm.codes import builds as codes
from wendy_llm.device.images import parse_dockerfile
from wendy_llm.docker.context import BuildContext, is_dockerfile_name
from wendy_llm.docker.dockerignore import DockerIgnore, DockerIgnoreError
from wendy_llm.docker.expand import ExpansionError, Variables, expand
from wendy_llm.docker.image.walk import image_model
from wendy_llm.docker.model import Build, Dockerfile, Stage
from wendy_llm.docker.syntax import KNOWN_INSTRUCTIONS, Instruction
from wendy_llm.errors import quoted
from wendy_llm.validate.dockerfiles.args import combinations, variables_in
from wendy_llm.validate.dockerfiles.etcwrites import BUILD_TIME_BOUND, HOSTS, run_step_writes
from wendy_llm.validate.dockerfiles.exec import unexecutable_scripts
from wendy_llm.validate.dockerfiles.lockcheck import lockfile_problems
from wendy_llm.validate.dockerfiles.problems import Problem, merge_combinations, with_subjects
from wendy_llm.validate.documents import compose_model
from wendy_llm.validate.documents.parse import Documents, parse_documents
from wendy_llm.validate.findings import Finding, error, warning

CHECK = Check.DOCKERFILE

_STAGE_NAME = re.compile(r"^[a-z][a-z0-9-_.]*$")  # BuildKit's rule for ``AS`` names
_NOT_ONBUILD = ("ONBUILD", "FROM", "MAINTAINER")
_MIN_ARGS = {"ARG": 1, "ENV": 1, "LABEL": 1, "WORKDIR": 1, "USER": 1, "COPY": 2, "ADD": 2}

# One problem of one build-argument combination: line, message, certain, kind
# (:data:`wendy_llm.validate.dockerfiles.problems.KINDS`).
_Problem = Problem


def is_dockerfile(path: str) -> bool:
    return is_dockerfile_name(PurePosixPath(path).name)


def validate_dockerfiles(tree: Mapping[str, bytes], docs: Documents | None = None) -> list[Finding]:
    """Validate every Dockerfile of a render."""
    if docs is None:
        docs = parse_documents(tree)
    contexts = _contexts_from_compose(docs)
    paths = frozenset(tree)
    findings: list[Finding] = []
    for path in sorted(p for p in tree if is_dockerfile(p)):
        try:
            text = tree[path].decode("utf-8")
        except UnicodeDecodeError as exc:
            # BuildKit reads bytes; only this check needs text.
            message = f"not UTF-8 ({exc}): checked with the bad bytes replaced"
            findings.append(warning(codes.DF_NOT_UTF8, message, path))
            text = tree[path].decode("utf-8", "replace")
        context = contexts.get(path, str(PurePosixPath(path).parent))
        ignore_path = _dockerignore_path(paths, path, context)
        ignore_text = tree[ignore_path].decode("utf-8", "replace") if ignore_path else ""
        contents = _context_contents(tree, context)
        findings += _validate_cached(path, text, paths, context, ignore_path, ignore_text, contents)
    return findings


def validate_dockerfile(
    path: str, text: str, tree: Mapping[str, bytes], context: str
) -> list[Finding]:
    """Validate one Dockerfile whose build context is the tree directory ``context``.

    Only which files ``tree`` holds matters, and the ``.dockerignore`` text.
    """
    ignore_path = _dockerignore_path(frozenset(tree), path, context)
    ignore_text = tree[ignore_path].decode("utf-8", "replace") if ignore_path else ""
    contents = _context_contents(tree, context)
    paths = frozenset(tree)
    return list(_validate_cached(path, text, paths, context, ignore_path, ignore_text, contents))


def _context_contents(tree: Mapping[str, bytes], context: str) -> tuple[tuple[str, bytes], ...]:
    """The small files of a build context: the scripts and requirements a RUN may read."""
    prefix = "" if context in ("", ".") else context.strip("/") + "/"
    return tuple(
        sorted((p, data) for p, data in tree.items() if p.startswith(prefix) and len(data) < 65536)
    )


@functools.lru_cache(maxsize=256)
def _validate_cached(
    path: str,
    text: str,
    paths: frozenset[str],
    context: str,
    ignore_path: str | None,
    ignore_text: str,
    contents: tuple[tuple[str, bytes], ...] = (),
) -> tuple[Finding, ...]:
    # Picks usually render the same Dockerfiles into the same file layout;
    # the result depends on nothing else (of other files, only which exist
    # and the .dockerignore matter).
    try:
        ignore = DockerIgnore(ignore_text)
    except DockerIgnoreError as exc:
        return (error(codes.DF_DOCKERIGNORE, f"{exc} (docker build fails)", ignore_path),)
    # The parse the device view makes of the same text (cached there): once per text.
    dockerfile = parse_dockerfile(text)
    if isinstance(dockerfile, str):
        return (error(codes.DF_PARSE, f"BuildKit cannot parse it: {dockerfile}", path),)
    findings = _structure_findings(path, dockerfile)
    if not dockerfile.stages or any(f.severity == "error" for f in findings):
        return tuple(with_subjects(findings, dockerfile))
    build_context = BuildContext(paths, context, ignore)
    limit = options.DOCKERFILE_COMBINATIONS
    combos = list(itertools.islice(combinations(dockerfile), limit + 1))
    if len(combos) > limit:
        message = f"more than {limit} build-argument combinations; checked the first"
        findings.append(warning(codes.DF_COMBINATIONS, message, path, dockerfile.stages[0].line))
        combos = combos[:limit]
    files = _Files(dict(contents), paths, text, contents)
    per_combo = [(c, _combo_problems(dockerfile.build(c), build_context, files)) for c in combos]
    findings += merge_combinations(path, per_combo)
    return tuple(with_subjects(findings, dockerfile))


def _dockerignore_path(paths: frozenset[str], dockerfile: str, context: str) -> str | None:
    """``<Dockerfile>.dockerignore`` beside it wins over the context's ``.dockerignore``."""
    own = f"{dockerfile}.dockerignore"
    if own in paths:
        return own
    shared = posixpath.join("" if context in ("", ".") else context, ".dockerignore")
    return shared if shared in paths else None


def _contexts_from_compose(docs: Documents) -> dict[str, str]:
    compose = docs.compose
    if compose is None or compose.problem is not None:
        return {}
    base = str(PurePosixPath(compose.path).parent)
    out: dict[str, str] = {}
    for service in compose_model.services(compose.data).values():
        build = compose_model.build_of(service)
        if build is None or build.dockerfile is None:
            continue
        if compose_model.is_remote_context(build.context):
            continue
        context = compose_model.normalise_path(build.context, base)
        out[compose_model.normalise_path(build.dockerfile, context)] = context
    return out


def _structure_findings(path: str, dockerfile: Dockerfile) -> list[Finding]:
    """What BuildKit refuses before it builds anything."""
    found: list[Finding] = []
    for ins in dockerfile.instructions:
        if ins.keyword not in KNOWN_INSTRUCTIONS:
            found.append(
                error(
                    codes.DF_UNKNOWN_INSTRUCTION,
                    f"unknown instruction: {ins.keyword}",
                    path,
                    ins.line,
                )
            )
        elif ins.keyword == "ONBUILD" and (ins.trigger in _NOT_ONBUILD or ins.trigger is None):
            message = f"{ins.trigger or 'nothing'} isn't allowed as an ONBUILD trigger"
            found.append(error(codes.DF_ONBUILD, message, path, ins.line))
        elif len(ins.args) < _MIN_ARGS.get(ins.keyword, 0):
            count = _MIN_ARGS[ins.keyword]
            message = f"{ins.keyword} requires at least {count} argument{'s' * (count > 1)}"
            found.append(error(codes.DF_ARGUMENTS, message, path, ins.line))
        elif _blank_name(ins):
            found.append(
                error(codes.DF_BLANK_NAME, f"{ins.keyword} names can not be blank", path, ins.line)
            )
    for ins in dockerfile.preamble:
        if ins.keyword != "ARG" and ins.keyword in KNOWN_INSTRUCTIONS:
            message = f"{ins.keyword} before the first FROM (only ARG may come before it)"
            found.append(error(codes.DF_BEFORE_FROM, message, path, ins.line))
    if not dockerfile.stages:
        return [*found, error(codes.DF_NO_FROM, "no FROM instruction", path, 1)]
    names: dict[str, int] = {}
    for stage in dockerfile.stages:
        found += _from_findings(path, stage, names)
    return found


def _blank_name(ins: Instruction) -> bool:
    if ins.keyword == "ENV":
        return any(not name for name in ins.args[::2])
    return ins.keyword == "ARG" and any(not word.partition("=")[0] for word in ins.args)


def _from_findings(path: str, stage: Stage, names: dict[str, int]) -> list[Finding]:
    words = stage.instruction.args
    if len(words) not in (1, 3) or (len(words) == 3 and words[1].lower() != "as"):
        message = "FROM takes an image and optionally `AS name`"
        return [error(codes.DF_FROM_FORM, message, path, stage.line)]
    if stage.name is None:
        return []
    if not _STAGE_NAME.match(stage.name):
        message = f"invalid stage name {quoted(words[2])}: it must start with a letter"
        return [
            error(
                codes.DF_STAGE_NAME,
                f"{message} and use only letters, digits, -, _ and .",
                path,
                stage.line,
            )
        ]
    if stage.name in names:
        message = f"stage name {quoted(stage.name)} is already used at line {names[stage.name]}"
        return [error(codes.DF_STAGE_REPEATED, message, path, stage.line)]
    names[stage.name] = stage.line
    return []


@dataclass(frozen=True)
class _Files:
    """What the lockfile rules read beyond which files exist: contents, and every path."""

    contents: Mapping[str, bytes]
    paths: frozenset[str]
    text: str = ""  # the Dockerfile's (the image model is memoised by it)
    context_contents: tuple[tuple[str, bytes], ...] = ()


def _combo_problems(build: Build, context: BuildContext, files: _Files) -> set[_Problem]:
    """Everything that fails when the Dockerfile is built with ``build``'s arguments."""
    problems: set[_Problem] = set()
    stages = build.dockerfile.stages
    for stage in stages:
        try:
            _check_from(build, stage, problems)
        except ExpansionError as exc:
            problems.add((stage.line, str(exc), True, "expand"))
    if any(certain for _, _, certain, _ in problems):
        return problems
    try:
        target = build.target()
        reachable = build.reachable(target)
        # The one model of what each stage holds (docker/image), built once per content.
        model = image_model(build, files.text, context, files.context_contents)
        for index in reachable:
            _check_sources(build, build.scopes(index), context, problems)
            _check_etc_writes(build.dockerfile.stages[index].instructions, problems)
            held = model.stages[index]
            if held is None:
                continue
            locks = lockfile_problems(build, index, held, context, files.contents, files.paths)
            problems |= {(line, message, certain, "lockfile") for line, message, certain in locks}
        built = model.stages[target]
        if built is not None:
            for problem in unexecutable_scripts(build, target, built):
                problems.add((problem.line, problem.message, problem.certain, "exec"))
    except ExpansionError as exc:
        problems.add((exc.line or 1, str(exc), True, "expand"))
    return problems


def _check_from(build: Build, stage: Stage, problems: set[_Problem]) -> None:
    base = build.base(stage.index)
    # The FROM chain ends where a base was seen before: this stage, if it is on a cycle.
    last = list(build.chain(stage.index))[-1]
    if build.base(last).stage == stage.index:
        message = f"circular dependency: stage {stage.name} builds FROM itself{{combo}}"
        problems.add((stage.line, message, True, "from"))
        return
    names = variables_in(stage.base)
    shown = " ".join(f"{n}={build.meta.get(n) or ''}" for n in names)
    if base.stage is not None or not names or not base.expansion.exact:
        return
    if not base.expansion.text:
        message = f"FROM {stage.base} expands to an empty image name for {shown}{{combo}}"
        problems.add((stage.line, message, True, "from"))
        return
    pattern = _literal_pattern(stage.base)
    others = [s.name for s in build.dockerfile.stages if s.name and s.index != stage.index]
    looks_like_a_stage = _VARIABLE.sub("", stage.base) and any(pattern.fullmatch(n) for n in others)
    # BuildKit pulls only the images of the stages it builds.
    if looks_like_a_stage and stage.index in build.reachable(build.target()):
        message = (
            f"FROM {stage.base} does not resolve for {shown}: "
            f"no stage named {base.expansion.text}{{combo}}"
        )
        problems.add((stage.line, message, True, "from"))


_VARIABLE = re.compile(
    r"\$(?:\{[A-Za-z_][A-Za-z0-9_]*(?:[:#%/][^}]*|[-+?][^}]*)?\}|[A-Za-z_][A-Za-z0-9_]*)"
)


def _literal_pattern(text: str) -> re.Pattern[str]:
    """A regex matching every expansion of ``text`` (variables as wildcards)."""
    pieces = []
    last = 0
    for match in _VARIABLE.finditer(text):
        pieces += [re.escape(text[last : match.start()]), ".*"]
        last = match.end()
    pieces.append(re.escape(text[last:]))
    return re.compile("".join(pieces), re.IGNORECASE)


def _check_sources(
    build: Build,
    scopes: Iterable[tuple[Instruction, Variables]],
    context: BuildContext,
    problems: set[_Problem],
) -> None:
    """COPY/ADD sources of one stage the build runs, by BuildKit's rules."""
    for ins, scope in scopes:
        if ins.keyword not in ("COPY", "ADD") or ins.flag("from") is not None:
            continue
        for raw in ins.args[:-1]:
            if raw.startswith("<<"):
                continue  # a heredoc: its content is in the Dockerfile
            try:
                source = expand(raw, scope, build.dockerfile.escape)
            except ExpansionError as exc:
                problems.add(
                    (ins.line, f"{ins.keyword} source {quoted(raw)}: {exc}", True, "expand")
                )
                continue
            if not source.exact or _is_remote(ins.keyword, source.text):
                continue
            resolved = context.resolve(source.text)
            if resolved.missing is not None:
                message = (
                    f"{ins.keyword} source {quoted(raw)} is not in the build context "
                    f"({resolved.missing})"
                )
                problems.add((ins.line, message, True, "source"))


def _check_etc_writes(instructions: Iterable[Instruction], problems: set[_Problem]) -> None:
    """A ``RUN`` of a stage the build runs that writes ``/etc/hosts`` or ``/etc/resolv.conf``."""
    for ins in instructions:
        if ins.keyword != "RUN":
            continue
        texts = [shlex.join(ins.args)] if ins.exec_form else [" ".join(ins.args)]
        texts += [heredoc.content for heredoc in ins.heredocs]
        for write in run_step_writes(texts, BUILD_TIME_BOUND):
            message = (
                f"RUN {write.how} {write.path} (`{write.command}`): BuildKit binds {write.path} "
                "into every RUN step, which cannot write or replace it, so the build fails "
                "(docs/checks.md, build-time files)"
            )
            if write.path == HOSTS:
                message += "; write it from the entrypoint at run time"
            problems.add((ins.line, message, True, "etc"))


def _is_remote(keyword: str, source: str) -> bool:
    return keyword == "ADD" and ("://" in source or source.startswith("git@"))
