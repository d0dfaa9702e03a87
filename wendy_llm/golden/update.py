"""``golden --update``: regenerate fixture directories atomically."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wendy_llm.atomic import remove_leftovers, remove_leftovers_under
from wendy_llm.errors import GoldenUpdateRefused, WendyLlmError
from wendy_llm.golden.fsops import remove_tree_atomically, write_tree_atomically
from wendy_llm.golden.layout import find_fixture_dirs, fixture_dir, list_files
from wendy_llm.golden.manifest import Fixture, build_fixture
from wendy_llm.render.canonical import render_picks
from wendy_llm.repo.layout import display_path
from wendy_llm.repo.selection import TemplateFailure, TemplatesOrRoot, select_templates
from wendy_llm.safe_read import ReadRefused, confined_target, read_bytes

if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer


@dataclass(frozen=True)
class TemplateUpdate:
    """What an update did to one template's fixture directory.

    Paths are relative to the fixture directory. ``deleted`` is true when
    the whole directory was removed because its template no longer exists.
    """

    template_id: str
    fixture_dir: Path
    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    deleted: bool = False

    @property
    def written(self) -> bool:
        return bool(self.added or self.changed or self.removed)


@dataclass(frozen=True)
class GoldenUpdate:
    """What an update did; ``failed`` templates could not be rendered (their
    fixtures are left as they were)."""

    golden_root: Path
    templates: tuple[TemplateUpdate, ...]
    failed: tuple[TemplateFailure, ...] = ()

    @property
    def written(self) -> bool:
        return any(t.written for t in self.templates)


def _plan(target: Path, fixture: Fixture) -> tuple[list[str], list[str], list[str]]:
    existing = list_files(target)
    added, changed = [], []
    for relpath, data in fixture.files.items():
        if relpath not in existing:
            added.append(relpath)
        elif existing[relpath].is_symlink() or _stored(existing[relpath], target) != data:
            changed.append(relpath)
    removed = [relpath for relpath in existing if relpath not in fixture.files]
    return added, changed, removed


def _stored(path: Path, target: Path) -> bytes | None:
    """A fixture file as stored (None: one the gate does not read, which is rewritten)."""
    try:
        return read_bytes(path, target)
    except ReadRefused:
        return None


def _confined_targets(root: Path, template_ids: Collection[str]) -> dict[str, Path]:
    """Each template's fixture directory, refused before anything is written when a
    folder of it is a link out of the golden directory (or it is a link itself)."""
    targets = {}
    for template_id in template_ids:
        target = fixture_dir(root, template_id)
        try:
            targets[template_id] = confined_target(target, root, shown=display_path(target))
        except ReadRefused as exc:
            raise GoldenUpdateRefused(f"{exc}: no fixture is written") from None
    return targets


def update_golden(
    templates_or_root: TemplatesOrRoot,
    golden_root: str | Path,
    *,
    template_ids: Collection[str] | None = None,
    renderer: Renderer | None = None,
    sample_values: Mapping[str, Mapping[str, str]] | None = None,
    full: bool | None = None,
) -> GoldenUpdate:
    """Rewrite the fixtures of the selected templates (all by default).

    Every pick of a template is rendered before its fixtures are written,
    so a template that fails to load or render leaves its fixtures
    untouched; it is listed in ``failed`` and the others are updated.
    Unchanged fixture directories are not rewritten. Fixture directories of
    templates that no longer exist are removed only when every template is
    selected. ``sample_values`` (template id -> values for variables without
    a default) default to a :class:`~wendy_llm.repo.layout.Layout`'s settings,
    and ``full`` to its ``golden-fixtures`` setting: lean fixtures (the
    default) record a rendered file that is its template file by hash, full
    ones copy it; an existing fixture directory is converted either way.
    """
    root = Path(golden_root)
    selection = select_templates(templates_or_root, template_ids)
    full_copies = selection.full_fixtures(full)
    sample_values = selection.sample_values(sample_values)
    fixtures: list[tuple[str, Fixture]] = []
    failed = list(selection.failed)
    for template in selection.templates:
        values = sample_values.get(template.id)
        try:
            renders = render_picks(template, renderer=renderer, sample_values=values)
        except WendyLlmError as exc:
            failed.append(selection.failure(template.id, exc))
            continue
        fixtures.append((template.id, build_fixture(template.id, renders, full=full_copies)))
    results: list[TemplateUpdate] = []
    targets = _confined_targets(root, [template_id for template_id, _ in fixtures])
    for template_id, fixture in fixtures:
        target = targets[template_id]
        remove_leftovers(target)  # even when the fixture itself is up to date
        added, changed, removed = _plan(target, fixture)
        if added or changed or removed:
            write_tree_atomically(target, fixture.files)
        results.append(
            TemplateUpdate(
                template_id=template_id,
                fixture_dir=target,
                added=tuple(added),
                changed=tuple(changed),
                removed=tuple(removed),
            )
        )
    # What an interrupted update left anywhere in the golden directory (not
    # only beside the fixtures written now), so that `git add` never sees it.
    remove_leftovers_under(root)
    if selection.complete:
        # A template that failed still exists: its fixtures stay.
        current = {template_id for template_id, _ in fixtures} | selection.existing
        for template_id, directory in find_fixture_dirs(root).items():
            if template_id in current:
                continue
            gone = tuple(list_files(directory))
            remove_tree_atomically(directory, stop_at=root)
            results.append(
                TemplateUpdate(
                    template_id=template_id, fixture_dir=directory, removed=gone, deleted=True
                )
            )
    return GoldenUpdate(golden_root=root, templates=tuple(results), failed=tuple(failed))
