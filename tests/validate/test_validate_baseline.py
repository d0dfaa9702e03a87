"""The ``baseline`` check: picks the stored baseline has render as it does.

A small template (``_check_helpers.write_template``: two Ollama tags and a
vLLM sentinel) gets a stored baseline under ``golden/baseline/py/mini/``
made in the test; the real python/llm is checked against its own.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from _check_helpers import (
    RULES,
    TEMPLATE_COMPOSE,
    picker_without,
    write_baseline,
    write_template,
)

from wendy_llm.render.template import load_template
from wendy_llm.reports.check import format_table
from wendy_llm.reports.json import check_json
from wendy_llm.reports.junit import check_junit
from wendy_llm.reports.markdown import check_markdown
from wendy_llm.validate.findings import Report
from wendy_llm.validate.run import run_check
from wendy_llm.validate.stored.baseline import baseline_findings

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = "py/mini"
BASELINE = "golden/baseline/py/mini"
OLLAMA_PICKS = ["gemma4-e2b", "qwen2.5-3b"]
HOW_TO_MOVE = "The baseline only moves deliberately"


def check(base: Path, templates: Path, golden: Path) -> Report:
    # Run from the temporary directory so paths in messages read as a user
    # in that repository would see them.
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(base)
        return run_check(templates, golden_dir=golden, golden=False)


def baseline_statuses(report: Report, template: str = TEMPLATE) -> dict[str, str]:
    return {
        r.pick: r.status for r in report.results if r.check == "baseline" and r.template == template
    }


def test_picks_the_baseline_has_pass_and_a_new_pick_is_not_applicable(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path)
    # The baseline predates the vLLM option.
    write_baseline(golden, **{"template.schema.json": picker_without("big-dflash")})
    report = check(tmp_path, templates, golden)
    assert report.passed(), report.errors
    assert baseline_statuses(report) == {"": "ok", "gemma4-e2b": "ok", "qwen2.5-3b": "ok"}
    table = format_table(report).splitlines()
    assert table[0].split()[-1] == "baseline"
    (dflash,) = [line for line in table if " big-dflash " in line]
    assert dflash.split()[-1] == "-"


def test_an_ollama_pick_that_gained_a_blank_line_fails_with_the_diff(tmp_path: Path) -> None:
    # One template line that renders a blank line into the qwen2.5-3b pick only.
    model = '      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"\n'
    compose = TEMPLATE_COMPOSE.replace(
        model, model + '{{if eq .OLLAMA_MODEL "qwen2.5:3b"}}\n{{end}}'
    )
    assert compose != TEMPLATE_COMPOSE
    templates, golden = write_template(tmp_path, files={"docker-compose.yml": compose})
    write_baseline(golden)
    report = check(tmp_path, templates, golden)
    assert baseline_statuses(report) == {
        "": "ok",
        "gemma4-e2b": "ok",
        "qwen2.5-3b": "fail",
        "big-dflash": "ok",
    }
    # Nothing else notices: the YAML is as valid as before.
    assert {f.check for f in report.errors} == {"baseline"}
    (finding,) = report.errors
    assert (finding.template, finding.pick, finding.file) == (
        TEMPLATE,
        "qwen2.5-3b",
        "docker-compose.yml",
    )
    lines = finding.message.splitlines()
    assert lines[0] == (
        f"template {TEMPLATE}, pick qwen2.5-3b: docker-compose.yml differs from the stored "
        f"baseline {BASELINE}"
    )
    assert lines[1:3] == [
        f"--- docker-compose.yml (baseline {BASELINE})",
        "+++ docker-compose.yml (working tree templates/py/mini)",
    ]
    at = lines.index("+")
    assert lines[at - 1] == '       OLLAMA_MODEL: "qwen2.5:3b"'
    assert lines[at + 1] == "     ports:"
    assert lines[-1].startswith(f"{HOW_TO_MOVE}: fix the template so that this pick renders")
    assert lines[-1].endswith(
        f"update {BASELINE} in a commit of its own that says why "
        '(README: "The stored baseline"). See it all: '
        f"wendy-llm diff --baseline {BASELINE} --template {TEMPLATE} --expect-unchanged"
    )


def test_the_same_change_in_several_picks_is_shown_once(tmp_path: Path) -> None:
    # An {{end}} that lost its trim marker: a blank line in every Ollama pick.
    volume = '      - "{{.APP_ID}}-models:/models"\n'
    compose = TEMPLATE_COMPOSE.replace(volume + "{{- end}}", volume + "{{end}}")
    assert compose != TEMPLATE_COMPOSE
    templates, golden = write_template(tmp_path, files={"docker-compose.yml": compose})
    write_baseline(golden)
    report = check(tmp_path, templates, golden)
    assert baseline_statuses(report) == {
        "": "fail",
        "gemma4-e2b": "fail",
        "qwen2.5-3b": "fail",
        "big-dflash": "ok",
    }
    shared = [f for f in report.errors if f.pick == ""]
    assert len(shared) == 1
    assert shared[0].message.startswith(
        f"template {TEMPLATE}, picks gemma4-e2b, qwen2.5-3b: docker-compose.yml differs"
    )
    assert shared[0].message.count("\n+\n") == 1
    pointers = [(f.pick, f.message) for f in report.errors if f.pick]
    assert pointers == [
        (
            slug,
            f"docker-compose.yml differs from the stored baseline {BASELINE}, the same for "
            f"2 picks; the diff is under {TEMPLATE} (template)",
        )
        for slug in OLLAMA_PICKS
    ]


def test_a_pick_removed_from_the_template_fails_template_wide(tmp_path: Path) -> None:
    templates, golden = write_template(
        tmp_path, files={"template.schema.json": picker_without("qwen2.5:3b")}
    )
    write_baseline(golden)
    report = check(tmp_path, templates, golden)
    assert baseline_statuses(report) == {"": "fail", "gemma4-e2b": "ok", "big-dflash": "ok"}
    (finding,) = report.errors
    assert (finding.check, finding.pick, finding.file) == ("baseline", "", BASELINE)
    assert finding.message.startswith(
        f"template {TEMPLATE} no longer has 1 pick of the stored baseline {BASELINE}: "
        "qwen2.5-3b; every baseline pick must still render as before. "
        f"{HOW_TO_MOVE}: restore them in the template;"
    )


def test_a_template_without_a_baseline_is_not_applicable(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path)
    write_baseline(golden)
    shutil.copytree(templates / TEMPLATE, templates / "py" / "other")
    report = check(tmp_path, templates, golden)
    assert report.passed(), report.errors
    assert baseline_statuses(report, "py/other") == {}
    assert set(baseline_statuses(report)) == {"", "gemma4-e2b", "qwen2.5-3b", "big-dflash"}
    table = format_table(report).splitlines()
    assert table[0].split()[-1] == "baseline"
    other = [line.split() for line in table if line.startswith("py/other ")]
    assert len(other) == 4 and all(row[-1] == "-" for row in other)
    # Without any stored baseline, the column is not there at all.
    lone = load_template(templates / "py" / "other", id="py/other")
    assert baseline_findings(lone, golden) is None


def test_the_reports_carry_the_check(tmp_path: Path) -> None:
    model = '      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"\n'
    compose = TEMPLATE_COMPOSE.replace(
        model, model + '{{if eq .OLLAMA_MODEL "qwen2.5:3b"}}\n{{end}}'
    )
    templates, golden = write_template(tmp_path, files={"docker-compose.yml": compose})
    write_baseline(golden)
    report = check(tmp_path, templates, golden)
    doc: Any = check_json(report)
    assert doc["checks"][-1] == "baseline"
    (failed,) = [r for r in doc["results"] if r["status"] == "fail"]
    assert (failed["pick"], failed["check"]) == ("qwen2.5-3b", "baseline")
    assert failed["findings"][0]["file"] == "docker-compose.yml"
    cases = ET.fromstring(check_junit(report)).iter("testcase")
    failing = [c.get("name") for c in cases if c.find("failure") is not None]
    assert failing == ["qwen2.5-3b baseline"]
    markdown = check_markdown(report)
    assert "baseline" in markdown and "qwen2.5-3b" in markdown


def test_the_real_llm_template_matches_its_stored_baseline() -> None:
    template = load_template(REPO / "templates" / "python" / "llm", id="python/llm")
    result = baseline_findings(template, REPO / "golden")
    assert result is not None
    assert result.template == []
    # The 14 picks of the baseline and the 2 new Ollama picks, held to the
    # baseline rendered with their answers; the DFlash sentinel is exempt.
    assert len(result.picks) == 16
    assert "laguna-xs-2.1-q4_k_m" in result.picks and "laguna-s-2.1-q4_k_m" in result.picks
    assert all(found == [] for found in result.picks.values())
    assert result.exempt == {
        "laguna-s-2.1-dflash": (
            "sentinel OLLAMA_MODEL=laguna-s-2.1-dflash: checked by its rules, not byte for byte"
        )
    }
    assert result.not_comparable == {}


def test_check_on_the_real_llm_template_shows_16_ok_and_the_sentinel_exempt() -> None:
    report = run_check(REPO / "templates", templates=["python/llm"], golden_dir=REPO / "golden")
    statuses = baseline_statuses(report, "python/llm")
    assert statuses.pop("") == "ok"
    assert list(statuses.values()) == ["ok"] * 16
    every = {r.pick for r in report.results if r.pick}
    assert sorted(every - set(statuses)) == ["laguna-s-2.1-dflash"]


def test_a_rules_file_that_does_not_load_leaves_the_baseline_uncompared(tmp_path: Path) -> None:
    """Its gate is unknown: the template row says so (no pick is compared against a
    guessed scope), and topology names the mistake."""
    rules = RULES.replace("files: [docker-compose.yml, wendy.json]", "files: ['wendy.json**']")
    templates, golden = write_template(tmp_path, rules=rules)
    write_baseline(golden, **{"template.schema.json": picker_without("big-dflash")})
    report = check(tmp_path, templates, golden)
    assert baseline_statuses(report) == {"": "fail"}
    (finding,) = [f for r in report.results if r.check == "baseline" for f in r.findings]
    assert (finding.file, finding.line) == ("golden/py/mini.rules.yaml", 7)
    assert finding.message == (
        f"not compared with the stored baseline {BASELINE}: the rules file "
        "golden/py/mini.rules.yaml does not load, so the files the gate compares (gate.files) "
        "are unknown; the topology check says why"
    )
    (topology,) = [f for r in report.results if r.check == "topology" for f in r.findings]
    assert "gate: files[0]: in the pattern 'wendy.json**', ** must be a whole segment" in (
        topology.message
    )
