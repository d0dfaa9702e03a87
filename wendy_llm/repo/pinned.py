"""Files a run reads as a base revision holds them, not as the work tree does.

With ``--base REV`` the policy a verdict is judged by (the rules files,
``wendy-llm.toml``, the suppressions file) is the base's
(:mod:`wendy_llm.repo.policy`): the layout carries a :class:`Pinned` and
every reader of a policy file asks it first.  A path it covers is read from
it, never from the work tree, whatever the work tree holds there (a newer
file, none, a symbolic link).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Pinned:
    """``files``: (work-tree path, its bytes at ``revision``; None: no file there)."""

    revision: str
    commit: str
    files: tuple[tuple[Path, bytes | None], ...] = ()

    def covers(self, path: Path) -> bool:
        """Whether ``path`` is read from the revision."""
        return any(pinned == path for pinned, _ in self.files)

    def data(self, path: Path) -> bytes | None:
        """The bytes of ``path`` at the revision (None: no file there, or not pinned)."""
        return next((data for pinned, data in self.files if pinned == path), None)

    def describe(self) -> str:
        """``origin/main (0123456789ab)``: the revision as messages name it."""
        return f"{self.revision} ({self.commit[:12]})"
