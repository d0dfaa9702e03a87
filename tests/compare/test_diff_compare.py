"""Pick classification, policy and reports of baseline comparisons.

Hand-made renders drive the pure comparison; test_diff_cli.py runs the
real thing against git revisions and baseline directories.
"""

from __future__ import annotations

import json

from _golden_helpers import render

from wendy_llm.compare.diff import (
    Policy,
    Side,
    TemplateDiff,
    compare_renders,
    evaluate_policy,
)
from wendy_llm.compare.scope import ALL_FILES, FileScope
from wendy_llm.render.canonical import PickRender
from wendy_llm.reports.diff import diff_text
from wendy_llm.reports.json import diff_json

BASE = Side("revision", "HEAD~1", "templates/py/t", "0123456789abcdef0123")
HEAD = Side("working-tree", "templates/py/t", "templates/py/t")


def base_renders() -> list[PickRender]:
    return [
        render("a", {"compose.yml": "m: a\n", "README.md": "r\n"}, M="a:1"),
        render("b", {"compose.yml": "m: b\n", "README.md": "r\n"}, M="b:1"),
        render("gone", {"compose.yml": "m: g\n", "README.md": "r\n"}, M="g:1"),
    ]


def head_renders() -> list[PickRender]:
    return [
        render("a", {"compose.yml": "m: a\n", "README.md": "r2\n", "vllm/x": "v"}, M="a:1"),
        render("b", {"compose.yml": "m: B\n", "README.md": "r2\n", "vllm/x": "v"}, M="b:1"),
        render("new", {"compose.yml": "m: n\n", "README.md": "r2\n", "vllm/x": "v"}, M="new"),
    ]


def make(scope: FileScope = ALL_FILES) -> TemplateDiff:
    picks = compare_renders(
        base_renders(), head_renders(), base_label="HEAD~1", head_label="work", scope=scope
    )
    return TemplateDiff("py/t", BASE, HEAD, scope, picks)


def test_whole_tree_comparison_calls_every_common_pick_changed() -> None:
    diff = make()
    assert [(p.slug, p.status) for p in diff.picks] == [
        ("a", "changed"),
        ("b", "changed"),
        ("new", "added"),
        ("gone", "removed"),
    ]
    a = diff.picks[0]
    assert [(f.path, f.status) for f in a.files] == [("README.md", "changed"), ("vllm/x", "added")]
    assert a.outside_scope == ()


def test_scope_limits_what_decides_the_status() -> None:
    diff = make(FileScope(("compose.yml",), "rules"))
    assert [(p.slug, p.status) for p in diff.picks][:2] == [("a", "unchanged"), ("b", "changed")]
    a, b = diff.picks[:2]
    assert a.files == ()
    assert [(f.path, f.status) for f in a.outside_scope] == [
        ("README.md", "changed"),
        ("vllm/x", "added"),
    ]
    [change] = b.files
    assert change.path == "compose.yml"
    assert "-m: b" in change.diff and "+m: B" in change.diff
    assert change.diff[0] == "--- compose.yml (HEAD~1)"
    assert diff.counts() == {"unchanged": 1, "changed": 1, "added": 1, "removed": 1, "exempt": 0}


def test_expect_unchanged_fails_on_changed_picks_only() -> None:
    diff = make(FileScope(("compose.yml",)))
    result = evaluate_policy(diff, Policy(expect_unchanged=True))
    assert not result.holds
    assert result.failing_picks == ("b",)
    assert "pick b changed (compose.yml)" in result.violations[0]
    assert "--allow-changed b" in result.violations[0]


def test_allow_changed_exempts_a_pick() -> None:
    diff = make(FileScope(("compose.yml",)))
    result = evaluate_policy(diff, Policy(expect_unchanged=True, allow_changed=frozenset({"b"})))
    assert result.holds
    assert result.exempted == ("b",)
    assert result.warnings == ()


