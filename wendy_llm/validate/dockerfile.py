"""The ``dockerfile`` validator: stage references resolve, run scripts are executable.

Two mistakes a render can hide until it reaches a device:

1. ``FROM base-${WENDY_GPU_VENDOR}-${WENDY_JETPACK_MAJOR}``: a stage
   reference built from build arguments must name a defined stage for
   *every* value combination the arguments can take (see
   :mod:`dockerfile_parse` for how value sets are declared).  Otherwise
   that one device class silently pulls a non-existent image
   ``base-nvidia-7``.  A ``FROM`` counts as a stage reference when its
   literal parts are not empty and its pattern matches an earlier stage
   name; a ``FROM`` made only of variables must not expand to nothing.
2. ``wendy init`` writes every file with mode 0644, so a script that
   ``CMD``/``ENTRYPOINT`` runs must get its execute bit in the image:
   ``COPY --chmod=755`` or a later ``RUN chmod +x`` (or ``install -m``)
   covering it (exact path, glob or ``-R`` directory).  A script handed to
   an interpreter (``["bash", "/entrypoint.sh"]``) needs no execute bit and
   is not flagged.  The effective command of each stage is checked,
   following its parent stages, for every value combination.

Also reported: a ``COPY``/``ADD`` source that is not in the build context
(the build fails), and two stages with the same name.

The build context of a Dockerfile is the directory compose builds it from
when the compose file says so, else the Dockerfile's own directory.
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import posixpath
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from wendy_llm.validate import compose_model
from wendy_llm.validate.dockerfile_parse import (
    ArgDecl,
    Instruction,
    Stage,
    arg_decls,
    literal_pattern,
    literal_text,
    parse,
    shell_commands,
    split_stages,
    substitute,
    value_set,
    variables_in,
)
from wendy_llm.validate.documents import Documents, parse_documents
from wendy_llm.validate.findings import Finding, error

CHECK = "dockerfile"

_INTERPRETERS = re.compile(
    r"^(?:sh|bash|dash|ash|zsh|ksh|python[0-9.]*|perl|node|ruby|php|uv|uvx)$"
)
_PATH_DIRS = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
#: Combinations beyond this are not enumerated (a Dockerfile with that many
#: build-argument values is not what this check is for); reported instead.
MAX_COMBINATIONS = 512


def is_dockerfile(path: str) -> bool:
    name = PurePosixPath(path).name
    return name == "Dockerfile" or name.startswith("Dockerfile.") or name.endswith(".dockerfile")


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
            findings.append(error(CHECK, f"not UTF-8: {exc}", path))
            continue
        context = contexts.get(path, str(PurePosixPath(path).parent))
        findings += _validate_cached(path, text, paths, context)
    return findings


@functools.lru_cache(maxsize=256)
def _validate_cached(
    path: str, text: str, paths: frozenset[str], context: str
) -> tuple[Finding, ...]:
    # Picks usually render the same Dockerfiles into the same file layout;
    # the result depends on nothing else (file contents do not matter).
    return tuple(validate_dockerfile(path, text, paths, context))


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


def validate_dockerfile(path: str, text: str, tree: Collection[str], context: str) -> list[Finding]:
    """Validate one Dockerfile whose build context is the tree directory ``context``.

    ``tree`` holds the render's paths (a render's mapping will do): only
    which files exist matters, for ``COPY`` sources.
    """
    instructions = parse(text)
    global_args, stages = split_stages(instructions)
    if not stages:
        return [error(CHECK, "no FROM instruction", path, 1)]
    findings = _duplicate_stage_findings(path, stages)
    from_vars = sorted({v for s in stages for v in variables_in(s.source)})
    decls = {d.name: d for d in global_args}
    axes = [(name, _values_for(name, decls)) for name in from_vars]
    combos = list(itertools.islice(_combinations(axes), MAX_COMBINATIONS + 1))
    if len(combos) > MAX_COMBINATIONS:
        message = f"more than {MAX_COMBINATIONS} build-argument combinations; checked the first"
        findings.append(error(CHECK, message, path, stages[0].line))
        combos = combos[:MAX_COMBINATIONS]
    copy_sources = _CopySourceCheck(path, tree, context)
    per_combo: list[tuple[dict[str, str], set[tuple[int, str]]]] = []
    for combo in combos:
        values = {d.name: d.default or "" for d in global_args} | combo
        problems: set[tuple[int, str]] = set()
        resolved = _resolve_stages(stages, values, combo, problems)
        _check_commands(stages, resolved, values, copy_sources, problems)
        per_combo.append((combo, problems))
    findings += copy_sources.findings
    findings += _merge_combinations(path, per_combo)
    return findings


def _values_for(name: str, decls: Mapping[str, ArgDecl]) -> tuple[str, ...]:
    decl = decls.get(name)
    return value_set(decl if decl is not None else ArgDecl(name, None, (), 0))


def _combinations(axes: Sequence[tuple[str, tuple[str, ...]]]) -> itertools.chain[dict[str, str]]:
    names = [name for name, _ in axes]
    return itertools.chain(
        dict(zip(names, values, strict=True)) for values in itertools.product(*(v for _, v in axes))
    )


def _describe(combo: Mapping[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(combo.items()))


def _merge_combinations(
    path: str, per_combo: Sequence[tuple[dict[str, str], set[tuple[int, str]]]]
) -> list[Finding]:
    """One finding per distinct problem; say which combinations when not all."""
    seen: dict[tuple[int, str], list[dict[str, str]]] = {}
    for combo, problems in per_combo:
        for problem in sorted(problems):
            seen.setdefault(problem, []).append(combo)
    findings = []
    for (line, message), failing in sorted(seen.items()):
        text = message
        if len(failing) < len(per_combo) and "{combo}" not in message:
            more = f" (and {len(failing) - 1} more)" if len(failing) > 1 else ""
            text = f"{message} (with {_describe(failing[0])}{more})"
        findings.append(error(CHECK, text.replace("{combo}", ""), path, line))
    return findings


def _duplicate_stage_findings(path: str, stages: Sequence[Stage]) -> list[Finding]:
    findings = []
    seen: dict[str, int] = {}
    for stage in stages:
        if stage.name is None:
            continue
        if stage.name in seen:
            message = f"stage name {stage.name!r} is already used at line {seen[stage.name]}"
            findings.append(error(CHECK, message, path, stage.line))
        seen.setdefault(stage.name, stage.line)
    return findings


def _resolve_stages(
    stages: Sequence[Stage],
    values: Mapping[str, str],
    combo: Mapping[str, str],
    problems: set[tuple[int, str]],
) -> list[int | None]:
    """For each stage, the index of the stage it builds on (None: an image)."""
    parents: list[int | None] = []
    for index, stage in enumerate(stages):
        earlier = {s.name: i for i, s in enumerate(stages[:index]) if s.name is not None}
        resolved = substitute(stage.source, values)
        names = variables_in(stage.source)
        shown = " ".join(f"{n}={values.get(n, '')}" for n in names)
        if resolved.lower() in earlier:
            parents.append(earlier[resolved.lower()])
            continue
        parents.append(None)
        if not names:
            continue
        if not resolved:
            message = f"FROM {stage.source} expands to an empty image name for {shown}{{combo}}"
            problems.add((stage.line, message))
            continue
        pattern = literal_pattern(stage.source)
        is_stage_ref = bool(literal_text(stage.source)) and any(
            pattern.fullmatch(name) for name in earlier
        )
        if is_stage_ref:
            message = (
                f"FROM {stage.source} does not resolve for {shown}: "
                f"no stage named {resolved}{{combo}}"
            )
            problems.add((stage.line, message))
    return parents


@dataclass
class _Image:
    """What a stage's image holds, as far as this check follows it."""

    executable: dict[str, bool] = field(default_factory=dict)  # path -> has x bit
    copied_at: dict[str, int] = field(default_factory=dict)  # path -> line of the COPY
    workdir: str = "/"
    env: dict[str, str] = field(default_factory=dict)
    entrypoint: Instruction | None = None
    cmd: Instruction | None = None

    def clone(self) -> _Image:
        return _Image(
            dict(self.executable),
            dict(self.copied_at),
            self.workdir,
            dict(self.env),
            self.entrypoint,
            self.cmd,
        )


