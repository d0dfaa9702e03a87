"""Lean fixtures (issue 21, item 4): a rendered file that is its template file is
recorded in ``golden.json`` by path, hash and mode, not copied; ``wendy-llm.toml``
asks for full copies; ``golden --update`` converts either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _golden_helpers import run_cli, template_files, write_files

from wendy_llm.errors import GoldenManifestError
from wendy_llm.golden.manifest import GoldenManifest

FIXTURES = Path("golden/py/mini")
LOCK = '{"lockfileVersion": 3, "packages": {"": {"version": "1.0.0"}}}\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    extra = {"package-lock.json": LOCK}
    write_files(tmp_path / "templates/py/mini", template_files(["a:1", "b:2"], extra=extra))
    return tmp_path


def stored(project: Path) -> set[str]:
    directory = project / FIXTURES
    return {p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file()}


def test_a_file_without_an_action_is_recorded_by_hash_not_copied(project: Path) -> None:
    assert run_cli("golden", "--update")[0] == 0
    assert stored(project) == {"golden.json", "_shared/README.md", "a-1/docker-compose.yml",
                               "b-2/docker-compose.yml"}  # fmt: skip
    files = json.loads((project / FIXTURES / "golden.json").read_text())["files"]
    lock = files["package-lock.json"]
    assert lock["kind"] == "rendered" and "stored" not in lock
    assert (lock["source"], lock["mode"]) == ("package-lock.json", "0644")
    assert files["backend/Dockerfile"]["source"] == "backend/Dockerfile"
    assert run_cli("golden", "--check")[0] == 0
    code, out, _ = run_cli("check", "--quiet")
    assert code == 0, out


def test_a_byte_change_fails_naming_the_template_file_and_the_refresh(project: Path) -> None:
    run_cli("golden", "--update")
    (project / "templates/py/mini/package-lock.json").write_text(LOCK.replace("1.0.0", "1.0.1"))
    code, out, _ = run_cli("golden", "--check")
    assert code == 1
    assert (
        "rendered file package-lock.json changed (template file "
        "templates/py/mini/package-lock.json): sha256 "
    ) in out
    assert "Run: wendy-llm golden --update --template py/mini" in out


def test_update_converts_full_to_lean_and_back(project: Path) -> None:
    settings = project / "wendy-llm.toml"
    settings.write_text('golden-fixtures = "full"\n')
    run_cli("golden", "--update")
    full = stored(project)
    assert {"_shared/package-lock.json", "_shared/backend/Dockerfile"} <= full
    assert run_cli("golden", "--check")[0] == 0
    settings.write_text("")  # lean, the default
    code, out, _ = run_cli("golden", "--check")
    assert code == 1
    assert "_shared/package-lock.json is a copy of a file that is its template file" in out
    code, out, _ = run_cli("golden", "--update")
    assert code == 0 and "removed  _shared/package-lock.json" in out
    assert stored(project) == full - {"_shared/package-lock.json", "_shared/backend/Dockerfile"}
    assert run_cli("golden", "--check")[0] == 0
    settings.write_text('golden-fixtures = "full"\n')
    code, out, _ = run_cli("golden", "--check")
    assert code == 1 and "_shared/package-lock.json does not exist (the fixtures record" in out
    run_cli("golden", "--update")
    assert stored(project) == full
    assert (project / FIXTURES / "_shared/package-lock.json").read_text() == LOCK


def test_a_wrong_setting_is_located(project: Path) -> None:
    (project / "wendy-llm.toml").write_text('golden-fixtures = "some"\n')
    code, _, err = run_cli("golden", "--check")
    assert code == 2 and "wendy-llm.toml:1: golden-fixtures:" in err


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"sha256": "0" * 64, "source": "x"}, "must be a string"),  # no mode
        ({"sha256": "0" * 64, "source": "x", "mode": "rw"}, "a template path and an octal mode"),
        ({"sha256": "0" * 64, "stored": "_shared/x", "mode": "0644"}, "lean records only"),
    ],
)
def test_a_lean_record_is_validated(record: dict[str, str], message: str) -> None:
    manifest = {
        "canonical_inputs": {"app_id": "llm-app", "other_variables": "default"},
        "files": {"x": {"kind": "rendered", **record}},
        "format": 1,
        "picks": [{"answers": {}, "slug": "default"}],
        "template": "py/mini",
    }
    with pytest.raises(GoldenManifestError, match=message):
        GoldenManifest.from_json(json.dumps(manifest).encode(), source="golden.json")
