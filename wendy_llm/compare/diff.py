"""Compare two versions of a template pick by pick.

Both sides are rendered with the canonical inputs (``canonical.py``), once
per pick. Picks are matched by slug and classified:

- ``unchanged``: on both sides, every in-scope file byte for byte equal;
- ``changed``: on both sides, some in-scope file differs, appeared or went;
- ``added`` / ``removed``: only in the head / only in the base.

Files outside the scope never decide a pick's status; they are listed
(``outside_scope``) so a reviewer still sees that they moved.

Presentation (:meth:`TemplateDiff.shown_diffs`) goes through the comparison
engine ``golden --check`` uses too (``changes.py``): a change that is the
same in several picks (a README line, a shared Dockerfile) is shown once,
naming the picks, and all diffs of a run together are capped.
Classification and policy never look at what is shown.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from wendy_llm.compare.changes import file_diff, group_changes
from wendy_llm.compare.scope import ALL_FILES, FileScope
from wendy_llm.compare.textdiff import DEFAULT_MAX_LINES, cap_total, total_budget
from wendy_llm.errors import (
    DiffError,
    EngineError,
    MissingValueError,
    ToolchainError,
    WendyLlmError,
)
from wendy_llm.render.canonical import PickRender, render_picks

if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.template import Template

PickStatus = Literal["unchanged", "changed", "added", "removed"]
FileStatus = Literal["changed", "added", "removed"]
SideKind = Literal["revision", "baseline", "working-tree"]
PICK_STATUSES: tuple[PickStatus, ...] = ("unchanged", "changed", "added", "removed")


@dataclass(frozen=True)
class Side:
    """Where one version of the template came from."""

    kind: SideKind
    label: str  # the revision as typed, or the directory
    path: str  # the template directory (in the repository, for revisions)
    commit: str | None = None

    def describe(self) -> str:
        if self.kind == "revision":
            short = f" ({self.commit[:12]})" if self.commit else ""
            return f"{self.label}{short}"
        if self.kind == "baseline":
            return f"baseline {self.label}"
        return f"working tree {self.label}"


@dataclass(frozen=True)
class FileChange:
    path: str
    status: FileStatus
    diff: tuple[str, ...] = ()  # cut to the run's --max-diff-lines
    # SHA-256 of the whole diff before the cut: two picks' changes merge only
    # when they are identical, not merely alike up to the cut.
    digest: str = ""

    def merge_key(self) -> tuple[object, ...]:
        return (self.path, self.status, self.digest or self.diff)


@dataclass(frozen=True)
class PickComparison:
    slug: str
    status: PickStatus
    answers: Mapping[str, str]
    base_answers: Mapping[str, str] | None = None  # set when they differ from ``answers``
    files: tuple[FileChange, ...] = ()  # in-scope changes
    outside_scope: tuple[FileChange, ...] = ()  # changes the scope leaves out (no diffs)


@dataclass(frozen=True)
class TemplateDiff:
    template_id: str
    base: Side
    head: Side
    scope: FileScope
    picks: tuple[PickComparison, ...]
    max_diff_lines: int | None = DEFAULT_MAX_LINES  # None = no limit

    def with_status(self, status: PickStatus) -> list[PickComparison]:
        return [p for p in self.picks if p.status == status]

    def counts(self) -> dict[str, int]:
        return {s: len(self.with_status(s)) for s in PICK_STATUSES}

    def shown_diffs(self, slugs: Collection[str] | None = None) -> ShownDiffs:
        """The changed picks' diffs (only ``slugs``' when given), merged and capped."""
        picks = [p for p in self.with_status("changed") if slugs is None or p.slug in slugs]
        return group_diffs(picks, self.max_diff_lines)


@dataclass(frozen=True)
class DiffGroup:
    """One in-scope file change, identical in every pick it names."""

    path: str
    status: FileStatus
    picks: tuple[str, ...]
    diff: tuple[str, ...]  # cut per file, then by the run's total budget


@dataclass(frozen=True)
class ShownDiffs:
    groups: tuple[DiffGroup, ...]  # in order of first appearance (pick, then file)
    omitted_lines: int  # diff lines the run's total budget left out
    considered: tuple[str, ...]  # the picks whose diffs were grouped
    index: Mapping[tuple[str, str], int]  # (slug, path) -> position in ``groups``


def group_diffs(picks: Iterable[PickComparison], max_diff_lines: int | None) -> ShownDiffs:
    """Merge identical file changes across ``picks`` and cap them all to
    ``textdiff.total_budget(max_diff_lines)`` lines."""
    considered = list(picks)
    groups = group_changes((p.slug, p.files) for p in considered)
    diffs, omitted = cap_total([g.change.diff for g in groups], total_budget(max_diff_lines))
    shown = tuple(
        DiffGroup(g.change.path, g.change.status, g.picks, tuple(d))
        for g, d in zip(groups, diffs, strict=True)
    )
    index = {(slug, g.path): at for at, g in enumerate(shown) for slug in g.picks}
    return ShownDiffs(shown, omitted, tuple(p.slug for p in considered), index)


@dataclass(frozen=True)
class Policy:
    """``expect_unchanged``: picks on both sides must be unchanged, except
    ``allow_changed``. ``forbid_removed``: every base pick must still exist."""

    expect_unchanged: bool = False
    allow_changed: frozenset[str] = frozenset()
    forbid_removed: bool = False


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


def compare_files(
    base: Mapping[str, bytes],
    head: Mapping[str, bytes],
    *,
    base_label: str,
    head_label: str,
    scope: FileScope,
    max_diff_lines: int | None,
) -> tuple[list[FileChange], list[FileChange]]:
    """In-scope changes (with diffs) and out-of-scope changes (without)."""
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
        inside.append(FileChange(path, status, diff.lines, diff.digest))
    return inside, outside


def compare_renders(
    base: Sequence[PickRender],
    head: Sequence[PickRender],
    *,
    base_label: str,
    head_label: str,
    scope: FileScope = ALL_FILES,
    max_diff_lines: int | None = DEFAULT_MAX_LINES,
) -> tuple[PickComparison, ...]:
    """Classify every pick; head order first, then picks only the base has."""
    by_slug = {r.slug: r for r in base}
    head_slugs = {r.slug for r in head}
    out: list[PickComparison] = []
    for render in head:
        old = by_slug.get(render.slug)
        if old is None:
            out.append(PickComparison(render.slug, "added", dict(render.answers)))
            continue
        inside, outside = compare_files(
            {p: f.data for p, f in old.files.items()},
            {p: f.data for p, f in render.files.items()},
            base_label=base_label,
            head_label=head_label,
            scope=scope,
            max_diff_lines=max_diff_lines,
        )
        base_answers = dict(old.answers) if dict(old.answers) != dict(render.answers) else None
        out.append(
            PickComparison(
                render.slug,
                "changed" if inside else "unchanged",
                dict(render.answers),
                base_answers=base_answers,
                files=tuple(inside),
                outside_scope=tuple(outside),
            )
        )
    out.extend(
        PickComparison(r.slug, "removed", dict(r.answers)) for r in base if r.slug not in head_slugs
    )
    return tuple(out)


def _render_side(
    template: Template,
    side: Side,
    renderer: Renderer | None,
    sample_values: Mapping[str, str] | None,
) -> list[PickRender]:
    try:
        return render_picks(template, renderer=renderer, sample_values=sample_values)
    except (EngineError, ToolchainError, MissingValueError):
        # The machine's fault, not the template's, or a value the caller can
        # name the fix for (a sample value): the message says so already.
        raise
    except WendyLlmError as exc:
        raise DiffError(f"the template at {side.describe()} does not render: {exc}") from None


def diff_template(
    template_id: str,
    base: Template,
    head: Template,
    *,
    base_side: Side,
    head_side: Side,
    scope: FileScope = ALL_FILES,
    renderer: Renderer | None = None,
    max_diff_lines: int | None = DEFAULT_MAX_LINES,
    sample_values: Mapping[str, str] | None = None,
) -> TemplateDiff:
    """Render both versions of a template and classify every pick (both with
    ``sample_values`` for the variables without a default)."""
    picks = compare_renders(
        _render_side(base, base_side, renderer, sample_values),
        _render_side(head, head_side, renderer, sample_values),
        base_label=base_side.describe(),
        head_label=head_side.describe(),
        scope=scope,
        max_diff_lines=max_diff_lines,
    )
    return TemplateDiff(template_id, base_side, head_side, scope, picks, max_diff_lines)


def evaluate_policy(diff: TemplateDiff, policy: Policy) -> PolicyResult:
    violations: list[str] = []
    failing: list[str] = []
    exempted: list[str] = []
    if policy.expect_unchanged:
        for pick in diff.with_status("changed"):
            if pick.slug in policy.allow_changed:
                exempted.append(pick.slug)
                continue
            paths = ", ".join(f.path for f in pick.files)
            failing.append(pick.slug)
            violations.append(
                f"pick {pick.slug} changed ({paths}) but --expect-unchanged holds it to its "
                f"base render; if intended, exempt it with --allow-changed {pick.slug}"
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