class _CopySourceCheck:
    """Expands COPY sources against the render; remembers sources that are missing."""

    def __init__(self, path: str, tree: Collection[str], context: str) -> None:
        self.path = path
        self.tree = tree
        self.context = "" if context in ("", ".") else context.rstrip("/")
        self.dirs = {str(PurePosixPath(p).parent) for p in tree} | {
            str(parent) for p in tree for parent in PurePosixPath(p).parents
        }
        self.findings: list[Finding] = []
        self._reported: set[tuple[int, str]] = set()

    def expand(self, source: str, line: int) -> tuple[list[tuple[str, str]], bool] | None:
        """The files a COPY source names, or None (reported) when it names none.

        Each file comes with its path relative to where it lands under the
        destination (a file's base name, or its path inside a copied
        directory, whose contents are copied, not the directory itself).
        The flag is True when the source is one plain file.
        """
        rel = posixpath.normpath(source.lstrip("/") or ".")
        if rel == ".." or rel.startswith("../"):
            self._missing(source, line, "it is outside the build context")
            return None
        full = posixpath.join(self.context, rel) if rel != "." else self.context
        if any(c in rel for c in "*?["):
            parts = full.split("/")
            entries = sorted(
                c
                for c in set(self.tree) | self.dirs
                if len(c.split("/")) == len(parts)
                and all(fnmatch.fnmatchcase(a, b) for a, b in zip(c.split("/"), parts, strict=True))
            )
        else:
            entries = [full] if full in self.tree or (full or ".") in self.dirs else []
        files: list[tuple[str, str]] = []
        for entry in entries:
            if entry in self.tree:
                files.append((entry, posixpath.basename(entry)))
            else:
                prefix = f"{entry}/" if entry not in ("", ".") else ""
                files += [(p, p[len(prefix) :]) for p in sorted(self.tree) if p.startswith(prefix)]
        if not files:
            self._missing(source, line, f"nothing in the render at {full or '.'}")
            return None
        single_file = len(entries) == 1 and entries[0] in self.tree and entries[0] == full
        return files, single_file

    def _missing(self, source: str, line: int, why: str) -> None:
        if (line, source) in self._reported:
            return
        self._reported.add((line, source))
        message = f"COPY/ADD source {source!r} is not in the build context ({why})"
        self.findings.append(error(CHECK, message, self.path, line))


