"""Issue 14 item 5: check runs every value-dependent check on a variant too.

The canonical input (app id ``llm-app``, ``PORT`` 8080 as a float64) cannot
tell ``{{.PORT}}`` from a hard-coded ``8080``; the variant (``my.app-2``,
``PORT=9080`` as ``--var`` gives it, an int) can.  Each test edits a temp
copy of the bundled python/llm template and runs the real ``check``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _cli_helpers import LLM, copy_llm_project, edit, validate_report

from wendy_llm.reports.check import format_details
from wendy_llm.reports.json import check_json, dumps
from wendy_llm.validate.findings import Report
from wendy_llm.validate.run import run_check

VARIANT = "app-id=my.app-2 PORT=9080"


def llm_copy(tmp_path: Path) -> tuple[Path, Path]:
    root = copy_llm_project(tmp_path)
    return root / "templates" / LLM / "docker-compose.yml", root


def check(root: Path, *picks: str) -> Report:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        return run_check(root / "templates", picks=picks, golden=False)


def failing(report: Report) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for f in report.errors:
        out.setdefault((f.pick, f.check), []).append(f.message)
    return out


def test_the_bundled_template_passes_with_its_variant() -> None:
    report = run_check(templates=[LLM], picks=["gemma4-e2b", "laguna-s-2.1-dflash"])
    assert report.passed(), format_details(report)
    # (The device check warns about what a device ignores, the same for
    # both inputs: shown once, for the canonical input.)
    assert not any(f.variant for f in report.findings)


def test_a_hard_coded_port_fails_check(tmp_path: Path) -> None:
    compose, root = llm_copy(tmp_path)
    edit(compose, '      - "{{.PORT}}:{{.PORT}}"', '      - "8080:{{.PORT}}"')
    report = check(root, "gemma4-e2b", "laguna-s-2.1-dflash")
    assert not report.passed()
    found = failing(report)
    # The canonical input renders "8080:8080" either way: only the variant sees it.
    assert all(f.variant == VARIANT for f in report.errors if f.check != "baseline")
    assert found[("gemma4-e2b", "topology")] == [
        f'variant {VARIANT}: rule "open-webui-and-app": compose.services.@open-webui.ports[*].'
        'published (@open-webui: "open-webui") does not contain "9080" (it has "8080")'
    ]
    assert ("laguna-s-2.1-dflash", "topology") in found  # every pick, the sentinel too
    # The baseline comparison holds the variant render to the baseline's.
    [held] = [f for f in report.errors if f.check == "baseline"]
    assert held.message.splitlines()[0] == (
        f"template {LLM}, pick gemma4-e2b, variant {VARIANT}: docker-compose.yml differs "
        f"from the stored baseline golden/baseline/{LLM}"
    )
    assert '-      - "9080:9080"' in held.message and '+      - "8080:9080"' in held.message


def test_a_hard_coded_app_id_fails_check(tmp_path: Path) -> None:
    compose, root = llm_copy(tmp_path)
    edit(compose, '      - "{{.APP_ID}}-openwebui:/data"', '      - "llm-app-openwebui:/data"')
    report = check(root, "gemma4-e2b")
    assert not report.passed()
    found = failing(report)
    compose_errors = found[("gemma4-e2b", "compose")]
    assert len(compose_errors) == 1
    assert compose_errors[0] == (
        f'variant {VARIANT}: docker-compose config: service "open-webui" refers to undefined '
        "volume llm-app-openwebui: invalid compose project"
    )
    # Compose refuses that render, so the rules, which read its model, say so once.
    assert found[("gemma4-e2b", "topology")] == [
        f'variant {VARIANT}: rules "ollama-backend-url", "open-webui-default-model", '
        '"ollama-topology", "open-webui-and-app" cannot be checked: '
        "docker-compose config does not accept docker-compose.yml, so its normalised model is "
        "unknown (the compose check says why)"
    ]
    [held] = found[("gemma4-e2b", "baseline")]
    assert f"pick gemma4-e2b, variant {VARIANT}: docker-compose.yml differs" in held


def test_a_variant_finding_is_named_in_every_report(tmp_path: Path) -> None:
    compose, root = llm_copy(tmp_path)
    edit(compose, '      - "{{.PORT}}:{{.PORT}}"', '      - "8080:{{.PORT}}"')
    report = check(root, "gemma4-e2b")
    text = format_details(report)
    assert (
        f"  {LLM} gemma4-e2b [topology] docker-compose.yml:17: TOP001 variant {VARIANT}: rule "
        '"open-webui-and-app": compose.services.@open-webui.ports[*].published '
        '(@open-webui: "open-webui") does not contain "9080"'
    ) in text
    doc = validate_report(dumps(check_json(report)), "check")
    variants = {
        (r["check"], f.get("variant"))
        for r in doc["results"]
        for f in r["findings"]
        if r["pick"] == "gemma4-e2b"
    }
    assert ("topology", VARIANT) in variants


def test_a_problem_the_canonical_input_shows_is_reported_once(tmp_path: Path) -> None:
    # A YAML error renders into both inputs; the pick's row shows it once.
    compose, root = llm_copy(tmp_path)
    edit(compose, "services:\n", "services:\n  : broken: [\n")
    report = check(root, "gemma4-e2b")
    [finding] = [f for f in report.errors if f.check == "compose" and f.pick == "gemma4-e2b"]
    assert finding.variant is None
