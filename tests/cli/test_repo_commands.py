"""Every command at the root of a templates repository laid out as Wendy's own
(``<language>/<name>/`` at the root, ``common/``, ``docs/``; no ``meta.json``,
which is another check's business), with no arguments.

Issue 13 items 1 and 6: discovery, fixtures under the repository's own
``golden/`` (never beside it), one broken template stopping nothing, sample
values from ``wendy-llm.toml``, ``picks`` and ``diff --base`` without a
template.  The commands run in-process (``run_cli``) from the directory a
user would be in.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _cli_helpers import validate_report
from _golden_helpers import commit_all, init_repo, run_cli, template_files, write_files

NEEDS_TOKEN = {
    "name": "chat",
    "variables": [
        {"name": "APP_ID", "type": "string", "required": True},
        {"name": "TOKEN", "type": "string", "description": "an API key: no default"},
    ],
}
RULES = "picker: {option_fields: [label]}\n"
SETTINGS = '# settings\n\n[sample-values."py/chat"]\nTOKEN = "sk-sample"\n'


def chat_files(readme: str = "# {{.APP_ID}}\ntoken {{.TOKEN}}\n") -> dict[str, str | bytes]:
    # A Dockerfile and wendy.json: a project `wendy run` can deploy (a bare
    # README is "unable to detect project type", a true failure of its own).
    return {
        "template.json": json.dumps(NEEDS_TOKEN) + "\n",
        "README.md": readme,
        "Dockerfile": 'FROM python:3.11-slim\nCMD ["python", "-V"]\n',
        "wendy.json": '{"appId": "{{.APP_ID}}", "version": "0.1.0"}\n',
    }


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A committed root-layout repository with two templates; the cwd is its root."""
    monkeypatch.delenv("CI", raising=False)
    root = init_repo(tmp_path / "templates-repo")
    write_files(root / "py/mini", template_files(["a:1", "b:2"]))
    write_files(root / "go/tiny", template_files(["x:1"]))
    write_files(
        root,
        {
            "README.md": "# templates\n",
            "common/web/index.html": "<html></html>\n",
            "docs/guide.md": "# guide\n",
            # Options here have a label only; the rules files say that is enough.
            "golden/py/mini.rules.yaml": RULES,
            "golden/go/tiny.rules.yaml": RULES,
        },
    )
    commit_all(root, "templates")
    monkeypatch.chdir(root)
    return root


