"""Issue 14 item 4: every non-sentinel pick is held to the stored baseline.

A new pick is compared with the baseline rendered with the same answers (as
``wendy init --var`` would: a radio answer outside the baseline's options is
accepted); only the rules file's declared sentinels are exempt, and a pick
the baseline cannot render is reported with the reason.  The small
``py/mini`` template (two Ollama tags and a vLLM sentinel) gets a stored
baseline that predates one tag; the real python/llm gets a blank line that
only its new Laguna pick renders.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _check_helpers import (
    PICKER,
    RULES,
    TEMPLATE_COMPOSE,
    ollama_only,
    picker_without,
    write_baseline,
    write_template,
)
from _cli_helpers import LLM, copy_llm_project, edit, run_module, validate_report

from wendy_llm.render.template import load_template
from wendy_llm.reports.check import format_table
from wendy_llm.validate.findings import Report
from wendy_llm.validate.run import run_check
from wendy_llm.validate.stored.baseline import baseline_findings

TEMPLATE = "py/mini"
BASELINE = "golden/baseline/py/mini"
MODEL_LINE = '      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"\n'
BEFORE_QWEN = picker_without("qwen2.5:3b")


def check(base: Path, templates: Path, golden: Path) -> Report:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(base)
        return run_check(templates, golden_dir=golden, golden=False, cache=False)


def baseline_rows(report: Report) -> dict[str, str]:
    return {r.pick: r.status for r in report.results if r.check == "baseline"}


def leak_for(tag: str) -> str:
    """The compose template with a blank line that only ``tag``'s pick renders."""
    return TEMPLATE_COMPOSE.replace(
        MODEL_LINE, MODEL_LINE + f'{{{{if eq .OLLAMA_MODEL "{tag}"}}}}\n{{{{end}}}}'
    )


def test_a_new_ollama_pick_that_leaks_a_blank_line_fails_against_the_baseline(
    tmp_path: Path,
) -> None:
    # The baseline predates qwen2.5:3b; the template's new pick leaks a line.
    templates, golden = write_template(
        tmp_path, files={"docker-compose.yml": leak_for("qwen2.5:3b")}
    )
    write_baseline(golden, **{"template.schema.json": BEFORE_QWEN})
    report = check(tmp_path, templates, golden)
    rows = {"": "ok", "gemma4-e2b": "ok", "qwen2.5-3b": "fail", "big-dflash": "ok"}
    assert baseline_rows(report) == rows
    assert {f.check for f in report.errors} == {"baseline"}  # nothing else notices
    (finding,) = report.errors
    lines = finding.message.splitlines()
    assert lines[0] == (
        f"template {TEMPLATE}, pick qwen2.5-3b: docker-compose.yml differs from the stored "
        f"baseline {BASELINE}"
    )
    assert lines[1] == f"--- docker-compose.yml (baseline {BASELINE})"
    assert '       OLLAMA_MODEL: "qwen2.5:3b"' in lines and "+" in lines
    assert (
        "(pick qwen2.5-3b is new: the baseline was rendered with its answers, "
        "OLLAMA_MODEL=qwen2.5:3b, as wendy init --var would)"
    ) in lines


def test_the_same_new_pick_without_the_leak_holds(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path)
    write_baseline(golden, **{"template.schema.json": BEFORE_QWEN})
    report = check(tmp_path, templates, golden)
    assert report.passed(), report.errors
    rows = {"": "ok", "gemma4-e2b": "ok", "qwen2.5-3b": "ok", "big-dflash": "ok"}
    assert baseline_rows(report) == rows
    root = templates / "py" / "mini"
    result = baseline_findings(load_template(root, id=TEMPLATE), golden)
    assert result is not None
    assert set(result.picks) == {"gemma4-e2b", "qwen2.5-3b", "big-dflash"}
    assert result.exempt == {} and result.not_comparable == {}


def test_sentinels_are_exempt_and_only_declared_ones(tmp_path: Path) -> None:
    # big-dflash swaps the backend: compared with the baseline rendered with
    # OLLAMA_MODEL=big-dflash (an Ollama service pulling "big-dflash"), it
    # differs. Declared a sentinel, its rules check it instead.
    templates, golden = write_template(tmp_path)
    write_baseline(golden, **ollama_only())
    report = check(tmp_path, templates, golden)
    assert report.passed(), report.errors
    assert "big-dflash" not in baseline_rows(report)
    table = format_table(report).splitlines()
    (dflash,) = [line for line in table if " big-dflash " in line]
    assert dflash.split()[-1] == "-"

    undeclared = RULES.replace("sentinels:\n  OLLAMA_MODEL:\n    values: [big-dflash]\n", "")
    undeclared = undeclared.replace(
        "    tag_paths: [compose.services.*.environment.OLLAMA_MODEL]\n", ""
    )
    assert "sentinels" not in undeclared
    (golden / "py" / "mini.rules.yaml").write_text(undeclared, encoding="utf-8")
    report = check(tmp_path, templates, golden)
    assert baseline_rows(report)["big-dflash"] == "fail"
    assert any(
        f.pick == "big-dflash" and "(pick big-dflash is new: the baseline was rendered" in f.message
        for f in report.errors
    )


