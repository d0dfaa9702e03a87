"""Classifying picks: each pairing's renders compared file by file, for every input.

See :mod:`wendy_llm.compare.diff` for what the statuses mean.  Labels in
the diffs name the sides (and the variant), never the pick, so one change
made in several picks gives the very same diff in each and is shown once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wendy_llm import options
from wendy_llm.compare.changes import file_diff
from wendy_llm.compare.model import FileChange, FileStatus, PickComparison, PickStatus
from wendy_llm.compare.pairing import Mode, Pairing, pair_by_slug
from wendy_llm.compare.scope import ALL_FILES, FileScope
from wendy_llm.compare.sides import Renders
from wendy_llm.render.canonical import PickRender
from wendy_llm.render.variants import CANONICAL, Inputs

#: The status of a pick that is not compared, by how it was paired.
_NOT_COMPARED: Mapping[Mode, PickStatus] = {
    "exempt": "exempt",
    "removed": "removed",
    "not-comparable": "added",
}


def compare_files(
    base: Mapping[str, bytes],
    head: Mapping[str, bytes],
    *,
    base_label: str,
    head_label: str,
    scope: FileScope,
    max_diff_lines: int | None,
    variant: str | None = None,
) -> tuple[list[FileChange], list[FileChange]]:
    """In-scope changes (with diffs) and out-of-scope changes (without)."""
    if variant is not None:
        base_label, head_label = (
            f"{base_label}, variant {variant}",
            f"{head_label}, variant {variant}",
        )
    inside: list[FileChange] = []
    outside: list[FileChange] = []
    for path in sorted(set(base) | set(head)):
        old, new = base.get(path), head.get(path)
        if old == new:
            continue
        status: FileStatus = "added" if old is None else "removed" if new is None else "changed"
        if path not in scope:
            outside.append(FileChange(path, status))
            continue
        # Labels name the sides, never the pick, so one change made in
        # every pick gives the very same diff in each.
        diff = file_diff(
            old or b"",
            new or b"",
            old_label=f"{path} ({base_label})" if old is not None else "/dev/null",
            new_label=f"{path} ({head_label})" if new is not None else "/dev/null",
            max_lines=max_diff_lines,
        )
        inside.append(FileChange(path, status, diff.lines, diff.digest, variant))
    return inside, outside


def compare_renders(
    base: Sequence[PickRender],
    head: Sequence[PickRender],
    *,
    base_label: str,
    head_label: str,
    scope: FileScope = ALL_FILES,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
) -> tuple[PickComparison, ...]:
    """Classify canonical renders matched by slug; head order first, then removed picks.

    Without the templates, a new pick cannot be rendered on the base side:
    it is ``added``.  :func:`compare_templates` pairs picks by answers too.
    """
    pairings = pair_by_slug(head, base)
    return classify(
        pairings,
        Renders(ok={(r.slug, CANONICAL.label): r for r in base}),
        Renders(ok={(r.slug, CANONICAL.label): r for r in head}),
        (CANONICAL,),
        base_label=base_label,
        head_label=head_label,
        scope=scope,
        max_diff_lines=max_diff_lines,
    )


def classify(
    pairings: Sequence[Pairing],
    base: Renders,
    head: Renders,
    inputs: Sequence[Inputs],
    *,
    base_label: str,
    head_label: str,
    scope: FileScope = ALL_FILES,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
) -> tuple[PickComparison, ...]:
    """One :class:`PickComparison` per pairing, from both sides' renders.

    A compared pick whose head render is missing for an input is not
    compared for that input (the caller reports head failures); a base
    render missing for a variant skips that variant, with the reason; a
    new pick the base cannot render canonically is ``added``.
    """
    out: list[PickComparison] = []
    for pairing in pairings:
        if not pairing.compared:
            status = _NOT_COMPARED[pairing.mode]
            out.append(PickComparison(pairing.slug, status, pairing.answers, reason=pairing.reason))
            continue
        out.append(
            _compare_pick(
                pairing,
                base,
                head,
                inputs,
                base_label=base_label,
                head_label=head_label,
                scope=scope,
                max_diff_lines=max_diff_lines,
            )
        )
    return tuple(out)


def _compare_pick(
    pairing: Pairing,
    base: Renders,
    head: Renders,
    inputs: Sequence[Inputs],
    *,
    base_label: str,
    head_label: str,
    scope: FileScope,
    max_diff_lines: int | None,
) -> PickComparison:
    slug = pairing.slug
    inside: list[FileChange] = []
    outside: list[FileChange] = []
    skipped: list[tuple[str, str]] = []
    seen: set[str] = set()
    for inputs_ in inputs:
        key = (slug, inputs_.label)
        new = head.ok.get(key)
        if new is None:
            continue
        old = base.ok.get(key)
        if old is None:
            why = base.failed.get(key, "not rendered")
            if inputs_.canonical and pairing.mode == "answers":
                reason = f"the base does not render its answers: {why}"
                return PickComparison(slug, "added", pairing.answers, reason=reason)
            skipped.append((inputs_.label, f"the base does not render it: {why}"))
            continue
        found, left_out = compare_files(
            {p: f.data for p, f in old.files.items()},
            {p: f.data for p, f in new.files.items()},
            base_label=base_label,
            head_label=head_label,
            scope=scope,
            max_diff_lines=max_diff_lines,
            variant=None if inputs_.canonical else inputs_.label,
        )
        inside += [c for c in found if c.path not in seen]
        seen.update(c.path for c in found)
        if inputs_.canonical:
            outside = left_out
    base_answers = pairing.base_answers
    moved = (
        dict(base_answers) if base_answers is not None and base_answers != pairing.answers else None
    )
    return PickComparison(
        slug,
        "changed" if inside else "unchanged",
        dict(pairing.answers),
        base_answers=moved,
        files=tuple(inside),
        outside_scope=tuple(outside),
        compared_with="pick" if pairing.mode == "pick" else "answers",
        skipped=tuple(skipped),
    )
