"""``check --select`` / ``--ignore`` and ``[findings]`` of wendy-llm.toml, end to end:
an ignored finding is shown and counted as ignored in every report, never failing,
and ``explain`` prints a code's entry."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _cli_helpers import validate_report
from _golden_helpers import init_repo, run_cli, template_files, write_files

from wendy_llm.cli import main
from wendy_llm.codes.reference import entry_text
from wendy_llm.codes.tools import WENDY_JSON_INVALID

BAD_WENDY_JSON = (
    '{"appId": "{{.APP_ID}}", "platform": "linux", "entitlements": [{"type": "lidar"}]}\n'
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose one template fails WJS003 (an unknown entitlement) in each pick."""
    root = init_repo(tmp_path / "repo")
    write_files(
        root / "node/mini", template_files(["a:1", "b:2"], extra={"wendy.json": BAD_WENDY_JSON})
    )
    monkeypatch.delenv("CI", raising=False)
    assert run_cli("golden", "--update", "-q", str(root))[0] == 0
    return root


def test_an_ignored_failure_is_shown_and_counted_never_failing(repo: Path, tmp_path: Path) -> None:
    code, out, _ = run_cli("check", "-q", str(repo))
    assert code == 1 and "WJS003 entitlements[0].type" in out
    junit, markdown = tmp_path / "c.xml", tmp_path / "c.md"
    code, out, _ = run_cli(
        "check", "--ignore", "WJS003", "--junit", str(junit), "--markdown", str(markdown), str(repo)
    )
    assert code == 0, out
    assert ", 2 finding(s) ignored" in out and "Ignored (2, 1 distinct):" in out
    assert "[wendy-json] wendy.json:1: WJS003 entitlements[0].type" in out
    document = validate_report(
        run_cli("check", "--json", "--ignore", "wendy-json", str(repo))[1], "check"
    )
    assert document["ok"] is True and document["summary"]["ignored"] == 2
    assert document["summary"]["errors"] == 0 and "WJS003" not in document["summary"]["codes"]
    ignored = [f for r in document["results"] for f in r["findings"] if f.get("ignored")]
    assert [(f["code"], f["subject"]) for f in ignored] == [("WJS003", "entitlements[0].type")] * 2
    cases = ET.parse(junit).getroot().findall(".//testcase")
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert {c.get("name") for c in skipped} == {"a-1 wendy-json", "b-2 wendy-json"}
    assert all(c.find("failure") is None for c in cases)
    assert "2 finding(s) ignored by the run's selection: `WJS003`." in markdown.read_text()


def test_the_settings_select_and_ignore_and_the_command_line_on_top(repo: Path) -> None:
    settings = repo / "wendy-llm.toml"
    settings.write_text('[findings.per-template-ignores]\n"node/*" = ["WJS"]\n', encoding="utf-8")
    assert run_cli("check", "-q", str(repo))[0] == 0
    settings.write_text('[findings]\nselect = ["CMP"]\n', encoding="utf-8")
    assert run_cli("check", "-q", str(repo))[0] == 0  # WJS003 is not selected
    assert run_cli("check", "-q", "--select", "ALL", str(repo))[0] == 1  # replaces select
    settings.write_text('[findings]\nignore = ["WJS9"]\n', encoding="utf-8")
    code, _, err = run_cli("check", "-q", str(repo))
    assert code == 2 and "wendy-llm.toml:2: findings.ignore: 'WJS9' is no code" in err, err


def test_an_unknown_selector_on_the_command_line_is_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["check", "--select", "CMP,NOPE", str(repo)])
    assert exited.value.code == 2
    assert "argument --select: 'NOPE' is no code, prefix or check id" in capsys.readouterr().err


def test_explain_prints_an_entry_and_names_the_nearest_for_an_unknown_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", "wjs003"]) == 0
    assert capsys.readouterr().out == entry_text(WENDY_JSON_INVALID)
    assert main(["explain", "WJS030"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no code 'WJS030'; nearest: WJS003" in captured.err
    assert main(["explain", "shell"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("SH001   error    shell")
    assert main(["explain", "--reference"]) == 0
    reference = capsys.readouterr().out
    assert reference == (Path(__file__).parents[2] / "docs" / "codes.md").read_text()
    assert "\n## WJS003\n" in reference
