"""A Wendy template: loading it and rendering it exactly as `wendy init` does.

``load_template(dir)`` reads a template directory into memory (a snapshot:
later edits on disk are not seen); ``template_from_files(name, files)``
builds one from a path -> bytes mapping (e.g. a git revision).  Finding
templates in a repository is :mod:`wendy_llm.repo.layout`'s job.

Everything derivable from the files alone is computed once per
``Template``: the file list in walk order, which files are rendered, the
output path of each file for an app id, the picks.  A render is then one
value assembly plus one ``Renderer.render_many`` batch.

Assumptions where the spec is silent:

- A template's *name* (the path component replaced by the app id) is the
  directory's name; for ``template_from_files("python/llm", ...)`` it is
  the last component (``llm``) and the id the whole string.
- A template root given as a symbolic link is followed (the CLI never sees
  one: it reads templates from its own checkout).  Links and other
  entries that are not regular files below it are skipped, and listed in
  ``Template.skipped`` with the reason; ``lint()`` reports each as a
  ``skipped-entry`` warning (see ``readdir.py``).
- ``template_from_files`` keys are POSIX paths relative to the root; keys
  that are absolute or climb out of it are ignored, others are cleaned
  (``./a`` -> ``a``).
"""

from __future__ import annotations

import functools
import os
import posixpath
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wendy_llm.engine.client import Renderer, RenderJob, shared_renderer
from wendy_llm.errors import (
    PathCollisionError,
    RenderError,
    TemplateError,
    TemplateLoadError,
    quoted,
)
from wendy_llm.render.manifest import (
    MANIFEST_FILE,
    PICKER_FILE,
    Manifest,
    Picker,
    load_manifest,
    load_picker,
)
from wendy_llm.render.readdir import SkippedEntry, check_manifest_file, read_template_dir
from wendy_llm.render.tree import (
    RenderedFile,
    RenderedTree,
    is_excluded,
    is_rendered,
    output_path,
    path_conflict,
    walk_key,
)
from wendy_llm.render.values import build_values

if TYPE_CHECKING:
    from wendy_llm.render.lint import LintWarning
    from wendy_llm.render.picks import Pick

_OUTPUT_CACHE_SIZE = 16


@dataclass(frozen=True)
class SourceFile:
    """A template file that is part of the output (manifests excluded)."""

    path: str
    data: bytes
    rendered: bool


