"""Where each program a service runs is found on a device: one resolver for every run-time check.

A service's argv (its ENTRYPOINT + CMD, or compose ``command``; a wrapper's
program, ``tini -- prog``; every command of an ``sh -c`` string) is
resolved in the image model (:mod:`wendy_llm.docker.image`) over the
agent's ``PATH`` (Wendy run facts, section 9: the agent's ``PATH`` comes
after the image's ``ENV`` and wins):

- ``found``: in an agent-``PATH`` directory, or at the path written, by
  the Dockerfile line that put it there or by the base image's documented
  facts (docs/base-images.md);
- ``image-path``: only in a directory the image's own ``ENV PATH`` adds
  (a virtualenv's ``bin``, a prefix): not found on a device.  Certain for a
  file the model holds or a package named like it (a ``pip install``'s
  argument or a ``-r`` file's line); likely for the main program when a
  virtualenv or prefix there received packages whose console scripts the
  render cannot name (``httpie`` installs ``http``);
- ``absent``: the model is certain nothing provides it (a base image
  documented without it, such as bash on Alpine, and nothing installs it);
- ``unknown``: why (an unseen base image, an opaque ``COPY --from``).

A script is followed wherever it resolves (absolute, ``WORKDIR``-relative,
bare name) when its file comes from the render: its shebang's interpreter
is resolved the same way, then every command it runs, and an ``exec "$@"``
runs the CMD words after it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from wendy_llm import options
from wendy_llm.device.model import Service
from wendy_llm.device.runtime.model import Resolution, ResolutionState
from wendy_llm.device.runtime.scripts import BUILTINS, Script, calls, functions
from wendy_llm.device.runtime.serviceimage import service_model
from wendy_llm.docker.image.facts import Entry, ImageModel, StageImage
from wendy_llm.docker.image.installers import UNKNOWN
from wendy_llm.wendycli.runtime import DEFAULT_PATH_DIRS

#: A word that can name a program (not an option, a number, a pattern or a variable).
_COMMAND_NAME = re.compile(r"^(?!\d+$)[A-Za-z0-9_./][A-Za-z0-9_.+@/-]*$")
#: Said of a CMD an unseen base image's ENTRYPOINT may run otherwise.
UNSEEN_ENTRYPOINT = " (a CMD: the base image's unseen ENTRYPOINT may run it otherwise)"
_SHELL = re.compile(r"^(?:ba|da|a|z|k)?sh$")
_WRAPPERS = {"tini": 0, "tini-static": 0, "dumb-init": 0, "env": 0, "nohup": 0, "setsid": 0}
_WRAPPERS |= {"nice": 0, "exec": 0, "gosu": 1, "su-exec": 1, "timeout": 1, "chroot": 1}


@dataclass(frozen=True)
class ServicePrograms:
    """A service's programs resolved, and the render's scripts it follows."""

    resolutions: tuple[Resolution, ...]
    scripts: tuple[Script, ...]
    stage: StageImage | None  # the built stage's model (None: none: ``why``)
    why: str = ""


@dataclass
class _Resolver:
    tree: Mapping[str, bytes]
    stage: StageImage | None
    why: str
    out: list[Resolution] = field(default_factory=list)
    scripts: list[Script] = field(default_factory=list)
    origin: tuple[str | None, int | None] = (None, None)  # where the argv is written

    def argv(
        self, argv: tuple[str, ...], named_in: str, file: str | None, line: int | None = None
    ) -> None:
        words = list(argv)
        while words and posixpath.basename(words[0]) in _WRAPPERS:
            wrapper = posixpath.basename(words.pop(0))
            while words and (words[0].startswith("-") or (wrapper == "env" and "=" in words[0])):
                words.pop(0)
            del words[: _WRAPPERS[wrapper]]
        if not words:
            return
        program, rest = words[0], words[1:]
        found = self.program(program, named_in, file, line, main=True)
        if _SHELL.match(posixpath.basename(program)) and rest:
            if rest[0] == "-c" and len(rest) > 1:
                unseen = UNSEEN_ENTRYPOINT if named_in.endswith(UNSEEN_ENTRYPOINT) else ""
                how = f"its shell-form command {rest[1]!r}{unseen}"
                for call in calls(rest[1]):
                    self.program(call.program, how, file, line, main=call.execs)
            elif not rest[0].startswith("-"):
                script = self.program(rest[0], f"script run by {program}", file, line, path=True)
                self.follow(script, rest[1:], shebang=False)
            return
        self.follow(found, rest, shebang=True)

    def program(
        self,
        name: str,
        named_in: str,
        file: str | None,
        line: int | None,
        *,
        main: bool = False,
        path: bool = False,
    ) -> Resolution | None:
        if not _COMMAND_NAME.match(name) or name in BUILTINS:
            return None
        resolution = self._resolve(name, named_in, file, line, main=main, path=path)
        self.out.append(resolution)
        return resolution

    def follow(self, found: Resolution | None, rest: list[str], *, shebang: bool) -> None:
        """Read the render's script ``found`` names: its interpreter, its commands."""
        # A few scripts at most: entry scripts call a helper or two, never a tree of them.
        if found is None or found.path is None or self.stage is None or len(self.scripts) > 8:
            return
        entry = self.stage.entry(found.path)
        source = entry.source if entry is not None else None
        if source is None or source not in self.tree or any(s.file == source for s in self.scripts):
            return
        text = self.tree[source].decode("utf-8", "replace")
        self.scripts.append(Script(found.path, source, text))
        first = text.splitlines()[0] if text else ""
        if shebang and first.startswith("#!"):
            words = first[2:].split()
            if words and posixpath.basename(words[0]) == "env" and len(words) > 1:
                words = [w for w in words[1:] if not w.startswith("-")]
            if words:
                self.program(words[0], f"shebang of {source}", source, 1)
        own = functions(text)
        for call in calls(text):
            if call.program in ('"$@"', "$@") and rest:
                self.argv(tuple(rest), f'its CMD, run by exec "$@" of {source}', *self.origin)
            elif call.program not in own and not _loop_variable(call.program, call.text):
                named = f"{source}:{call.line}"
                found = self.program(call.program, named, source, call.line, main=call.execs)
                self.follow(found, [], shebang=True)  # a script it runs, read the same way

    def _resolve(
        self,
        name: str,
        named_in: str,
        file: str | None,
        line: int | None,
        *,
        main: bool,
        path: bool,
    ) -> Resolution:
        ask = _Ask(name, named_in, file, line)
        stage = self.stage
        if stage is None:
            return ask.answer("unknown", None, None, False, self.why)
        base, shown = stage.base, stage.base_image or "an unnamed image"
        documented = f"{shown} holds it (docs/base-images.md)"
        if "/" in name or path:
            target = posixpath.normpath(posixpath.join(stage.workdir, name))
            entry = stage.entry(target)
            if entry is not None:
                return ask.made("found", entry)
            if base is not None and target in base.programs.values():
                return ask.answer("found", target, None, True, documented)
            return self._missing(ask, stage, target, posixpath.basename(target))
        for directory in DEFAULT_PATH_DIRS:
            entry = stage.entry(f"{directory}/{name}")
            if entry is not None:
                return ask.made("found", entry)
        if base is not None and posixpath.dirname(base.programs.get(name, "")) in DEFAULT_PATH_DIRS:
            return ask.answer("found", base.programs[name], None, True, documented)
        package = next((at for pkg, at in stage.packages if pkg == name), None)
        if package is not None:
            note = f"the OS package {name} installed at line {package}"
            return ask.answer("found", None, package, False, note)
        added = [d for d, _ in stage.path_dirs if d not in DEFAULT_PATH_DIRS]
        for directory in added:
            entry = stage.entry(f"{directory}/{name}")
            if entry is not None:
                return ask.made("image-path", entry)
            if base is not None and base.programs.get(name) == f"{directory}/{name}":
                return ask.answer("image-path", f"{directory}/{name}", None, True, documented)
            install = next(
                (
                    i
                    for i in stage.installs
                    if i.bin_dir == directory and _normal(i.package) == _normal(name)
                ),
                None,
            )
            if install is not None:
                note = f"{install.via} at line {install.line}"
                where = f"{directory}/{name}"
                return ask.answer("image-path", where, install.line, install.certain, note)
        if main:
            for directory in added:
                got = [i for i in stage.installs if i.bin_dir == directory]
                if got:
                    names = [i.package for i in got if i.package != UNKNOWN]
                    what = ", ".join(dict.fromkeys(names)) or "packages"
                    note = (
                        f"in no default PATH directory, while {directory} (only on the image's "
                        f"PATH) received {what} at line {got[0].line}: likely a console script "
                        "of one of them"
                    )
                    return ask.answer("image-path", f"{directory}/{name}", got[0].line, False, note)
        return self._missing(ask, stage, None, name)

    @staticmethod
    def _missing(ask: _Ask, stage: StageImage, target: str | None, bare: str) -> Resolution:
        base, shown = stage.base, stage.base_image or "an unnamed image"
        if target is not None and (box := stage.opaque_over(target)) is not None:
            note = f"{box.why} at line {box.line} may put it there"
            return ask.answer("unknown", target, box.line, False, note)
        installed = any(pkg == bare for pkg, _ in stage.packages)
        if base is not None and not installed and (bare in base.lacks or base.complete):
            if bare in base.lacks:
                why = f"{shown} has no {bare} ({base.source})"
            else:
                why = f"{shown} holds nothing but its documented files ({base.source})"
            note = f"{why}, and nothing in the Dockerfile installs it"
            return ask.answer("absent", target, None, True, note)
        if base is None:
            note = f"not made by the Dockerfile; the files of {shown} are unseen"
        else:
            note = f"not made by the Dockerfile; {shown}'s documented facts do not list it"
        return ask.answer("unknown", target, None, False, note)


