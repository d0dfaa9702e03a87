"""A one-line progress bar on a terminal (nothing at all when the stream is not one)."""

from __future__ import annotations

import sys
from typing import TextIO

from wendy_llm import escape
from wendy_llm.history.gitwalk import Commit

WIDTH = 30


class ProgressBar:
    """``[######--------] 12/200 abc1234567 subject``, redrawn in place."""

    def __init__(self, stream: TextIO | None = None, columns: int = 100) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.columns = columns
        self.active = self.stream.isatty()
        self.drawn = False

    def update(self, done: int, total: int, commit: Commit) -> None:
        if not self.active:
            return
        filled = WIDTH * done // max(total, 1)
        line = f"[{'#' * filled}{'-' * (WIDTH - filled)}] {done}/{total} {commit.id[:10]} "
        line += escape.text(commit.subject)  # a commit's subject is its author's text
        self.stream.write("\r" + line[: self.columns - 1].ljust(self.columns - 1))
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r" + " " * (self.columns - 1) + "\r")
            self.stream.flush()
