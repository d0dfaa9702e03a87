"""A locked install whose lockfile is not in the image when the ``RUN`` runs.

For every ``RUN`` of a stage the build runs (and every shell script such a
``RUN`` starts, when the script comes from the build context), each command
is matched against the table of lockfile facts
(:data:`~wendy_llm.validate.dockerfiles.lockfacts.LOCKFILE_FACTS`).  A
matching command needs one of the row's lockfiles in the image at that
point: copied from the build context by an earlier ``COPY``/``ADD`` of the
stage or of a stage it is built ``FROM``, or bound by the ``RUN``'s own
``--mount=type=bind``.  The build context is :class:`BuildContext`'s: a
file its ``.dockerignore`` excludes is not there.  When it is missing the
build fails: an error (a warning where the tool's docs leave it open).
For pip's ``--require-hashes``, every requirement of each ``-r`` file must
carry a ``--hash`` and an ``==`` pin.

What this check cannot see, it does not judge: a stage that copies into
the working directory from another stage or a URL, or an earlier ``RUN``
that names the lockfile or clones a repository (either may have put the
lockfile there).  The working directory is the ``WORKDIR``; a ``cd`` inside
the ``RUN`` is not followed, so a lockfile anywhere in the image counts.
What the image holds before each ``RUN`` is the image model's
(:mod:`wendy_llm.docker.image`): this check keeps no tracker of its own.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from wendy_llm.docker.context import BuildContext
from wendy_llm.docker.image.facts import StageImage
from wendy_llm.docker.image.shell import shell_commands
from wendy_llm.docker.model import Build
from wendy_llm.docker.syntax import Instruction
from wendy_llm.validate.dockerfiles.lockfacts import LockfileFact, matching_fact

#: One problem: line, message, certain (as the dockerfile check merges them).
Problem = tuple[int, str, bool]

_PREFIXES = frozenset({"then", "do", "else", "!", "{", "time", "exec", "sudo", "command", "env"})
_SHELLS = re.compile(r"^(?:sh|bash|dash|ash|zsh|ksh)$")
_HASHED = re.compile(r"--hash[= ]|#(?:sha256|sha384|sha512|md5)=")


@dataclass
class _Image:
    """What the stage's image holds of the build context just before one ``RUN``."""

    landed: dict[str, str] = field(default_factory=dict)  # image path -> context path
    opaque: set[str] = field(default_factory=set)  # directories filled from elsewhere
    workdir: str = "/"
    earlier_runs: list[str] = field(default_factory=list)


def _before(stage: StageImage, ins: Instruction, root: str) -> _Image:
    """The model's view of ``stage`` just before the ``RUN`` ``ins``."""
    prefix = f"{root}/" if root else ""
    landed = {
        path: entry.source[len(prefix) :]
        for path, entry in stage.files_before(ins.line).items()
        if entry.source is not None and entry.source.startswith(prefix)
    }
    opaque = {box.path for box in stage.opaque if box.line < ins.line}
    runs = [run for run in stage.runs if run.line < ins.line]
    own = next((run for run in stage.runs if run.line == ins.line), None)
    workdir = own.workdir if own is not None else stage.workdir
    return _Image(landed, opaque, workdir, [run.text for run in runs])


def lockfile_problems(
    build: Build,
    index: int,
    stage: StageImage,
    context: BuildContext,
    contents: Mapping[str, bytes],
    all_paths: frozenset[str],
) -> set[Problem]:
    """The locked installs of stage ``index`` (modelled by ``stage``) whose lockfile the
    image lacks."""
    problems: set[Problem] = set()
    for ins in build.dockerfile.stages[index].instructions:
        if ins.keyword == "RUN":
            image = _before(stage, ins, context.root)
            judge = _Judge(ins, image, context, contents, all_paths, _bound(ins, context))
            problems |= judge.run(_run_texts(ins))
    return problems


def _run_texts(ins: Instruction) -> list[list[str]]:
    if ins.exec_form:
        words = list(ins.args)
        if len(words) > 2 and _SHELLS.match(posixpath.basename(words[0])) and words[1] == "-c":
            return shell_commands(words[2])
        return [words]
    commands = shell_commands(" ".join(ins.args))
    for heredoc in ins.heredocs:
        commands += shell_commands(heredoc.content)
    return commands


def _bound(ins: Instruction, ctx: BuildContext) -> dict[str, str] | None:
    """What the RUN's ``--mount=type=bind`` mounts of the context show (None: from elsewhere)."""
    out: dict[str, str] = {}
    for mount in ins.flag_values("mount"):
        fields = dict(f.partition("=")[::2] for f in mount.split(","))
        if fields.get("type", "bind") != "bind":
            continue
        if "from" in fields:
            return None
        source = posixpath.normpath("/" + fields.get("source", fields.get("src", "."))).lstrip("/")
        target = fields.get("target", fields.get("dst", fields.get("destination", "/")))
        for path in ctx.files_under(source):
            rel = path[len(source) :].lstrip("/") if source else path
            out[posixpath.normpath(posixpath.join(target, rel or posixpath.basename(path)))] = path
    return out


