"""Fixture layout, manifest, atomic writes and per-template checks.

These drive the pure parts with hand-made pick renders; the end-to-end
tests (real loader, real engine, the CLI) are in test_golden_cli.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from _golden_helpers import render, write_files

from wendy_llm.compare.textdiff import sha256_hex
from wendy_llm.errors import GoldenError, GoldenManifestError, TreeWriteError
from wendy_llm.golden.fsops import remove_tree_atomically, write_tree_atomically
from wendy_llm.golden.layout import find_fixture_dirs, fixture_dir, list_files
from wendy_llm.golden.manifest import GoldenManifest, build_fixture
from wendy_llm.golden.template_check import GoldenProblem, check_fixture
from wendy_llm.render import tree as tree_module
from wendy_llm.render.canonical import PickRender, check_slug
from wendy_llm.render.picks import CANONICAL_APP_ID

CMD = "wendy-llm golden --update --template py/t"
PNG = b"\x89PNG{{ raw }}"


def renders() -> list[PickRender]:
    return [
        render(
            "alpha",
            {"Dockerfile": "FROM x\n", "compose.yml": "model: a\n", "logo.png": PNG},
            MODEL="a:1",
        ),
        render(
            "beta",
            {"Dockerfile": "FROM x\n", "compose.yml": "model: b\n", "logo.png": PNG},
            MODEL="b:1",
        ),
        render(
            "gamma",
            {"Dockerfile": "FROM x\n", "compose.yml": "model: c\n", "logo.png": PNG, "x.md": "c"},
            MODEL="special",
        ),
    ]


def written(tmp_path: Path, picks: list[PickRender] | None = None) -> Path:
    directory = tmp_path / "golden" / "py" / "t"
    write_tree_atomically(directory, build_fixture("py/t", picks or renders()).files)
    return directory


def check(
    directory: Path, picks: list[PickRender], *, all_picks: bool = True
) -> list[GoldenProblem]:
    return check_fixture("py/t", directory, picks, all_picks=all_picks, command=CMD)


# --- layout and manifest ---------------------------------------------------------


def test_shared_files_are_stored_once_and_copied_files_only_hashed() -> None:
    fixture = build_fixture("py/t", renders())
    assert sorted(fixture.files) == [
        "_shared/Dockerfile",
        "alpha/compose.yml",
        "beta/compose.yml",
        "gamma/compose.yml",
        "gamma/x.md",
        "golden.json",
    ]
    assert fixture.files["beta/compose.yml"] == b"model: b\n"
    doc = json.loads(fixture.files["golden.json"])
    assert doc["format"] == 1
    assert doc["template"] == "py/t"
    assert doc["canonical_inputs"] == {"app_id": CANONICAL_APP_ID, "other_variables": "default"}
    assert doc["picks"] == [
        {"answers": {"MODEL": "a:1"}, "slug": "alpha"},
        {"answers": {"MODEL": "b:1"}, "slug": "beta"},
        {"answers": {"MODEL": "special"}, "slug": "gamma"},
    ]
    assert doc["files"]["Dockerfile"] == {
        "kind": "rendered",
        "sha256": sha256_hex(b"FROM x\n"),
        "stored": "_shared/Dockerfile",
    }
    assert doc["files"]["logo.png"] == {"kind": "copied", "sha256": sha256_hex(PNG)}
    assert doc["files"]["compose.yml"]["picks"]["beta"] == {
        "sha256": sha256_hex(b"model: b\n"),
        "stored": "beta/compose.yml",
    }
    assert list(doc["files"]["x.md"]["picks"]) == ["gamma"]


def test_manifest_is_stable_sorted_indented_and_newline_terminated() -> None:
    text = build_fixture("py/t", renders()).files["golden.json"]
    assert text.endswith(b"}\n")
    doc = json.loads(text)
    assert text == (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    assert build_fixture("py/t", renders()).files["golden.json"] == text


def test_manifest_round_trips() -> None:
    fixture = build_fixture("py/t", renders())
    parsed = GoldenManifest.from_json(fixture.files["golden.json"], source="golden.json")
    assert parsed == fixture.manifest
    assert parsed.to_json() == fixture.files["golden.json"]
    assert parsed.files["alpha"]["Dockerfile"].stored == "_shared/Dockerfile"
    assert parsed.files["alpha"]["logo.png"].stored is None


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format=2), "this wendy-llm reads format 1"),
        (lambda d: d.pop("template"), '"template" must be a string'),
        (lambda d: d["picks"].append(dict(d["picks"][0])), "listed twice"),
        (
            lambda d: d["files"]["Dockerfile"].update(stored="../../etc/passwd"),
            'stored must be "_shared/Dockerfile"',
        ),
        (lambda d: d["files"]["Dockerfile"].update(sha256="xyz"), "not a lowercase hex SHA-256"),
        (lambda d: d["files"]["logo.png"].update(stored="_shared/logo.png"), "never stored"),
        (lambda d: d["files"]["x.md"]["picks"].update(nope={}), 'names pick "nope"'),
        (lambda d: d["files"]["x.md"].update(kind="linked"), "kind must be one of"),
    ],
)
def test_invalid_manifests_are_named(mutate: object, message: str) -> None:
    doc = json.loads(build_fixture("py/t", renders()).files["golden.json"])
    assert callable(mutate)
    mutate(doc)
    with pytest.raises(GoldenManifestError, match=message) as info:
        GoldenManifest.from_json(json.dumps(doc).encode(), source="g/golden.json")
    assert str(info.value).startswith("g/golden.json: not a valid golden manifest: ")


def test_unparseable_manifest() -> None:
    with pytest.raises(GoldenManifestError, match="line 1"):
        GoldenManifest.from_json(b"<<<<<<< HEAD\n", source="golden.json")


@pytest.mark.parametrize("slug", ["_shared", "a/b", "..", ".hidden", "", "x.json"])
def test_slugs_that_cannot_be_directories_are_refused(slug: str) -> None:
    with pytest.raises(GoldenError, match="cannot name a fixture directory"):
        check_slug(slug, "py/t")


def test_fixture_dirs_are_only_directories_with_a_manifest(tmp_path: Path) -> None:
    root = tmp_path / "golden"
    write_files(
        root,
        {
            "baseline/python/llm/template.json": "{}",
            "python/llm.rules.yaml": "gate: {}\n",
            "python/llm/golden.json": "{}",
            "python/.llm.tmp-1234/golden.json": "{}",
            "solo/golden.json": "{}",
            "solo/nested/golden.json": "{}",
            "a/b/c/golden.json": "{}",
        },
    )
    assert find_fixture_dirs(root) == {"python/llm": root / "python/llm", "solo": root / "solo"}
    assert find_fixture_dirs(tmp_path / "missing") == {}
    assert fixture_dir(root, "python/llm") == root / "python" / "llm"
    with pytest.raises(GoldenError):
        fixture_dir(root, "../x")


# --- atomic writes ------------------------------------------------------------------


def test_write_replaces_the_whole_directory(tmp_path: Path) -> None:
    target = tmp_path / "golden" / "py" / "t"
    write_tree_atomically(target, {"a/x.txt": b"1", "b.txt": b"2"})
    write_tree_atomically(target, {"b.txt": b"3", "c/d/e.txt": b"4"})
    assert {k: v.read_bytes() for k, v in list_files(target).items()} == {
        "b.txt": b"3",
        "c/d/e.txt": b"4",
    }
    assert sorted(p.name for p in target.parent.iterdir()) == ["t"]
    assert oct(target.stat().st_mode & 0o777) == oct(0o755)


def test_a_failed_write_leaves_the_old_tree_and_no_debris(tmp_path: Path) -> None:
    target = tmp_path / "t"
    write_tree_atomically(target, {"keep.txt": b"old"})
    with pytest.raises(TreeWriteError, match=r'refusing to write "\.\./escape\.txt" outside'):
        write_tree_atomically(target, {"new.txt": b"n", "../escape.txt": b"x"})
    assert (target / "keep.txt").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t"]


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two-renames"])
def test_a_failed_swap_keeps_the_old_fixtures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool
) -> None:
    # Fixtures go through the package's one atomic tree writer (tree.write_tree),
    # with or without renameat2: a swap that fails leaves the old fixtures whole.
    target = tmp_path / "golden" / "t"
    write_tree_atomically(target, {"keep.txt": b"old"})

    def broken_exchange(a: Path, b: Path) -> bool:
        raise OSError(5, "Input/output error")

    def no_exchange(a: Path, b: Path) -> bool:
        return False

    real_replace = os.replace
    calls: list[str] = []

    def second_replace_fails(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        calls.append(str(dst))
        if len(calls) == 2:
            raise OSError(5, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(tree_module, "_exchange", broken_exchange if exchange else no_exchange)
    monkeypatch.setattr(os, "replace", second_replace_fails)
    with pytest.raises(TreeWriteError, match=r"golden/t: writing the tree failed: .*Input/output"):
        write_tree_atomically(target, {"new.txt": b"new"})
    assert {k: v.read_bytes() for k, v in list_files(target).items()} == {"keep.txt": b"old"}
    assert sorted(p.name for p in target.parent.iterdir()) == ["t"]


def test_remove_takes_empty_parents_but_not_the_root_or_siblings(tmp_path: Path) -> None:
    root = tmp_path / "golden"
    write_files(root, {"py/t/golden.json": "{}", "go/x/golden.json": "{}", "go/x.rules.yaml": ""})
    remove_tree_atomically(root / "py" / "t", stop_at=root)
    remove_tree_atomically(root / "go" / "x", stop_at=root)
    assert sorted(p.name for p in root.iterdir()) == ["go"]
    assert sorted(p.name for p in (root / "go").iterdir()) == ["x.rules.yaml"]


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
    assert "copied file logo.png changed: sha256 " + sha256_hex(PNG)[:12] in problem.summary


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
