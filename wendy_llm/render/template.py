"""A Wendy template: loading it, and its picks and lints as methods.

``load_template(dir)`` reads a template directory into memory (a snapshot:
later edits on disk are not seen); ``template_from_files(name, files)``
builds one from a path -> bytes mapping (e.g. a git revision).  Finding
templates in a repository is :mod:`wendy_llm.repo.layout`'s job.
Rendering is :class:`~wendy_llm.render.source.TemplateSource`'s; what the
library assumes where the CLI's behaviour had to be inferred (a template's
name, symlinks, cleaned paths) is in docs/wendy-init-semantics.md.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from pathlib import Path

from wendy_llm.arguments import checked
from wendy_llm.errors import TemplateLoadError, WendyLlmError
from wendy_llm.render.files.readdir import check_manifest_file, read_template_dir
from wendy_llm.render.files.source import OverrideValue, TemplateSource
from wendy_llm.render.lints.checks import lint_template
from wendy_llm.render.lints.warning import LintWarning
from wendy_llm.render.numbers import is_written
from wendy_llm.render.picks import Pick, enumerate_picks, find_pick

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer

__all__ = [
    "Template",
    "TemplateSource",
    "load_template",
    "template_from_files",
]


class Template(TemplateSource):
    """One template.  Build it with ``load_template``, ``template_from_files``
    or :func:`wendy_llm.repo.layout.discover_templates`."""

    _picks: list[Pick] | None = None  # enumerated on first use
    _written: dict[int, bool] | None = None  # numbers looked for so far

    def picks(self) -> list[Pick]:
        """Every reachable set of picker answers (see ``picks.py``)."""
        if self._picks is None:
            try:
                self._picks = enumerate_picks(self.manifest, self.picker)
            except WendyLlmError as exc:  # too many to compute: said of this template
                raise exc.in_template(self.id) from None
        return list(self._picks)

    @checked
    def pick(self, slug: str) -> Pick:
        """The pick with this slug (``PickError`` when there is none)."""
        return find_pick(self.id, self.picks(), slug)

    @checked
    def writes_number(self, number: int) -> bool:
        """Whether a file `wendy init` renders holds ``number`` (``variants.is_written``):
        the variant's numbers avoid those.  Copied files are never read; each
        number is looked for once per template."""
        if self._written is None:
            self._written = {}
        found = self._written.get(number)
        if found is None:
            found = is_written((s.data for s in self.sources if s.rendered), number)
            self._written[number] = found
        return found

    @checked
    def lint(
        self,
        renderer: Renderer | None = None,
        *,
        values: Mapping[str, OverrideValue] | None = None,
    ) -> list[LintWarning]:
        """Warnings about constructs that make `wendy init` misbehave, after the
        ``skipped-entry`` warnings of :meth:`skipped_warnings`.  ``values``
        (``--var`` answers) are given to every pick the render lints try."""
        return self.skipped_warnings() + lint_template(
            self, self.picks(), renderer=renderer, values=values
        )

    def skipped_warnings(self) -> list[LintWarning]:
        """A ``skipped-entry`` warning for each of ``skipped`` (cheap: no render)."""
        return [LintWarning(s.path, None, "skipped-entry", s.reason) for s in self.skipped]


def load_template(path: str | os.PathLike[str], *, id: str | None = None) -> Template:
    """Load the template in directory ``path`` (its ``template.json`` and
    optional ``template.schema.json`` are validated).  ``id`` defaults to the
    directory's name (``wendy_llm.load_template`` gives the repository's id)."""
    if not isinstance(path, str | os.PathLike) or not isinstance(id, str | None):
        wrong = path if not isinstance(path, str | os.PathLike) else id
        raise TemplateLoadError(
            f"load_template takes a directory path and an optional id string, not a "
            f"{type(wrong).__name__}",
            file=str(path),
        )
    root = Path(path).resolve()
    if not root.is_dir():
        raise TemplateLoadError(f"{path}: not a directory", file=str(path))
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
