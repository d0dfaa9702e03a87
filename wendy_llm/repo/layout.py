"""Where things are in a templates repository: one rule for every command.

``check``, ``golden``, ``diff``, ``picks`` and the pytest plugin all ask
:func:`find_layout`; template discovery is :func:`find_templates`, here
only.  The rule (:data:`DIRECTORY_RULE` says it in ``--help``):

1. The repository root: from ``TEMPLATES_DIR`` when given, else from the
   current directory, the nearest directory upward holding
   ``wendy-llm.toml`` or ``.git``.  None found: the current directory; for
   a ``TEMPLATES_DIR``, its parent when it is named ``templates``, else
   itself.
2. The settings: ``<root>/wendy-llm.toml`` when present
   (:mod:`wendy_llm.repo.config`).
3. The templates root: ``TEMPLATES_DIR``; else the settings'
   ``templates-dir``; else ``<root>/templates`` when it holds a template;
   else the root.
4. The templates: every ``<language>/<name>/`` under the templates root
   holding a ``template.json``, except hidden folders, ``common``,
   ``docs``, ``golden``, ``node_modules``, the golden directory and the
   settings' ``ignore`` patterns.
5. The golden directory: ``--golden-dir``; else the settings'
   ``golden-dir``; else ``<root>/golden``.  It must be inside the
   repository: fixtures are never written anywhere else.
6. The suppressions file: ``<root>/wendy-llm-suppressions.json``
   (:mod:`wendy_llm.repo.suppressions_file`), beside the settings.
7. A template's rules file: the settings' ``rules-files`` entry, else
   ``<golden>/<language>/<name>.rules.yaml``; its stored baseline:
   ``<golden>/baseline/<language>/<name>/``; its sample values: the
   settings' ``[sample-values."<language>/<name>"]``.  The ``meta.json``
   catalog: beside the languages, else at the root.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from wendy_llm.arguments import check_fields, checked
from wendy_llm.errors import CheckSelectionError, LayoutError, TemplateLoadError, quoted
from wendy_llm.render.manifest.load import MANIFEST_FILE
from wendy_llm.render.template import Template, load_template
from wendy_llm.repo.config import (
    SETTINGS_FILE,
    Settings,
    inside,
    load_settings,
)
from wendy_llm.repo.pinned import Pinned
from wendy_llm.repo.suppressions_file import SUPPRESSIONS_FILE
from wendy_llm.safe_read import ReadRefused, resolve_inside
from wendy_llm.wendycli.catalog import META_FILE

DEFAULT_TEMPLATES_DIR = "templates"
DEFAULT_GOLDEN_DIR = "golden"
BASELINE_DIR = "baseline"
RULES_SUFFIX = ".rules.yaml"
GIT_MARKER = ".git"
#: Folders beside the languages that never hold templates.
NOT_LANGUAGES = frozenset({"common", "docs", "golden", "node_modules"})

DIRECTORY_RULE = f"""\
Where things are: the repository root is the nearest directory up from
TEMPLATES_DIR (else the current directory) holding {SETTINGS_FILE} or .git.
Templates are its <language>/<name>/ directories holding template.json, under
templates/ when that holds templates (or TEMPLATES_DIR, or templates-dir in
{SETTINGS_FILE}); fixtures, rules files and stored baselines are under its
golden/ (or --golden-dir, or golden-dir in {SETTINGS_FILE}), never outside it.
A variable without a default takes its [sample-values."<language>/<name>"]
value from {SETTINGS_FILE}."""


@dataclass(frozen=True)
class TemplateDir:
    """A template found by discovery: its id (``<language>/<name>``) and directory."""

    id: str
    path: Path

    @property
    def name(self) -> str:
        return self.id.rsplit("/", 1)[-1]


def display_path(path: Path) -> str:
    """``path`` as the user would type it from here: relative when below the cwd."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if not rel.startswith("..") else str(path.resolve())


def find_root(start: Path) -> Path | None:
    """The nearest directory, ``start`` or above, holding the settings file or ``.git``
    (resolved).  The path is climbed as written, not through its links: a
    ``templates`` linked out of a checkout still belongs to the checkout,
    whose root then refuses it."""
    here = Path(os.path.abspath(start))
    for candidate in (here, *here.parents):
        if (candidate / SETTINGS_FILE).is_file() or (candidate / GIT_MARKER).exists():
            return candidate.resolve()
    return None


def _is_language(entry: Path, skipped: Path | None) -> bool:
    if entry.name.startswith(".") or entry.name in NOT_LANGUAGES or not entry.is_dir():
        return False
    return skipped is None or entry.resolve() != skipped


