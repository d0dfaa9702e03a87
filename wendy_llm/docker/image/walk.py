"""Building the image model: every stage of a Dockerfile walked in order, once per content.

A stage built ``FROM`` an earlier stage starts with everything that stage
holds; ``FROM`` an image it starts with that image's documented facts
(:mod:`~wendy_llm.docker.image.bases`) and no entries.  ``WORKDIR`` makes
its directory; ``ENV PATH`` sets the image's ``PATH``; ``COPY``/``ADD``
from the build context (its ``.dockerignore`` applied) land their files
with the mode ``--chmod`` gives (``wendy init`` writes 0644), ``--from`` a
stage copies that stage's entries (mode and linkage kept), ``--from`` an
image, a URL or an archive fill an opaque directory; ``RUN`` is read by
:mod:`runwrites`, :mod:`installers` and :mod:`linked`.  The model is
memoised by content: the Dockerfile's text, the build arguments, the
context's files and the contents of its small files.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping

from wendy_llm import options
from wendy_llm.docker.context import BuildContext
from wendy_llm.docker.expand import ExpansionError, Variables, exact_word
from wendy_llm.docker.image.bases import base_facts
from wendy_llm.docker.image.facts import Entry, EntryKind, ImageModel, Opaque, Run, StageImage
from wendy_llm.docker.image.installers import Reader, apply_installers
from wendy_llm.docker.image.linked import toolchain_outputs
from wendy_llm.docker.image.runwrites import Word, apply_command, execute_effect
from wendy_llm.docker.image.shell import shell_commands
from wendy_llm.docker.image.state import State
from wendy_llm.docker.model import SCRATCH, Build
from wendy_llm.docker.syntax import Instruction

_ARCHIVE = re.compile(r"\.(?:tar|tgz|tbz2?|txz|tar\.(?:gz|bz2|xz|zst))$")
Contents = tuple[tuple[str, bytes], ...]  # (tree path, bytes) of the context's small files


_Key = tuple[str, tuple[tuple[str, str], ...], str, frozenset[str], frozenset[str], Contents]
_MODELS: dict[_Key, ImageModel] = {}


def image_model(
    build: Build,
    text: str,
    context: BuildContext | None,
    contents: Contents = (),
) -> ImageModel:
    """The model of ``build`` (the Dockerfile ``text`` with its build arguments) from
    ``context``: built once per distinct content (every pick renders the same
    Dockerfiles, and the Dockerfile check and the device view both ask)."""
    root = context.root if context else "\0"  # no context: nothing is copied from one
    files = context.files if context else frozenset()
    dirs = context.dirs if context else frozenset()
    key = (text, tuple(sorted(build.build_args.items())), root, files, dirs, contents)
    model = _MODELS.get(key)
    if model is None:
        if len(_MODELS) >= options.IMAGE_MODELS_CACHED:
            _MODELS.pop(next(iter(_MODELS)))
        model = _MODELS[key] = _walk(build, context, contents)
    return model


def _walk(build: Build, context: BuildContext | None, contents: Contents) -> ImageModel:
    stages: list[StageImage | None] = []
    for stage in build.dockerfile.stages:
        try:
            stages.append(_Walker(build, stages, context, dict(contents)).stage(stage.index))
        except ExpansionError:
            stages.append(None)
    return ImageModel(tuple(stages), build.target() if stages else 0)


class _Walker:
    def __init__(
        self,
        build: Build,
        done: list[StageImage | None],
        context: BuildContext | None,
        contents: Mapping[str, bytes],
    ) -> None:
        self.build = build
        self.done = done
        self.context = context
        self.contents = contents
        self.escape = build.dockerfile.escape

    def stage(self, index: int) -> StageImage:
        base = self.build.base(index)
        parent = self.done[base.stage] if base.stage is not None else None
        if parent is not None:
            state, image, facts = State.inherit(parent), parent.base_image, parent.base
        else:
            image = base.expansion.text if base.expansion.exact else None
            facts = base_facts(image) if base.stage is None else None
            state = State()
            if facts is not None:
                state.path_dirs = [(d, 0) for d in facts.path]
            state.path_known = facts is not None
            if image is not None and image.lower() == SCRATCH:
                state.dirs = {"/"}
        self.state = state
        self.facts = facts
        cmd_here = False
        for ins, scope in self.build.scopes(index):
            self._apply(ins, scope)
            if ins.keyword == "CMD":
                state.cmd_line, cmd_here = ins.line, True
            elif ins.keyword == "ENTRYPOINT":
                state.entrypoint_line = ins.line
                if not cmd_here:
                    state.cmd_line = None  # BuildKit clears an inherited CMD (docker/command.py)
        return state.freeze(index, image, facts)

    def _word(self, scope: Variables) -> Word:
        def word(text: str) -> str | None:
            if not any(c in text for c in "$'\"\\"):
                return text
            return exact_word(text, scope, self.escape)

        return word

    def _apply(self, ins: Instruction, scope: Variables) -> None:
        state, word = self.state, self._word(scope)
        if ins.keyword == "WORKDIR" and ins.args:
            workdir = word(ins.args[0])
            if workdir is not None:
                state.workdir = state.absolute(workdir)
                state.make_dir(state.workdir, ins.line, "WORKDIR")
        elif ins.keyword == "ENV":
            for key, raw in zip(ins.args[::2], ins.args[1::2], strict=False):
                if key == "PATH":
                    self._path(raw, ins.line, word)
        elif ins.keyword in ("COPY", "ADD") and len(ins.args) >= 2:
            self._copy(ins, word)
        elif ins.keyword == "RUN":
            self._run(ins, scope, word)

    def _path(self, raw: str, line: int, word: Word) -> None:
        state = self.state
        out: list[tuple[str, int]] = []
        spliced = False
        if len(raw) > 1 and raw[0] == raw[-1] and raw[0] in "\"'":
            raw = raw[1:-1]
        for part in raw.split(":"):
            if part in ("$PATH", "${PATH}"):
                out += state.path_dirs
                spliced = True
            elif part:
                value = word(part)
                if value is not None:
                    out.append((value, line))
        state.path_dirs = list(dict.fromkeys(out))
        state.path_known = state.path_known or not spliced

    def _copy(self, ins: Instruction, word: Word) -> None:
        state = self.state
        *sources, raw_dest = ins.args
        dest = word(raw_dest)
        if dest is None:
            return
        mode = ins.flag("chmod")
        effect = execute_effect(word(mode) or "") if mode is not None else None
        dest_abs = state.absolute(dest)
        into_dir = dest.endswith("/") or len(sources) > 1 or dest_abs in state.dirs
        from_ref = ins.flag("from")

        def land(rel: str) -> str:
            return posixpath.normpath(posixpath.join(dest_abs, rel) if into_dir else dest_abs)

        for raw in sources:
            if raw.startswith("<<"):
                name = raw[2:].lstrip("-").strip("\"'")
                state.put(Entry(land(name), "file", ins.line, "COPY <<", True, effect is True))
                continue
            source = word(raw)
            remote = source is None or "://" in source or source.startswith("git@")
            if from_ref is not None:
                self._copy_from(ins, word(from_ref), source, dest_abs, into_dir, effect)
            elif remote:
                state.opaque.append(Opaque(dest_abs, ins.line, f"{ins.keyword} {raw}"))
            elif ins.keyword == "ADD" and source is not None and _ARCHIVE.search(source):
                why = f"ADD {raw} (an archive, unpacked)"
                state.opaque.append(Opaque(dest_abs, ins.line, why))
            elif source is not None and self.context is not None:
                self._copy_context(ins, source, land, dest_abs, effect)
        if into_dir:
            state.make_dir(dest_abs, ins.line, ins.keyword)

    def _copy_context(
        self,
        ins: Instruction,
        source: str,
        land: Callable[[str], str],
        dest_abs: str,
        effect: bool | None,
    ) -> None:
        context = self.context
        assert context is not None
        resolved = context.resolve(source)
        prefix = f"{context.root}/" if context.root else ""
        for match in resolved.matches:
            single_file = match in context.files and not resolved.wildcard
            for path in context.files_under(match):
                if single_file:
                    target = land(posixpath.basename(path))
                elif path == match:
                    target = posixpath.join(dest_abs, posixpath.basename(path))
                else:
                    target = posixpath.join(dest_abs, path[len(match) :].lstrip("/"))
                entry = Entry(
                    posixpath.normpath(target),
                    "file",
                    ins.line,
                    ins.keyword,
                    True,
                    effect is True,
                    source=prefix + path,
                )
                self.state.put(entry)

    def _copy_from(
        self,
        ins: Instruction,
        ref: str | None,
        source: str | None,
        dest_abs: str,
        into_dir: bool,
        effect: bool | None,
    ) -> None:
        state = self.state
        state.opaque.append(Opaque(dest_abs, ins.line, f"COPY --from={ref}"))
        index = self.build.stage_ref(ref) if ref is not None else None
        other = self.done[index] if index is not None and index < len(self.done) else None
        if source is None or other is None:
            return
        path = posixpath.normpath(posixpath.join("/", source))
        land = posixpath.join(dest_abs, posixpath.basename(path)) if into_dir else dest_abs
        found = [e for p, e in other.entries.items() if p == path or p.startswith(path + "/")]
        output = next(
            (o for o in reversed(other.outputs) if path == o.path or path.startswith(o.path + "/")),
            None,
        )
        how = f"COPY --from={ref} {source}"
        if not found:
            # Unseen content (a build's output): a directory of it keeps what it needs.
            kind: EntryKind = "dir" if output is not None and output.path == path else "file"
            found = [Entry(path, kind, ins.line, how, True, None)]
        for entry in found:
            rel = entry.path[len(path) :].lstrip("/")
            target = posixpath.normpath(posixpath.join(land, rel)) if rel else land
            needs = entry.needs or (output.needs if output else None)
            built_at = entry.built_at or (output.how if output else None)
            mode = entry.executable if effect is None else effect
            state.put(
                Entry(target, entry.kind, ins.line, how, entry.certain, mode, entry.source,
                      None, needs, built_at)
            )  # fmt: skip

    def _run(self, ins: Instruction, scope: Variables, word: Word) -> None:
        state = self.state
        text = " ".join(ins.args) + "".join("\n" + h.content for h in ins.heredocs)
        if ins.exec_form:
            commands = [list(ins.args)]
        else:
            commands = shell_commands(" ".join(ins.args))
            for heredoc in ins.heredocs:
                commands += shell_commands(heredoc.content)
        bound = self._bound(ins)
        cgo = word("$CGO_ENABLED") if "CGO_ENABLED" in scope.values else None
        cwd = state.workdir
        for words in commands:
            apply_installers(words, state, cwd, ins.line, word, self._reader(bound))
            state.outputs += toolchain_outputs(words, cwd, ins.line, word, self.facts, cgo)
            cwd = apply_command(words, state, cwd, ins.line, word)
        state.runs.append(Run(ins.line, text, state.workdir))

    def _bound(self, ins: Instruction) -> dict[str, str]:
        """Image path -> tree path of the files a ``--mount=type=bind`` of the context shows."""
        out: dict[str, str] = {}
        context = self.context
        if context is None:
            return out
        for mount in ins.flag_values("mount"):
            fields = dict(f.partition("=")[::2] for f in mount.split(","))
            if fields.get("type", "bind") != "bind" or "from" in fields:
                continue
            source = posixpath.normpath("/" + fields.get("source", fields.get("src", ".")))
            source = source.lstrip("/")
            target = fields.get("target", fields.get("dst", fields.get("destination", "/")))
            prefix = f"{context.root}/" if context.root else ""
            for path in context.files_under(source):
                rel = path[len(source) :].lstrip("/") if source else path
                image = posixpath.normpath(posixpath.join(target, rel or posixpath.basename(path)))
                out[image] = prefix + path
        return out

    def _reader(self, bound: Mapping[str, str]) -> Reader:
        def read(path: str) -> str | None:
            entry = self.state.entries.get(path)
            source = entry.source if entry is not None else bound.get(path)
            data = self.contents.get(source) if source is not None else None
            return data.decode("utf-8", "replace") if data is not None else None

        return read
