"""Unified diffs of rendered files in which invisible differences show.

Two renders that differ only in line endings or trailing whitespace look
identical in an ordinary diff, which leaves a reviewer staring at a "changed"
file with nothing to see. Here every carriage return is drawn as ``␍``, every
trailing space as ``·`` and every trailing tab as ``␉`` (a legend line says
so whenever a marker appears), and a note line names the kind of difference
when the files differ only in whitespace. Long diffs are cut to a line budget
with a count of what was left out.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Sequence

from wendy_llm import options

_MIN_USEFUL = 12  # a cut shorter than this shows no hunk worth reading

CR_MARK = "␍"
SPACE_MARK = "·"
TAB_MARK = "␉"
LEGEND = (
    f"(whitespace made visible: {CR_MARK} = carriage return, "
    f"{SPACE_MARK} = trailing space, {TAB_MARK} = trailing tab)"
)
NO_NEWLINE = "\\ No newline at end of file"


def split_lines(data: bytes) -> list[bytes]:
    """Split on ``\\n`` only, keeping the terminators.

    ``bytes.splitlines`` also splits on ``\\r`` alone, which would hide the
    very CRLF differences this module exists to show.
    """
    lines = data.split(b"\n")
    out = [line + b"\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def is_text(data: bytes) -> bool:
    """True when ``data`` can be shown as text: UTF-8 without NUL bytes."""
    if b"\0" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def visible(line: str) -> str:
    """Draw a line's carriage returns and trailing blanks; drop its newline."""
    body = line[:-1] if line.endswith("\n") else line
    body = body.replace("\r", CR_MARK)
    stripped = body.rstrip(" \t")
    trailing = body[len(stripped) :]
    return stripped + trailing.replace(" ", SPACE_MARK).replace("\t", TAB_MARK)


def _has_marks(line: str) -> bool:
    body = line[:-1] if line.endswith("\n") else line
    return "\r" in body or body != body.rstrip(" \t")


def whitespace_notes(old: bytes, new: bytes) -> list[str]:
    """Note lines naming differences a reader cannot see in a plain diff.

    When the files differ only in line endings, trailing whitespace or the
    final newline, the note says exactly which; when they also differ in
    visible content, only a change of line-ending style is noted.
    """
    if old == new:
        return []
    facts: list[str] = []
    old_eol, new_eol = _eol_name(old), _eol_name(new)
    if old_eol != new_eol and "no newline" not in (old_eol, new_eol):
        facts.append(f"line endings ({old_eol} before, {new_eol} now)")
    old_lines = old.replace(b"\r\n", b"\n").removesuffix(b"\n").split(b"\n")
    new_lines = new.replace(b"\r\n", b"\n").removesuffix(b"\n").split(b"\n")
    same_shape = len(old_lines) == len(new_lines)
    if (
        same_shape
        and [x.rstrip(b" \t") for x in old_lines] == [x.rstrip(b" \t") for x in new_lines]
        and old_lines != new_lines
    ):
        facts.append("trailing whitespace")
    if old.endswith(b"\n") != new.endswith(b"\n"):
        facts.append("the newline at the end of the file")

    def normal(lines: list[bytes]) -> list[bytes]:
        out = [x.rstrip(b" \t\r") for x in lines]
        while out and not out[-1]:
            out.pop()
        return out

    if normal(old_lines) == normal(new_lines):
        if not same_shape:
            facts.append("blank lines at the end of the file")
        return ["note: only invisible characters differ: " + ("; ".join(facts) or "whitespace")]
    if old_eol != new_eol and "no newline" not in (old_eol, new_eol):
        return [f"note: line endings differ too ({old_eol} before, {new_eol} now)"]
    return []


def _eol_name(data: bytes) -> str:
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n") - crlf
    if crlf and lf:
        return "mixed CRLF/LF"
    if crlf:
        return "CRLF"
    if lf:
        return "LF"
    return "no newline"


