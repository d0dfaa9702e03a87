"""``wendy-llm check``: exit codes, text, --json, --junit, --strict, --quiet."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _check_helpers import TEMPLATE_COMPOSE, write_template

from wendy_llm.cli import main
from wendy_llm.golden import update_golden


@pytest.fixture
def good(tmp_path: Path) -> tuple[Path, Path]:
    templates, golden = write_template(tmp_path)
    update_golden(templates, golden)
    return templates, golden


def check(
    capsys: pytest.CaptureFixture[str], templates: Path, golden: Path, *args: str
) -> tuple[int, str, str]:
    code = main(["check", str(templates), "--golden-dir", str(golden), *args])
    out, err = capsys.readouterr()
    return code, out, err


def break_topology(templates: Path) -> None:
    # vLLM mounts the Ollama volume: compose's model keeps a volume only
    # when a service mounts it.
    compose = TEMPLATE_COMPOSE.replace(
        "{{- if not $vllm}}\n\nvolumes:\n  {{.APP_ID}}-models:\n{{- end}}",
        "\nvolumes:\n  {{.APP_ID}}-models:",
    ).replace(
        '      - "8000:8000"\n{{- else}}',
        '      - "8000:8000"\n    volumes:\n      - "{{.APP_ID}}-models:/models"\n{{- else}}',
    )
    (templates / "py" / "mini" / "docker-compose.yml").write_text(compose, encoding="utf-8")


def test_exit_0_when_everything_holds(
    capsys: pytest.CaptureFixture[str], good: tuple[Path, Path]
) -> None:
    code, out, err = check(capsys, *good)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == [
        "template", "pick", "render", "compose", "wendy-json", "shell", "dockerfile",
        "device", "topology", "picker", "lint", "golden",
    ]  # fmt: skip
    assert lines[1].split() == [
        "py/mini",
        "(template)",
        "-",
        "-",
        "-",
        "-",
        "-",
        "-",
        "ok",
        "ok",
        "ok",
        "ok",
    ]
    # The device check warns (wendy.json is not read on the compose path).
    assert lines[2].split() == ["py/mini", "gemma4-e2b", *["ok"] * 5, "warn", "ok", "ok", "-", "ok"]
    assert "1 template(s), 3 pick(s), 31 checks: 28 ok, 0 FAIL, 3 warn in" in out
    assert "\x1b[" not in out  # not a terminal: no colour


def test_exit_1_on_a_failure_with_details(
    capsys: pytest.CaptureFixture[str], good: tuple[Path, Path]
) -> None:
    templates, golden = good
    break_topology(templates)
    code, out, _ = check(capsys, templates, golden, "--template", "py/mini")
    assert code == 1
    assert (
        'py/mini big-dflash [topology] docker-compose.yml:17: TOP001 rule "vllm-has-no-ollama": '
        "compose.volumes.llm-app-models is present (must be absent)"
    ) in out
    # The fixtures no longer match either; golden says how to refresh them.
    assert "[golden]" in out and "wendy-llm golden --update" in out


def test_exit_2_on_usage_errors(
    capsys: pytest.CaptureFixture[str], good: tuple[Path, Path]
) -> None:
    code, out, err = check(capsys, *good, "--template", "python/nope")
    assert (code, out) == (2, "")
    assert (
        err == f'wendy-llm: error: no template "python/nope" under {good[0]} (templates: py/mini)\n'
    )
    code, _, err = check(capsys, *good, "--pick", "gemma9")
    assert code == 2 and "no pick gemma9" in err
    with pytest.raises(SystemExit) as exited:
        main(["check", "--no-such-flag"])
    assert exited.value.code == 2


def test_json_report(capsys: pytest.CaptureFixture[str], good: tuple[Path, Path]) -> None:
    templates, golden = good
    break_topology(templates)
    code, out, _ = check(capsys, templates, golden, "--json", "--pick", "big-dflash")
    assert code == 1
    doc = json.loads(out)
    assert doc["version"] == 1 and doc["ok"] is False
    assert {(r["pick"], r["check"]) for r in doc["results"] if r["status"] == "fail"} == {
        ("big-dflash", "topology"),
        ("big-dflash", "golden"),
    }
    topology = next(r for r in doc["results"] if r["check"] == "topology" and r["pick"])
    assert topology["findings"] == [
        {
            "severity": "error",
            "message": 'rule "vllm-has-no-ollama": compose.volumes.llm-app-models is present '
            "(must be absent)",
            "file": "docker-compose.yml",
            "line": 17,
            "code": "TOP001",
            "subject": "rule vllm-has-no-ollama",
        }
    ]
    assert set(doc["timings"]) >= {"compose", "shell", "topology", "golden", "total"}


def test_junit_report(
    capsys: pytest.CaptureFixture[str], good: tuple[Path, Path], tmp_path: Path
) -> None:
    templates, golden = good
    break_topology(templates)
    target = tmp_path / "reports" / "check.xml"
    code, _, _ = check(capsys, templates, golden, "--junit", str(target), "--quiet")
    assert code == 1
    root = ET.parse(target).getroot()
    cases = root.findall("testsuite/testcase")
    # 3 picks x 9 checks, plus 4 template-wide ones.
    assert len(cases) == 31 == int(root.get("tests", "0"))
    failed = [(c.get("classname"), c.get("name")) for c in cases if c.find("failure") is not None]
    assert ("py/mini", "big-dflash topology") in failed
    assert not (tmp_path / "reports" / ".check.xml.tmp").exists()


def test_warnings_fail_only_with_strict(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    compose = TEMPLATE_COMPOSE.replace(
        "    depends_on:", '    environment:\n      GREETING: "${GREETING}"\n    depends_on:'
    )
    templates, golden = write_template(tmp_path, files={"docker-compose.yml": compose})
    update_golden(templates, golden)
    code, out, _ = check(capsys, templates, golden)
    assert code == 0
    assert 'docker-compose: The "GREETING" variable is not set' in out
    code, out, _ = check(capsys, templates, golden, "--strict")
    assert code == 1
    code, out, _ = check(capsys, templates, golden, "--quiet")
    assert (code, out) == (0, "")
    code, out, _ = check(capsys, templates, golden, "--quiet", "--strict")
    assert code == 1 and out.startswith("Warnings (")
    # One warning shared by the three picks is shown once, naming them.
    assert out.count('The "GREETING" variable is not set') == 1
    assert (
        'py/mini every pick (3) [compose] docker-compose.yml: CMP002 docker-compose: The "GREETING"'
        in out
    )


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "wendy-llm check --junit" in out


def test_json_includes_the_device_findings(
    capsys: pytest.CaptureFixture[str], good: tuple[Path, Path]
) -> None:
    code, out, _ = check(capsys, *good, "--json", "--pick", "big-dflash")
    assert code == 0
    doc = json.loads(out)
    assert "device" in doc["checks"]
    device = next(r for r in doc["results"] if r["check"] == "device")
    assert device["status"] == "warn"
    assert {
        "severity": "warning",
        "message": "wendy.json: not read on the compose path (wendy run deploys "
        "docker-compose.yml): its services, entitlements, readiness and hooks never reach "
        "the device",
        "file": "wendy.json",
        "line": 1,
        "code": "DEV007",
        "subject": "wendy.json",
    } in device["findings"]


def test_what_makes_wendy_run_fail_fails_the_device_check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    compose = TEMPLATE_COMPOSE.replace(
        '      - "{{.PORT}}:{{.PORT}}"', "      - target: {{.PORT}}\n        published: {{.PORT}}"
    )
    templates, golden = write_template(tmp_path, files={"docker-compose.yml": compose})
    update_golden(templates, golden)
    code, out, _ = check(capsys, templates, golden, "--quiet")
    # One per pick; the two picks whose finding is the same line are one entry.
    assert code == 1 and out.startswith("Failures (3, 2 distinct):")
    assert (
        "py/mini picks gemma4-e2b, qwen2.5-3b [device] docker-compose.yml:13: "
        "DEV017 services.web.ports[0] is a mapping (the long syntax), but the Wendy CLI reads "
        "ports as strings: wendy run fails to load docker-compose.yml at all" in out
    )
