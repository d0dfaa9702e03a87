"""Selecting findings by code (``wendy_llm.repo.rule_selection``) and ``[findings]`` of
wendy-llm.toml: ruff's rules (the most specific selector wins, ignore at a tie),
per-template and per-file ignores, and a mistake named at its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from wendy_llm.errors import SettingsError
from wendy_llm.repo.config import parse_settings
from wendy_llm.repo.rule_selection import (
    RuleSelection,
    SelectorError,
    parse_selector,
    parse_selectors,
)


def selection(select: str = "", ignore: str = "") -> RuleSelection:
    return RuleSelection(parse_selectors([select]), parse_selectors([ignore]))


def test_a_selector_is_a_code_a_prefix_a_check_id_or_all() -> None:
    assert parse_selector("dev006").codes == {"DEV006"}
    assert {"DEV001", "DEV037"} <= parse_selector("DEV").codes
    assert parse_selector("DF01").codes == {f"DF01{n}" for n in range(10)}
    assert parse_selector("wendy-json").codes == parse_selector("WJS").codes
    assert parse_selector("ALL").specificity == 0
    with pytest.raises(
        SelectorError, match=r"'XYZ' is no code, prefix or check id \(prefixes: RND"
    ):
        parse_selector("XYZ")
    with pytest.raises(SelectorError, match="check ids: render, compose, wendy-json"):
        parse_selector("wendyjson")


def test_the_most_specific_selector_wins_and_ignore_wins_a_tie() -> None:
    assert not selection().ignores("DEV006", "t/x", "compose.yaml")  # default: everything
    assert selection(ignore="DEV").ignores("DEV006", "t/x", None)
    assert not selection(ignore="DEV").ignores("CMP001", "t/x", None)
    assert not selection(select="DEV006", ignore="DEV").ignores("DEV006", "t/x", None)
    assert selection(select="DEV", ignore="DEV006").ignores("DEV006", "t/x", None)
    assert selection(select="DEV", ignore="device").ignores("DEV001", "t/x", None)  # a tie
    assert selection(select="CMP").ignores("DEV001", "t/x", None)  # not selected
    assert not selection(select="ALL", ignore="CMP").ignores("DEV001", "t/x", None)


def test_per_template_and_per_file_ignores_hold_whatever_select_says(tmp_path: Path) -> None:
    text = """\
[findings]
select = ["DEV006", "DF020"]
[findings.per-template-ignores]
"python/legacy-*" = ["DEV"]
[findings.per-file-ignores]
"**/Dockerfile" = ["DF020"]
"""
    chosen = parse_settings(text, path=tmp_path / "wendy-llm.toml", shown="w.toml").findings
    assert chosen.ignores("DEV006", "python/legacy-chat", "compose.yaml")
    assert not chosen.ignores("DEV006", "python/chat", "compose.yaml")
    assert chosen.ignores("DF020", "python/chat", "vllm/Dockerfile")
    assert not chosen.ignores("DF020", "python/chat", "Containerfile")
    assert chosen.ignores("DEV001", "python/chat", "compose.yaml")  # not selected


def test_the_command_line_replaces_select_and_adds_to_ignore() -> None:
    base = selection(select="CMP", ignore="CMP001")
    both = base.with_command_line(parse_selectors(["DEV"]), parse_selectors(["DEV006"]))
    assert [s.text for s in both.select] == ["DEV"]
    assert [s.text for s in both.ignore] == ["CMP001", "DEV006"]
    assert both.ignores("DEV006", "t/x", None) and not both.ignores("DEV001", "t/x", None)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param(
            '[findings]\nignore = ["DEV006", "NOPE"]\n',
            "w.toml:2: findings.ignore: 'NOPE' is no code, prefix or check id",
            id="code",
        ),
        pytest.param(
            '[findings]\nselect = ["ALL"]\n[findings.per-file-ignores]\n"a**" = ["DEV"]\n',
            'w.toml:4: findings.per-file-ignores."a**": ',
            id="glob",
        ),
        pytest.param(
            '[findings.per-template-ignores]\n"python/x" = ["wendyjson"]\n',
            "w.toml:2: findings.per-template-ignores.\"python/x\": 'wendyjson' is no code",
            id="check-id",
        ),
        pytest.param('[findings]\nselekt = ["DEV"]\n', "w.toml:2: ", id="key"),
    ],
)
def test_a_mistake_is_named_at_its_file_and_line(text: str, says: str, tmp_path: Path) -> None:
    with pytest.raises(SettingsError) as caught:
        parse_settings(text, path=tmp_path / "wendy-llm.toml", shown="w.toml")
    assert str(caught.value).startswith(says), str(caught.value)