class Template:
    """One template.  Build it with ``load_template``, ``template_from_files``
    or :func:`wendy_llm.repo.layout.discover_templates`."""

    def __init__(
        self,
        *,
        id: str,
        name: str,
        root: Path | None,
        files: Mapping[str, bytes],
        skipped: Sequence[SkippedEntry] = (),
    ) -> None:
        if MANIFEST_FILE not in files:
            where = str(root) if root is not None else id
            raise TemplateLoadError(f"{where}: no {MANIFEST_FILE}: not a template", path=where)
        self.id = id
        self.name = name
        self.root = root
        #: Entries of the directory that are not regular files: not output, not read.
        self.skipped: tuple[SkippedEntry, ...] = tuple(skipped)
        self.manifest: Manifest = load_manifest(files[MANIFEST_FILE])
        picker_data = files.get(PICKER_FILE)
        self.picker: Picker | None = None if picker_data is None else load_picker(picker_data)
        self._all_files = dict(sorted(files.items(), key=lambda kv: walk_key(kv[0])))
        self.sources: tuple[SourceFile, ...] = tuple(
            SourceFile(path=path, data=data, rendered=is_rendered(path))
            for path, data in self._all_files.items()
            if not is_excluded(path)
        )
        # lru_cache is thread-safe, unlike a hand-rolled dict with eviction:
        # property tests render from many threads with many app ids.
        self._outputs = functools.lru_cache(maxsize=_OUTPUT_CACHE_SIZE)(self._output_paths)
        self._picks: list[Pick] | None = None

    def __repr__(self) -> str:
        return f"Template({self.id!r})"

    @property
    def files(self) -> Mapping[str, bytes]:
        """Every file of the template (manifests included), in walk order."""
        return self._all_files

    def values(
        self, app_id: str, overrides: Mapping[str, str] | None = None, *, strict: bool = True
    ) -> dict[str, object]:
        """The data map `wendy init` would render with (see ``values.py``)."""
        return build_values(self.manifest, self.picker, app_id, overrides, strict=strict)

    def output_paths(self, app_id: str) -> tuple[str | None, ...]:
        """Output path of each of ``sources`` for this app id (None: dropped)."""
        return self._outputs(app_id)

    def _output_paths(self, app_id: str) -> tuple[str | None, ...]:
        return tuple(output_path(s.path, self.name, app_id) for s in self.sources)

    def render(
        self,
        app_id: str,
        overrides: Mapping[str, str] | None = None,
        *,
        strict: bool = True,
        renderer: Renderer | None = None,
    ) -> RenderedTree:
        """Render the whole tree; raises ``RenderError`` for the first file
        (in walk order) that fails, as the CLI stops there."""
        values = self.values(app_id, overrides, strict=strict)
        return self.render_values(values, renderer=renderer)

    def render_values(
        self, values: Mapping[str, object], *, renderer: Renderer | None = None
    ) -> RenderedTree:
        """Render with a ready data map (``values["APP_ID"]`` names paths)."""
        app_id = str(values["APP_ID"])
        results = self.render_sources(values, renderer=renderer)
        files: dict[str, RenderedFile] = {}
        for source, out, result in zip(
            self.sources, self.output_paths(app_id), results, strict=True
        ):
            if isinstance(result, TemplateError):
                raise RenderError(path=source.path, cause=result)
            if out is None:
                continue
            files.pop(out, None)  # a later file on the same path wins
            files[out] = RenderedFile(
                path=out, data=result, rendered=source.rendered, source=source.path
            )
        _refuse_collisions(files, app_id)
        return RenderedTree(files, template_root=self.root)

    def render_sources(
        self, values: Mapping[str, object], *, renderer: Renderer | None = None
    ) -> list[bytes | TemplateError]:
        """Each source's bytes (copied files as they are) or its engine error."""
        engine = renderer if renderer is not None else shared_renderer()
        jobs = [
            RenderJob(text=s.data, data=values, name=s.path) for s in self.sources if s.rendered
        ]
        rendered: Iterator[bytes | TemplateError] = iter(engine.render_many(jobs) if jobs else [])
        return [next(rendered) if s.rendered else s.data for s in self.sources]

    def picks(self) -> list[Pick]:
        """Every reachable set of picker answers (see ``picks.py``)."""
        if self._picks is None:
            from wendy_llm.render.picks import enumerate_picks

            self._picks = enumerate_picks(self)
        return list(self._picks)

    def pick(self, slug: str) -> Pick:
        """The pick with this slug (``PickError`` when there is none)."""
        from wendy_llm.render.picks import find_pick

        return find_pick(self, slug)

    def lint(
        self, renderer: Renderer | None = None, *, values: Mapping[str, str] | None = None
    ) -> list[LintWarning]:
        """Warnings about constructs that make `wendy init` misbehave, after the
        ``skipped-entry`` warnings of :meth:`skipped_warnings`.  ``values``
        (``--var`` answers) are given to every pick the render lints try."""
        from wendy_llm.render.lint import lint_template

        return self.skipped_warnings() + lint_template(self, renderer=renderer, values=values)

    def skipped_warnings(self) -> list[LintWarning]:
        """A ``skipped-entry`` warning for each of ``skipped`` (cheap: no render)."""
        from wendy_llm.render.lint import LintWarning

        return [LintWarning(s.path, None, "skipped-entry", s.reason) for s in self.skipped]


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


def load_template(path: str | os.PathLike[str], *, id: str | None = None) -> Template:
    """Load the template in directory ``path`` (its ``template.json`` and
    optional ``template.schema.json`` are validated)."""
    root = Path(path).resolve()
    if not root.is_dir():
        raise TemplateLoadError(f"{path}: not a directory", path=str(path))
    check_manifest_file(root, str(path))
    files, skipped = read_template_dir(root)
    return Template(id=id or root.name, name=root.name, root=root, files=files, skipped=skipped)


def template_from_files(name: str, files: Mapping[str, bytes]) -> Template:
    """A template from path -> bytes (manifests included), e.g. from git."""
    cleaned: dict[str, bytes] = {}
    for key, data in files.items():
        norm = posixpath.normpath(key)
        if key.startswith("/") or norm in (".", "..") or norm.startswith("../"):
            continue
        cleaned[norm] = data
    short = name.rstrip("/").rsplit("/", 1)[-1]
    return Template(id=name, name=short, root=None, files=cleaned)


def render_many_values(
    template: Template,
    value_maps: Sequence[Mapping[str, object]],
    *,
    renderer: Renderer | None = None,
) -> list[list[bytes | TemplateError]]:
    """Render the rendered sources for several data maps in one engine batch."""
    engine = renderer if renderer is not None else shared_renderer()
    rendered_sources = [s for s in template.sources if s.rendered]
    jobs = [
        RenderJob(text=s.data, data=values, name=s.path)
        for values in value_maps
        for s in rendered_sources
    ]
    results: list[bytes | TemplateError] = engine.render_many(jobs) if jobs else []
    width = len(rendered_sources)
    return [results[i * width : (i + 1) * width] for i in range(len(value_maps))]
