"""Error messages quote values one way (``"x"``) and never show Python's words.

Issue 11 item 11, beyond its examples: every error path the CLI can reach
words values as the user typed them: no ``repr()`` quotes, no ``None``, no
Python exception texts (``[Errno 21] ...: 'path'``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _cli_helpers import copy_llm_project

from wendy_llm.cli import main
from wendy_llm.compare.scope import scope_from_rules
from wendy_llm.errors import DiffError, GoldenManifestError, RulesError, WendyLlmError
from wendy_llm.golden.layout import fixture_dir
from wendy_llm.golden.manifest import GoldenManifest
from wendy_llm.validate.rules import load_rules

PYTHON_WORDS = re.compile(r"\bNone\b|\[Errno \d+\]|'[^' ]*'|codec can't")


def plain(text: str) -> str:
    assert not PYTHON_WORDS.search(text), text
    return text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "{p}/templates", "--template", "nope"], 'no template "nope" under '),
        (["diff", "--base", "no-such-rev", "--template", "python/llm"],
         'unknown revision "no-such-rev" in '),
        (["diff", "--base=-x", "--template", "python/llm"], "\"-x\" is not a revision"),
        (["render", "{p}/templates/python/llm", "--app-id", "a", "--out", "{p}/o", "--pick", "no"],
         'template llm has no pick "no"; its picks: '),
    ],
)  # fmt: skip
def test_cli_errors_quote_values_plainly(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    project = copy_llm_project(tmp_path / "p")
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)  # a git work tree for diff
    assert main([arg.format(p=project) for arg in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"wendy-llm: error: {message}"), err
    plain(err)


def test_a_golden_manifest_without_a_format_says_null() -> None:
    with pytest.raises(GoldenManifestError) as info:
        GoldenManifest.from_json(b'{"picks": []}', source="golden.json")
    assert str(info.value) == (
        'golden.json: not a valid golden manifest: "format" is null; this wendy-llm reads format 1'
    )


def test_unreadable_rules_files_say_why_in_words(tmp_path: Path) -> None:
    (tmp_path / "dir.rules.yaml").mkdir()
    with pytest.raises(RulesError) as rules:
        load_rules(tmp_path / "dir.rules.yaml", display="dir.rules.yaml")
    assert plain(str(rules.value)) == "dir.rules.yaml: cannot read the rules file: Is a directory"
    (tmp_path / "bad.rules.yaml").write_bytes(b"gate: \xff\n")
    with pytest.raises(RulesError) as rules:
        load_rules(tmp_path / "bad.rules.yaml", display="bad.rules.yaml")
    assert plain(str(rules.value)) == "bad.rules.yaml: not valid UTF-8 (byte 6)"
    with pytest.raises(DiffError) as diff:
        scope_from_rules(tmp_path / "bad.rules.yaml")
    assert plain(str(diff.value)).endswith("cannot read the rules file: not UTF-8 (byte 6)")
    (tmp_path / "syntax.rules.yaml").write_text("gate: [\n")
    with pytest.raises(DiffError) as diff:
        scope_from_rules(tmp_path / "syntax.rules.yaml")
    assert str(diff.value).startswith(f"{tmp_path / 'syntax.rules.yaml'}:2: cannot read the ")


def test_an_odd_template_id_is_quoted() -> None:
    with pytest.raises(WendyLlmError) as info:
        fixture_dir(Path("golden"), "a/../b")
    assert str(info.value) == 'template id "a/../b" cannot name a fixture directory'
