"""File scopes for baseline comparisons (wendy_llm.compare.scope)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wendy_llm.compare.scope import FileScope, scope_from_args, scope_from_rules
from wendy_llm.errors import DiffError
from wendy_llm.repo.layout import rules_path


def test_globs_match_whole_paths_with_path_aware_stars() -> None:
    scope = FileScope(("docker-compose.yml", "vllm/*", "**/Dockerfile", "docs/**"))
    assert "docker-compose.yml" in scope
    assert "sub/docker-compose.yml" not in scope
    assert "vllm/entrypoint.sh" in scope
    assert "vllm/a/b.sh" not in scope
    assert "Dockerfile" in scope
    assert "ollama/Dockerfile" in scope
    assert "a/b/Dockerfile" in scope
    assert "docs/x/y.md" in scope
    assert "wendy.json" not in scope


def test_question_mark_and_literal_dots() -> None:
    scope = FileScope(("a?.json",))
    assert "ab.json" in scope
    assert "a/.json" not in scope
    assert "abxjson" not in scope


def test_empty_scope_is_everything() -> None:
    scope = FileScope()
    assert scope.everything
    assert "any/path" in scope
    assert scope.describe() == "all files"


def test_gate_files_come_from_the_rules_file(tmp_path: Path) -> None:
    rules = rules_path(tmp_path, "python/llm")
    assert rules == tmp_path / "python" / "llm.rules.yaml"
    rules.parent.mkdir()
    rules.write_text("topology: {}\ngate:\n  files: [docker-compose.yml, wendy.json]\n")
    scope = scope_from_rules(rules)
    assert scope.globs == ("docker-compose.yml", "wendy.json")
    assert scope.describe() == f"docker-compose.yml, wendy.json (from {rules})"


@pytest.mark.parametrize("text", [None, "", "topology: {}\n", "gate: {}\n", "gate:\n  other: 1\n"])
def test_no_gate_files_means_every_file(tmp_path: Path, text: str | None) -> None:
    rules = tmp_path / "t.rules.yaml"
    if text is not None:
        rules.write_text(text)
    assert scope_from_rules(rules).everything


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a\n", "mapping at the top level"),
        ("gate: [a]\n", "gate must be a mapping"),
        ("gate: {files: a.yml}\n", "gate.files must be a list"),
        ("gate: {files: [1]}\n", "gate.files must be a list"),
        ("gate: {files: [a\n", "cannot read the rules file"),
    ],
)
def test_bad_gate_sections_are_named(tmp_path: Path, text: str, message: str) -> None:
    rules = tmp_path / "t.rules.yaml"
    rules.write_text(text)
    with pytest.raises(DiffError, match=message) as info:
        scope_from_rules(rules)
    assert str(rules) in str(info.value)


def test_command_line_globs_win_over_the_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "t.rules.yaml"
    rules.write_text("gate: {files: [wendy.json]}\n")
    assert scope_from_args(["README.md"], rules) == FileScope(("README.md",), "--files")
    assert scope_from_args(None, rules).globs == ("wendy.json",)