def confined(path: Path, root: Path) -> Path:
    """``path`` when it stays inside the repository ``root`` (links resolved), else
    a :class:`LayoutError` naming the link that leads out."""
    try:
        resolve_inside(path, root, shown=display_path(path))
    except ReadRefused as exc:
        raise LayoutError(str(exc)) from None
    return path


def iter_template_dirs(
    templates_root: Path,
    *,
    settings: Settings | None = None,
    golden_dir: Path | None = None,
    root: Path | None = None,
) -> Iterator[TemplateDir]:
    """Every template under ``templates_root`` by rule 4, sorted by id.  A language
    or template folder linked out of ``root`` (default: ``templates_root``) is a
    :class:`LayoutError`: the gate never reads the host's folders."""
    skipped = golden_dir.resolve() if golden_dir is not None else None
    inside_of = root if root is not None else templates_root
    for language in sorted(templates_root.iterdir()):
        if not _is_language(language, skipped):
            continue
        if language.is_symlink():
            confined(language, inside_of)
        for candidate in sorted(language.iterdir()):
            template_id = f"{language.name}/{candidate.name}"
            if candidate.name.startswith(".") or not candidate.is_dir():
                continue
            if candidate.is_symlink():
                confined(candidate, inside_of)
            if settings is not None and settings.ignores(template_id):
                continue
            # lexists: a symlinked template.json is an error that says so, not "no template".
            if os.path.lexists(candidate / MANIFEST_FILE):
                yield TemplateDir(template_id, candidate)


def template_ids_in(
    paths: Iterable[str],
    *,
    settings: Settings | None = None,
    templates_root: Path | None = None,
    golden_dir: Path | None = None,
) -> list[str]:
    """The template ids rule 4 finds in a listing of paths relative to the templates
    root (``git ls-tree`` at a revision), sorted; ``templates_root`` and
    ``golden_dir`` skip the golden dir when it sits among the languages."""
    golden = golden_dir.resolve() if golden_dir is not None else None
    found = set()
    for path in paths:
        parts = PurePosixPath(path).parts
        if len(parts) != 3 or parts[2] != MANIFEST_FILE:
            continue
        language, name = parts[0], parts[1]
        if language.startswith(".") or language in NOT_LANGUAGES or name.startswith("."):
            continue
        if templates_root is not None and (templates_root / language).resolve() == golden:
            continue
        template_id = f"{language}/{name}"
        if settings is None or not settings.ignores(template_id):
            found.add(template_id)
    return sorted(found)


def rules_path(golden_dir: Path, template_id: str) -> Path:
    """Where the rules of ``template_id`` (``python/llm``) live by default."""
    return golden_dir / f"{template_id}{RULES_SUFFIX}"


def baseline_dir(golden_dir: Path, template_id: str) -> Path:
    """Where the stored baseline of ``template_id`` lives."""
    return golden_dir / BASELINE_DIR / template_id


@dataclass(frozen=True)
class Layout:
    """The places of one run, settled by the rule in the module docstring."""

    root: Path
    templates_root: Path
    golden_dir: Path
    settings: Settings
    #: The policy files read at a base revision instead of the work tree
    #: (``--base``: :mod:`wendy_llm.repo.policy`); None: the work tree's.
    pinned: Pinned | None = None

    def __post_init__(self) -> None:
        check_fields(self)  # a caller's value (run_check's layout): refused when made

    def find_templates(self) -> list[TemplateDir]:
        """Every template (rule 4); nothing is loaded, so a broken one stops nothing."""
        if not self.templates_root.is_dir():
            raise CheckSelectionError(f"templates directory {self.templates_root} does not exist")
        return list(
            iter_template_dirs(
                self.templates_root,
                settings=self.settings,
                golden_dir=self.golden_dir,
                root=self.root,
            )
        )

    @checked
    def select(self, wanted: Sequence[str] = ()) -> list[TemplateDir]:
        """The templates named in ``wanted`` (by id or name), else all of them.

        An unknown name is an error listing the known ones; finding no
        template at all is an error too (a check of nothing would pass).
        """
        found = self.find_templates()
        shown = display_path(self.templates_root)
        if not found:
            raise CheckSelectionError(
                f"no templates under {shown}: a template is a directory "
                f"<language>/<name>/ holding {MANIFEST_FILE}"
            )
        if not wanted:
            return found
        chosen: list[TemplateDir] = []
        for name in wanted:
            matches = [t for t in found if name.strip("/") in (t.id, t.name)]
            if not matches:
                known = ", ".join(t.id for t in found)
                ignored = ""
                if self.settings.ignores(name.strip("/")):
                    ignored = f"; it is ignored by {self.settings.shown}"
                raise CheckSelectionError(
                    f"no template {quoted(name)} under {shown} (templates: {known}){ignored}"
                )
            chosen += [t for t in matches if t not in chosen]
        return chosen

    @checked
    def template_ids_in(self, paths: Iterable[str]) -> list[str]:
        """Rule 4 over a listing of paths relative to the templates root (a git revision)."""
        return template_ids_in(
            paths,
            settings=self.settings,
            templates_root=self.templates_root,
            golden_dir=self.golden_dir,
        )

    def meta_json(self) -> Path | None:
        """The catalog ``wendy init`` reads: beside the language folders, else at the root."""
        for directory in (self.templates_root, self.root):
            # lexists: a link or a device there is refused when read, with a finding.
            if os.path.lexists(directory / META_FILE):
                return directory / META_FILE
        return None

    @checked
    def rules_path(self, template_id: str) -> Path:
        configured = self.settings.rules_files.get(template_id)
        if configured is not None:
            return self.root / configured
        return rules_path(self.golden_dir, template_id)

    @checked
    def baseline_dir(self, template_id: str) -> Path:
        return baseline_dir(self.golden_dir, template_id)

    @checked
    def sample_values(self, template_id: str) -> dict[str, str]:
        return self.settings.values_for(template_id)

    @property
    def suppressions_path(self) -> Path:
        """The suppressions file (rule 6), whether or not it exists."""
        return self.root / SUPPRESSIONS_FILE


