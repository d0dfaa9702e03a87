"""Unified diffs with visible whitespace (wendy_llm.compare.textdiff)."""

from __future__ import annotations

from wendy_llm.compare.textdiff import (
    LEGEND,
    NO_NEWLINE,
    split_lines,
    truncate,
    unified_diff,
    visible,
    whitespace_notes,
)


def test_split_lines_splits_on_newline_only() -> None:
    assert split_lines(b"a\r\nb\rc\n\x0cd") == [b"a\r\n", b"b\rc\n", b"\x0cd"]
    assert split_lines(b"") == []


def test_visible_marks_carriage_returns_and_trailing_blanks() -> None:
    assert visible("x = 1\r\n") == "x = 1␍"
    assert visible("key:  \n") == "key:··"
    assert visible("a\tb \t\n") == "a\tb·␉"
    assert visible("in the middle  stays\n") == "in the middle  stays"


def test_crlf_only_difference_is_visible_and_named() -> None:
    lines = unified_diff(b"a\nb\n", b"a\r\nb\r\n", old_label="old", new_label="new")
    assert lines[0] == "note: only invisible characters differ: line endings (LF before, CRLF now)"
    assert LEGEND in lines
    assert "+a␍" in lines and "+b␍" in lines
    assert "-a" in lines


def test_trailing_whitespace_difference_is_visible_and_named() -> None:
    lines = unified_diff(b"k: v  \n", b"k: v\n", old_label="old", new_label="new")
    assert lines[0] == "note: only invisible characters differ: trailing whitespace"
    assert "-k: v··" in lines
    assert "+k: v" in lines


def test_missing_final_newline_is_marked() -> None:
    lines = unified_diff(b"a\n", b"a", old_label="old", new_label="new")
    assert "note: only invisible characters differ: the newline at the end of the file" in lines
    assert lines[-1] == NO_NEWLINE


def test_visible_changes_get_no_note_but_line_ending_style_changes_do() -> None:
    plain = unified_diff(b"a\nb\n", b"a\nc\n", old_label="o", new_label="n")
    assert plain == ["--- o", "+++ n", "@@ -1,2 +1,2 @@", " a", "-b", "+c"]
    both = whitespace_notes(b"a\nb\n", b"a\r\nc\r\n")
    assert both == ["note: line endings differ too (LF before, CRLF now)"]


def test_content_lines_that_look_like_headers_stay_content() -> None:
    lines = unified_diff(b"-- x\n@@ y\n", b"-- z\n@@ y\n", old_label="o", new_label="n")
    assert lines[3:] == ["--- x", "+-- z", " @@ y"]


def test_binary_content_is_summarised() -> None:
    lines = unified_diff(b"\x00\x01", b"\x00\x02", old_label="o", new_label="n")
    assert lines[2].startswith("binary content differs: 2 bytes, sha256 ")


def test_big_diff_is_cut_with_a_count() -> None:
    old = b"".join(b"%d\n" % i for i in range(500))
    lines = unified_diff(old, b"", old_label="o", new_label="n", max_lines=20)
    assert len(lines) == 20
    # 2 file headers + 1 hunk header + 500 removed lines, 19 shown.
    assert lines[-1] == "... (484 more lines not shown)"
    assert unified_diff(old, b"", old_label="o", new_label="n", max_lines=None)[-1] == "-499"


def test_truncate_keeps_short_lists() -> None:
    assert truncate(["a", "b"], 2) == ["a", "b"]
    assert truncate(["a", "b", "c"], 2) == ["a", "... (2 more lines not shown)"]
    assert truncate(["a"], None) == ["a"]


def test_equal_inputs_give_no_diff() -> None:
    assert unified_diff(b"same\r\n", b"same\r\n", old_label="o", new_label="n") == []
