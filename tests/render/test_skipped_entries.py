"""Entries `wendy init` skips (symbolic links, pipes, sockets) are skipped here too, and said.

Issue 11 item 12: a symlinked ``template.json`` made the template "have no
template.json", a symlinked ``template.schema.json`` silently dropped the
picker, and links inside a template vanished from the output without a word.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from _template_helpers import write_files

from wendy_llm.cli import main
from wendy_llm.errors import TemplateLoadError
from wendy_llm.render.files.readdir import SkippedEntry
from wendy_llm.render.lints.checks import LintWarning
from wendy_llm.render.template import load_template
from wendy_llm.repo.layout import discover_templates
from wendy_llm.validate.checks.lint import lint_findings

PICKER = '{"phases": [{"questions": [{"id": "M", "type": "radio", "options": [{"value": "a"}]}]}]}'
NOT_OUTPUT = "wendy init copies only regular files, so it is not part of the output"


@pytest.fixture
def template(tmp_path: Path) -> Path:
    root = write_files(
        tmp_path / "t",
        {"template.json": '{"variables": []}', "real.txt": "real", "dir/inner.txt": "in"},
    )
    (root / "link.txt").symlink_to("real.txt")
    (root / "linkdir").symlink_to("dir")
    (root / "dir" / "dangling.txt").symlink_to("../missing")
    os.mkfifo(root / "pipe.txt")
    return root


EXPECTED = [
    SkippedEntry("dir/dangling.txt", f"a symbolic link (to ../missing); {NOT_OUTPUT}"),
    SkippedEntry("link.txt", f"a symbolic link (to real.txt); {NOT_OUTPUT}"),
    SkippedEntry(
        "linkdir",
        "a symbolic link to a directory (dir); wendy init does not follow it, so nothing "
        "under it is part of the output",
    ),
    SkippedEntry("pipe.txt", f"a named pipe; {NOT_OUTPUT}"),
]


def test_every_skipped_entry_is_recorded_with_its_reason(template: Path) -> None:
    t = load_template(template)
    assert list(t.skipped) == EXPECTED
    assert set(t.render("a")) == {"real.txt", "dir/inner.txt"}  # skipping is unchanged
    assert [w for w in t.lint() if w.code == "skipped-entry"] == [
        LintWarning(s.path, None, "skipped-entry", s.reason) for s in EXPECTED
    ]


def test_a_socket_is_skipped_and_said(tmp_path: Path) -> None:
    root = write_files(tmp_path / "t", {"template.json": "{}"})
    # A relative path keeps the socket's address short, as AF_UNIX requires.
    old = os.getcwd()
    os.chdir(root)
    try:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind("sock")
            assert list(load_template(root).skipped) == [
                SkippedEntry("sock", f"a socket; {NOT_OUTPUT}")
            ]
    finally:
        os.chdir(old)


def test_render_warns_about_each_skipped_entry(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["render", str(template), "--app-id", "a", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 0, err
    assert err.splitlines() == [
        f"wendy-llm: warning: {s.path}: skipped-entry: {s.reason}" for s in EXPECTED
    ]


def test_picks_warns_too(template: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["picks", str(template)]) == 0
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"wendy-llm: warning: {s.path}: skipped-entry: {s.reason}" for s in EXPECTED
    ]
    assert main(["picks", str(template), "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_a_symlinked_template_json_is_an_error_that_says_so(tmp_path: Path) -> None:
    real = write_files(tmp_path / "shared", {"template.json": '{"variables": []}'})
    root = write_files(tmp_path / "t", {"README.md": "x"})
    (root / "template.json").symlink_to(real / "template.json")
    with pytest.raises(TemplateLoadError) as info:
        load_template(root)
    assert str(info.value) == (
        f"{root}: template.json is a symbolic link (to {real / 'template.json'}); wendy init "
        "reads only regular files, so it would find no template.json: copy the file instead"
    )
    assert info.value.file == str(root / "template.json")
    (root / "template.json").unlink()
    (root / "template.json").symlink_to("nowhere.json")  # dangling: still a link, said so
    with pytest.raises(TemplateLoadError, match=r"template\.json is a symbolic link \(to nowhere"):
        load_template(root)
    with pytest.raises(TemplateLoadError, match=r"template\.json is a symbolic link"):
        discover_templates(_language_root(tmp_path, root))


def _language_root(tmp_path: Path, root: Path) -> Path:
    """``root`` moved to ``<tmp>/lang/python/t`` so discovery finds it (a link to it
    would lead out of the templates root, which discovery refuses)."""
    language = tmp_path / "lang" / "python"
    language.mkdir(parents=True)
    root.rename(language / "t")
    return tmp_path / "lang"


def test_a_symlinked_picker_is_skipped_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = write_files(tmp_path / "shared", {"template.schema.json": PICKER})
    root = write_files(tmp_path / "t", {"template.json": '{"variables": []}', "a.txt": "{{.M}}"})
    (root / "template.schema.json").symlink_to(shared / "template.schema.json")
    t = load_template(root)
    assert t.picker is None  # as in wendy init, which does not read it
    reason = (
        f"a symbolic link (to {shared / 'template.schema.json'}); wendy init reads only "
        "regular files, so the template has no picker"
    )
    assert list(t.skipped) == [SkippedEntry("template.schema.json", reason)]
    code = main(["render", str(root), "--app-id", "a", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2
    assert f"wendy-llm: warning: template.schema.json: skipped-entry: {reason}\n" in err
    assert "rendering a.txt: " in err and 'map has no entry for key "M"' in err


def test_skipped_entries_through_a_real_process(template: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [Path(sys.executable).parent / "wendy-llm", "render", template, "--app-id", "a",
         "--out", tmp_path / "o"],
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("skipped-entry") == len(EXPECTED)


def test_check_reports_them_as_lint_warnings(template: Path) -> None:
    findings = lint_findings(load_template(template))
    assert [(f.severity, f.file, f.message) for f in findings] == [
        ("warning", s.path, f"skipped-entry: {s.reason}") for s in EXPECTED
    ]