def _check_commands(
    stages: Sequence[Stage],
    parents: Sequence[int | None],
    global_values: Mapping[str, str],
    copies: _CopySourceCheck,
    problems: set[tuple[int, str]],
) -> None:
    images: list[_Image] = []
    for index, stage in enumerate(stages):
        parent = parents[index]
        image = images[parent].clone() if parent is not None else _Image()
        _apply(stage, image, global_values, copies)
        images.append(image)
        for line, script, copied_line in _unexecutable_scripts(image):
            message = (
                f"runs {script}, copied at line {copied_line} without an execute bit "
                "(wendy init writes files 0644): add `RUN chmod +x "
                f"{script}` or `COPY --chmod=755`"
            )
            problems.add((line, message))


def _apply(
    stage: Stage, image: _Image, global_values: Mapping[str, str], copies: _CopySourceCheck
) -> None:
    args: dict[str, str] = {}
    for ins in stage.instructions:
        values = {**args, **image.env}
        if ins.keyword == "ARG":
            for decl in arg_decls(ins):
                default = decl.default if decl.default is not None else ""
                args[decl.name] = global_values.get(decl.name, substitute(default, values))
        elif ins.keyword == "ENV":
            image.env.update(_env_pairs(ins.args, values))
        elif ins.keyword == "WORKDIR":
            image.workdir = posixpath.normpath(
                posixpath.join(image.workdir, substitute(ins.args.strip(), values))
            )
        elif ins.keyword in ("COPY", "ADD"):
            _copy(ins, image, values, copies)
        elif ins.keyword == "RUN":
            form = ins.exec_form()
            commands = [form] if form is not None else shell_commands(ins.args)
            for body in ins.heredocs:
                commands += shell_commands(body)
            for words in commands:
                _chmod(words, image, values)
        elif ins.keyword == "ENTRYPOINT":
            image.entrypoint = ins
            image.cmd = None  # Docker resets an inherited CMD when ENTRYPOINT is set
        elif ins.keyword == "CMD":
            image.cmd = ins


def _env_pairs(text: str, values: Mapping[str, str]) -> dict[str, str]:
    flat = [w for command in shell_commands(text) for w in command]
    if flat and "=" not in flat[0]:
        # The legacy form: ENV NAME value with spaces
        return {flat[0]: substitute(" ".join(flat[1:]), values)}
    pairs = (w.partition("=") for w in flat)
    return {k: substitute(v, values) for k, eq, v in pairs if k and eq}


def _copy(
    ins: Instruction, image: _Image, values: Mapping[str, str], copies: _CopySourceCheck
) -> None:
    form = ins.exec_form()
    words = form if form is not None else ins.args.split()
    flags: dict[str, str] = {}
    while words and words[0].startswith("--"):
        key, _, value = words[0][2:].partition("=")
        flags[key] = value
        words = words[1:]
    if len(words) < 2:
        return
    *sources, dest = (substitute(w, values) for w in words)
    mode = flags.get("chmod")
    executable = mode is not None and _execute_effect(mode) is True
    dest_abs = posixpath.join(image.workdir, dest)
    into_dir = dest.endswith("/") or len(sources) > 1

    def land(name: str) -> str:
        return posixpath.normpath(posixpath.join(dest_abs, name) if into_dir else dest_abs)

    for source in sources:
        if source.startswith("<<"):
            _record(image, land(source[2:].strip("-\"'")), executable, ins.line)
        elif "from" in flags or "://" in source:
            # Another stage's or a URL's file: its mode is not ours to know.
            _record(image, land(posixpath.basename(source)), True, ins.line)
        else:
            expanded = copies.expand(source, ins.line)
            if expanded is None:
                continue
            files, single_file = expanded
            for _, rel in files:
                target = land(rel) if single_file else posixpath.join(dest_abs, rel)
                _record(image, posixpath.normpath(target), executable, ins.line)


