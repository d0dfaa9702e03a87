"""A template's files, manifests and rendering: the data :class:`Template` builds on.

Everything derivable from the files alone is computed once: the file list in
walk order, which files are rendered, the output path of each file for an
app id. A render is one value assembly plus one ``Renderer.render_many``
batch. Picks and lints are functions over this class (``picks.py``,
``lint.py``); ``template.py`` binds them as methods.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from wendy_llm import options
from wendy_llm.arguments import checked, checked_except
from wendy_llm.engine.wire import RenderJob
from wendy_llm.errors import (
    AppIdError,
    DataTypeError,
    ManifestError,
    OutputTooLarge,
    PathCollisionError,
    RenderError,
    TemplateError,
    TemplateLoadError,
    ValuesError,
    quoted,
)
from wendy_llm.render.files.readdir import SkippedEntry
from wendy_llm.render.files.tree import (
    RenderedFile,
    RenderedTree,
    is_excluded,
    is_rendered,
    output_path,
    path_conflict,
    walk_key,
)
from wendy_llm.render.manifest.load import (
    MANIFEST_FILE,
    PICKER_FILE,
    Manifest,
    Picker,
    load_manifest,
    load_picker,
)
from wendy_llm.render.values import build_values

#: An override's value: the text of a ``--var``, or the number or boolean it spells.
OverrideValue = str | int | float | bool

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final

    from wendy_llm.engine.client import Renderer

_OUTPUT_CACHE_SIZE = 16


class SourceFile:
    """A template file that is part of the output (manifests excluded); a plain
    class (see :class:`~wendy_llm.render.lintwarning.LintWarning`).

    ``verbatim``: its render is its own bytes, whatever the values: a copied
    file, or a rendered one without ``{{`` (Go's ``text/template`` parses
    such a text into one text node, which it writes as it is), so the
    engine is not asked (a lockfile or an SVG costs nothing per pick).
    """

    __slots__ = ("data", "path", "rendered", "verbatim")

    def __init__(self, path: str, data: bytes, rendered: bool) -> None:
        self.path: Final = path
        self.data: Final = data
        self.rendered: Final = rendered
        self.verbatim: Final = not rendered or b"{{" not in data

    def __repr__(self) -> str:
        return f"SourceFile(path={self.path!r}, rendered={self.rendered!r})"


class TemplateSource:
    """A template's files and manifests, and rendering them; :class:`Template`
    adds its picks and lints."""

    @checked
    def __init__(
        self,
        *,
        id: str,
        name: str,
        root: Path | None,
        files: Mapping[str, bytes],
        skipped: Sequence[SkippedEntry] = (),
    ) -> None:
        where = _shown(root) if root is not None else id
        if MANIFEST_FILE not in files:
            raise TemplateLoadError(f"{where}: no {MANIFEST_FILE}: not a template", file=where)
        self.id = id
        self.name = name
        self.root = root
        #: How messages name the template: its directory, else its id.
        self.where = where
        #: Entries of the directory that are not regular files: not output, not read.
        self.skipped: tuple[SkippedEntry, ...] = tuple(skipped)
        try:
            self.manifest, self.picker = _load_manifests(files)
        except (ManifestError, TemplateLoadError) as exc:
            raise exc.in_template(id) from None
        self._all_files = dict(sorted(files.items(), key=lambda kv: walk_key(kv[0])))
        self.sources: tuple[SourceFile, ...] = tuple(
            SourceFile(path=path, data=data, rendered=is_rendered(path))
            for path, data in self._all_files.items()
            if not is_excluded(path)
        )
        # lru_cache is thread-safe, unlike a hand-rolled dict with eviction:
        # property tests render from many threads with many app ids.
        self._outputs = functools.lru_cache(maxsize=_OUTPUT_CACHE_SIZE)(self._output_paths)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.id!r})"

    @property
    def files(self) -> Mapping[str, bytes]:
        """Every file of the template (manifests included), in walk order."""
        return self._all_files

    @checked_except("app_id", "overrides")
    def values(
        self,
        app_id: str,
        overrides: Mapping[str, OverrideValue] | None = None,
        *,
        strict: bool = True,
    ) -> dict[str, object]:
        """The data map `wendy init` would render with (see ``values.py``;
        typed overrides: ``overrides.py``)."""
        try:
            return build_values(self.manifest, self.picker, app_id, overrides, strict=strict)
        except (ValuesError, DataTypeError) as exc:  # not the engine's own failures
            raise exc.in_template(self.id) from None

    @checked
    def output_paths(self, app_id: str) -> tuple[str | None, ...]:
        """Output path of each of ``sources`` for this app id (None: dropped)."""
        return self._outputs(app_id)

    def _output_paths(self, app_id: str) -> tuple[str | None, ...]:
        return tuple(output_path(s.path, self.name, app_id) for s in self.sources)

    @checked_except("app_id", "overrides")
    def render(
        self,
        app_id: str,
        overrides: Mapping[str, OverrideValue] | None = None,
        *,
        strict: bool = True,
        renderer: Renderer | None = None,
    ) -> RenderedTree:
        """Render the whole tree; raises ``RenderError`` for the first file
        (in walk order) that fails, as the CLI stops there."""
        values = self.values(app_id, overrides, strict=strict)
        return self.render_values(values, renderer=renderer)

    @checked_except("values")  # checked below; the engine names a bad value by its key path
    def render_values(
        self, values: Mapping[str, object], *, renderer: Renderer | None = None
    ) -> RenderedTree:
        """Render with a ready data map (``values["APP_ID"]`` names paths)."""
        if not isinstance(values, Mapping) or not isinstance(values.get("APP_ID"), str):
            raise AppIdError("the data map has no APP_ID string: build it with values()")
        app_id = str(values["APP_ID"])
        results = self.render_sources(values, renderer=renderer)
        files: dict[str, RenderedFile] = {}
        for source, out, result in zip(
            self.sources, self.output_paths(app_id), results, strict=True
        ):
            if isinstance(result, TemplateError):
                raise RenderError.of(result, template=self.id)
            if out is None:
                continue
            files.pop(out, None)  # a later file on the same path wins
            files[out] = RenderedFile(
                path=out,
                data=result,
                rendered=source.rendered,
                source=source.path,
                verbatim=result is source.data or result == source.data,
            )
        try:
            _refuse_collisions(files, app_id)
        except PathCollisionError as exc:
            raise exc.in_template(self.id) from None
        return RenderedTree(files, template_root=self.root)

    @checked_except("values")
    def render_sources(
        self, values: Mapping[str, object], *, renderer: Renderer | None = None
    ) -> list[bytes | TemplateError]:
        """Each source's bytes (copied files as they are) or its engine error."""
        (results,) = render_many_values(self, [values], renderer=renderer)
        rendered = iter(results)
        return [next(rendered) if s.rendered else s.data for s in self.sources]


def _shown(root: Path) -> str:
    """How messages name a template directory: relative to the working directory
    when below it (a repository's own path, never the host's checkout path)."""
    try:
        relative = os.path.relpath(root)
    except ValueError:
        return str(root)
    return str(root) if relative.startswith("..") else relative


def _load_manifests(files: Mapping[str, bytes]) -> tuple[Manifest, Picker | None]:
    """``template.json`` and the picker; a manifest too large to be one is
    refused before decoding it takes the memory."""
    for file in (MANIFEST_FILE, PICKER_FILE):
        size = len(files.get(file, b""))
        if size > options.MANIFEST_MAX_BYTES:
            raise ManifestError(
                f"{file}: {size} bytes, more than the {options.MANIFEST_MAX_BYTES} a"
                " manifest may have",
                file=file,
            )
    manifest = load_manifest(files[MANIFEST_FILE])
    if len(manifest.variables) > options.MANIFEST_MAX_VARIABLES:
        raise ManifestError(
            f"{MANIFEST_FILE}: variables: {len(manifest.variables)} variables, more"
            f" than the {options.MANIFEST_MAX_VARIABLES} a template may have",
            file=MANIFEST_FILE,
            json_path="variables",
        )
    picker_data = files.get(PICKER_FILE)
    return manifest, None if picker_data is None else load_picker(picker_data)


def _shared_renderer() -> Renderer:
    # lazy: the engine's process handling (subprocess, threads, the toolchain)
    # costs a command 5 ms to import; listing picks never renders.
    from wendy_llm.engine.client import shared_renderer

    return shared_renderer()


def _refuse_collisions(files: Mapping[str, RenderedFile], app_id: str) -> None:
    """A file where another file needs a directory fails in ``wendy init`` too:
    name both template paths and the app id before anything is written."""
    conflict = path_conflict(files)
    if conflict is None:
        return
    file, other = (files[path] for path in conflict)
    raise PathCollisionError(
        f"app id {quoted(app_id)} makes two template paths collide: {file.source} is "
        f"written as the file {file.path}, and {other.source} as {other.path}, inside it "
        "(wendy init fails here too); choose another app id",
        file=file.source,
        other=other.source,
        app_id=app_id,
    )


def render_many_values(
    template: TemplateSource,
    value_maps: Sequence[Mapping[str, object]],
    *,
    renderer: Renderer | None = None,
) -> list[list[bytes | TemplateError]]:
    """Render the rendered sources for several data maps in one engine batch."""
    rendered_sources = [s for s in template.sources if s.rendered]
    active = [s for s in rendered_sources if not s.verbatim]
    jobs = [
        RenderJob(text=s.data, data=values, name=s.path) for values in value_maps for s in active
    ]
    results: list[bytes | TemplateError] = []
    if jobs:
        engine = renderer if renderer is not None else _shared_renderer()
        try:
            results = engine.render_many(jobs)
        except OutputTooLarge as exc:  # the engine knows the file, not the template
            raise exc.in_template(template.id) from None
    width = len(active)
    out: list[list[bytes | TemplateError]] = []
    for index in range(len(value_maps)):
        engine_results = iter(results[index * width : (index + 1) * width])
        out.append([s.data if s.verbatim else next(engine_results) for s in rendered_sources])
    return out
