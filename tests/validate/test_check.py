"""``run_check``: every validator over every pick, into a Report."""

from __future__ import annotations

from pathlib import Path

import pytest
from _check_helpers import RULES, TEMPLATE_COMPOSE, write_template

from wendy_llm.errors import CheckSelectionError
from wendy_llm.golden import update_golden
from wendy_llm.validate.findings import Report
from wendy_llm.validate.run import run_check

PICKS = ["gemma4-e2b", "qwen2.5-3b", "big-dflash"]
PER_PICK = [
    "render", "compose", "wendy-json", "shell", "dockerfile", "device", "topology", "picker",
]  # fmt: skip


def statuses(report: Report) -> dict[tuple[str, str], str]:
    return {(r.pick, r.check): r.status for r in report.results}


def failures(report: Report) -> list[tuple[str, str, str | None, str]]:
    return [(f.pick, f.check, f.location, f.message) for f in report.errors]


def test_a_good_template_passes_every_check(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path)
    report = run_check(templates, golden_dir=golden, golden=False)
    assert report.passed()
    # Only the device warns: wendy.json and compose `environment` never reach a device.
    assert [f for f in report.findings if f.check != "device"] == []
    assert {f.severity for f in report.findings} == {"warning"}
    rows = statuses(report)
    assert {(p, c) for p, c in rows if p} == {(p, c) for p in PICKS for c in PER_PICK}
    assert {c for p, c in rows if not p} == {"picker", "topology", "lint"}
    assert {r.template for r in report.results} == {"py/mini"}
    for name in [*PER_PICK[1:], "load", "render", "total"]:
        assert report.timings[name] >= 0


def test_undefined_depends_on_fails_compose_for_the_affected_picks(tmp_path: Path) -> None:
    compose = TEMPLATE_COMPOSE.replace("{{if $vllm}}vllm{{else}}ollama{{end}}", "backend")
    templates, golden = write_template(tmp_path, files={"docker-compose.yml": compose})
    report = run_check(templates, golden_dir=golden, golden=False)
    compose_failures = [f for f in failures(report) if f[1] == "compose"]
    assert [f[0] for f in compose_failures] == PICKS
    assert all(
        'service "web" depends on undefined service "backend"' in f[3] for f in compose_failures
    )


def test_a_dflash_render_that_keeps_the_ollama_volume_fails_topology(tmp_path: Path) -> None:
    # vLLM mounts the Ollama volume: compose's model keeps a volume only
    # when a service mounts it.
    compose = TEMPLATE_COMPOSE.replace(
        "{{- if not $vllm}}\n\nvolumes:\n  {{.APP_ID}}-models:\n{{- end}}",
        "\nvolumes:\n  {{.APP_ID}}-models:",
    ).replace(
        '      - "8000:8000"\n{{- else}}',
        '      - "8000:8000"\n    volumes:\n      - "{{.APP_ID}}-models:/models"\n{{- else}}',
    )
    assert compose != TEMPLATE_COMPOSE
    templates, golden = write_template(tmp_path, files={"docker-compose.yml": compose})
    report = run_check(templates, golden_dir=golden, golden=False)
    assert failures(report) == [
        (
            "big-dflash",
            "topology",
            "docker-compose.yml:17",
            'rule "vllm-has-no-ollama": compose.volumes.llm-app-models is present (must be absent)',
        )
    ]


def test_the_sentinel_reaching_ollama_fails_the_picker_check(tmp_path: Path) -> None:
    compose = TEMPLATE_COMPOSE.replace(
        "services:\n",
        "services:\n  puller:\n    image: x\n    environment:\n"
        '      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"\n',
    )
    templates, golden = write_template(tmp_path, files={"docker-compose.yml": compose})
    report = run_check(templates, golden_dir=golden, golden=False)
    assert [(p, c) for p, c, _, _ in failures(report)] == [("big-dflash", "picker")]
    assert 'is "big-dflash", a sentinel of OLLAMA_MODEL' in failures(report)[0][3]


