"""``wendy_llm.load_template(path).id`` (issue 31): the repository's
``<language>/<name>`` id inside a templates layout, the directory's name
elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _template_helpers import write_files

import wendy_llm
from wendy_llm.errors import TemplateLoadError
from wendy_llm.repo.loading import load_template, template_id_of

REPO = Path(__file__).resolve().parents[2]
MANIFEST = {"template.json": '{"variables": []}'}


def test_the_bundled_template_is_python_llm_however_it_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert wendy_llm.load_template.__wrapped__ is load_template  # type: ignore[attr-defined]
    monkeypatch.chdir(REPO)
    assert load_template("templates/python/llm").id == "python/llm"
    assert load_template(REPO / "templates" / "python" / "llm").id == "python/llm"
    monkeypatch.chdir(REPO / "templates" / "python" / "llm")
    assert load_template(".").id == "python/llm"


def test_a_repository_without_a_templates_folder_has_ids_below_its_root(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write_files(tmp_path / "go" / "api", MANIFEST)
    assert load_template(tmp_path / "go" / "api").id == "go/api"


def test_outside_a_layout_the_id_is_the_directory_name(tmp_path: Path) -> None:
    root = write_files(tmp_path / "lonely", MANIFEST)  # no repository above tmp_path
    assert (template_id_of(root), load_template(root).id) == (None, "lonely")
    nested = write_files(tmp_path / "repo" / "templates" / "py" / "deep" / "x", MANIFEST)
    (tmp_path / "repo" / ".git").mkdir()
    assert load_template(nested).id == "x"  # three levels down: not <language>/<name>
    assert load_template(nested, id="mine").id == "mine"


@pytest.mark.parametrize("path", [None, 5, ["templates/python/llm"]])
def test_a_path_of_the_wrong_type_is_a_load_error(path: object) -> None:
    with pytest.raises(TemplateLoadError, match=type(path).__name__):
        load_template(path)  # type: ignore[arg-type]
    with pytest.raises(TemplateLoadError, match="int"):
        load_template(os.fspath(REPO / "templates" / "python" / "llm"), id=5)  # type: ignore[arg-type]
