"""The one comparison engine: per-file diffs, and identical changes merged across picks.

``wendy-llm diff`` (a template against a revision or a baseline) and
``golden --check`` (renders against fixtures) compare the same way: each
pick's files one by one (:func:`file_diff`), then a change that is the same
in several picks is shown once, naming them (:func:`group_changes`,
:func:`name_group`), and all the diffs of a run are capped together
(:func:`~wendy_llm.compare.textdiff.cap_total`).

Two changes merge only when they are identical as a whole, not merely alike
up to the ``--max-diff-lines`` cut: each carries the digest of its uncut diff.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from wendy_llm.compare.textdiff import name_picks, truncate, unified_diff


@dataclass(frozen=True)
class FileDiff:
    lines: tuple[str, ...]  # cut to the run's --max-diff-lines
    digest: str  # SHA-256 of the whole diff before the cut


def file_diff(
    old: bytes, new: bytes, *, old_label: str, new_label: str, max_lines: int | None
) -> FileDiff:
    """The unified diff of one file (``textdiff.unified_diff``), cut, with its digest.

    Labels that name no pick make one change in several picks give the very
    same diff, so it can be shown once.
    """
    whole = unified_diff(old, new, old_label=old_label, new_label=new_label, max_lines=None)
    digest = hashlib.sha256("\n".join(whole).encode("utf-8")).hexdigest()
    return FileDiff(tuple(truncate(whole, max_lines)), digest)


class Change(Protocol):
    """What :func:`group_changes` merges: equal keys mean the very same change."""

    def merge_key(self) -> Hashable: ...


C = TypeVar("C", bound=Change)


@dataclass(frozen=True)
class Group(Generic[C]):
    """One change, identical in every pick it names (in the order they were seen)."""

    change: C  # as the first of ``picks`` has it
    picks: tuple[str, ...]


def group_changes(per_pick: Iterable[tuple[str, Iterable[C]]]) -> list[Group[C]]:
    """Merge equal changes across picks, in order of first appearance (pick, then change)."""
    positions: dict[Hashable, int] = {}
    changes: list[C] = []
    members: list[list[str]] = []
    for slug, found in per_pick:
        for change in found:
            at = positions.setdefault(change.merge_key(), len(changes))
            if at == len(changes):
                changes.append(change)
                members.append([])
            members[at].append(slug)
    return [Group(c, tuple(m)) for c, m in zip(changes, members, strict=True)]


def name_group(picks: Sequence[str], considered: Sequence[str], which: str = "") -> str:
    """Who shows a change: ``pick a``, ``picks a, b, ...`` or, when it is every
    one of the ``considered`` picks, ``every <which> pick (N)``."""
    if len(picks) > 1 and len(picks) == len(considered):
        return f"every {which + ' ' if which else ''}pick ({len(picks)})"
    return name_picks(picks)
