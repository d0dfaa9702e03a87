"""Per-template golden checks: changed, missing and stale picks and files,
each named with the template, pick and path, readable diffs, subsets,
layout and manifest drift, changed answers, invalid manifests.

These drive the pure parts with hand-made pick renders; the end-to-end
tests (real loader, real engine, the CLI) are in test_golden_cli.py.
"""

from __future__ import annotations

import json
from pathlib import Path

from _golden_fixture_helpers import PNG, renders
from _golden_helpers import render, write_files

from wendy_llm.compare.textdiff import sha256_hex
from wendy_llm.golden.fsops import write_tree_atomically
from wendy_llm.golden.manifest import build_fixture
from wendy_llm.golden.template_check import GoldenProblem, check_fixture
from wendy_llm.render.canonical import PickRender

CMD = "wendy-llm golden --update --template py/t"


def written(tmp_path: Path, picks: list[PickRender] | None = None) -> Path:
    directory = tmp_path / "golden" / "py" / "t"
    write_tree_atomically(directory, build_fixture("py/t", picks or renders()).files)
    return directory


def check(
    directory: Path, picks: list[PickRender], *, all_picks: bool = True
) -> list[GoldenProblem]:
    return check_fixture("py/t", directory, picks, all_picks=all_picks, command=CMD)


# --- checks -------------------------------------------------------------------------


def test_fresh_fixtures_pass(tmp_path: Path) -> None:
    assert check(written(tmp_path), renders()) == []


def test_a_changed_shared_file_is_reported_once_for_every_pick(tmp_path: Path) -> None:
    directory = written(tmp_path)
    now = [render(r.slug, {**_texts(r), "Dockerfile": "FROM y\n"}, **r.answers) for r in renders()]
    [problem] = check(directory, now)
    assert problem.kind == "changed"
    assert problem.picks == ("alpha", "beta", "gamma")
    assert problem.path == "Dockerfile"
    assert "template py/t, every pick (3): Dockerfile differs" in problem.summary
    assert problem.fixture.endswith("golden/py/t/_shared/Dockerfile")
    assert "-FROM x" in problem.diff and "+FROM y" in problem.diff
    assert problem.message().splitlines()[-1] == f"Run: {CMD}"


def test_a_changed_pick_file_names_template_pick_and_path(tmp_path: Path) -> None:
    directory = written(tmp_path)
    now = renders()
    now[1] = render("beta", {**_texts(now[1]), "compose.yml": "model: B\n"}, MODEL="b:1")
    [problem] = check(directory, now)
    assert problem.summary.startswith("changed: template py/t, pick beta: compose.yml differs")
    assert problem.picks == ("beta",)
    assert any(line.startswith("--- ") and "beta/compose.yml" in line for line in problem.diff)
    assert problem.message().endswith(f"Run: {CMD}")


def test_crlf_and_trailing_whitespace_changes_are_visible(tmp_path: Path) -> None:
    directory = written(tmp_path)
    now = renders()
    now[0] = render("alpha", {**_texts(now[0]), "compose.yml": "model: a\r\n"}, MODEL="a:1")
    now[1] = render("beta", {**_texts(now[1]), "compose.yml": "model: b \n"}, MODEL="b:1")
    crlf, spaces = check(directory, now)
    assert "note: only invisible characters differ: line endings (LF before, CRLF now)" in crlf.diff
    assert "+model: a␍" in crlf.diff
    assert "note: only invisible characters differ: trailing whitespace" in spaces.diff
    assert "+model: b·" in spaces.diff


def test_a_big_diff_is_cut(tmp_path: Path) -> None:
    big = "".join(f"line {i}\n" for i in range(1000))
    base = renders()
    base[0] = render("alpha", {**_texts(base[0]), "compose.yml": big}, MODEL="a:1")
    directory = written(tmp_path, base)
    [problem] = check_fixture(
        "py/t", directory, renders(), all_picks=True, command=CMD, max_diff_lines=50
    )
    assert len(problem.diff) == 50
    assert problem.diff[-1].startswith("... (") and problem.diff[-1].endswith(
        " more lines not shown)"
    )


def test_a_copied_file_is_compared_by_hash(tmp_path: Path) -> None:
    directory = written(tmp_path)
    now = [
        render(r.slug, {**_texts(r), "logo.png": b"\x89PNG new"}, **r.answers) for r in renders()
    ]
    [problem] = check(directory, now)
    assert problem.kind == "changed"
    new_sha = sha256_hex(b"\x89PNG new")
    assert problem.summary.endswith(f"{new_sha[:12]} now (8 bytes)")
    assert (
        "copied file logo.png changed (template file logo.png): sha256 " + sha256_hex(PNG)[:12]
        in problem.summary
    )


def test_missing_template_pick_and_file(tmp_path: Path) -> None:
    [no_fixtures] = check(tmp_path / "golden" / "py" / "t", renders())
    assert no_fixtures.kind == "missing"
    assert "template py/t has no fixtures" in no_fixtures.summary

    directory = written(tmp_path, renders()[:2])
    problems = check(directory, renders())
    kinds = [(p.kind, p.picks) for p in problems]
    assert ("missing", ("gamma",)) in kinds
    assert "pick gamma has no fixtures" in problems[0].summary
    # The pick is named once, not once per file it should have.
    assert len(problems) == 1

    directory = written(tmp_path)
    now = renders()
    now[0] = render("alpha", {**_texts(now[0]), "new.txt": "n\n"}, MODEL="a:1")
    [missing] = check(directory, now)
    assert missing.kind == "missing"
    assert (
        missing.summary == "missing: template py/t, pick alpha: new.txt (rendered) has no fixture"
    )


