"""`wendy-llm diff` shows a change shared by several picks once and caps all
diffs of a run together (as `golden --check` does); classification and
policy do not move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from _golden_helpers import render, run_cli, template_files, write_files

from wendy_llm.compare.diff import Policy, Side, TemplateDiff, compare_renders, evaluate_policy
from wendy_llm.compare.scope import ALL_FILES
from wendy_llm.render.canonical import PickRender
from wendy_llm.reports.diff import diff_failures_text, diff_text
from wendy_llm.reports.json import diff_json
from wendy_llm.reports.markdown import diff_markdown, diff_summary

BASE = Side("baseline", "base/py/t", "base/py/t")
HEAD = Side("working-tree", "templates/py/t", "templates/py/t")
SLUGS = [f"p{i}" for i in range(8)]


def make(
    base: list[PickRender], head: list[PickRender], max_diff_lines: int | None = 200
) -> TemplateDiff:
    picks = compare_renders(
        base, head, base_label="base", head_label="head", max_diff_lines=max_diff_lines
    )
    return TemplateDiff("py/t", BASE, HEAD, ALL_FILES, picks, max_diff_lines)


def shared_change() -> TemplateDiff:
    """README gains a line in all 8 picks, wendy.json in all but p7, and p3's
    compose file changes in its own way."""
    base = [
        render(s, {"README.md": "# app\n", "wendy.json": "{}\n", "compose.yml": f"m: {s}\n"})
        for s in SLUGS
    ]
    head = [
        render(
            s,
            {
                "README.md": "# app\n\nNow with vLLM.\n",
                "wendy.json": "{}\n" if s == "p7" else '{"gpu": true}\n',
                "compose.yml": f"m: {s}\n" + ("x: 1\n" if s == "p3" else ""),
            },
        )
        for s in SLUGS
    ]
    return make(base, head)


def test_a_change_in_every_pick_is_shown_once_naming_the_picks() -> None:
    diff = shared_change()
    result = evaluate_policy(diff, Policy(expect_unchanged=True))
    # Classification and policy are per pick, as before.
    assert [p.status for p in diff.picks] == ["changed"] * 8
    assert result.failing_picks == tuple(SLUGS)
    text = diff_text(diff, result)
    headers = [line for line in text.splitlines() if line.startswith("=== ")]
    assert headers == [
        "=== every changed pick (8): README.md (changed)",
        "=== picks p0, p1, p2, p3, p4, p5 and 1 more: wendy.json (changed)",
        "=== pick p3: compose.yml (changed)",
    ]
    assert text.count("+Now with vLLM.") == 1
    assert "not shown" not in text

    doc: Any = json.loads(json.dumps(diff_json(diff, result)))
    assert doc == diff_json(diff, result)
    assert doc["omitted_diff_lines"] == 0
    assert [(g["path"], g["picks"]) for g in doc["diffs"]] == [
        ("README.md", SLUGS),
        ("wendy.json", SLUGS[:7]),
        ("compose.yml", ["p3"]),
    ]
    picks = {p["slug"]: p for p in doc["picks"]}
    readme = next(f for f in picks["p0"]["files"] if f["path"] == "README.md")
    assert readme["diff_index"] == 0 and "+Now with vLLM." in readme["diff"]
    # The other picks point at the shared diff instead of repeating it.
    for slug in SLUGS[1:]:
        [again] = [f for f in picks[slug]["files"] if f["path"] == "README.md"]
        assert again == {
            "path": "README.md",
            "status": "changed",
            "diff": [],
            "diff_index": 0,
            "variant": None,
        }

    md = diff_markdown(diff, result)
    assert md.count("<details>") == 3
    assert "<details><summary>every changed pick (8): README.md (changed)</summary>" in md
    assert md.count("+Now with vLLM.") == 1


def test_quiet_names_the_failing_picks_it_merges() -> None:
    diff = shared_change()
    result = evaluate_policy(diff, Policy(expect_unchanged=True, allow_changed=frozenset({"p7"})))
    assert result.failing_picks == tuple(SLUGS[:7])
    headers = [ln for ln in diff_failures_text(diff, result).splitlines() if ln.startswith("===")]
    assert headers == [
        "=== every failing pick (7): README.md (changed)",
        "=== every failing pick (7): wendy.json (changed)",
        "=== pick p3: compose.yml (changed)",
    ]


def test_changes_alike_only_up_to_the_cut_are_not_merged() -> None:
    same = "".join(f"line {k}\n" for k in range(30))
    base = [render(s, {"f": ""}) for s in ("a", "b")]
    head = [render("a", {"f": same + "end a\n"}), render("b", {"f": same + "end b\n"})]
    diff = make(base, head, max_diff_lines=10)
    a, b = (p.files[0].diff for p in diff.picks)
    assert a == b  # the cut diffs look the same...
    groups = diff.shown_diffs().groups
    assert [g.picks for g in groups] == [("a",), ("b",)]  # ...but the changes are not


def distinct_additions(lines: int) -> tuple[list[PickRender], list[PickRender]]:
    """Five picks each gain a file of ``lines`` lines of their own."""
    slugs = [f"q{i}" for i in range(5)]
    base = [render(s, {"keep": "k\n"}) for s in slugs]
    head = [
        render(s, {"keep": "k\n", "new.txt": "".join(f"{s} {k}\n" for k in range(lines))})
        for s in slugs
    ]
    return base, head


def test_all_diffs_of_a_run_are_capped_together_with_exact_counts() -> None:
    # Each diff: "--- /dev/null", "+++ ...", "@@ ...", then 13 lines = 16 lines.
    # --max-diff-lines 20 -> 60 in all: three whole diffs (48), the fourth cut
    # to 12 (11 shown + a count: 5 left out), the fifth not shown (16).
    diff = make(*distinct_additions(13), max_diff_lines=20)
    result = evaluate_policy(diff, Policy(expect_unchanged=True))
    assert [p.status for p in diff.picks] == ["changed"] * 5
    assert len(result.failing_picks) == 5
    shown = diff.shown_diffs()
    assert [len(g.diff) for g in shown.groups] == [16, 16, 16, 12, 1]
    assert shown.groups[3].diff[-1] == "... (5 more lines not shown)"
    assert shown.groups[4].diff == ("... (diff of 16 lines not shown: 60 lines shown already)",)
    assert shown.omitted_lines == 21

    text = diff_text(diff, result)
    assert (
        "diff: 21 diff lines not shown (the run's diffs are capped; narrow it with --files, "
        "or --max-diff-lines 0)"
    ) in text.splitlines()
    assert "summary: 0 unchanged, 5 changed, 0 added, 0 removed" in text
    doc: Any = diff_json(diff, result)
    assert doc["omitted_diff_lines"] == 21
    assert [len(g["diff"]) for g in doc["diffs"]] == [16, 16, 16, 12, 1]
    assert "21 diff lines not shown" in diff_markdown(diff, result)


def test_no_limit_shows_every_line() -> None:
    diff = make(*distinct_additions(300), max_diff_lines=None)
    shown = diff.shown_diffs()
    assert [len(g.diff) for g in shown.groups] == [303] * 5
    assert shown.omitted_lines == 0
    assert "not shown" not in diff_text(diff, evaluate_policy(diff, Policy()))


def test_cli_caps_by_default_and_max_diff_lines_0_lifts_the_cap(tmp_path: Path) -> None:
    options = [f"m{i}:1" for i in range(8)]
    base = tmp_path / "base/mini"
    write_files(base, template_files(options))
    extra = "".join(f"{{{{.MODEL}}}} note {k}\n" for k in range(40))
    write_files(tmp_path / "templates/py/mini", template_files(options, readme="# x\n" + extra))
    args = ["diff", str(tmp_path / "templates"), "--baseline", str(base), "--files", "README.md"]
    args += ["--template", "py/mini", "--json"]

    # Each pick's README diff: 2 file headers, 1 hunk header, 1 removed and
    # 41 added lines = 45, cut to 10; 30 in all: 3 diffs shown, 5 x 10 left out.
    code, out, _ = run_cli(*args, "--max-diff-lines", "10")
    doc = json.loads(out)
    assert code == 0 and doc["summary"]["changed"] == 8
    assert [len(g["diff"]) for g in doc["diffs"]] == [10, 10, 10, 1, 1, 1, 1, 1]
    assert doc["omitted_diff_lines"] == 50

    code, out, _ = run_cli(*args, "--max-diff-lines", "0")
    doc = json.loads(out)
    assert [len(g["diff"]) for g in doc["diffs"]] == [45] * 8
    assert doc["omitted_diff_lines"] == 0


def test_the_markdown_of_many_templates_stays_under_the_summary_limit() -> None:
    """Each template's diffs are capped, but not many templates together (issue 38):
    the report is cut at the per-report cap, naming the templates left out."""
    diff = shared_change()
    result = evaluate_policy(diff, Policy(expect_unchanged=True))
    one = len(diff_markdown(diff, result).encode())
    whole = diff_summary([(diff, result)] * 10)
    assert whole.count("### wendy-llm diff") == 10
    capped = diff_summary([(diff, result)] * 10, max_bytes=3 * one + 600)
    assert len(capped.encode()) <= 3 * one + 600
    assert capped.count("### wendy-llm diff") == 3
    assert "cut to stay under" in capped and "the diff of py/t" in capped
