"""Which templates a golden run covers, and the command that refreshes them."""

from __future__ import annotations

import os
import shlex
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from wendy_llm.errors import GoldenError

if TYPE_CHECKING:
    from wendy_llm.template import Template

TemplatesOrRoot: TypeAlias = "str | os.PathLike[str] | Sequence[Template]"

DEFAULT_TEMPLATES_DIR = "templates"
DEFAULT_GOLDEN_DIR = "golden"


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
    from wendy_llm.template import discover_templates

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
    if display_path(golden_root) != DEFAULT_GOLDEN_DIR:
        words += ["--golden-dir", display_path(golden_root)]
    if template_id is not None:
        words += ["--template", template_id]
    return shlex.join(words)