@dataclass(frozen=True)
class _Ask:
    """A program to resolve, and where the render names it."""

    name: str
    named_in: str
    file: str | None
    line: int | None

    def answer(
        self, state: ResolutionState, path: str | None, at: int | None, certain: bool, note: str
    ) -> Resolution:
        return Resolution(
            self.name, self.named_in, state, path, at, certain, note, self.file, self.line
        )

    def made(self, state: ResolutionState, entry: Entry) -> Resolution:
        note = f"{entry.how} at line {entry.line}"
        return self.answer(state, entry.path, entry.line, entry.certain, note)


_LOOP = re.compile(r"\b(?:for|select)\s+([A-Za-z_][A-Za-z0-9_]*)\b")
#: ``((expr))`` and ``name=(words)``: what is inside is no command.
_NOT_COMMANDS = re.compile(r"\(\((.*?)\)\)|=\(([^)]*)")


def _loop_variable(word: str, text: str) -> bool:
    """Words the script reader takes for a command that are none: a loop's variable
    (``for NAME in``), the first word of an arithmetic ``((...))`` or an array."""
    if ("for" in text or "select" in text) and word in _LOOP.findall(text):
        return True
    if "(" not in text:
        return False
    spans = (part for found in _NOT_COMMANDS.findall(text) for part in found)
    return any(word in span for span in spans)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


