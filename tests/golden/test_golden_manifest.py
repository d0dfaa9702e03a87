"""Golden fixtures: their layout (shared files once, copied files only
hashed, slugs as directories, which directories are fixtures) and the
manifest (stable, round-tripping, invalid ones named).

These drive the pure parts with hand-made pick renders; the end-to-end
tests (real loader, real engine, the CLI) are in test_golden_cli.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _golden_fixture_helpers import PNG, renders
from _golden_helpers import write_files

from wendy_llm.compare.textdiff import sha256_hex
from wendy_llm.errors import GoldenError, GoldenManifestError
from wendy_llm.golden.layout import find_fixture_dirs, fixture_dir
from wendy_llm.golden.manifest import GoldenManifest, build_fixture
from wendy_llm.render.canonical import check_slug
from wendy_llm.render.picks import CANONICAL_APP_ID

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