def test_a_deleted_fixture_file_is_missing_not_changed(tmp_path: Path) -> None:
    directory = written(tmp_path)
    (directory / "beta" / "compose.yml").unlink()
    [problem] = check(directory, renders())
    assert problem.kind == "missing"
    assert "is listed in golden.json but does not exist" in problem.summary


def test_stale_picks_and_files_are_each_named(tmp_path: Path) -> None:
    directory = written(tmp_path)
    write_files(directory, {"_shared/orphan.txt": "o", "alpha/orphan.txt": "o", "zeta/a.txt": "z"})
    now = renders()[:2]  # gamma was removed
    problems = check(directory, now)
    summaries = sorted(p.summary for p in problems if p.kind == "stale")
    assert len(summaries) == 4
    assert any("pick gamma no longer exists" in s and "gamma/ (2 files)" in s for s in summaries)
    assert any("pick zeta no longer exists" in s for s in summaries)
    assert any("_shared/orphan.txt is not part of the fixtures" in s for s in summaries)
    assert any("alpha/orphan.txt is not part of the fixtures" in s for s in summaries)
    assert all(p.message().endswith(f"Run: {CMD}") for p in problems)


def renders_without(path: str) -> list[PickRender]:
    return [
        render(r.slug, {k: v for k, v in _texts(r).items() if k != path}, **r.answers)
        for r in renders()
    ]


def test_a_file_no_longer_rendered_is_stale(tmp_path: Path) -> None:
    [problem] = check(written(tmp_path), renders_without("Dockerfile"))
    assert problem.kind == "stale"
    assert "every pick (3): Dockerfile is no longer rendered" in problem.summary


def test_the_same_stale_file_in_every_picks_directory_is_one_problem(tmp_path: Path) -> None:
    [problem] = check(written(tmp_path), renders_without("compose.yml"))
    assert problem.kind == "stale" and problem.picks == ("alpha", "beta", "gamma")
    assert problem.summary.startswith(
        "stale: template py/t, every pick (3): compose.yml is no longer rendered; its fixture "
        "is stale ("
    )
    assert problem.summary.endswith("golden/py/t/<pick>/compose.yml)")
    assert problem.fixture.endswith("golden/py/t/<pick>/compose.yml")


def test_a_subset_check_reports_nothing_about_other_picks(tmp_path: Path) -> None:
    directory = written(tmp_path)
    write_files(directory, {"zeta/a.txt": "z", "alpha/orphan.txt": "o"})
    (directory / "gamma" / "compose.yml").write_text("edited\n")
    only_beta = [r for r in renders() if r.slug == "beta"]
    assert check(directory, only_beta, all_picks=False) == []
    only_alpha = [r for r in renders() if r.slug == "alpha"]
    [stale] = check(directory, only_alpha, all_picks=False)
    assert stale.kind == "stale" and "alpha/orphan.txt" in stale.summary


def test_layout_drift_shows_as_missing_and_stale_fixture_files(tmp_path: Path) -> None:
    # Fixtures made while the picks' compose files differed; now they agree,
    # so --update would store compose.yml once under _shared/.
    base = renders()[:2]
    directory = written(tmp_path, base)
    for r in base:
        (directory / r.slug / "compose.yml").write_text("model: same\n")
    manifest = directory / "golden.json"
    doc = json.loads(manifest.read_text())
    for slug in ("alpha", "beta"):
        doc["files"]["compose.yml"]["picks"][slug]["sha256"] = sha256_hex(b"model: same\n")
    manifest.write_text(json.dumps(doc))
    now = [render(r.slug, {**_texts(r), "compose.yml": "model: same\n"}, **r.answers) for r in base]
    problems = check(directory, now)
    found = sorted((p.kind, p.fixture.rsplit("golden/py/t/", 1)[1]) for p in problems)
    assert found == [
        ("missing", "_shared/compose.yml"),
        ("stale", "alpha/compose.yml"),
        ("stale", "beta/compose.yml"),
    ]


def test_manifest_only_drift_is_a_manifest_diff(tmp_path: Path) -> None:
    directory = written(tmp_path)
    manifest = directory / "golden.json"
    manifest.write_text(json.dumps(json.loads(manifest.read_text())))  # one line, no indent
    [problem] = check(directory, renders())
    assert problem.kind == "changed"
    assert problem.fixture.endswith("golden/py/t/golden.json")
    assert "differs from the manifest the renders produce" in problem.summary
    assert any(line.startswith("+") and '"format": 1' in line for line in problem.diff)


def test_changed_answers_are_reported(tmp_path: Path) -> None:
    directory = written(tmp_path)
    now = renders()
    now[0] = render("alpha", _texts(now[0]), MODEL="a:2")
    [problem] = check(directory, now)
    assert problem.kind == "changed"
    assert "pick alpha: answers are now {'MODEL': 'a:2'}" in problem.summary


def test_invalid_and_foreign_manifests(tmp_path: Path) -> None:
    directory = written(tmp_path)
    (directory / "golden.json").write_text("{")
    [problem] = check(directory, renders())
    assert problem.kind == "invalid"
    assert "golden.json: not a valid golden manifest" in problem.summary
    assert problem.message().endswith(f"Run: {CMD}")
    write_tree_atomically(directory, build_fixture("py/other", renders()).files)
    [foreign] = check(directory, renders())
    assert "holds the fixtures of template py/other, not py/t" in foreign.summary


def _texts(r: PickRender) -> dict[str, str | bytes]:
    return {p: f.data.decode() if f.rendered else f.data for p, f in r.files.items()}
