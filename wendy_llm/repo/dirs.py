"""Which templates a golden run covers, where they live, and the refresh command.

Where things are looked for, the same rule for ``check``, ``golden`` and
``diff`` (and the pytest plugin's defaults):

- ``TEMPLATES_DIR`` defaults to ``./templates`` and, when there is none, to
  the ``templates/`` of the repository this package was installed from (an
  editable install run from elsewhere);
- ``--golden-dir`` defaults to the ``golden/`` directory next to
  ``TEMPLATES_DIR`` (``./golden`` for ``./templates``), never to a
  directory chosen by what happens to exist in the current directory, so
  ``wendy-llm check other/templates`` compares ``other/golden``.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from wendy_llm.errors import CheckSelectionError, GoldenError
from wendy_llm.render.template import Template, discover_templates

TemplatesOrRoot: TypeAlias = "str | os.PathLike[str] | Sequence[Template]"

DEFAULT_TEMPLATES_DIR = "templates"
DEFAULT_GOLDEN_DIR = "golden"
_REPO_ROOT = Path(__file__).resolve().parent.parent.parent

DIRECTORY_RULE = """\
TEMPLATES_DIR defaults to ./templates, else the templates/ of the repository
this package is installed from; --golden-dir defaults to the golden/ next to
TEMPLATES_DIR (./golden for ./templates)."""


def default_templates_dir() -> Path:
    """``./templates``, else the repository's bundled ``templates/``."""
    here = Path(DEFAULT_TEMPLATES_DIR)
    if here.is_dir():
        return here
    bundled = _REPO_ROOT / DEFAULT_TEMPLATES_DIR
    if bundled.is_dir():
        return bundled
    raise CheckSelectionError(
        "no templates directory: ./templates does not exist; pass TEMPLATES_DIR"
    )


def default_golden_dir(templates_dir: Path) -> Path:
    """The ``golden`` directory next to the templates directory.

    Spelled as the templates directory is (relative stays relative, so
    messages and refresh commands read ``golden/...``).
    """
    if templates_dir.name not in ("", ".."):  # "" for "." and "/"
        return templates_dir.parent / DEFAULT_GOLDEN_DIR
    return templates_dir.resolve().parent / DEFAULT_GOLDEN_DIR


def resolve_dirs(
    templates_dir: str | os.PathLike[str] | None, golden_dir: str | os.PathLike[str] | None
) -> tuple[Path, Path]:
    """The templates and golden directories of a run, by :data:`DIRECTORY_RULE`."""
    templates = Path(templates_dir) if templates_dir is not None else default_templates_dir()
    golden = Path(golden_dir) if golden_dir is not None else default_golden_dir(templates)
    return templates, golden


@dataclass(frozen=True)
class Selection:
    """The templates of one run.

    ``complete`` is true for a full run (no template named): only then may
    fixtures of templates that no longer exist be called stale or deleted.
    """

    templates: tuple[Template, ...]
    templates_root: Path | None
    complete: bool


def select_templates(
    templates_or_root: TemplatesOrRoot, template_ids: Collection[str] | None
) -> Selection:
    root: Path | None
    if isinstance(templates_or_root, str | os.PathLike):
        root = Path(templates_or_root)
        if not root.is_dir():
            raise GoldenError(f"templates directory {root} does not exist")
        available = list(discover_templates(root))
    else:
        available = list(templates_or_root)
        root = _common_root(available)
    by_id = {t.id: t for t in available}
    if template_ids is None:
        return Selection(tuple(available), root, complete=True)
    unknown = sorted(set(template_ids) - set(by_id))
    if unknown:
        where = f" under {root}" if root is not None else ""
        known = ", ".join(sorted(by_id)) or "none"
        raise GoldenError(f"no template {', '.join(unknown)}{where} (templates: {known})")
    chosen = tuple(t for t in available if t.id in set(template_ids))
    # Naming templates makes a partial run even when every one is named:
    # fixtures of other (possibly deleted) templates are not its business.
    return Selection(chosen, root, complete=False)


def _common_root(templates: Sequence[Template]) -> Path | None:
    """The templates directory the given templates were discovered in, if one."""
    roots = set()
    for template in templates:
        if template.root is None:
            return None
        depth = len(template.id.split("/"))
        roots.add(template.root.resolve().parents[depth - 1])
    return roots.pop() if len(roots) == 1 else None


def display_path(path: Path) -> str:
    # The command should be pasteable from where the user stands.
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if not rel.startswith("..") else str(path.resolve())


def refresh_command(templates_root: Path | None, golden_root: Path, template_id: str | None) -> str:
    """The exact command that rewrites the fixtures (of one template, or all)."""
    words = ["wendy-llm", "golden", "--update"]
    if templates_root is not None and display_path(templates_root) != DEFAULT_TEMPLATES_DIR:
        words.append(display_path(templates_root))
    beside = (templates_root or Path(DEFAULT_TEMPLATES_DIR)).resolve().parent / DEFAULT_GOLDEN_DIR
    if golden_root.resolve() != beside:  # else the default finds it
        words += ["--golden-dir", display_path(golden_root)]
    if template_id is not None:
        words += ["--template", template_id]
    return shlex.join(words)
