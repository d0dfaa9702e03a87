"""Where a finding is in the repository: the template source file and line.

A finding of a pick names a line of a rendered file (``wendy.json:9``);
annotations and SARIF must name a file of the repository (GitHub shows
them in the pull request's "Files changed" view only there), so
:class:`SourceLocator` maps each finding back:

- a rendered file comes from one template file (its output path, for the
  app id of the input the finding was found with): a copied file, or one
  whose text holds no action, line for line; any other through the Go
  helper's source map (:mod:`wendy_llm.engine.sourcemap`), which says when a
  line cannot be mapped exactly and which line it points at instead;
- a template-wide finding names a file of the template (``template.json``)
  or of the repository (a rules file, ``meta.json``, ``wendy-llm.toml``):
  that file, that line.

Paths are relative to the repository's root (the directory holding
``.git``, else the layout's root), ``/``-separated.  The map costs a render
per distinct (template, pick, input, file), asked only by the outputs that
need it, never by ``check`` itself.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from wendy_llm.engine.sourcemap import SourceMap, source_map
from wendy_llm.errors import WendyLlmError
from wendy_llm.golden.fixture_files import PICK_PLACEHOLDER
from wendy_llm.render.files.tree import RenderedTree
from wendy_llm.render.manifest.load import MANIFEST_FILE
from wendy_llm.render.template import Template, load_template
from wendy_llm.render.variants import CANONICAL_LABEL, Inputs, gate_inputs
from wendy_llm.repo.config import SETTINGS_FILE
from wendy_llm.repo.layout import Layout
from wendy_llm.validate.findings import TEMPLATE_WIDE, Finding

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer


@dataclass(frozen=True)
class SourceLocation:
    """A place in the repository: ``path`` relative to its root, a 1-based line when known."""

    path: str
    line: int | None
    exact: bool = True
    note: str = ""  # when not exact: why, and what the line points at

    @property
    def where(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line}"


def repository_root(start: Path) -> Path:
    """The nearest directory from ``start`` up holding ``.git``; ``start`` when none does."""
    here = start.resolve()
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    return here


class SourceLocator:
    """Maps findings of one ``check`` run to repository files and lines (see the module)."""

    def __init__(self, layout: Layout, *, renderer: Renderer | None = None) -> None:
        self.layout = layout
        self.root = repository_root(layout.root)
        self._renderer = renderer
        self._dirs: dict[str, Path] | None = None
        self._templates: dict[str, Template | None] = {}
        self._maps: dict[tuple[str, str, str, str], SourceMap | None] = {}

    def relative(self, path: Path) -> str | None:
        """``path`` relative to the repository root, or None when outside it."""
        try:
            shown = path.resolve().relative_to(self.root)
        except ValueError:
            return None
        return shown.as_posix()

    def template(self, template_id: str) -> Template | None:
        """The template with this id, loaded once (None: none, or it does not load)."""
        if template_id not in self._templates:
            directory = self._template_dirs().get(template_id)
            loaded: Template | None = None
            if directory is not None:
                try:
                    loaded = load_template(directory, id=template_id)
                except WendyLlmError:
                    loaded = None
            self._templates[template_id] = loaded
        return self._templates[template_id]

    def _template_dirs(self) -> dict[str, Path]:
        if self._dirs is None:
            try:
                self._dirs = {t.id: t.path for t in self.layout.find_templates()}
            except WendyLlmError:
                self._dirs = {}
        return self._dirs

    def inputs(self, template: Template, variant: str | None) -> Inputs | None:
        """The input a finding was found with: canonical (None) or the variant by its label."""
        wanted = CANONICAL_LABEL if variant is None else variant
        every = gate_inputs(template, self.layout.sample_values(template.id))
        return next((each for each in every if each.label == wanted), None)

    def values(
        self, template: Template, pick: str, variant: str | None
    ) -> Mapping[str, object] | None:
        """The data map the pick was rendered with, for that input (None: unknown)."""
        try:
            chosen = next((p for p in template.picks() if p.slug == pick), None)
        except WendyLlmError:
            return None
        inputs = self.inputs(template, variant)
        if chosen is None or inputs is None:
            return None
        try:
            return template.values(inputs.app_id, inputs.with_answers(chosen.answers))
        except WendyLlmError:
            return None

    def tree(self, template_id: str, pick: str, variant: str | None = None) -> RenderedTree | None:
        """The pick's render for that input (None when it does not render)."""
        template = self.template(template_id)
        values = None if template is None else self.values(template, pick, variant)
        if template is None or values is None:
            return None
        try:
            return template.render_values(values, renderer=self._renderer)
        except WendyLlmError:
            return None

    def locate(self, finding: Finding) -> SourceLocation | None:
        """Where ``finding`` is in the repository (None: nowhere the gate can prove)."""
        template = self.template(finding.template)
        if template is not None and finding.pick != TEMPLATE_WIDE and finding.file is not None:
            found = self._rendered(template, finding)
            if found is not None:
                return found
        if template is not None and finding.pick == TEMPLATE_WIDE and finding.line is not None:
            found = self._through_a_pick(template, finding)
            if found is not None:
                return found
        if finding.file is not None:
            found = self._repository_file(template, finding.file, finding.line)
            if found is None and PICK_PLACEHOLDER in finding.file:
                found = self._one_copy(template, finding)
            if found is not None:
                return found
        return self._fallback(finding)

    def _through_a_pick(self, template: Template, finding: Finding) -> SourceLocation | None:
        """A template-wide finding at a line of a rendered file (a change several picks
        render, reported once): traced through the first pick whose render holds the
        file, which the source location's note names (None: no pick renders it)."""
        try:
            slugs = [p.slug for p in template.picks()]
        except WendyLlmError:
            return None
        for slug in slugs:
            tree = self.tree(template.id, slug, finding.variant)
            if tree is None or finding.file not in tree:
                continue
            found = self._rendered(template, dataclasses.replace(finding, pick=slug))
            if found is None or found.line is None:
                return found
            note = "; ".join(n for n in (found.note, f"traced through pick {slug}'s render") if n)
            return dataclasses.replace(found, exact=False, note=note)
        return None

    def _one_copy(self, template: Template | None, finding: Finding) -> SourceLocation | None:
        """A fixture named for every pick's copy (``golden/t/<pick>/README.md``): the
        copy of the first pick that has one (the same change is in each, at the same
        line; one place for all, so the pointers of every pick are one annotation)."""
        slugs: list[str] = []
        with contextlib.suppress(WendyLlmError):  # no picks listed: the finding's own only
            slugs += [p.slug for p in template.picks()] if template is not None else []
        slugs += [finding.pick] if finding.pick != TEMPLATE_WIDE else []
        for slug in slugs:
            concrete = str(finding.file).replace(PICK_PLACEHOLDER, slug)
            found = self._repository_file(template, concrete, finding.line)
            if found is not None:
                note = f"{finding.file}: shown at pick {slug}'s copy"
                return SourceLocation(found.path, found.line, exact=False, note=note)
        return None

    def _fallback(self, finding: Finding) -> SourceLocation | None:
        """A file the finding is about when it names none of the repository: its
        template's manifest, else the catalog or the settings file (GitHub code
        scanning refuses a SARIF result without a location, and the whole upload
        with it)."""
        directory = self._template_dirs().get(finding.template)
        candidates = [] if directory is None else [directory / MANIFEST_FILE]
        candidates += [p for p in (self.layout.meta_json(), self.layout.root / SETTINGS_FILE) if p]
        for candidate in candidates:
            path = self.relative(candidate) if candidate.is_file() else None
            if path is not None:
                what = f"{finding.file} is no file of the repository" if finding.file else ""
                what = what or "the finding names no file"
                return SourceLocation(path, None, exact=False, note=f"{what}; shown at {path}")
        return None

    def _rendered(self, template: Template, finding: Finding) -> SourceLocation | None:
        inputs = self.inputs(template, finding.variant)
        if inputs is None or template.root is None:
            return None
        source = None
        for each, out in zip(template.sources, template.output_paths(inputs.app_id), strict=True):
            if out == finding.file:
                source = each  # a later file on the same path wins, as in a render
        if source is None:
            return None
        path = self.relative(template.root / source.path)
        if path is None:
            return None
        if finding.line is None:
            return SourceLocation(path, None)
        if source.verbatim:
            return SourceLocation(path, finding.line)
        mapped = self._map(template, finding.pick, finding.variant, source.path)
        line = None if mapped is None else mapped.line(finding.line)
        if line is None:
            note = f"rendered {finding.file}:{finding.line} could not be traced to a source line"
            return SourceLocation(path, None, exact=False, note=note)
        return SourceLocation(path, line.line, exact=line.exact, note=line.note)

    def _map(
        self, template: Template, pick: str, variant: str | None, path: str
    ) -> SourceMap | None:
        key = (template.id, pick, variant or "", path)
        if key not in self._maps:
            values = self.values(template, pick, variant)
            mapped = None
            if values is not None:
                try:
                    mapped = source_map(template.files[path], values, path, renderer=self._renderer)
                except WendyLlmError:
                    mapped = None
            self._maps[key] = mapped
        return self._maps[key]

    def _repository_file(
        self, template: Template | None, file: str, line: int | None
    ) -> SourceLocation | None:
        bases = [self.layout.root, Path.cwd(), self.layout.templates_root]
        if template is not None and template.root is not None:
            bases.insert(0, template.root)
        for base in bases:
            candidate = base / file
            if candidate.is_file():
                path = self.relative(candidate)
                if path is not None:
                    return SourceLocation(path, line)
        return None
