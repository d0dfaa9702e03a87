"""One helper turns grouped changes into findings for the golden and baseline checks."""

from __future__ import annotations

from wendy_llm.codes.stored import (
    BASELINE_DIFFERS,
    BASELINE_SAME_CHANGE,
    GOLDEN_DIFFERS,
    GOLDEN_SAME_CHANGE,
)
from wendy_llm.validate.stored.grouped import GroupedChange, grouped_findings

T = "py/t"


def change(picks: tuple[str, ...], what: str) -> GroupedChange:
    return GroupedChange(T, picks, f"{what}\n-old\n+new", f"fix {what}", f"{what}.yml", what)


def test_one_pick_goes_to_its_row_several_to_the_template_row_with_pointers() -> None:
    found = grouped_findings(
        (GOLDEN_DIFFERS, GOLDEN_SAME_CHANGE), [change(("a",), "x"), change(("a", "b"), "y")]
    )
    assert [(f.template, f.pick, f.file) for f in found] == [
        (T, "a", "x.yml"),
        (T, "", "y.yml"),
        (T, "a", "y.yml"),
        (T, "b", "y.yml"),
    ]
    assert found[0].message == "x\n-old\n+new\nfix x"
    assert found[1].message == "y\n-old\n+new\nfix y"
    assert (
        found[2].message
        == found[3].message
        == ("y, the same for 2 picks; the diff is under py/t (template)")
    )
    assert {f.check for f in found} == {"golden"} and {f.severity for f in found} == {"error"}


def test_a_template_wide_change_has_no_pointers() -> None:
    [found] = grouped_findings((BASELINE_DIFFERS, BASELINE_SAME_CHANGE), [change((), "z")])
    assert (found.pick, found.check, found.message) == ("", "baseline", "z\n-old\n+new\nfix z")


def test_the_last_change_counts_what_the_cap_left_out_before_its_fix() -> None:
    first, shared, *pointers = grouped_findings(
        (BASELINE_DIFFERS, BASELINE_SAME_CHANGE),
        [change(("a",), "x"), change(("a", "b"), "y")],
        omitted_lines=7,
    )
    assert all("not shown" not in f.message for f in [first, *pointers])
    assert shared.message.splitlines()[-2:] == [
        "(7 more diff lines not shown: the diffs are capped; --max-diff-lines 0 shows them all)",
        "fix y",
    ]