def unified_diff(
    old: bytes,
    new: bytes,
    *,
    old_label: str,
    new_label: str,
    context: int = 3,
    max_lines: int | None = options.DIFF_MAX_LINES,
) -> list[str]:
    """Lines (without newlines) of a unified diff from ``old`` to ``new``.

    Binary content is summarised by size and SHA-256. ``max_lines`` bounds
    the output; the last line then says how many lines were left out.
    """
    if old == new:
        return []
    if not (is_text(old) and is_text(new)):
        return [
            f"--- {old_label}",
            f"+++ {new_label}",
            f"binary content differs: {describe_bytes(old)} before, {describe_bytes(new)} now",
        ]
    old_lines = [line.decode("utf-8") for line in split_lines(old)]
    new_lines = [line.decode("utf-8") for line in split_lines(new)]
    body: list[str] = []
    marked = False
    diff = difflib.unified_diff(
        old_lines, new_lines, fromfile=old_label, tofile=new_label, n=context, lineterm="\n"
    )
    for index, raw in enumerate(diff):
        # The first two lines are the file headers and hunk headers start
        # with "@@"; every other line is " ", "-" or "+" and then content
        # (which may itself start with "--", so position decides, not text).
        if index < 2 or raw.startswith("@@"):
            body.append(raw.rstrip("\n"))
            continue
        prefix, line = raw[:1], raw[1:]
        marked = marked or _has_marks(line)
        body.append(prefix + visible(line))
        if not line.endswith("\n"):
            body.append(NO_NEWLINE)
    header = whitespace_notes(old, new)
    if marked:
        header.append(LEGEND)
    return truncate(header + body, max_lines)


def relabel(
    lines: Sequence[str], old_label: tuple[str, str], new_label: tuple[str, str]
) -> list[str]:
    """A diff with its file headers relabelled: ``(from, to)`` for the ``---``
    and the ``+++`` label. Content lines are never touched (the headers come
    before the first hunk); a header that is not there (cut, or labelled
    otherwise) stays as it is."""
    out = list(lines)
    for prefix, (before, after) in (("--- ", old_label), ("+++ ", new_label)):
        for at, line in enumerate(out):
            if line.startswith("@@"):
                break
            if line == prefix + before:
                out[at] = prefix + after
                break
    return out


def truncate(lines: Sequence[str], max_lines: int | None) -> list[str]:
    """Cut ``lines`` to ``max_lines``, ending with a count of what was cut."""
    if max_lines is None or len(lines) <= max_lines:
        return list(lines)
    keep = max(max_lines - 1, 0)
    return [*lines[:keep], f"... ({len(lines) - keep} more lines not shown)"]


def total_budget(max_lines: int | None) -> int | None:
    """The line budget of all diffs of a run, given the per-diff one."""
    return None if max_lines is None else max_lines * options.DIFF_TOTAL_FACTOR


def cap_total(diffs: Sequence[Sequence[str]], budget: int | None) -> tuple[list[list[str]], int]:
    """Cut a run's diffs, in order, to ``budget`` lines in all.

    Returns the diffs (each cut one ending with a count of what it left out)
    and the number of diff lines left out. Nothing is cut when ``budget`` is
    None.
    """
    if budget is None:
        return [list(d) for d in diffs], 0
    left, omitted, out = budget, 0, []
    for diff in diffs:
        if len(diff) <= left:
            out.append(list(diff))
            left -= len(diff)
        elif left >= _MIN_USEFUL:
            out.append(truncate(diff, left))
            omitted += len(diff) - (left - 1)
            left = 0
        else:
            out.append([f"... (diff of {len(diff)} lines not shown: {budget} lines shown already)"])
            omitted += len(diff)
            left = 0
    return out, omitted


def counted(n: int, word: str) -> str:
    """``1 file``, ``3 files``: how every report counts."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def name_picks(picks: Sequence[str]) -> str:
    """How a diff shared by several picks names them: ``pick a``, ``picks a, b``
    or ``picks a, ..., f and 3 more``."""
    if len(picks) == 1:
        return f"pick {picks[0]}"
    named = ", ".join(picks[: options.DIFF_NAMED_PICKS])
    more = len(picks) - options.DIFF_NAMED_PICKS
    return f"picks {named}" + (f" and {more} more" if more > 0 else "")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def describe_bytes(data: bytes) -> str:
    return f"{len(data)} bytes, sha256 {sha256_hex(data)[:12]}"
