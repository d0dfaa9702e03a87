"""Render every pick of a template with the canonical golden inputs.

Canonical inputs: the app id ``CANONICAL_APP_ID``, every variable at its
default (a variable without one takes the repository's sample value), plus
the pick's answers. Golden fixtures and baseline comparisons both start
here, so they can never disagree about what "the render of a pick" means.
Each pick is rendered exactly once per call.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wendy_llm.errors import GoldenError, quoted
from wendy_llm.render.picks import CANONICAL_APP_ID

if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.files.tree import RenderedTree
    from wendy_llm.render.template import Template

# A slug names a directory in the fixtures, so it must be one safe path
# component, and it must not collide with the shared-files directory.
_SLUG_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


@dataclass(frozen=True)
class OutputFile:
    """One file of a render: its bytes and whether the engine produced them.

    ``source`` is the template file it comes from; ``verbatim`` says its
    bytes are that file's (copied, or rendered without an action): lean
    fixtures record such a file by hash.  Neither is part of the value.
    """

    data: bytes
    rendered: bool
    source: str = field(default="", compare=False)
    verbatim: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class PickRender:
    """A pick rendered with canonical inputs: output path -> file.

    ``sample_values`` are the values given to variables without a default
    (the same for every pick of a template; fixtures record them).
    """

    slug: str
    answers: Mapping[str, str]
    files: Mapping[str, OutputFile] = field(default_factory=dict)
    sample_values: Mapping[str, str] = field(default_factory=dict)


def canonical_overrides(
    answers: Mapping[str, str], sample_values: Mapping[str, str] | None
) -> dict[str, str]:
    """The ``--var`` answers of a canonical render: sample values, then the pick's answers."""
    return {**(sample_values or {}), **answers}


def check_slug(slug: str, template_id: str) -> str:
    if not _SLUG_RE.fullmatch(slug) or slug.endswith(".json"):
        raise GoldenError(
            f"template {template_id}: pick slug {quoted(slug)} cannot name a fixture directory "
            "(it must start with a letter or digit and hold only letters, digits, '.', '_', '-')"
        )
    return slug


def render_picks(
    template: Template,
    *,
    slugs: Collection[str] | None = None,
    renderer: Renderer | None = None,
    trees: Mapping[str, RenderedTree] | None = None,
    sample_values: Mapping[str, str] | None = None,
) -> list[PickRender]:
    """Render the template's picks (all of them, or those in ``slugs``).

    ``trees`` (slug -> tree) holds canonical renders the caller already
    made (``wendy-llm check`` renders every pick for its validators); those
    picks are not rendered again.  ``sample_values`` give the variables
    without a default their values.
    """
    samples = dict(sample_values or {})
    out: list[PickRender] = []
    for pick in template.picks():
        if slugs is not None and pick.slug not in slugs:
            continue
        check_slug(pick.slug, template.id)
        tree = trees.get(pick.slug) if trees is not None else None
        if tree is None:
            overrides = canonical_overrides(pick.answers, samples)
            tree = template.render(CANONICAL_APP_ID, overrides, renderer=renderer)
        out.append(pick_render(pick.slug, pick.answers, tree, samples))
    return out


def pick_render(
    slug: str,
    answers: Mapping[str, str],
    tree: RenderedTree,
    sample_values: Mapping[str, str] | None = None,
) -> PickRender:
    """One render of a pick, as the comparisons hold it."""
    files = {
        path: OutputFile(
            data=item.data, rendered=item.rendered, source=item.source, verbatim=item.verbatim
        )
        for path, item in tree.files.items()
    }
    return PickRender(slug, dict(answers), files, dict(sample_values or {}))
