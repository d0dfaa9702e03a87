"""``wendy-llm summary DIR``: the job summary of the action, from the reports it wrote.

The action's summary step appends this command's output to
``$GITHUB_STEP_SUMMARY``; it replaces a shell ``cat reports/*.md``, which
followed whatever the checkout committed under ``reports/`` (a symlink to
a host file or the git credentials, a forged report saying "passed").
The directory is the one the action created under ``$RUNNER_TEMP``; even
so, only regular files directly in it are read (a symlink or a FIFO put
there is refused by name, never followed), each at most as much as the
summary can hold, and the text is kept under GitHub's 1 MiB per step
(:mod:`wendy_llm.reports.github.summary`).
"""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

from wendy_llm import options
from wendy_llm.cli import output
from wendy_llm.errors import WendyLlmError
from wendy_llm.reports.github.summary import NamedReport, step_summary

HELP = "print the job summary of the Markdown reports in a directory (the action's last step)"
DESCRIPTION = (
    "Print every Markdown report (*.md) of DIR as one job summary: the check first, then "
    "the diffs with the base, then the stored baselines; at most --max-bytes bytes in all "
    "(GitHub drops a step summary over 1 MiB whole), the first report that does not fit "
    "cut at a line with a note naming what was left out. Only regular files directly in "
    "DIR are read; a symlink, a FIFO or a device there is an error naming it."
)
EPILOG = """\
examples:
  wendy-llm summary "$RUNNER_TEMP/wendy-llm-reports" >> "$GITHUB_STEP_SUMMARY"
  wendy-llm summary reports --max-bytes 65536

Exit status: 0 printed (an empty directory prints nothing), 2 a directory or a
report that cannot be read as a regular file.
"""

#: Where the action's reports are whole, named by the note on a cut summary.
_WHERE = "the reports artifact (the action's `artifact` input) and the job log"


class ReportsDirError(WendyLlmError):
    """The reports directory, or a report in it, is not what the action wrote."""

    def __init__(self, message: str, *, file: str) -> None:
        super().__init__(message)
        self.file = file


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("directory", metavar="DIR", type=Path, help="the directory of the reports")
    p.add_argument(
        "--max-bytes",
        type=int,
        default=options.STEP_SUMMARY_MAX_BYTES,
        metavar="N",
        help=f"the summary's size limit in bytes (default {options.STEP_SUMMARY_MAX_BYTES})",
    )


def run(args: argparse.Namespace) -> int:
    directory: Path = args.directory
    limit: int = args.max_bytes
    if limit < options.STEP_SUMMARY_MIN_BYTES:
        raise ReportsDirError(
            f"--max-bytes {limit}: at least {options.STEP_SUMMARY_MIN_BYTES}", file=str(directory)
        )
    reports = [
        # Guarded as they will be written, so the limit holds for what is printed.
        NamedReport(name, output.guard(text))
        for name, text in read_reports(directory, limit)
    ]
    if reports:
        output.emit(step_summary(reports, limit, _WHERE))
    return 0


def read_reports(directory: Path, limit: int) -> list[tuple[str, str]]:
    """Every ``*.md`` directly in ``directory``: its name and its first
    ``limit`` bytes (no summary shows more), read without following links."""
    try:
        dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise ReportsDirError(
            f"{directory}: not a directory of reports ({exc.strerror}; a symlink is refused)",
            file=str(directory),
        ) from exc
    try:
        names = sorted(name for name in os.listdir(dir_fd) if name.endswith(".md"))
        return [(name, _read_one(dir_fd, directory, name, limit)) for name in names]
    finally:
        os.close(dir_fd)


def _read_one(dir_fd: int, directory: Path, name: str, limit: int) -> str:
    where = str(directory / name)
    try:
        # O_NONBLOCK: a FIFO opens without waiting for a writer (then refused below).
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        fd = os.open(name, flags, dir_fd=dir_fd)
    except OSError as exc:
        raise ReportsDirError(
            f"{where}: cannot be read as a report ({exc.strerror}; a symlink is refused)",
            file=where,
        ) from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ReportsDirError(f"{where}: not a regular file", file=where)
        data = bytearray()
        while len(data) < limit:
            chunk = os.read(fd, limit - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    return data.decode("utf-8", errors="replace")