def _record(image: _Image, path: str, executable: bool, line: int) -> None:
    image.executable[path] = executable
    image.copied_at[path] = line


_OCTAL = re.compile(r"^[0-7]{3,4}$")
_SYMBOLIC = re.compile(r"([-+=])([rwxXst]*)")


def _execute_effect(mode: str) -> bool | None:
    """True when ``mode`` sets an execute bit on a 0644 file, False when it
    clears them all, None when it leaves them alone."""
    if _OCTAL.match(mode):
        return any(int(d) % 2 == 1 for d in mode[-3:])
    effect: bool | None = None
    for op, perms in _SYMBOLIC.findall(mode):
        if op in "+=" and "x" in perms:
            effect = True
        elif (op == "-" and "x" in perms) or (op == "=" and "x" not in perms):
            effect = False if effect is None else effect
    return effect


def _chmod(words: Sequence[str], image: _Image, values: Mapping[str, str]) -> None:
    words = list(words)
    # Skip leading variable assignments and sudo.
    while words and (words[0] == "sudo" or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0])):
        words = words[1:]
    if not words or posixpath.basename(words[0]) != "chmod":
        return
    recursive = False
    operands = []
    for word in words[1:]:
        if word in ("-R", "--recursive") or re.fullmatch(r"-[cfvR]*R[cfvR]*", word):
            recursive = True
        elif word.startswith("--") or re.fullmatch(r"-[cfv]+", word):
            continue
        else:
            operands.append(word)
    if len(operands) < 2:
        return
    effect = _execute_effect(operands[0])
    if effect is None:
        return
    for target in operands[1:]:
        resolved = posixpath.normpath(posixpath.join(image.workdir, substitute(target, values)))
        for path in image.executable:
            if (
                path == resolved
                or fnmatch.fnmatchcase(path, resolved)
                or (recursive and path.startswith(resolved.rstrip("/") + "/"))
            ):
                image.executable[path] = effect


def _unexecutable_scripts(image: _Image) -> list[tuple[int, str, int]]:
    """(instruction line, script path, copy line) for each script run without an x bit."""
    out = []
    for argv in _commands_run(image):
        for word, owner in _directly_executed(argv):
            path = _resolve_command(word, image)
            if path is not None and not image.executable[path]:
                out.append((owner.line, path, image.copied_at[path]))
    return out


_Argv = list[tuple[str, Instruction]]  # each word with the instruction it comes from


def _commands_run(image: _Image) -> list[_Argv]:
    """The commands the container runs; each word knows its instruction."""
    ep, cmd = image.entrypoint, image.cmd

    def words(ins: Instruction) -> list[_Argv]:
        form = ins.exec_form()
        if form is not None:
            return [[(w, ins) for w in form]]
        # Shell form: Docker runs /bin/sh -c '<text>'.
        return [[(w, ins) for w in command] for command in shell_commands(ins.args)]

    if ep is None:
        return [] if cmd is None else words(cmd)
    if ep.exec_form() is None or cmd is None:
        # A shell-form ENTRYPOINT ignores CMD.
        return words(ep)
    # An exec-form ENTRYPOINT receives CMD as its arguments.
    cmd_argv = (
        words(cmd)
        if cmd.exec_form() is not None
        else [[("/bin/sh", cmd), ("-c", cmd), (cmd.args, cmd)]]
    )
    return [words(ep)[0] + cmd_argv[0]]


def _directly_executed(argv: _Argv) -> _Argv:
    """The words of one command executed as programs, not handed to an interpreter."""
    out: _Argv = []
    for index, (word, owner) in enumerate(argv):
        if _INTERPRETERS.match(posixpath.basename(word)):
            rest = argv[index + 1 :]
            for flag_index, (flag, _) in enumerate(rest[:-1]):
                if re.fullmatch(r"-[a-zA-Z]*c[a-zA-Z]*", flag):
                    text, text_owner = rest[flag_index + 1]
                    for inner in shell_commands(text):
                        out += _directly_executed([(w, text_owner) for w in inner])
                    break
            return out
        out.append((word, owner))
    return out


def _resolve_command(word: str, image: _Image) -> str | None:
    if "/" in word:
        path = posixpath.normpath(posixpath.join(image.workdir, word))
        return path if path in image.executable else None
    for directory in _PATH_DIRS:
        path = f"{directory}/{word}"
        if path in image.executable:
            return path
    return None