@dataclass
class _Judge:
    ins: Instruction
    image: _Image
    context: BuildContext
    contents: Mapping[str, bytes]
    all_paths: frozenset[str]
    bound: dict[str, str] | None
    scripts_read: list[str] = field(default_factory=list)

    def run(self, commands: list[list[str]], script: str | None = None) -> set[Problem]:
        problems: set[Problem] = set()
        for words in commands:
            command = _command(words)
            fact = matching_fact(command)
            if fact is not None:
                problems |= self._judge(fact, command, script)
            elif script is None:
                for path in self._scripts_run(command):
                    text = self.contents.get(path, b"").decode("utf-8", "replace")
                    self.scripts_read.append(text)
                    problems |= self.run(shell_commands(text), path)
        return problems

    def _scripts_run(self, command: list[str]) -> Iterator[str]:
        """The context scripts a command runs (``./install.sh``, ``sh /tmp/setup.sh``)."""
        if not command:
            return
        words = command[1:2] if _SHELLS.match(posixpath.basename(command[0])) else command[:1]
        for word in words:
            image_path = posixpath.normpath(posixpath.join(self.image.workdir, word))
            rel = self._files().get(image_path)
            if rel is not None:
                yield self._tree_path(rel)

    def _files(self) -> dict[str, str]:
        return {**self.image.landed, **(self.bound or {})}

    def _tree_path(self, rel: str) -> str:
        return posixpath.join(self.context.root, rel) if self.context.root else rel

    def _judge(self, fact: LockfileFact, command: list[str], script: str | None) -> set[Problem]:
        if self.bound is None or self._unseen(fact):
            return set()
        shown = " ".join(command)
        where = f"script {script} (run at line {self.ins.line})" if script else "RUN"
        if fact.needs == "hashes":
            message = self._unhashed(command)
            if message is None:
                return set()
        else:
            if any(_has(self._files(), name) for name in fact.lockfiles):
                return set()
            message = f"needs {' or '.join(fact.lockfiles)}, which {self._why(fact)}"
        verdict = "the build fails" if fact.certain else "the build may fail"
        text = (
            f"{where} `{shown}` {message}: {verdict} ({fact.tool}: {fact.behaviour}; {fact.docs})"
        )
        return {(self.ins.line, text, fact.certain)}

    def _unseen(self, fact: LockfileFact) -> bool:
        """Something this check cannot follow may have put the lockfile there."""
        workdir = self.image.workdir
        for directory in self.image.opaque:
            if workdir == directory or workdir.startswith(directory.rstrip("/") + "/"):
                return True
        names = [posixpath.basename(n) for n in fact.lockfiles]
        # A test in the same RUN (``if [ -f package-lock.json ]; then npm ci``) counts too.
        own = " ".join(self.ins.args) + "".join(h.content for h in self.ins.heredocs)
        earlier = "\n".join([*self.image.earlier_runs, own, *self.scripts_read])
        return "git clone" in earlier or any(name in earlier for name in names)

    def _why(self, fact: LockfileFact) -> str:
        in_context = sorted(
            p for p in self.context.files if any(_named(p, n) for n in fact.lockfiles)
        )
        if in_context:
            has = f"the build context has {in_context[0]}"
            return f"no COPY before line {self.ins.line} puts in the image ({has})"
        root = f"{self.context.root}/" if self.context.root else ""
        ignored = [
            p
            for p in self.all_paths
            if p.startswith(root) and any(_named(p, n) for n in fact.lockfiles)
        ]
        if ignored:
            return f"the build context lacks: .dockerignore excludes {sorted(ignored)[0]}"
        shown = self.context.root or "."
        return f"the build context ({shown}) does not hold"

    def _unhashed(self, command: list[str]) -> str | None:
        """Why pip's hash-checking mode refuses the requirements, or None."""
        files = _requirement_files(command)
        positional = [w for w in _pip_args(command) if not w.startswith("-")]
        if positional:
            return f"names {positional[0]} on the command line, where it cannot carry a --hash"
        for name in files:
            image_path = posixpath.normpath(posixpath.join(self.image.workdir, name))
            rel = self._files().get(image_path)
            data = self.contents.get(self._tree_path(rel)) if rel is not None else None
            if data is None:
                continue  # not in the image: the missing file is its own failure
            shown = self._tree_path(rel or name)
            for number, requirement in _requirements(data.decode("utf-8", "replace")):
                what = f"reads {shown}, whose line {number} ({requirement.split()[0]})"
                if not _HASHED.search(requirement):
                    return f"{what} has no --hash"
                if "==" not in requirement and "://" not in requirement:
                    return f"{what} is not pinned with =="
        return None


def _command(words: list[str]) -> list[str]:
    out = list(words)
    while out and (out[0] in _PREFIXES or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", out[0])):
        out = out[1:]
    return out


def _has(files: Mapping[str, str], name: str) -> bool:
    return any(_named(path, name) for path in files)


def _named(path: str, name: str) -> bool:
    return path == name or path.endswith("/" + name)


def _pip_args(command: list[str]) -> list[str]:
    """pip's arguments after ``install``, without option values."""
    index = command.index("install") + 1 if "install" in command else len(command)
    out: list[str] = []
    skip = False
    for word in command[index:]:
        if skip:
            skip = False
        elif word in (
            "-r",
            "--requirement",
            "-c",
            "--constraint",
            "-i",
            "--index-url",
            "-t",
            "--target",
            "--extra-index-url",
            "-f",
            "--find-links",
        ):
            skip = True
        else:
            out.append(word)
    return out


def _requirement_files(command: list[str]) -> list[str]:
    files = []
    for index, word in enumerate(command):
        if word in ("-r", "--requirement") and index + 1 < len(command):
            files.append(command[index + 1])
        elif word.startswith("--requirement="):
            files.append(word.partition("=")[2])
        elif word.startswith("-r") and len(word) > 2:
            files.append(word[2:])
    return files


def _requirements(text: str) -> Iterator[tuple[int, str]]:
    """The requirement lines of a requirements file (continuations joined), with line numbers."""
    pending = ""
    start = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not pending:
            start = number
        stripped = re.sub(r"(^|\s)#.*$", "", line).strip()
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        requirement = (pending + stripped).strip()
        pending = ""
        if requirement and not requirement.startswith("-"):
            yield start, requirement
