"""Machine-readable output: every ``--json`` document validates against its
published, versioned schema (wendy_llm/schemas/report-*.v1.schema.json, the
shapes docs/json-reports.md describes); ``--junit`` and ``--markdown`` for
``check`` and ``diff``."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _cli_helpers import (
    LLM,
    REPO,
    SCHEMAS,
    cli_env,
    copy_llm_project,
    edit,
    run_module,
    validate_report,
)

from wendy_llm.cli import main

LLM_DIR = f"templates/{LLM}"
BASELINE = f"golden/baseline/{LLM}"
DOC = REPO / "docs" / "json-reports.md"


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The llm project with a blank line in every pick's compose file, fixtures stale."""
    root = copy_llm_project(tmp_path_factory.mktemp("broken"))
    edit(
        root / LLM_DIR / "docker-compose.yml",
        '      PORT: "{{.PORT}}"\n{{- if',
        '      PORT: "{{.PORT}}"\n{{ if',
    )
    return root


def in_process(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_every_schema_is_documented_and_every_document_is_versioned() -> None:
    doc = DOC.read_text(encoding="utf-8")
    for schema in sorted(SCHEMAS.glob("report-*.v*.schema.json")):
        parsed = json.loads(schema.read_text(encoding="utf-8"))
        version = int(schema.name.split(".v")[1].split(".")[0])
        assert parsed["properties"]["version"] == {"const": version}, schema.name
        assert "version" in parsed["required"]
        assert f"wendy_llm/schemas/{schema.name}" in doc, schema.name


def test_render_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "app"
    argv = ["render", LLM_DIR, "--app-id", "my-app", "--pick", "laguna-s-2.1-dflash"]
    result = run_module(*argv, "--out", str(out), "--json")
    assert result.code == 0
    doc = validate_report(result.out, "render")
    assert doc["template"] == "llm" and doc["app_id"] == "my-app"
    assert doc["answers"] == {"OLLAMA_MODEL": "laguna-s-2.1-dflash"}
    assert doc["out"] == str(out)
    files = {f["path"]: f for f in doc["files"]}
    assert files["vllm/entrypoint.sh"]["bytes"] == (out / "vllm/entrypoint.sh").stat().st_size
    assert sorted(files) == sorted(
        p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()
    )
    code, text = in_process(capsys, *argv, "--out", str(tmp_path / "again"), "--json", "-q")
    assert code == 0
    again = validate_report(text, "render")
    assert again["files"] == doc["files"]


def test_picks_json(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_module("picks", LLM_DIR, "--json")
    doc = validate_report(result.out, "picks")
    assert doc["version"] == 1 and doc["template"] == "llm"
    assert {"slug": "laguna-s-2.1-dflash", "answers": {"OLLAMA_MODEL": "laguna-s-2.1-dflash"}} in (
        doc["picks"]
    )
    assert in_process(capsys, "picks", LLM_DIR, "--json") == (0, result.out)


def test_golden_json(tmp_path: Path) -> None:
    ok = validate_report(run_module("golden", "--check", "--json").out, "golden-check")
    assert ok["ok"] is True and ok["problems"] == []
    broken = copy_llm_project(tmp_path)
    edit(
        broken / LLM_DIR / "docker-compose.yml",
        '      PORT: "{{.PORT}}"\n{{- if',
        '      PORT: "{{.PORT}}"\n{{ if',
    )
    failing = run_module("golden", "--check", "--json", "--pick", "gemma4-e2b", cwd=broken)
    assert failing.code == 1
    doc = validate_report(failing.out, "golden-check")
    [problem] = doc["problems"]
    assert problem["kind"] == "changed" and problem["picks"] == ["gemma4-e2b"]
    assert problem["command"] == "wendy-llm golden --update --template python/llm"
    updated = run_module("golden", "--update", "--json", "--quiet", cwd=broken, env=_no_ci())
    assert updated.code == 0
    doc = validate_report(updated.out, "golden-update")
    [template] = doc["templates"]
    assert doc["written"] is True and "gemma4-e2b/docker-compose.yml" in template["changed"]
    assert run_module("golden", "--check", "--quiet", cwd=broken).code == 0


def _no_ci() -> dict[str, str]:
    return cli_env(drop=["CI"])


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_module("check", "--pick", "gemma4-e2b", "--json", "--quiet")
    assert (result.code, result.err) == (0, "")
    doc = validate_report(result.out, "check")
    assert doc["ok"] is True and doc["summary"]["fail"] == 0
    assert {r["pick"] for r in doc["results"]} == {None, "gemma4-e2b"}
    code, text = in_process(capsys, "check", "--pick", "gemma4-e2b", "--json")
    assert code == 0 and validate_report(text, "check")["checks"] == doc["checks"]


def test_diff_json(broken: Path) -> None:
    holds = run_module(
        "diff", "--baseline", BASELINE, "--template", LLM, "--expect-unchanged", "--json"
    )
    doc = validate_report(holds.out, "diff")
    assert doc["policy"]["holds"] is True
    assert doc["summary"] == {
        "unchanged": 16,
        "changed": 0,
        "added": 0,
        "removed": 0,
        "exempt": 1,
    }
    fails = run_module("diff", "--baseline", BASELINE, "--expect-unchanged", "--json", cwd=broken)
    assert fails.code == 1
    doc = validate_report(fails.out, "diff")
    assert doc["policy"]["holds"] is False and "gemma4-e2b" in doc["policy"]["failing_picks"]
    assert doc["scope"] == {
        "files": ["docker-compose.yml", "wendy.json"],
        "source": "golden/python/llm.rules.yaml",
    }


def test_diff_junit_and_markdown(broken: Path) -> None:
    result = run_module(
        "diff",
        "--baseline",
        BASELINE,
        "--expect-unchanged",
        "--quiet",
        "--junit",
        "reports/diff.xml",
        "--markdown",
        "reports/diff.md",
        cwd=broken,
    )
    assert result.code == 1
    root = ET.parse(broken / "reports" / "diff.xml").getroot()
    assert (root.get("name"), root.get("tests"), root.get("failures")) == (
        "wendy-llm diff",
        "17",
        "16",  # the 14 picks of the baseline, and the 2 new Ollama picks held to it
    )
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert {c.get("classname") for c in cases.values()} == {LLM}
    failure = cases["gemma4-e2b diff"].find("failure")
    assert failure is not None
    assert failure.get("message", "").startswith(
        "pick gemma4-e2b changed (docker-compose.yml) but --expect-unchanged holds it"
    )
    assert "+" in (failure.text or "").splitlines()
    dflash = cases["laguna-s-2.1-dflash diff"]
    assert dflash.find("failure") is None
    assert dflash.findtext("system-out") == (
        "exempt (sentinel OLLAMA_MODEL=laguna-s-2.1-dflash: checked by its rules, "
        "not byte for byte)"
    )

    summary = (broken / "reports" / "diff.md").read_text(encoding="utf-8")
    assert summary.startswith("### wendy-llm diff python/llm: policy FAILS\n")
    assert "Picks: 0 unchanged, 16 changed, 0 added, 0 removed, 1 exempt" in summary
    assert (
        "| `gemma4-e2b` | changed | `docker-compose.yml` (changed) | **fails the policy** |"
        in summary
    )
    assert (
        "| `laguna-s-2.1-dflash` | exempt | sentinel OLLAMA_MODEL=laguna-s-2.1-dflash: checked "
        "by its rules, not byte for byte |  |" in summary
    )
    # The one change every changed pick shares is one block, not 16.
    assert summary.count("<details>") == 1
    assert "<details><summary>every changed pick (16): docker-compose.yml (changed)</summary>" in (
        summary
    )
    assert re.search(r"```diff\n--- docker-compose.yml \(baseline ", summary)
    assert not list((broken / "reports").glob(".*tmp"))  # written atomically


def test_check_junit_and_markdown(broken: Path) -> None:
    compose = broken / LLM_DIR / "docker-compose.yml"
    original = compose.read_text(encoding="utf-8")
    edit(
        compose, "{{- else}}\n  {{.APP_ID}}-models:\n{{- end}}", "{{- end}}\n  {{.APP_ID}}-models:"
    )
    try:
        result = run_module(
            "check",
            "--pick",
            "laguna-s-2.1-dflash",
            "--quiet",
            "--junit",
            "reports/check.xml",
            "--markdown",
            "reports/check.md",
            cwd=broken,
        )
    finally:
        compose.write_text(original, encoding="utf-8")
    assert result.code == 1
    root = ET.parse(broken / "reports" / "check.xml").getroot()
    failed = [c for c in root.iter("testcase") if c.find("failure") is not None]
    assert any("topology" in (c.get("name") or "") for c in failed)
    summary = (broken / "reports" / "check.md").read_text(encoding="utf-8")
    assert summary.startswith("### wendy-llm check: FAILED\n")
    assert "| code | template | picks | where | template source | problem |" in summary
    assert re.search(
        r"^\| `TOP001` \| python/llm \| laguna-s-2\.1-dflash \| `docker-compose.yml:\d+` \| "
        r"`templates/python/llm/docker-compose.yml:\d+` \| "
        r'rule "dflash-has-no-ollama": docker-compose\.yml contains "llm-app-models" \(must not\)',
        summary,
        re.M,
    )


def test_check_markdown_when_everything_holds(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "check.md"
    result = run_module("check", "--pick", "gemma4-e2b", "-q", "--markdown", str(target))
    assert result.code == 0
    text = target.read_text(encoding="utf-8")
    assert text.startswith("### wendy-llm check: passed\n\n1 template(s), 1 pick(s), ")
    # The counts per code (its warnings), no table of failures, the pick's topology.
    assert "| code | kind | distinct | occurrences |" in text
    assert "| template source | problem |" not in text  # no failure
    assert "| template source | warning |" in text  # its warnings, folded
    assert "```mermaid\nflowchart LR\n" in text


def test_report_files_that_cannot_be_written_are_input_errors(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run_module("check", "--pick", "gemma4-e2b", "-q", "--junit", str(blocker / "x.xml"))
    assert result.code == 2
    assert result.err.startswith(f"wendy-llm: error: cannot write the JUnit report {blocker}/x.xml")
