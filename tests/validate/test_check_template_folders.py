"""Issue 30 item 3 through ``check``: an unseen template folder, an appId that ignores the app id.

Facts: ``wendy init`` refuses a folder without ``template.json`` ("no
template.json"; ``shared/spec/wendy-init.md`` section 4); ``wendy init``
renders ``wendy.json`` with the app id it is given (section 1, ``APP_ID``):
an ``appId`` that renders the same for two app ids gives every app the same
id on a device.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _check_helpers import TEMPLATE_WENDY, write_template

from wendy_llm.validate.findings import REPOSITORY, Report
from wendy_llm.validate.run import run_check


def check(root: Path, templates: Path, golden: Path, *picks: str) -> Report:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        return run_check(templates, golden_dir=golden, golden=False, picks=picks)


def test_a_template_folder_without_template_json_fails_the_repository(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path, rules=None)
    stale = templates / "py" / "stale"
    (stale / "app").mkdir(parents=True)
    (stale / "wendy.json").write_text('{"appId": "{{.APP_ID}}"}\n', encoding="utf-8")
    (stale / "app" / "Dockerfile").write_text("FROM python:3.12\n", encoding="utf-8")
    report = check(tmp_path, templates, golden)
    [found] = [f for f in report.errors if f.template == REPOSITORY]
    assert (found.check, found.file) == ("catalog", "py/stale/")
    assert found.message.startswith(
        "py/stale/ holds a template's files (app/Dockerfile (a Dockerfile), wendy.json "
        "(the app's wendy.json)) but no template.json: `wendy init` refuses it "
        '("no template.json")'
    )
    # Once it has its template.json (or its files go), the repository passes again.
    (stale / "app" / "Dockerfile").unlink()
    (stale / "wendy.json").unlink()
    assert [f for f in check(tmp_path, templates, golden).errors if f.template == REPOSITORY] == []


def test_an_app_id_that_ignores_the_app_id_is_one_warning_naming_the_line(tmp_path: Path) -> None:
    hard_coded = TEMPLATE_WENDY.replace('"appId": "{{.APP_ID}}"', '"appId": "sh.wendy.demo"')
    templates, golden = write_template(tmp_path, files={"wendy.json": hard_coded}, rules=None)
    report = check(tmp_path, templates, golden, "gemma4-e2b")
    warnings = [f for f in report.findings if f.check == "wendy-json" and f.pick == "gemma4-e2b"]
    assert [(f.severity, f.file, f.line, f.message) for f in warnings] == [
        (
            "warning",
            "wendy.json",
            2,  # the rendered file's line (the first line's action trims itself away)
            'appId: "sh.wendy.demo" is the same whether `wendy init` is given the app id '
            '"llm-app" or "my.app-2": every project made from this template gets the same '
            "appId on a device (render it from {{.APP_ID}})",
        )
    ]
    # Rendered from the app id, it is no finding.
    templates, golden = write_template(tmp_path / "fixed", rules=None)
    fixed = check(tmp_path / "fixed", templates, golden, "gemma4-e2b")
    assert [f for f in fixed.findings if f.check == "wendy-json"] == []
