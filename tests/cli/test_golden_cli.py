"""`wendy-llm golden --update|--check` end to end: real loader, real engine."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from _golden_helpers import run_cli, template_files, write_files

from wendy_llm import RenderedFile, RenderedTree, check_golden, discover_templates, update_golden

UPDATE = "Run: wendy-llm golden --update --template py/mini"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout with one small template, the fixtures not yet written; full
    fixtures (a copy of every rendered file), whose diffs these tests read
    (lean ones: tests/golden/test_golden_lean.py)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "wendy-llm.toml").write_text('golden-fixtures = "full"\n')
    monkeypatch.delenv("CI", raising=False)
    write_files(tmp_path / "templates/py/mini", template_files(["a:1", "b:2"]))
    write_files(
        tmp_path / "golden",
        {
            "baseline/py/mini/template.json": "{}\n",
            "py/mini.rules.yaml": "gate: {files: [docker-compose.yml]}\n",
        },
    )
    return tmp_path


def snapshot(root: Path) -> dict[str, bytes]:
    files = (p for p in sorted(root.rglob("*")) if p.is_file())
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in files}


def test_update_writes_the_layout_and_check_then_passes(project: Path) -> None:
    code, out, err = run_cli("golden", "--update")
    assert (code, err) == (0, "")
    assert "golden: py/mini: 5 added, 0 changed, 0 removed (golden/py/mini/)" in out
    fixture = project / "golden/py/mini"
    assert sorted(snapshot(fixture)) == [
        "_shared/README.md",
        "_shared/backend/Dockerfile",
        "a-1/docker-compose.yml",
        "b-2/docker-compose.yml",
        "golden.json",
    ]
    assert (fixture / "a-1/docker-compose.yml").read_text().count('MODEL: "a:1"') == 1
    assert (fixture / "_shared/README.md").read_bytes() == b"# llm-app\n"
    assert not (fixture / "_shared/logo.png").exists()  # copied: hashed only
    manifest = json.loads((fixture / "golden.json").read_text())
    assert manifest["files"]["logo.png"]["kind"] == "copied"
    assert [p["slug"] for p in manifest["picks"]] == ["a-1", "b-2"]

    code, out, _ = run_cli("golden", "--check")
    assert code == 0
    assert out == "golden: py/mini: 2 picks match their fixtures\n"


def test_update_is_a_no_op_when_up_to_date_and_leaves_other_files_alone(project: Path) -> None:
    run_cli("golden", "--update")
    before = snapshot(project / "golden")
    stat = (project / "golden/py/mini/golden.json").stat()
    code, out, _ = run_cli("golden", "--update")
    assert code == 0
    assert out.startswith("golden: py/mini: up to date (golden/py/mini/)")
    assert snapshot(project / "golden") == before
    assert (project / "golden/py/mini/golden.json").stat().st_ino == stat.st_ino
    assert (project / "golden/baseline/py/mini/template.json").read_text() == "{}\n"
    assert (project / "golden/py/mini.rules.yaml").exists()


def test_changed_template_fails_with_diff_and_command(project: Path) -> None:
    run_cli("golden", "--update")
    compose = project / "templates/py/mini/docker-compose.yml"
    compose.write_text(compose.read_text().replace("build: ./backend", "build: ./server"))
    code, out, _ = run_cli("golden", "--check")
    assert code == 1
    assert (
        "changed: template py/mini, every pick (2): docker-compose.yml differs from its "
        "fixture golden/py/mini/a-1/docker-compose.yml"
    ) not in out  # per-pick fixtures are reported per pick
    assert "changed: template py/mini, pick a-1: docker-compose.yml differs" in out
    assert "changed: template py/mini, pick b-2: docker-compose.yml differs" in out
    assert "-    build: ./backend" in out and "+    build: ./server" in out
    blocks = out.strip().split("\n\n")
    assert all(block.splitlines()[-1].endswith(UPDATE[5:]) for block in blocks)
    assert blocks[0].splitlines()[-1] == UPDATE


def test_a_shared_change_shows_once(project: Path) -> None:
    run_cli("golden", "--update")
    (project / "templates/py/mini/backend/Dockerfile").write_text("FROM busybox\n")
    code, out, _ = run_cli("golden", "--check")
    assert code == 1
    assert (
        out.count("=== ") == 0 and out.count("--- golden/py/mini/_shared/backend/Dockerfile") == 1
    )
    assert "every pick (2): backend/Dockerfile differs" in out


def test_crlf_and_trailing_whitespace_are_visible(project: Path) -> None:
    run_cli("golden", "--update")
    readme = project / "templates/py/mini/README.md"
    readme.write_bytes(b"# {{.APP_ID}}\r\n")
    code, out, _ = run_cli("golden", "--check")
    assert code == 1
    assert "note: only invisible characters differ: line endings (LF before, CRLF now)" in out
    assert "+# llm-app␍" in out
    readme.write_bytes(b"# {{.APP_ID}} \n")
    code, out, _ = run_cli("golden", "--check")
    assert "note: only invisible characters differ: trailing whitespace" in out
    assert "+# llm-app·" in out


def test_big_diffs_are_cut(project: Path) -> None:
    run_cli("golden", "--update")
    body = "".join(f"line {i}\n" for i in range(400))
    (project / "templates/py/mini/README.md").write_text(body)
    code, out, _ = run_cli("golden", "--check", "--max-diff-lines", "30")
    assert code == 1
    assert "... (375 more lines not shown)" in out


def test_missing_fixtures_are_reported_never_written(project: Path) -> None:
    code, out, _ = run_cli("golden", "--check")
    assert code == 1
    assert (
        "missing: template py/mini has no fixtures (golden/py/mini/golden.json does not exist)"
        in out
    )
    assert not (project / "golden/py/mini").exists()

    run_cli("golden", "--update")
    write_files(
        project / "templates/py/mini",
        template_files(["a:1", "b:2", "c:3"], extra={"extra.txt": "hi {{.APP_ID}}\n"}),
    )
    code, out, _ = run_cli("golden", "--check")
    assert code == 1
    assert "missing: template py/mini, pick c-3 has no fixtures" in out
    assert "missing: template py/mini, picks a-1, b-2: extra.txt (rendered) has no fixture" in out
    assert "+hi llm-app" in out  # the new file's content, for review
    assert not (project / "golden/py/mini/c-3").exists()


def test_stale_fixtures_are_each_named(project: Path) -> None:
    write_files(project / "templates/py/mini", template_files(["a:1", "b:2", "c:3"]))
    write_files(project / "templates/py/other", template_files(["x:1"]))
    run_cli("golden", "--update")
    # Remove a pick, a file and a whole template.
    write_files(project / "templates/py/mini", template_files(["a:1", "b:2"]))
    (project / "templates/py/mini/backend/Dockerfile").unlink()
    for path in sorted((project / "templates/py/other").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    (project / "templates/py/other").rmdir()
    code, out, _ = run_cli("golden", "--check")
    assert code == 1
    assert (
        "stale: template py/mini, pick c-3 no longer exists; its fixtures are stale: "
        "golden/py/mini/c-3/ (1 file)" in out
    )
    assert (
        "stale: template py/mini, every pick (2): backend/Dockerfile is no longer rendered; "
        "its fixture is stale (golden/py/mini/_shared/backend/Dockerfile)" in out
    )
    assert "stale: fixtures of template py/other, which no longer exists: golden/py/other/" in out
    assert out.rstrip().endswith("Run: wendy-llm golden --update")

    code, out, _ = run_cli("golden", "--update")
    assert code == 0
    assert "golden: py/other: removed golden/py/other/" in out
    assert "removed  c-3/docker-compose.yml" in out
    assert "removed  _shared/backend/Dockerfile" in out
    assert not (project / "golden/py/other").exists()
    assert run_cli("golden", "--check")[0] == 0


def test_subset_runs_do_not_report_others_as_stale(project: Path) -> None:
    write_files(project / "templates/py/other", template_files(["x:1"]))
    run_cli("golden", "--update")
    write_files(project / "golden/py/gone", {"golden.json": "{}"})
    (project / "golden/py/mini/b-2/docker-compose.yml").write_text("edited\n")

    code, out, _ = run_cli("golden", "--check", "--template", "py/other")
    assert (code, out) == (0, "golden: py/other: 1 pick matches its fixtures\n")
    code, out, _ = run_cli("golden", "--check", "--template", "py/mini", "--pick", "a-1")
    assert (code, out) == (0, "golden: py/mini: 1 pick matches its fixtures\n")
    code, out, _ = run_cli("golden", "--check", "--pick", "b-2")
    assert code == 1
    assert "py/gone" not in out and "pick b-2: docker-compose.yml differs" in out

    # A partial update leaves other templates' fixtures alone.
    code, out, _ = run_cli("golden", "--update", "--template", "py/mini")
    assert code == 0 and "py/gone" not in out
    assert (project / "golden/py/gone/golden.json").exists()


def test_ci_refuses_to_update_unless_forced(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("true", "1", "TRUE"):
        monkeypatch.setenv("CI", value)
        code, out, err = run_cli("golden", "--update")
        assert code == 2 and out == ""
        assert f"refusing to write fixtures: CI={value} is set" in err
        assert "--force" in err and "make golden" not in err  # commands users have
        assert "Run `wendy-llm golden --update` locally" in err
        assert not (project / "golden/py/mini").exists()
    err = run_cli("golden", "--update", "--golden-dir", "elsewhere", "--template", "py/mini")[2]
    assert "`wendy-llm golden --check --golden-dir elsewhere --template py/mini` in CI" in err
    monkeypatch.setenv("CI", "true")
    code, out, _ = run_cli("golden", "--update", "--force")
    assert code == 0 and (project / "golden/py/mini/golden.json").exists()
    # Checking is what CI is for.
    assert run_cli("golden", "--check")[0] == 0
    monkeypatch.setenv("CI", "false")
    assert run_cli("golden", "--update")[0] == 0


def test_usage_errors(project: Path) -> None:
    code, _, err = run_cli("golden", "--update", "--pick", "a-1")
    assert code == 2 and "--pick only applies to --check" in err
    code, _, err = run_cli("golden", "--check", "--template", "py/nope")
    assert code == 2 and 'no template "py/nope" under templates (templates: py/mini)' in err
    code, _, err = run_cli("golden", "--check", "--pick", "zz")
    assert code == 2 and "no pick zz in py/mini (picks: a-1, b-2)" in err
    code, _, err = run_cli("golden", "--check", "elsewhere")
    assert code == 2 and "templates directory elsewhere does not exist" in err
    with pytest.raises(SystemExit):
        run_cli("golden")  # --update or --check is required


def test_json_output(project: Path) -> None:
    code, out, _ = run_cli("golden", "--update", "--json")
    doc = json.loads(out)
    assert doc["version"] == 1 and doc["mode"] == "update" and doc["written"] is True
    assert doc["templates"][0]["template"] == "py/mini"
    assert "golden.json" in doc["templates"][0]["added"]
    (project / "golden/py/mini/a-1/docker-compose.yml").write_text("x\n")
    code, out, _ = run_cli("golden", "--check", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["ok"] is False and doc["mode"] == "check"
    [problem] = doc["problems"]
    assert problem["kind"] == "changed" and problem["picks"] == ["a-1"]
    assert problem["path"] == "docker-compose.yml"
    assert problem["fixture"] == "golden/py/mini/a-1/docker-compose.yml"
    assert problem["command"] == "wendy-llm golden --update --template py/mini"
    assert problem["diff"][0].startswith("--- golden/py/mini/a-1/docker-compose.yml")


def test_non_default_paths_appear_in_the_command(project: Path, tmp_path: Path) -> None:
    os.chdir(project.parent)
    templates = f"{project.name}/templates"
    golden = f"{project.name}/golden"
    code, out, _ = run_cli("golden", "--check", templates, "--golden-dir", golden)
    assert code == 1
    # golden/ next to TEMPLATES_DIR is the default, so the command needs no --golden-dir.
    assert out.rstrip().endswith(f"Run: wendy-llm golden --update {templates} --template py/mini")
    elsewhere = f"{project.name}/fixtures"
    code, out, _ = run_cli("golden", "--check", templates, "--golden-dir", elsewhere)
    assert code == 1
    assert out.rstrip().endswith(
        f"Run: wendy-llm golden --update {templates} --golden-dir {elsewhere} --template py/mini"
    )


def test_every_command_finds_golden_next_to_the_templates(project: Path) -> None:
    # One rule for golden, check and diff: ./golden exists here, but the
    # fixtures of other/templates are other/golden (no settings file at the
    # root, which would make the root the repository of both; lean fixtures).
    (project / "wendy-llm.toml").unlink()
    run_cli("golden", "--update")
    write_files(project / "other/templates/py/mini", template_files(["c:3"]))
    code, out, _ = run_cli("golden", "--update", "other/templates")
    assert code == 0
    assert "golden: py/mini: 3 added, 0 changed, 0 removed (other/golden/py/mini/)" in out
    assert json.loads((project / "golden/py/mini/golden.json").read_text())["picks"][0]["slug"] == (
        "a-1"
    )
    code, out, _ = run_cli("golden", "--check", "--templates-dir", "other/templates")
    assert (code, out) == (0, "golden: py/mini: 1 pick matches its fixtures\n")
    code, out, _ = run_cli("check", "other/templates", "--json", "--template", "py/mini")
    golden = [r for r in json.loads(out)["results"] if r["check"] == "golden"]
    assert [(r["pick"], r["status"]) for r in golden] == [(None, "ok"), ("default", "ok")]
    code, _, err = run_cli("golden", "--check", "templates", "--templates-dir", "other/templates")
    assert code == 2
    assert "two templates directories: templates and --templates-dir other/templates" in err


def test_the_same_change_in_every_picks_copy_shows_once(project: Path) -> None:
    readme = "# {{.APP_ID}}\nModel {{.MODEL}}\n\none\ntwo\nthree\nfour\n"
    write_files(project / "templates/py/mini", {"README.md": readme})
    run_cli("golden", "--update")
    write_files(project / "templates/py/mini", {"README.md": readme + "five\n"})
    code, out, _ = run_cli("golden", "--check")
    assert code == 1
    assert (
        "changed: template py/mini, every pick (2): README.md differs from its fixture "
        "golden/py/mini/<pick>/README.md in the same way\n"
        "--- golden/py/mini/<pick>/README.md (fixture)\n"
        "+++ README.md (render of each pick)\n"
        "@@ -5,3 +5,4 @@\n two\n three\n four\n+five\n"
    ) in out
    assert out.count("+five") == 1
    code, out, _ = run_cli("check", "--quiet", "--template", "py/mini")
    assert code == 1
    assert out.count("+five") == 1
    # At the diff's first line in the fixture (issue 37).
    assert "py/mini (template) [golden] golden/py/mini/<pick>/README.md:5: GLD001 changed:" in out
    # Each pick's pointer to the shared diff: one line naming both picks.
    assert (
        "py/mini every pick (2) [golden] golden/py/mini/<pick>/README.md:5: GLD002 changed: "
        "README.md, the same for 2 picks; the diff is under py/mini (template)"
    ) in out
    # Changes that differ per pick are shown per pick.
    write_files(project / "templates/py/mini", {"README.md": readme.replace("Model", "Uses")})
    code, out, _ = run_cli("golden", "--check")
    assert "--- golden/py/mini/a-1/README.md (fixture)\n+++ README.md (render of pick a-1)" in out
    assert "--- golden/py/mini/b-2/README.md (fixture)\n+++ README.md (render of pick b-2)" in out


def test_all_diffs_of_a_run_are_capped_together(project: Path) -> None:
    options = ["a:1", "b:2", "c:3", "d:4"]
    write_files(project / "templates/py/mini", template_files(options))
    write_files(project / "templates/py/mini", {"README.md": "{{.MODEL}}\n" * 100})
    run_cli("golden", "--update")
    write_files(project / "templates/py/mini", {"README.md": "{{.MODEL}}!\n" * 100})
    code, out, _ = run_cli("golden", "--check", "--max-diff-lines", "30")
    assert code == 1
    # Each diff is cut to 30 lines, all of them to 3 x 30: the fourth is left out, counted.
    assert out.count("... (174 more lines not shown)") == 3
    assert "... (diff of 30 lines not shown: 90 lines shown already)" in out
    assert "golden: 30 diff lines not shown (the run's diffs are capped;" in out
    assert out.count("changed: template py/mini, pick ") == 4  # every problem still named
    code, out, _ = run_cli("golden", "--check", "--max-diff-lines", "0")
    assert "not shown" not in out and out.count("+d:4!") == 100
    # `check` says it too, once, on its last golden finding, before the fix.
    code, out, _ = run_cli("check", "--quiet", "--template", "py/mini", "--max-diff-lines", "30")
    assert code == 1
    note = "(30 more diff lines not shown: the diffs are capped; --max-diff-lines 0 shows them all)"
    assert out.count(note) == 1
    assert f"{note}\n      {UPDATE}\n" in out


def test_library_api_round_trip(project: Path) -> None:
    result = update_golden("templates", "golden")
    assert [t.template_id for t in result.templates] == ["py/mini"]
    assert result.written
    check = check_golden("templates", "golden", pick_slugs=["b-2"])
    assert check.ok and [c.picks for c in check.checked] == [("b-2",)]


def test_naming_every_template_is_still_a_partial_run(project: Path) -> None:
    run_cli("golden", "--update")
    write_files(project / "golden/py/gone", {"golden.json": "{}"})
    code, out, _ = run_cli("golden", "--check", "--template", "py/mini")
    assert code == 0 and "py/gone" not in out
    code, out, _ = run_cli("golden", "--update", "--template", "py/mini")
    assert code == 0 and (project / "golden/py/gone/golden.json").exists()
    code, out, _ = run_cli("golden", "--check")
    assert code == 1 and "stale: fixtures of template py/gone, which no longer exists" in out


def test_check_reuses_renders_the_caller_already_made(project: Path) -> None:
    update_golden("templates", "golden")
    [template] = discover_templates("templates")
    pick = template.pick("a-1")
    tree = template.render("llm-app", dict(pick.answers))
    assert check_golden([template], "golden", trees={"py/mini": {"a-1": tree}}).ok
    edited = dict(tree.files)
    edited["README.md"] = RenderedFile("README.md", b"edited\n", True, "README.md")
    result = check_golden([template], "golden", trees={"py/mini": {"a-1": RenderedTree(edited)}})
    [problem] = result.problems
    assert problem.picks == ("a-1",) and "+edited" in problem.diff


def test_changes_that_differ_only_after_the_cut_are_not_merged(project: Path) -> None:
    # Both picks gain the same first 20 lines and then one line of their
    # own, far past a 10-line cut. The cut diffs are identical (same lines,
    # same count left out), but the changes are not, so each pick keeps
    # its own report.
    # The model line keeps the file per pick; the filler keeps it out of the
    # diff's context.
    head = "Model {{.MODEL}}\n" + "".join(f"filler {n}\n" for n in range(8))
    write_files(project / "templates/py/mini", {"README.md": head})
    run_cli("golden", "--update")
    more = "".join(f"line {n}\n" for n in range(20))
    tail = '{{if eq .MODEL "b:2"}}only b{{else}}only a{{end}}\n'
    write_files(project / "templates/py/mini", {"README.md": head + more + tail})
    code, out, _ = run_cli("golden", "--check", "--max-diff-lines", "10")
    assert code == 1
    assert "in the same way" not in out
    assert "+++ README.md (render of pick a-1)" in out
    assert "+++ README.md (render of pick b-2)" in out