def test_a_new_pick_the_baseline_cannot_render_warns_with_the_reason(tmp_path: Path) -> None:
    # The template gains a question the baseline does not have: its picks
    # cannot be held to it, and check says so (a warning: --strict fails).
    picker: dict[str, Any] = json.loads(json.dumps(PICKER))
    gpu = {
        "id": "GPU",
        "label": "GPU",
        "type": "radio",
        "default": "cuda",
        "options": [
            {"value": "cuda", "label": "cuda", "size": "any", "parameters": "-", "comments": "x"},
            {"value": "cpu", "label": "cpu", "size": "any", "parameters": "-", "comments": "x"},
        ],
    }
    picker["phases"][0]["questions"].append(gpu)
    templates, golden = write_template(
        tmp_path, files={"template.schema.json": json.dumps(picker, indent=2) + "\n"}
    )
    write_baseline(golden)
    report = check(tmp_path, templates, golden)
    rows = baseline_rows(report)
    assert rows.pop("") == "fail"  # the baseline's picks were all renamed: removed
    assert set(rows.values()) == {"warn"}
    assert report.passed() is False
    warned = [f for f in report.warnings if f.pick == "gemma4-e2b__cuda" and f.check == "baseline"]
    assert [f.message for f in warned] == [
        f"new pick gemma4-e2b__cuda (OLLAMA_MODEL=gemma4:e2b, GPU=cuda) cannot be compared with "
        f"the stored baseline {BASELINE}: the base has no variable or picker question GPU; "
        "nothing holds it to today's output"
    ]


def test_a_removed_pick_still_fails(tmp_path: Path) -> None:
    templates, golden = write_template(
        tmp_path, files={"template.schema.json": picker_without("qwen2.5:3b")}
    )
    write_baseline(golden)
    report = check(tmp_path, templates, golden)
    assert baseline_rows(report) == {"": "fail", "gemma4-e2b": "ok", "big-dflash": "ok"}
    (finding,) = report.errors
    assert "no longer has 1 pick of the stored baseline" in finding.message


# --- the real template: a new Laguna pick that leaks a blank line -------------------


@pytest.fixture(scope="module")
def laguna_leak(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_llm_project(tmp_path_factory.mktemp("laguna-leak"))
    compose = root / "templates" / LLM / "docker-compose.yml"
    model = '      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"\n'
    edit(compose, model, model + '{{if eq .OLLAMA_MODEL "laguna-xs-2.1:q4_K_M"}}\n{{end}}')
    return root


def test_the_laguna_leak_fails_checks_baseline_row(laguna_leak: Path) -> None:
    result = run_module("check", "--json", "--quiet", cwd=laguna_leak)
    assert result.code == 1
    doc = validate_report(result.out, "check")
    failing = {(r["pick"], r["check"]) for r in doc["results"] if r["status"] == "fail"}
    # Its fixture is stale too; the baseline row is what proves the render wrong.
    assert ("laguna-xs-2.1-q4_k_m", "baseline") in failing
    assert {pick for pick, check in failing if check == "baseline"} == {"laguna-xs-2.1-q4_k_m"}


def test_the_laguna_leak_fails_diff_expect_unchanged(laguna_leak: Path) -> None:
    baseline = f"golden/baseline/{LLM}"
    result = run_module("diff", "--baseline", baseline, "--expect-unchanged", cwd=laguna_leak)
    assert result.code == 1
    assert (
        "  pick laguna-xs-2.1-q4_k_m changed (docker-compose.yml) but --expect-unchanged holds "
        "it to the base rendered with its answers; if intended, exempt it with --allow-changed "
        "laguna-xs-2.1-q4_k_m"
    ) in result.out.splitlines()
    assert "policy: expect unchanged: FAILS (1)" in result.out
    assert "=== pick laguna-xs-2.1-q4_k_m: docker-compose.yml (changed)" in result.out
    assert (
        "(pick laguna-xs-2.1-q4_k_m is new: compared with the base rendered with its answers, "
        "{'OLLAMA_MODEL': 'laguna-xs-2.1:q4_K_M'})"
    ) in result.out.splitlines()
