"""Every versioned JSON document, built in-process, validates against its schema.

(`test_cli_reports.py` does the same for the documents the CLI prints.)
"""

from __future__ import annotations

from pathlib import Path

from _cli_helpers import SCHEMAS, validate_report
from _golden_helpers import render

from wendy_llm.codes.stored import LINT_CODES
from wendy_llm.codes.tools import COMPOSE_REFUSED
from wendy_llm.compare.diff import Policy, Side, TemplateDiff, compare_renders, evaluate_policy
from wendy_llm.compare.scope import ALL_FILES
from wendy_llm.golden.check import CheckedTemplate, GoldenCheck
from wendy_llm.golden.fsops import write_tree_atomically
from wendy_llm.golden.manifest import build_fixture
from wendy_llm.golden.template_check import check_fixture
from wendy_llm.golden.update import GoldenUpdate, TemplateUpdate
from wendy_llm.reports.json import (
    REPORT_KINDS,
    VERSION,
    VERSIONS,
    check_json,
    diff_json,
    dumps,
    golden_check_json,
    golden_update_json,
    picks_json,
    schema_path,
)
from wendy_llm.revision import package_version
from wendy_llm.validate.findings import CheckResult, Report, error, warning

T = "py/t"


def test_every_kind_has_its_schema_and_every_report_schema_a_kind() -> None:
    assert {schema_path(kind) for kind in REPORT_KINDS} == set(SCHEMAS.glob("report-*.schema.json"))
    for kind in REPORT_KINDS:
        assert f".v{VERSIONS.get(kind, VERSION)}." in schema_path(kind).name
    assert VERSIONS == {"plan": 2}  # plan --json's meaning changed in issue 19


def test_picks() -> None:
    doc = validate_report(dumps(picks_json("llm", [("a-1", {"M": "a:1"}), ("b", {})])), "picks")
    assert doc == {
        "version": 1,
        "wendy_llm_version": package_version(),
        "template": "llm",
        "picks": [{"slug": "a-1", "answers": {"M": "a:1"}}, {"slug": "b", "answers": {}}],
    }


def test_check() -> None:
    broken = error(COMPOSE_REFUSED, "bad\nmore", "docker-compose.yml", 3).at(T, "a")
    lint = warning(LINT_CODES["large-number"], "large", "template.json").at(T, "")
    report = Report(
        (
            CheckResult(T, "", "lint", (lint,)),
            CheckResult(T, "a", "compose", (broken,)),
            CheckResult(T, "a", "shell"),
        ),
        {"render": 0.5, "total": 1.0},
    )
    doc = validate_report(dumps(check_json(report, strict=True)), "check")
    assert (doc["version"], doc["ok"], doc["strict"]) == (1, False, True)
    assert [r["pick"] for r in doc["results"]] == [None, "a", "a"]


def _diff() -> TemplateDiff:
    base = [render(s, {"README.md": "# x\n", "c.yml": f"m: {s}\n"}) for s in ("a", "b", "gone")]
    head = [render(s, {"README.md": "# y\n", "c.yml": f"m: {s}\n"}) for s in ("a", "b", "new")]
    picks = compare_renders(base, head, base_label="base", head_label="head")
    side = Side("baseline", "base/py/t", "base/py/t")
    return TemplateDiff(T, side, Side("working-tree", "t", "t"), ALL_FILES, picks)


def test_diff() -> None:
    diff = _diff()
    result = evaluate_policy(diff, Policy(expect_unchanged=True, forbid_removed=True))
    doc = validate_report(dumps(diff_json(diff, result)), "diff")
    assert doc["summary"] == {"unchanged": 0, "changed": 2, "added": 1, "removed": 1, "exempt": 0}
    assert [(d["path"], d["picks"]) for d in doc["diffs"]] == [("README.md", ["a", "b"])]


def test_golden_check(tmp_path: Path) -> None:
    picks = [render(s, {"README.md": "# x\n", "c.yml": f"m: {s}\n"}) for s in ("a", "b")]
    directory = tmp_path / "golden" / "py" / "t"
    write_tree_atomically(directory, build_fixture(T, picks).files)
    now = [render(s, {"README.md": "# y\n", "c.yml": f"m: {s}!\n"}) for s in ("a", "b")]
    problems = check_fixture(T, directory, now, all_picks=True, command="wendy-llm golden")
    result = GoldenCheck(
        tmp_path / "golden", (CheckedTemplate(T, ("a", "b")),), tuple(problems), ""
    )
    doc = validate_report(dumps(golden_check_json(result)), "golden-check")
    assert doc["ok"] is False and len(doc["problems"]) == 3
    assert doc["problems"][0]["picks"] == ["a", "b"] and doc["problems"][0]["path"] == "README.md"


def test_golden_update(tmp_path: Path) -> None:
    written = TemplateUpdate(T, tmp_path / "py/t", added=("golden.json",), changed=("a/x",))
    deleted = TemplateUpdate(
        "py/gone", tmp_path / "py/gone", removed=("golden.json",), deleted=True
    )
    doc = validate_report(
        dumps(golden_update_json(GoldenUpdate(tmp_path, (written, deleted)))), "golden-update"
    )
    assert doc["written"] is True
    assert [(t["template"], t["deleted"]) for t in doc["templates"]] == [
        (T, False),
        ("py/gone", True),
    ]