def test_golden_then_check_at_the_root_with_no_arguments(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli("golden", "--update", "--quiet")
    assert (code, out, err) == (0, "", "")
    assert sorted(p.parent.relative_to(repo).as_posix() for p in repo.rglob("golden.json")) == [
        "golden/go/tiny",
        "golden/py/mini",
    ]
    assert [p.name for p in repo.parent.iterdir()] == [repo.name]  # nothing beside it
    code, out, _ = run_cli("check", "--json")
    assert code == 0, out
    report = json.loads(out)
    assert {r["template"] for r in report["results"]} == {"go/tiny", "py/mini"}
    assert all(r["status"] != "fail" for r in report["results"])
    # From a subdirectory the repository is the same one.
    monkeypatch.chdir(repo / "py" / "mini")
    code, out, _ = run_cli("golden", "--check", "--json")
    assert code == 0 and json.loads(out)["golden_dir"] == str(repo / "golden")


def test_the_golden_dir_never_leaves_the_repository(repo: Path) -> None:
    outside = repo.parent / "golden"
    for argv in (
        ["golden", "--update", "--golden-dir", "../golden"],
        ["check", "--golden-dir", str(outside)],
        ["golden", "--check", ".", "--golden-dir", "../golden"],
    ):
        code, out, err = run_cli(*argv)
        assert (code, out) == (2, ""), argv
        assert err == (
            "wendy-llm: error: the golden directory "
            f"{argv[-1]} is outside the repository {repo}: fixtures, rules files and "
            "baselines live inside the repository they guard; give a --golden-dir inside it\n"
        )
    assert not outside.exists()
    (repo / "wendy-llm.toml").write_text('golden-dir = "../golden"\n', encoding="utf-8")
    code, _, err = run_cli("golden", "--update")
    assert code == 2
    assert err.startswith(
        'wendy-llm: error: wendy-llm.toml:1: golden-dir: "../golden" is outside the repository'
    )
    assert not outside.exists()


def test_a_broken_template_stops_no_other(repo: Path) -> None:
    assert run_cli("golden", "--update", "--quiet")[0] == 0
    kept = (repo / "golden/go/tiny/golden.json").read_bytes()
    (repo / "go/tiny/template.json").write_text('{"variables": [{"name": 5}]}\n')
    write_files(repo / "py/mini", {"README.md": "# {{.APP_ID}} changed\n"})
    code, out, err = run_cli("golden", "--update")
    assert code == 2
    assert "golden: py/mini: 0 added, 2 changed, 0 removed (golden/py/mini/)" in out
    assert err.startswith("wendy-llm: error: template go/tiny: template.json: ")
    # Its fixtures still exist: a template that fails to load is not a removed one.
    assert (repo / "golden/go/tiny/golden.json").read_bytes() == kept
    code, out, err = run_cli("golden", "--check", "--template", "py/mini")
    assert (code, err) == (0, "")
    code, out, _ = run_cli("golden", "--check", "--json")
    doc = validate_report(out, "golden-check")
    assert code == 2 and [f["template"] for f in doc["failed"]] == ["go/tiny"]
    assert doc["problems"] == [] and [c["template"] for c in doc["checked"]] == ["py/mini"]
    code, out, _ = run_cli("check", "--json")
    report = json.loads(out)
    failing = {(r["template"], r["check"]) for r in report["results"] if r["status"] == "fail"}
    assert failing == {("go/tiny", "picker")}


def test_sample_values_come_from_the_settings_and_are_recorded(repo: Path) -> None:
    write_files(repo / "py/chat", chat_files())
    # Without them: the row says which line to add, in which file; golden names the template.
    # With no settings file yet, it is shown where template.json declares TOKEN (issue 37).
    code, out, _ = run_cli("check", "--json", "--template", "py/chat")
    assert code == 1
    rows = json.loads(out)["results"]
    render = [f for r in rows if r["check"] == "render" for f in r["findings"]]
    assert render == [
        {
            "severity": "error",
            "message": "TOKEN has no default and no sample value, so no pick can be rendered: "
            'add the line TOKEN = "..." under [sample-values."py/chat"] in wendy-llm.toml '
            "(wendy-llm.toml does not exist yet: shown where template.json declares it)",
            "file": "template.json",
            "line": 1,
            "code": "RND005",
            "subject": "",
        }
    ]
    # A settings file without the table: its line 1, said so.
    (repo / "wendy-llm.toml").write_text("# settings\n", encoding="utf-8")
    code, out, _ = run_cli("check", "--json", "--template", "py/chat")
    rows = json.loads(out)["results"]
    (found,) = [f for r in rows if r["check"] == "render" for f in r["findings"]]
    assert (found["file"], found["line"]) == ("wendy-llm.toml", 1)
    assert found["message"].endswith("(line 1: wendy-llm.toml as a whole)")
    (repo / "wendy-llm.toml").unlink()
    code, _, err = run_cli("golden", "--update", "--template", "py/chat")
    assert code == 2
    assert err == (
        "wendy-llm: error: template py/chat: TOKEN has no default and no sample value, so no "
        'pick can be rendered: add the line TOKEN = "..." under [sample-values."py/chat"] in '
        "wendy-llm.toml\n"
    )
    # With them: fixtures made with the value, which golden.json records.
    (repo / "wendy-llm.toml").write_text(SETTINGS, encoding="utf-8")
    assert run_cli("golden", "--update", "--quiet") == (0, "", "")
    fixture = repo / "golden/py/chat"
    assert (fixture / "_shared/README.md").read_text() == "# llm-app\ntoken sk-sample\n"
    inputs = json.loads((fixture / "golden.json").read_text())["canonical_inputs"]
    assert inputs["sample_values"] == {"TOKEN": "sk-sample"}
    code, out, _ = run_cli("check", "--json")
    assert code == 0, out
    lint = [f for r in json.loads(out)["results"] if r["check"] == "lint" for f in r["findings"]]
    assert lint == []  # no values-error: lint tries the picks with the sample values too
    # Another sample value is another render: the fixtures say so.
    (repo / "wendy-llm.toml").write_text(SETTINGS.replace("sk-sample", "sk-other"))
    code, out, _ = run_cli("golden", "--check", "--template", "py/chat")
    assert code == 1
    assert "-token sk-sample\n+token sk-other\n" in out
    # A sample value for no variable of the template is a typo: strict renders
    # refuse it (issue 31), naming the known names, before any comparison.
    (repo / "wendy-llm.toml").write_text(SETTINGS + 'UNUSED = "x"\n')
    code, out, _ = run_cli("golden", "--check", "--template", "py/chat")
    assert code == 2
    assert out.startswith("golden: failed to render: template py/chat: unknown variable UNUSED")


def test_picks_lists_every_template_or_one_by_id(repo: Path) -> None:
    code, out, err = run_cli("picks")
    assert (code, err) == (0, "")
    assert out == "go/tiny:\n  default  MODEL=x:1\n\npy/mini:\n  a-1  MODEL=a:1\n  b-2  MODEL=b:2\n"
    assert run_cli("picks", "-q") == (0, "go/tiny default\npy/mini a-1\npy/mini b-2\n", "")
    code, out, _ = run_cli("picks", "py/mini", "-q")
    assert (code, out) == (0, "a-1\nb-2\n")
    code, _, err = run_cli("picks", "--json")
    assert code == 2 and "--json lists one template's picks: name the TEMPLATE" in err


def test_diff_without_a_template_compares_every_template_at_the_base(repo: Path) -> None:
    write_files(repo / "rs/new", template_files(["n:1"]))
    (repo / "go/tiny/template.json").unlink()
    (repo / "go/tiny/template.schema.json").unlink()
    write_files(repo / "py/mini", {"README.md": "# {{.APP_ID}} edited\n"})
    code, out, err = run_cli("diff", "--base", "HEAD", "--junit", "reports/diff.xml")
    assert (code, err) == (0, "")
    assert out.startswith("template py/mini: HEAD (")
    assert "summary: 0 unchanged, 2 changed, 0 added, 0 removed" in out
    assert out.endswith(
        "template rs/new: new since HEAD: every pick is new, nothing to compare\n"
        "template go/tiny: exists at HEAD but not in the work tree\n"
    )
    code, out, _ = run_cli("diff", "--base", "HEAD", "--forbid-removed", "--junit", "r.xml")
    assert code == 1
    assert (
        "template go/tiny: exists at HEAD but not in the work tree  [FAILS --forbid-removed]" in out
    )
    failures = [c.get("classname") for c in ET.parse(repo / "r.xml").iter("testcase")
                if c.find("failure") is not None]  # fmt: skip
    assert failures == ["go/tiny"]
    code, _, err = run_cli("diff", "--base", "HEAD", "--json")
    assert code == 0 and err == (
        "wendy-llm: note: template rs/new: new since HEAD: every pick is new, nothing to compare\n"
        "wendy-llm: note: template go/tiny: exists at HEAD but not in the work tree\n"
    )
    # A template lacking a sample value is named with the fix; the others are compared.
    write_files(repo / "py/chat", chat_files())
    commit_all(repo, "a template that needs a value")
    code, out, err = run_cli("diff", "--base", "HEAD")
    assert code == 2
    assert "template py/mini: HEAD (" in out
    assert err == (
        "wendy-llm: error: template py/chat: TOKEN has no default and no sample value, so no "
        'pick can be rendered: add the line TOKEN = "..." under [sample-values."py/chat"] in '
        "wendy-llm.toml\n"
    )
    (repo / "wendy-llm.toml").write_text(SETTINGS, encoding="utf-8")
    code, out, err = run_cli("diff", "--base", "HEAD")
    assert (code, err) == (0, "") and "template py/chat: HEAD (" in out
    write_files(repo / "go/tiny", template_files(["x:1"]))
    code, _, err = run_cli("diff", "--base", "HEAD", "--json")
    assert code == 2
    assert err == (
        "wendy-llm: error: --json describes one template; 3 would be compared "
        "(py/chat, py/mini, rs/new): add --template ID\n"
    )