_Key = tuple[ImageModel, tuple[str, ...], str, str | None]
_RESOLVED: dict[_Key, ServicePrograms] = {}


def service_programs(service: Service, tree: Mapping[str, bytes]) -> ServicePrograms:
    """How ``service``'s argv resolves on a device, and the scripts it runs.

    Memoised per image model (itself one per content) and argv: every check of a
    service asks, and every pick of a template renders the same services.
    """
    model = service_model(service, tree)
    if isinstance(model, ImageModel):
        argv, named_in = command_of(service, model.built)
        dockerfile = service.build.dockerfile if service.build is not None else None
        key = (model, argv, named_in, dockerfile)
        if key not in _RESOLVED:
            if len(_RESOLVED) >= options.IMAGE_MODELS_CACHED:
                _RESOLVED.pop(next(iter(_RESOLVED)))
            _RESOLVED[key] = _programs(service, tree, model)
        return _RESOLVED[key]
    return _programs(service, tree, model)


def _programs(
    service: Service, tree: Mapping[str, bytes], model: ImageModel | str
) -> ServicePrograms:
    if isinstance(model, str):
        stage, why = None, model
    else:
        stage = model.built
        why = "its Dockerfile's FROM cannot be expanded" if stage is None else ""
    resolver = _Resolver(tree, stage, why)
    argv, named_in = command_of(service, resolver.stage)
    if argv:
        file = service.build.dockerfile if service.build is not None else None
        resolver.origin = (file, _command_line(service, resolver.stage))
        resolver.argv(argv, named_in, *resolver.origin)
    return ServicePrograms(tuple(resolver.out), tuple(resolver.scripts), resolver.stage, why)


def _command_line(service: Service, stage: StageImage | None) -> int | None:
    """The Dockerfile line the argv's program comes from (its ENTRYPOINT, else its CMD)."""
    if stage is None or service.command.source not in ("image", "unknown"):
        return None
    return stage.entrypoint_line or stage.cmd_line


def command_of(service: Service, stage: StageImage | None) -> tuple[tuple[str, ...], str]:
    """The argv the container runs, and how sure that is ("argv", or why it may not be)."""
    command = service.command
    if command.source == "shell":
        # Neither ENTRYPOINT nor CMD: the /bin/sh the view shows is no program the render
        # names (and an image without a command is its own finding): nothing to resolve.
        return (), "its argv"
    if command.argv is not None:
        return command.argv, f"its argv {list(command.argv)}"
    if not command.cmd:
        return (), "its argv"
    base = stage.base if stage is not None else None
    if base is not None and base.entrypoint == () and command.entrypoint is None:
        # The base image is documented without an ENTRYPOINT: the CMD is the argv.
        return command.cmd, f"its argv {list(command.cmd)}"
    return command.cmd, f"its argv {list(command.cmd)}{UNSEEN_ENTRYPOINT}"


def entry_scripts(service: Service, tree: Mapping[str, bytes]) -> list[Script]:
    """The render's scripts ``service``'s argv runs, wherever the resolver finds them."""
    return list(service_programs(service, tree).scripts)
