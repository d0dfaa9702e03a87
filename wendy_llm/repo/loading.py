"""``wendy_llm.load_template``: a template directory, named as the repository names it.

A template's id is its ``<language>/<name>`` path below the templates
directory of its repository (found as every ``wendy-llm`` command finds it:
:func:`~wendy_llm.repo.layout.find_layout`), so ``load_template(path).id`` is
``python/llm`` whether the path is given from the repository root, from
inside the template or as an absolute path. A directory that is not a
template of its repository's layout (outside any repository, or not at
``<language>/<name>`` below its templates directory) is named by its
directory's name, as ``wendy init`` names a template.
"""

from __future__ import annotations

import os
from pathlib import Path

from wendy_llm.errors import TemplateLoadError, WendyLlmError
from wendy_llm.render import template as loader
from wendy_llm.render.template import Template
from wendy_llm.repo.layout import find_layout, iter_template_dirs

__all__ = ["load_template", "template_id_of"]


def load_template(path: str | os.PathLike[str], *, id: str | None = None) -> Template:
    """Load the template in directory ``path`` (its ``template.json`` and
    optional ``template.schema.json`` are validated); ``id`` defaults to
    :func:`template_id_of` ``path``, else the directory's name."""
    if id is not None and not isinstance(id, str):
        raise TemplateLoadError(
            f"a template id is a string, not {type(id).__name__}", file=str(path)
        )
    if id is None and isinstance(path, str | os.PathLike):
        id = template_id_of(path)
    return loader.load_template(path, id=id)


def template_id_of(path: str | os.PathLike[str]) -> str | None:
    """The ``<language>/<name>`` id of the template at ``path`` in its
    repository's layout; None when it is not one of the layout's templates."""
    directory = Path(path).resolve()
    if not directory.is_dir():
        return None
    try:
        templates_root = find_layout(start=directory).templates_root.resolve()
        relative = directory.relative_to(templates_root)
    except (WendyLlmError, ValueError):
        return None  # a broken wendy-llm.toml is its commands' error, not a load's
    if len(relative.parts) != 2:
        return None
    found = {t.id for t in iter_template_dirs(templates_root, golden_dir=None)}
    return relative.as_posix() if relative.as_posix() in found else None
