"""The one comparison engine (wendy_llm.compare.changes) that diff and golden share."""

from __future__ import annotations

from dataclasses import dataclass

from wendy_llm.compare.changes import file_diff, group_changes, name_group
from wendy_llm.compare.textdiff import relabel, unified_diff


@dataclass(frozen=True)
class Edit:
    path: str
    digest: str

    def merge_key(self) -> tuple[str, str]:
        return (self.path, self.digest)


def test_file_diff_cuts_the_lines_but_digests_the_whole_diff() -> None:
    old = b"".join(b"%d\n" % i for i in range(50))
    one = file_diff(old, old + b"a\n", old_label="o", new_label="n", max_lines=3)
    other = file_diff(old, old + b"b\n", old_label="o", new_label="n", max_lines=3)
    assert one.lines == ("--- o", "+++ n", "... (5 more lines not shown)")
    assert one.lines == other.lines and one.digest != other.digest
    same = file_diff(old, old + b"a\n", old_label="o", new_label="n", max_lines=None)
    assert same.digest == one.digest
    assert list(same.lines) == unified_diff(old, old + b"a\n", old_label="o", new_label="n")


def test_equal_changes_merge_in_order_of_first_appearance() -> None:
    groups = group_changes(
        [
            ("a", [Edit("x", "1"), Edit("y", "1")]),
            ("b", [Edit("y", "2"), Edit("x", "1")]),
            ("c", [Edit("x", "1")]),
        ]
    )
    assert [(g.change, g.picks) for g in groups] == [
        (Edit("x", "1"), ("a", "b", "c")),
        (Edit("y", "1"), ("a",)),
        (Edit("y", "2"), ("b",)),
    ]
    assert group_changes([("a", [])]) == []


def test_a_group_names_its_picks_or_says_every() -> None:
    considered = ["a", "b", "c"]
    assert name_group(["b"], considered) == "pick b"
    assert name_group(["a", "c"], considered, "changed") == "picks a, c"
    assert name_group(considered, considered) == "every pick (3)"
    assert name_group(considered, considered, "failing") == "every failing pick (3)"
    assert name_group(["a"], ["a"]) == "pick a"
    many = [f"p{i}" for i in range(9)]
    assert name_group(many, [*many, "q"]) == "picks p0, p1, p2, p3, p4, p5 and 3 more"


def test_relabel_changes_the_file_headers_only() -> None:
    lines = unified_diff(b"--- a\n", b"--- b\n", old_label="a", new_label="b")
    assert lines[:2] == ["--- a", "+++ b"]
    # The content line "---- a" (removed "--- a") is not a header.
    assert relabel(lines, ("a", "A"), ("b", "B")) == ["--- A", "+++ B", *lines[2:]]
    assert relabel(lines, ("x", "X"), ("y", "Y")) == lines
    noted = ["note: ...", "--- a", "+++ b", "@@ -1 +1 @@", " x"]
    assert relabel(noted, ("a", "A"), ("b", "B")) == ["note: ...", "--- A", "+++ B", *noted[3:]]
    # Headers come before the first hunk: after it, a look-alike is content.
    headless = ["@@ -1,2 +1,2 @@", "--- a", "+++ b"]
    assert relabel(headless, ("a", "A"), ("b", "B")) == headless
