"""Which templates a golden run covers, and the command that refreshes their fixtures.

Templates come from :mod:`wendy_llm.repo.layout`'s discovery (a
:class:`~wendy_llm.repo.layout.Layout`, as the CLI passes, applies the
repository's settings; a bare directory is discovered as it is) or are
given loaded.  Each discovered template is loaded on its own: one that
fails is a :class:`TemplateFailure`, and the others go on.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from wendy_llm.errors import (
    CheckSelectionError,
    GoldenError,
    MissingValueError,
    WendyLlmError,
    quoted,
)
from wendy_llm.render.template import Template, load_template
from wendy_llm.repo.config import Settings
from wendy_llm.repo.layout import Layout, display_path, find_layout, iter_template_dirs

#: What a golden run is given: a templates directory, templates loaded, or a layout.
TemplatesOrRoot: TypeAlias = str | os.PathLike[str] | Sequence[Template] | Layout


@dataclass(frozen=True)
class TemplateFailure:
    """A template that could not be loaded or rendered, and why (the message names it)."""

    template_id: str
    message: str

    @classmethod
    def of(
        cls, template_id: str, exc: WendyLlmError, settings: Settings | None = None
    ) -> TemplateFailure:
        """The failure for ``exc``; a missing value says which setting to add."""
        if isinstance(exc, MissingValueError):
            hint = (settings or Settings()).missing_value_hint(template_id, exc.variable)
            return cls(template_id, f"template {template_id}: {hint}")
        return cls(template_id, str(exc.in_template(template_id)))


@dataclass(frozen=True)
class Selection:
    """The templates of one run.

    ``complete`` is true for a full run (no template named): only then may
    fixtures of templates that no longer exist be called stale or deleted.
    ``existing`` is every template discovered, loaded or not: a template
    that failed to load still exists, so its fixtures are never stale.
    ``settings`` are the repository's when a :class:`Layout` was given.
    """

    templates: tuple[Template, ...]
    templates_root: Path | None
    complete: bool
    failed: tuple[TemplateFailure, ...] = ()
    existing: frozenset[str] = frozenset()
    settings: Settings | None = None

    def sample_values(
        self, given: Mapping[str, Mapping[str, str]] | None
    ) -> Mapping[str, Mapping[str, str]]:
        """Template id -> sample values: ``given``, else the settings' (else none)."""
        if given is not None:
            return given
        return {} if self.settings is None else self.settings.sample_values

    def full_fixtures(self, given: bool | None) -> bool:
        """Whether fixtures copy every rendered file: ``given``, else the settings'."""
        if given is not None:
            return given
        return self.settings is not None and self.settings.full_fixtures

    def failure(self, template_id: str, exc: WendyLlmError) -> TemplateFailure:
        """A selected template that fails to render (a missing value names its setting)."""
        return TemplateFailure.of(template_id, exc, self.settings)


def select_templates(
    templates_or_root: TemplatesOrRoot, template_ids: Collection[str] | None
) -> Selection:
    """The selected templates (all by default), each loaded on its own."""
    if isinstance(templates_or_root, Layout | str | os.PathLike):
        return _discovered(templates_or_root, template_ids)
    available = list(templates_or_root)
    root = _common_root(available)
    by_id = {t.id: t for t in available}
    if template_ids is None:
        return Selection(tuple(available), root, True, existing=frozenset(by_id))
    _check_known(template_ids, by_id, root)
    chosen = tuple(t for t in available if t.id in set(template_ids))
    # Naming templates makes a partial run even when every one is named:
    # fixtures of other (possibly deleted) templates are not its business.
    return Selection(chosen, root, False, existing=frozenset(by_id))


def _discovered(
    where: Layout | str | os.PathLike[str], template_ids: Collection[str] | None
) -> Selection:
    if isinstance(where, Layout):
        root = where.templates_root
        found = where.find_templates()
    else:
        root = Path(where)
        if not root.is_dir():
            raise GoldenError(f"templates directory {root} does not exist")
        found = list(iter_template_dirs(root))
    ids = {t.id: t for t in found}
    if template_ids is not None:
        _check_known(template_ids, ids, root)
    loaded: list[Template] = []
    failed: list[TemplateFailure] = []
    for item in found:
        if template_ids is not None and item.id not in set(template_ids):
            continue
        try:
            loaded.append(load_template(item.path, id=item.id))
        except WendyLlmError as exc:
            failed.append(TemplateFailure.of(item.id, exc))
    settings = where.settings if isinstance(where, Layout) else None
    return Selection(
        tuple(loaded), root, template_ids is None, tuple(failed), frozenset(ids), settings
    )


def _check_known(wanted: Collection[str], known: Collection[str], root: Path | None) -> None:
    unknown = sorted(set(wanted) - set(known))
    if unknown:
        where = f" under {display_path(root)}" if root is not None else ""
        names = ", ".join(quoted(u) for u in unknown)
        raise CheckSelectionError(
            f"no template {names}{where} (templates: {', '.join(sorted(known)) or 'none'})"
        )


def _common_root(templates: Sequence[Template]) -> Path | None:
    """The templates directory the given templates were discovered in, if one."""
    roots = set()
    for template in templates:
        if template.root is None:
            return None
        depth = len(template.id.split("/"))
        roots.add(template.root.resolve().parents[depth - 1])
    return roots.pop() if len(roots) == 1 else None


def _layout_or_none(templates_dir: Path | None) -> Layout | None:
    try:
        return find_layout(templates_dir)
    except WendyLlmError:
        return None


def _same(a: Path, b: Path) -> bool:
    return a.resolve() == b.resolve()


def templates_dir_argument(templates_root: Path) -> str | None:
    """``templates_root`` as a command's ``TEMPLATES_DIR``; None when a run from the
    current directory finds it without one."""
    here = _layout_or_none(None)
    if here is not None and _same(here.templates_root, templates_root):
        return None
    return display_path(templates_root)


def refresh_commands(
    templates_root: Path | None, golden_root: Path, *, mode: str = "--update"
) -> Callable[[str | None], str]:
    """``template id (or None: all) -> the exact command that rewrites its fixtures``
    (``mode="--check"``: that checks them).

    ``TEMPLATES_DIR`` and ``--golden-dir`` appear only when a run from the
    current directory without them would look elsewhere, so the command
    can be pasted as it is.
    """
    words = ["wendy-llm", "golden", mode]
    argument = None if templates_root is None else templates_dir_argument(templates_root)
    if argument is not None:
        words.append(argument)
    given = None if argument is None else templates_root
    target = _layout_or_none(given)
    if target is None or not _same(target.golden_dir, golden_root):
        words += ["--golden-dir", display_path(golden_root)]

    def command(template_id: str | None) -> str:
        extra = ["--template", template_id] if template_id is not None else []
        return shlex.join([*words, *extra])

    return command