def test_a_malformed_rules_file_fails_topology_and_the_rest_still_runs(tmp_path: Path) -> None:
    bad = RULES.replace(
        "      - {path: compose.services.ollama, absent: true}", "      - {absent: true}"
    )
    templates, golden = write_template(tmp_path, rules=bad)
    report = run_check(templates, golden_dir=golden, golden=False)
    [finding] = report.errors
    assert (finding.pick, finding.check, finding.line) == ("", "topology", 12)
    assert finding.message.endswith(
        "mini.rules.yaml:12: rules[0] (vllm-has-no-ollama): assert[0]: "
        "an assertion needs exactly one of path, services, volumes, same, file (it has none)"
    )
    assert statuses(report)[("gemma4-e2b", "compose")] == "ok"


def test_a_template_that_fails_to_load_fails_picker_and_others_are_checked(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path)
    broken = templates / "py" / "broken"
    broken.mkdir(parents=True)
    (broken / "template.json").write_text('{"variables": [{"name": 5}]}\n', encoding="utf-8")
    report = run_check(templates, golden_dir=golden, golden=False)
    [finding] = report.errors
    assert (finding.template, finding.pick, finding.check) == ("py/broken", "", "picker")
    assert finding.message == (
        "template.json: variables[0].name: json: cannot unmarshal number into Go value of type "
        "string"
    )
    assert statuses(report)[("big-dflash", "topology")] == "ok"


def test_a_render_error_fails_render_and_skips_the_picks_other_checks(tmp_path: Path) -> None:
    templates, golden = write_template(
        tmp_path, files={"web/run.sh": "#!/bin/sh\necho {{.NOPE}}\n"}
    )
    report = run_check(templates, golden_dir=golden, golden=False, picks=["gemma4-e2b"])
    assert [(p, c) for p, c, _, _ in failures(report)] == [("gemma4-e2b", "render")]
    assert report.errors[0].message == (
        'rendering web/run.sh: template: web/run.sh:2:7: executing "web/run.sh" at <.NOPE>: '
        'map has no entry for key "NOPE"'
    )
    assert report.errors[0].location == "web/run.sh:2"
    assert {c for p, c in statuses(report) if p} == {"render"}


def test_selecting_picks_and_templates(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path)
    report = run_check(
        templates, golden_dir=golden, golden=False, templates=["mini"], picks=["big-dflash"]
    )
    assert {r.pick for r in report.results} == {"", "big-dflash"}
    # Rules that select other picks are not dead just because this run skips them.
    assert report.passed()


def test_unknown_template_or_pick_is_a_selection_error(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path)
    with pytest.raises(CheckSelectionError, match=r'no template "nope" .*\(templates: py/mini\)'):
        run_check(templates, golden_dir=golden, templates=["nope"])
    with pytest.raises(CheckSelectionError, match=r"no pick gemma9 in the selected templates"):
        run_check(templates, golden_dir=golden, picks=["gemma9"])
    with pytest.raises(CheckSelectionError, match="does not exist"):
        run_check(tmp_path / "missing")


def test_golden_fixtures_are_checked(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path)
    update_golden(templates, golden)
    assert run_check(templates, golden_dir=golden).passed()
    fixture = next(p for p in (golden / "py" / "mini").rglob("wendy.json"))
    fixture.write_text(fixture.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    report = run_check(templates, golden_dir=golden)
    assert {f.check for f in report.errors} == {"golden"}
    assert "wendy-llm golden --update" in report.errors[0].message


def test_the_bundled_llm_template_passes_every_validator() -> None:
    repo = Path(__file__).resolve().parents[2]
    report = run_check(repo / "templates", golden_dir=repo / "golden", golden=False)
    assert failures(report) == []
    assert len({r.pick for r in report.results if r.pick}) == 17


def test_sentinels_without_a_picker_are_reported(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path)
    (templates / "py" / "mini" / "template.schema.json").unlink()
    report = run_check(templates, golden_dir=golden, golden=False)
    picker = [f for f in report.errors if f.check == "picker"]
    assert [(f.pick, f.message) for f in picker] == [
        ("", "sentinels are declared, but the template has no template.schema.json")
    ]
    assert picker[0].file is not None and picker[0].file.endswith("mini.rules.yaml")