def test_useless_or_mistyped_exemptions_warn() -> None:
    diff = make(FileScope(("compose.yml",)))
    result = evaluate_policy(
        diff, Policy(expect_unchanged=True, allow_changed=frozenset({"b", "a", "typo"}))
    )
    assert result.holds
    assert result.warnings == (
        "--allow-changed typo: no pick typo on either side (a typo?)",
        "--allow-changed a: the pick is unchanged, the exemption was not needed",
    )


def test_no_policy_always_holds_and_removed_can_be_forbidden() -> None:
    diff = make()
    assert evaluate_policy(diff, Policy()).holds
    result = evaluate_policy(diff, Policy(forbid_removed=True))
    assert result.failing_picks == ("gone",)
    assert result.violations == ("pick gone exists at the base but was removed",)


def test_answers_that_moved_are_recorded() -> None:
    base = [render("a", {"f": "x\n"}, M="a:1")]
    head = [render("a", {"f": "x\n"}, M="a:2")]
    [pick] = compare_renders(base, head, base_label="b", head_label="h")
    assert pick.status == "unchanged"
    assert pick.base_answers == {"M": "a:1"}


def test_text_report_has_table_outside_scope_diffs_and_verdict() -> None:
    diff = make(FileScope(("compose.yml",), "golden/py/t.rules.yaml"))
    text = diff_text(diff, evaluate_policy(diff, Policy(expect_unchanged=True)))
    lines = text.splitlines()
    assert lines[0] == "template py/t: HEAD~1 (0123456789ab) -> working tree templates/py/t"
    assert lines[1] == "scope: compose.yml (from golden/py/t.rules.yaml)"
    assert "  a     unchanged" in lines
    assert "  b     changed    compose.yml (changed)  [FAILS the policy]" in lines
    assert "  new   added" in lines
    assert "  gone  removed" in lines
    assert "  README.md (changed in 2 picks)" in lines
    assert "=== pick b: compose.yml (changed)" in lines
    assert "summary: 1 unchanged, 1 changed, 1 added, 1 removed, 0 exempt" in lines
    assert "policy: expect unchanged: FAILS (1)" in lines
    assert text.endswith("--allow-changed b\n")


def test_text_report_marks_exempted_picks_and_holds() -> None:
    diff = make(FileScope(("compose.yml",)))
    policy = Policy(expect_unchanged=True, allow_changed=frozenset({"b"}))
    text = diff_text(diff, evaluate_policy(diff, policy))
    assert "  b     changed    compose.yml (changed)  [allowed by --allow-changed]" in text
    assert "policy: expect unchanged (allowed to change: b): holds" in text


def test_json_report_is_versioned_and_complete() -> None:
    diff = make(FileScope(("compose.yml",), "rules.yaml"))
    doc = diff_json(diff, evaluate_policy(diff, Policy(expect_unchanged=True)))
    assert json.loads(json.dumps(doc)) == doc
    assert doc["version"] == 1
    assert doc["template"] == "py/t"
    assert doc["base"] == {
        "kind": "revision",
        "label": "HEAD~1",
        "path": "templates/py/t",
        "commit": "0123456789abcdef0123",
    }
    assert doc["scope"] == {"files": ["compose.yml"], "source": "rules.yaml"}
    assert doc["summary"] == {"unchanged": 1, "changed": 1, "added": 1, "removed": 1, "exempt": 0}
    policy = doc["policy"]
    assert isinstance(policy, dict)
    assert policy["holds"] is False and policy["failing_picks"] == ["b"]
    picks = doc["picks"]
    assert isinstance(picks, list)
    b = picks[1]
    assert b["slug"] == "b" and b["status"] == "changed" and b["answers"] == {"M": "b:1"}
    assert b["files"][0]["path"] == "compose.yml" and "+m: B" in b["files"][0]["diff"]
    assert {"path": "vllm/x", "status": "added"} in b["outside_scope"]
