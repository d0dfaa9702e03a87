"""Where things are (``wendy_llm.repo.layout``): the root, the templates, the golden dir.

Each rule of the module docstring, on small trees in temporary directories
(outside any git work tree, so a ``.git`` is only where a test puts one).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _golden_helpers import init_repo, write_files

from wendy_llm.errors import CheckSelectionError, LayoutError, SettingsError
from wendy_llm.repo.layout import (
    discover_templates,
    find_layout,
    find_root,
    iter_template_dirs,
    template_ids_in,
)

REPO = Path(__file__).resolve().parents[2]
MANIFEST = '{"name": "t", "variables": [{"name": "APP_ID", "type": "string"}]}\n'


def templates(root: Path, *ids: str) -> Path:
    """``<id>/template.json`` under ``root`` for each id."""
    return write_files(root, {f"{i}/template.json": MANIFEST for i in ids})


def test_this_project_keeps_its_templates_and_golden_dirs() -> None:
    layout = find_layout(start=REPO / "wendy_llm" / "render")
    assert layout.root == REPO
    assert layout.templates_root == REPO / "templates"
    assert layout.golden_dir == REPO / "golden"
    assert [t.id for t in layout.find_templates()] == ["python/llm"]


def test_the_root_is_the_git_work_tree_found_from_a_subdirectory(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    templates(repo, "python/api", "cpp/cam")
    layout = find_layout(start=repo / "python" / "api")
    assert (layout.root, layout.templates_root, layout.golden_dir) == (repo, repo, repo / "golden")
    assert [t.id for t in layout.find_templates()] == ["cpp/cam", "python/api"]


def test_a_settings_file_marks_the_root_even_inside_a_git_work_tree(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "mono")
    sub = templates(repo / "apps", "node/web")
    (sub / "wendy-llm.toml").write_text("", encoding="utf-8")
    layout = find_layout(start=sub / "node")
    assert (layout.root, layout.templates_root) == (sub, sub)
    assert layout.golden_dir == sub / "golden"
    assert find_root(repo / "elsewhere") == repo


def test_without_a_marker_the_root_is_where_the_run_starts(tmp_path: Path) -> None:
    templates(tmp_path / "plain", "python/api")
    assert find_root(tmp_path / "plain") is None
    layout = find_layout(start=tmp_path / "plain")
    assert (layout.root, layout.templates_root) == (tmp_path / "plain", tmp_path / "plain")
    # A TEMPLATES_DIR named templates stands for its parent; any other for itself.
    named = templates(tmp_path / "x" / "templates", "python/api")
    assert find_layout(named).golden_dir == tmp_path / "x" / "golden"
    other = templates(tmp_path / "y" / "tpl", "python/api")
    assert find_layout(other).golden_dir == other / "golden"


def test_templates_root_is_templates_only_when_it_holds_templates(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    templates(repo, "python/api")
    (repo / "templates" / "docs").mkdir(parents=True)  # a folder named templates, no template
    assert find_layout(start=repo).templates_root == repo
    templates(repo / "templates", "swift/app")
    assert find_layout(start=repo).templates_root == repo / "templates"
    # A given TEMPLATES_DIR wins; the golden dir stays at the root.
    layout = find_layout(repo, start=tmp_path)
    assert (layout.templates_root, layout.golden_dir) == (repo, repo / "golden")


def test_discovery_skips_what_is_not_a_template(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    templates(
        repo,
        "python/api",
        "common/web",
        "docs/example",
        "golden/baseline",
        "node_modules/pkg",
        ".github/x",
        "python/.hidden",
        "fixtures/python",
        "swift/old",
    )
    write_files(repo, {"python/notes/readme.md": "not a template", "meta.json": "{}"})
    (repo / "wendy-llm.toml").write_text(
        'golden-dir = "fixtures"\nignore = ["swift/*"]\n', encoding="utf-8"
    )
    layout = find_layout(start=repo)
    assert [t.id for t in layout.find_templates()] == ["python/api"]
    # A listing at a git revision is judged by the same rule.
    listing = [f"{p.relative_to(repo).as_posix()}" for p in sorted(repo.rglob("template.json"))]
    assert layout.template_ids_in(listing) == ["python/api"]
    assert template_ids_in([*listing, "rust/cli/template.json"]) == [
        "fixtures/python",
        "python/api",
        "rust/cli",
        "swift/old",
    ]


def test_a_golden_dir_outside_the_repository_is_refused(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    templates(repo, "python/api")
    with pytest.raises(LayoutError) as info:
        find_layout(repo, tmp_path / "golden")
    assert str(info.value) == (
        f"the golden directory {tmp_path / 'golden'} is outside the repository {repo}: "
        "fixtures, rules files and baselines live inside the repository they guard; give "
        "a --golden-dir inside it"
    )
    (repo / "escape").symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(LayoutError, match="outside the repository"):
        find_layout(repo, repo / "escape" / "golden")  # symlinks resolved
    (repo / "wendy-llm.toml").write_text('\n\ngolden-dir = "../golden"\n', encoding="utf-8")
    with pytest.raises(SettingsError) as settings_error:
        find_layout(start=repo)
    assert str(settings_error.value).startswith(
        f'{repo / "wendy-llm.toml"}:3: golden-dir: "../golden" is outside the repository'
    )


def test_configured_places(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    templates(repo / "src", "python/api")
    (repo / "wendy-llm.toml").write_text(
        'templates-dir = "src"\ngolden-dir = "ci/golden"\n'
        '[rules-files]\n"python/api" = "ci/api.rules.yaml"\n',
        encoding="utf-8",
    )
    layout = find_layout(start=repo)
    assert (layout.templates_root, layout.golden_dir) == (repo / "src", repo / "ci" / "golden")
    assert layout.rules_path("python/api") == repo / "ci" / "api.rules.yaml"
    assert layout.rules_path("python/other") == repo / "ci" / "golden" / "python/other.rules.yaml"
    assert layout.baseline_dir("python/api") == repo / "ci" / "golden" / "baseline" / "python/api"
    (repo / "wendy-llm.toml").write_text('templates-dir = "nope"\n', encoding="utf-8")
    with pytest.raises(SettingsError, match=r"wendy-llm.toml:1: templates-dir: .*not a directory"):
        find_layout(start=repo)


def test_selection_by_id_or_name_and_its_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = init_repo(tmp_path / "repo")
    templates(repo, "python/api", "swift/api", "rust/cli")
    layout = find_layout(start=repo)
    assert [t.id for t in layout.select(["cli"])] == ["rust/cli"]
    assert [t.id for t in layout.select(["api"])] == ["python/api", "swift/api"]
    monkeypatch.chdir(repo)
    with pytest.raises(CheckSelectionError) as info:
        layout.select(["python/nope"])
    assert str(info.value) == (
        'no template "python/nope" under . (templates: python/api, rust/cli, swift/api)'
    )
    empty = init_repo(tmp_path / "empty")
    with pytest.raises(CheckSelectionError, match=r"no templates under .*<language>/<name>/"):
        find_layout(start=empty).select()


def test_discover_templates_loads_what_discovery_finds(tmp_path: Path) -> None:
    templates(tmp_path, "python/api", "common/web")
    assert [t.id for t in discover_templates(tmp_path)] == ["python/api"]
    assert [t.id for t in iter_template_dirs(tmp_path)] == ["python/api"]


def test_meta_json_is_found_beside_the_languages_or_at_the_root(tmp_path: Path) -> None:
    root_layout = templates(init_repo(tmp_path / "repo"), "python/api")
    write_files(root_layout, {"meta.json": "{}"})
    assert find_layout(start=root_layout).meta_json() == root_layout / "meta.json"
    project = init_repo(tmp_path / "project")
    templates(project / "templates", "python/api")
    assert find_layout(start=project).meta_json() is None
    write_files(project, {"meta.json": "{}"})
    assert find_layout(start=project).meta_json() == project / "meta.json"
    write_files(project / "templates", {"meta.json": "{}"})  # beside the languages wins
    assert find_layout(start=project).meta_json() == project / "templates" / "meta.json"
    # A directory that is neither is not looked at.
    other = templates(tmp_path / "other" / "elsewhere", "python/api")
    write_files(tmp_path / "other", {"meta.json": "{}"})
    assert find_layout(other).meta_json() is None