def with_settings(layout: Layout, settings: Settings) -> Layout:
    """``layout`` under other ``settings`` (a base revision's): each place the
    settings decided (rule 3, rule 5) decided again by them; a place given
    (``TEMPLATES_DIR``, ``--golden-dir``) kept."""
    root, before = layout.root, layout.settings
    templates = layout.templates_root
    if templates == _templates_root(root, before, None):
        templates = _templates_root(root, settings, None)
    golden = layout.golden_dir
    if golden == _golden_dir(root, before, None):
        golden = _golden_dir(root, settings, None)
    return Layout(root, templates, golden, settings, layout.pinned)


def find_layout(
    templates_dir: str | os.PathLike[str] | None = None,
    golden_dir: str | os.PathLike[str] | None = None,
    *,
    start: Path | None = None,
) -> Layout:
    """The layout of a run: given directories win over the settings, the settings
    over the defaults.  ``start`` replaces the current directory in rule 1."""
    here = start if start is not None else Path.cwd()
    given = Path(templates_dir) if templates_dir is not None else None
    root = find_root(given if given is not None else here)
    if root is None:
        if given is None:
            root = here.resolve()
        else:
            resolved = given.resolve()
            root = resolved.parent if resolved.name == DEFAULT_TEMPLATES_DIR else resolved
    settings_file = root / SETTINGS_FILE
    shown = display_path(settings_file)
    settings = (
        load_settings(settings_file, shown=shown)
        if settings_file.is_file()
        else Settings(shown=shown)
    )
    golden = confined(_golden_dir(root, settings, golden_dir), root)
    return Layout(root, confined(_templates_root(root, settings, given), root), golden, settings)


def _templates_root(root: Path, settings: Settings, given: Path | None) -> Path:
    if given is not None:
        return given
    if settings.templates_dir is not None:
        configured = root / settings.templates_dir
        if not configured.is_dir():
            raise settings.error(f"{display_path(configured)} is not a directory", "templates-dir")
        return configured
    conventional = confined(root / DEFAULT_TEMPLATES_DIR, root)
    if conventional.is_dir() and next(iter_template_dirs(conventional, root=root), None):
        return conventional
    return root


def _golden_dir(root: Path, settings: Settings, given: str | os.PathLike[str] | None) -> Path:
    if given is None:
        configured = settings.golden_dir
        return root / (configured if configured is not None else DEFAULT_GOLDEN_DIR)
    golden = Path(given)
    if not inside(golden, root):
        raise LayoutError(
            f"the golden directory {golden} is outside the repository {root}: fixtures, "
            "rules files and baselines live inside the repository they guard; give a "
            "--golden-dir inside it"
        )
    return golden


def discover_templates(root: str | os.PathLike[str]) -> list[Template]:
    """Every template under the templates root ``root`` (rule 4), loaded; ids are
    ``<language>/<name>``.  The first one that fails to load raises."""
    base = Path(root)
    if not base.is_dir():
        raise TemplateLoadError(f"{root}: not a directory", file=str(root))
    return [load_template(t.path, id=t.id) for t in iter_template_dirs(base)]
