"""Both sides of a comparison rendered for every input the gate uses.

Each compared pick is rendered once per input (:mod:`wendy_llm.render.variants`:
the canonical input and the variant) on each side.  The base is rendered
as ``wendy init --var`` would (non-strict: a radio answer outside its
options is accepted); the head as the library renders by default.  A
render that fails is kept with its reason, so the comparison can say
"not comparable" (a new pick the base cannot render) or report the
failure; the machine's faults (the engine, the Go toolchain) are raised.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wendy_llm.errors import EngineError, ToolchainError, WendyLlmError
from wendy_llm.render.canonical import PickRender, pick_render

if TYPE_CHECKING:
    from wendy_llm.compare.pairing import Pairing
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.files.tree import RenderedTree
    from wendy_llm.render.template import Template
    from wendy_llm.render.variants import Inputs

#: (pick slug, input label)
Key = tuple[str, str]


@dataclass(frozen=True)
class Renders:
    """One side's renders: those that worked, and why the others failed."""

    ok: dict[Key, PickRender] = field(default_factory=dict)
    failed: dict[Key, str] = field(default_factory=dict)


def render_side(
    template: Template,
    wanted: Sequence[tuple[str, Mapping[str, str]]],
    inputs: Sequence[Inputs],
    *,
    base: bool,
    renderer: Renderer | None = None,
    trees: Mapping[Key, RenderedTree] | None = None,
) -> Renders:
    """Render each (slug, answers) of ``wanted`` with every input.

    ``trees`` holds renders the caller already made (``check`` renders
    every pick and its variant for its validators); they are not made again.
    """
    out = Renders()
    for slug, answers in wanted:
        for inputs_ in inputs:
            key = (slug, inputs_.label)
            tree = trees.get(key) if trees is not None else None
            if tree is None:
                try:
                    tree = template.render(
                        inputs_.app_id,
                        inputs_.with_answers(answers),
                        strict=not base,
                        renderer=renderer,
                    )
                except (EngineError, ToolchainError):
                    raise  # the machine's fault, not the template's
                except WendyLlmError as exc:
                    out.failed[key] = exc.describe()  # the comparison names the template
                    continue
            out.ok[key] = pick_render(slug, answers, tree)
    return out


def render_base(
    template: Template,
    pairings: Sequence[Pairing],
    inputs: Sequence[Inputs],
    renderer: Renderer | None = None,
) -> Renders:
    """The base's render of every compared pairing, with its ``base_answers``."""
    wanted = [(p.slug, p.base_answers or {}) for p in pairings if p.compared]
    return render_side(template, wanted, inputs, base=True, renderer=renderer)
