"""What a comparison of two versions of a template finds, as data.

The results of :mod:`wendy_llm.compare.diff` (``wendy-llm diff`` and
``check``'s baseline check): where each side came from (:class:`Side`),
each pick's classification (:class:`PickComparison`) with its in-scope file
changes (:class:`FileChange`), and the changes merged across picks and
capped for display (:func:`group_diffs`).  Classification and policy never
look at what is shown.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from wendy_llm import options
from wendy_llm.arguments import check_fields
from wendy_llm.compare.changes import group_changes
from wendy_llm.compare.scope import FileScope
from wendy_llm.compare.textdiff import cap_total, total_budget
from wendy_llm.render.variants import CANONICAL, Inputs

PickStatus = Literal["unchanged", "changed", "added", "removed", "exempt"]
FileStatus = Literal["changed", "added", "removed"]
SideKind = Literal["revision", "baseline", "working-tree"]
ComparedWith = Literal["pick", "answers"]
PICK_STATUSES: tuple[PickStatus, ...] = ("unchanged", "changed", "added", "removed", "exempt")


@dataclass(frozen=True)
class Side:
    """Where one version of the template came from."""

    kind: SideKind
    label: str  # the revision as typed, or the directory
    path: str  # the template directory (in the repository, for revisions)
    commit: str | None = None

    def __post_init__(self) -> None:
        check_fields(self)  # a caller's value: Side("bogus", ...) is refused, naming kind

    def describe(self) -> str:
        if self.kind == "revision":
            short = f" ({self.commit[:12]})" if self.commit else ""
            return f"{self.label}{short}"
        if self.kind == "baseline":
            return f"baseline {self.label}"
        return f"working tree {self.label}"


def describe_change(path: str, status: FileStatus, variant: str | None) -> str:
    """``docker-compose.yml (changed)``, with the variant when there is one."""
    shown = f", variant {variant}" if variant else ""
    return f"{path} ({status}{shown})"


@dataclass(frozen=True)
class FileChange:
    path: str
    status: FileStatus
    diff: tuple[str, ...] = ()  # cut to the run's --max-diff-lines
    # SHA-256 of the whole diff before the cut: two picks' changes merge only
    # when they are identical, not merely alike up to the cut.
    digest: str = ""
    variant: str | None = None  # the variant's label; None: the canonical input

    def merge_key(self) -> tuple[object, ...]:
        return (self.path, self.status, self.digest or self.diff, self.variant)

    def describe(self) -> str:
        """``docker-compose.yml (changed)``, with the variant when there is one."""
        return describe_change(self.path, self.status, self.variant)


@dataclass(frozen=True)
class PickComparison:
    slug: str
    status: PickStatus
    answers: Mapping[str, str]
    base_answers: Mapping[str, str] | None = None  # set when they differ from ``answers``
    files: tuple[FileChange, ...] = ()  # in-scope changes
    outside_scope: tuple[FileChange, ...] = ()  # changes the scope leaves out (no diffs)
    compared_with: ComparedWith | None = None  # unchanged / changed: what it was held to
    reason: str | None = None  # added: why it is not comparable; exempt: the sentinel
    skipped: tuple[tuple[str, str], ...] = ()  # (variant label, why the base cannot render it)

    def note(self) -> str | None:
        """What the status alone does not say, for the reports (None: nothing)."""
        if self.status == "added":
            return f"not comparable: {self.reason}" if self.reason else None
        if self.status == "exempt":
            return self.reason
        if self.compared_with == "answers":
            return "new: compared with the base rendered with its answers"
        return None

    def table_note(self) -> str | None:
        """:meth:`note` where a report's pick table shows it: a changed pick's
        files and diffs say more, so it gets none."""
        return None if self.status == "changed" else self.note()


@dataclass(frozen=True)
class TemplateDiff:
    template_id: str
    base: Side
    head: Side
    scope: FileScope
    picks: tuple[PickComparison, ...]
    max_diff_lines: int | None = options.DIFF_MAX_LINES  # None = no limit
    inputs: tuple[Inputs, ...] = (CANONICAL,)  # what every pick was rendered with

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
    variant: str | None = None  # the variant's label; None: the canonical input

    def describe(self) -> str:
        """``docker-compose.yml (changed)``, with the variant when there is one."""
        return describe_change(self.path, self.status, self.variant)


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
        DiffGroup(g.change.path, g.change.status, g.picks, tuple(d), g.change.variant)
        for g, d in zip(groups, diffs, strict=True)
    )
    index = {(slug, g.path): at for at, g in enumerate(shown) for slug in g.picks}
    return ShownDiffs(shown, omitted, tuple(p.slug for p in considered), index)
