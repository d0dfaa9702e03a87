"""Compare two versions of a template pick by pick.

Every pick of the head is paired with a base render (``pairing.py``: the
base pick of the same slug, else the base rendered with the pick's
answers), and both sides are rendered with every input of the gate
(``render/variants.py``: the canonical input and the variant), once per
pick and input (``sides.py``). Each pick is classified:

- ``unchanged``: for every input, every in-scope file byte for byte equal;
- ``changed``: for some input, an in-scope file differs, appeared or went
  (a variant's change is listed only for files the canonical input left
  equal, so one mistake shows one diff);
- ``added``: a new pick the base cannot render (``reason`` says why);
- ``exempt``: a new pick answering a declared sentinel (its rules check it);
- ``removed``: only in the base.

``compared_with`` says what an unchanged or changed pick was held to:
``pick`` (the base pick of its slug) or ``answers`` (the base rendered with
its answers). An input the base cannot render (a variant its
``template.json`` rejects) is skipped for that pick, with the reason.

Files outside the scope never decide a pick's status; they are listed
(``outside_scope``, for the canonical input) so a reviewer still sees that
they moved.

Presentation (:meth:`TemplateDiff.shown_diffs`) goes through the comparison
engine ``golden --check`` uses too (``changes.py``): a change that is the
same in several picks (a README line, a shared Dockerfile) is shown once,
naming the picks, and all diffs of a run together are capped.
Classification and policy never look at what is shown.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wendy_llm import options
from wendy_llm.arguments import check_fields
from wendy_llm.compare.classify import classify, compare_files, compare_renders
from wendy_llm.compare.model import (
    PICK_STATUSES,
    ComparedWith,
    DiffGroup,
    FileChange,
    FileStatus,
    PickComparison,
    PickStatus,
    ShownDiffs,
    Side,
    SideKind,
    TemplateDiff,
    group_diffs,
)
from wendy_llm.compare.pairing import Sentinels, pair_picks
from wendy_llm.compare.scope import ALL_FILES, FileScope
from wendy_llm.compare.sides import render_base, render_side
from wendy_llm.errors import DiffError, EngineError, ToolchainError, WendyLlmError
from wendy_llm.render.variants import CANONICAL, Inputs, gate_inputs

if TYPE_CHECKING:
    from wendy_llm.compare.sides import Key
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.files.tree import RenderedTree
    from wendy_llm.render.template import Template

__all__ = [
    "PICK_STATUSES",
    "ComparedWith",
    "DiffGroup",
    "FileChange",
    "FileStatus",
    "PickComparison",
    "PickStatus",
    "Policy",
    "PolicyResult",
    "ShownDiffs",
    "Side",
    "SideKind",
    "TemplateDiff",
    "classify",
    "compare_files",
    "compare_renders",
    "compare_templates",
    "diff_template",
    "evaluate_policy",
    "group_diffs",
]


@dataclass(frozen=True)
class Policy:
    """``expect_unchanged``: picks on both sides must be unchanged, except
    ``allow_changed``. ``forbid_removed``: every base pick must still exist."""

    expect_unchanged: bool = False
    allow_changed: frozenset[str] = frozenset()
    forbid_removed: bool = False

    def __post_init__(self) -> None:
        check_fields(self)  # a caller's value: expect_unchanged="yes" is refused


@dataclass(frozen=True)
class PolicyResult:
    policy: Policy
    violations: tuple[str, ...]  # human-readable, one per offending pick
    failing_picks: tuple[str, ...]
    exempted: tuple[str, ...]  # changed picks let through by allow_changed
    warnings: tuple[str, ...] = field(default=())

    @property
    def holds(self) -> bool:
        return not self.violations


def compare_templates(
    template_id: str,
    base: Template,
    head: Template,
    *,
    base_side: Side,
    head_side: Side,
    scope: FileScope = ALL_FILES,
    sentinels: Sentinels | None = None,
    inputs: Sequence[Inputs] | None = None,
    slugs: Collection[str] | None = None,
    head_trees: Mapping[Key, RenderedTree] | None = None,
    renderer: Renderer | None = None,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
) -> TemplateDiff:
    """Pair, render and classify every pick of ``head`` (or those in ``slugs``).

    ``inputs`` defaults to the head's gate inputs (canonical, then the
    variant).  ``head_trees`` are head renders the caller already made,
    keyed by (slug, input label).  Raises :class:`DiffError` when the head
    does not render a pick or the base does not render one of its own.
    """
    chosen = tuple(inputs) if inputs is not None else gate_inputs(head)
    try:
        pairings = [
            p
            for p in pair_picks(base, head.picks(), sentinels)
            if slugs is None or p.mode == "removed" or p.slug in slugs
        ]
        wanted = [(p.slug, p.answers) for p in pairings if p.compared]
        head_renders = render_side(
            head, wanted, chosen, base=False, renderer=renderer, trees=head_trees
        )
        base_renders = render_base(base, pairings, chosen, renderer)
    except (EngineError, ToolchainError):
        raise  # the machine's fault, not the template's: the message says so already
    except WendyLlmError as exc:
        raise DiffError(f"cannot list the picks of {head_side.describe()}: {exc}") from None
    for (slug, label), why in head_renders.failed.items():
        variant = "" if label == CANONICAL.label else f" with variant {label}"
        where = f"{head_side.describe()} does not render pick {slug}{variant}"
        raise DiffError(f"the template at {where}: {why}")
    for pairing in pairings:
        failed = base_renders.failed.get((pairing.slug, CANONICAL.label))
        if pairing.mode == "pick" and failed is not None:
            where = f"{base_side.describe()} does not render pick {pairing.slug}"
            raise DiffError(f"the template at {where}: {failed}")
    picks = classify(
        pairings,
        base_renders,
        head_renders,
        chosen,
        base_label=base_side.describe(),
        head_label=head_side.describe(),
        scope=scope,
        max_diff_lines=max_diff_lines,
    )
    return TemplateDiff(template_id, base_side, head_side, scope, picks, max_diff_lines, chosen)


#: The library's name for it (``wendy-llm diff``); ``slugs`` and ``head_trees``
#: serve ``check``, which has rendered the head's picks already.
diff_template = compare_templates


def evaluate_policy(diff: TemplateDiff, policy: Policy) -> PolicyResult:
    violations: list[str] = []
    failing: list[str] = []
    exempted: list[str] = []
    if policy.expect_unchanged:
        for pick in diff.with_status("changed"):
            if pick.slug in policy.allow_changed:
                exempted.append(pick.slug)
                continue
            paths = ", ".join(
                f.path + (f" with variant {f.variant}" if f.variant else "") for f in pick.files
            )
            held = (
                "the base rendered with its answers"
                if pick.compared_with == "answers"
                else "its base render"
            )
            failing.append(pick.slug)
            violations.append(
                f"pick {pick.slug} changed ({paths}) but --expect-unchanged holds it to {held}; "
                f"if intended, exempt it with --allow-changed {pick.slug}"
            )
    if policy.forbid_removed:
        for pick in diff.with_status("removed"):
            failing.append(pick.slug)
            violations.append(f"pick {pick.slug} exists at the base but was removed")
    known = {p.slug for p in diff.picks}
    warnings = [
        f"--allow-changed {slug}: no pick {slug} on either side (a typo?)"
        for slug in sorted(policy.allow_changed - known)
    ]
    warnings += [
        f"--allow-changed {p.slug}: the pick is {p.status}, the exemption was not needed"
        for p in diff.picks
        if p.slug in policy.allow_changed and p.status == "unchanged"
    ]
    return PolicyResult(policy, tuple(violations), tuple(failing), tuple(exempted), tuple(warnings))
