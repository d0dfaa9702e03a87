"""Compare two versions of a template pick by pick.

Both sides are rendered with the canonical inputs (``canonical.py``), once
per pick. Picks are matched by slug and classified:

- ``unchanged``: on both sides, every in-scope file byte for byte equal;
- ``changed``: on both sides, some in-scope file differs, appeared or went;
- ``added`` / ``removed``: only in the head / only in the base.

Files outside the scope never decide a pick's status; they are listed
(``outside_scope``) so a reviewer still sees that they moved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from wendy_llm.canonical import PickRender, render_picks
from wendy_llm.errors import DiffError, EngineError, ToolchainError, WendyLlmError
from wendy_llm.scope import ALL_FILES, FileScope
from wendy_llm.textdiff import DEFAULT_MAX_LINES, unified_diff

if TYPE_CHECKING:
    from wendy_llm.engine import Renderer
    from wendy_llm.template import Template

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
    diff: tuple[str, ...] = ()


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

    def with_status(self, status: PickStatus) -> list[PickComparison]:
        return [p for p in self.picks if p.status == status]

    def counts(self) -> dict[str, int]:
        return {s: len(self.with_status(s)) for s in PICK_STATUSES}


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
        diff = unified_diff(
            old or b"",
            new or b"",
            old_label=f"{path} ({base_label})" if old is not None else "/dev/null",
            new_label=f"{path} ({head_label})" if new is not None else "/dev/null",
            max_lines=max_diff_lines,
        )
        inside.append(FileChange(path, status, tuple(diff)))
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


def _render_side(template: Template, side: Side, renderer: Renderer | None) -> list[PickRender]:
    try:
        return render_picks(template, renderer=renderer)
    except (EngineError, ToolchainError):
        raise  # the machine's fault, not the template's: the message says so already
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
) -> TemplateDiff:
    """Render both versions of a template and classify every pick."""
    picks = compare_renders(
        _render_side(base, base_side, renderer),
        _render_side(head, head_side, renderer),
        base_label=base_side.describe(),
        head_label=head_side.describe(),
        scope=scope,
        max_diff_lines=max_diff_lines,
    )
    return TemplateDiff(template_id, base_side, head_side, scope, picks)


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
