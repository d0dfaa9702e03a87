"""File scopes for baseline comparisons (wendy_llm.compare.scope)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wendy_llm.compare.scope import FileScope, scope_from_args
from wendy_llm.errors import DiffError, RulesError
from wendy_llm.repo.layout import rules_path
from wendy_llm.validate.stored.baseline import gate_of, rules_of


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
    rules.write_text("version: 1\ngate:\n  files: [docker-compose.yml, wendy.json]\n")
    model = rules_of(rules)
    scope = gate_of(model)
    assert model is not None and scope is model.gate
    assert scope.globs == ("docker-compose.yml", "wendy.json")
    assert scope.describe() == f"docker-compose.yml, wendy.json (from {rules})"


@pytest.mark.parametrize("text", [None, "", "version: 1\n"])
def test_no_gate_files_means_every_file(tmp_path: Path, text: str | None) -> None:
    rules = tmp_path / "t.rules.yaml"
    if text is not None:
        rules.write_text(text)
    assert gate_of(rules_of(rules)).everything


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a\n", ":1: (top level): expected an object, got an array"),
        ("gate: [a]\n", ":1: gate: expected an object"),
        ("gate: {files: a.yml}\n", ":1: gate: files: expected an array"),
        ("gate: {files: [1]}\n", ":1: gate: files[0]: expected a string"),
        ("gate: {files: ['a**']}\n", ":1: gate: files[0]: in the pattern 'a**', ** must be"),
        ("gate: {files: [a\n", ":2: YAML: "),
    ],
)
def test_bad_gate_sections_are_named(tmp_path: Path, text: str, message: str) -> None:
    rules = tmp_path / "t.rules.yaml"
    rules.write_text(text)
    with pytest.raises(RulesError) as info:
        rules_of(rules)
    assert str(info.value).startswith(str(rules) + message), str(info.value)


def test_command_line_globs_win_over_the_rules_file() -> None:
    gate = FileScope(("wendy.json",), "t.rules.yaml")
    assert scope_from_args(["README.md"], gate) == FileScope(("README.md",), "--files")
    assert scope_from_args(None, gate) is gate
    with pytest.raises(DiffError, match=r"^--files: in the pattern 'x\*\*', \*\* must be"):
        scope_from_args(["x**"], gate)
