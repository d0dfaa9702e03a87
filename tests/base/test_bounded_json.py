"""``check_json_depth``: brackets inside strings never count, and shallow text skips the scan."""

from __future__ import annotations

import pytest

from wendy_llm import bounded
from wendy_llm.bounded import MAX_DEPTH, JsonTooDeep, check_json_depth, json_loads


def test_brackets_inside_strings_do_not_nest() -> None:
    # More opening brackets than the limit, all but two inside strings (one
    # behind an escaped quote): the token scan runs, and finds depth 2.
    text = '{"a": "\\"' + "[" * (2 * MAX_DEPTH) + '", "b": ["{{\\\\"]}'
    check_json_depth(text)
    assert json_loads(text)["b"] == ["{{\\"]


def test_the_first_bracket_too_many_is_named_past_string_brackets() -> None:
    text = '["' + "{" * MAX_DEPTH + '", ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "]"
    with pytest.raises(JsonTooDeep) as info:
        check_json_depth(text)
    assert info.value.pos == text.index("[", 3 + MAX_DEPTH) + MAX_DEPTH - 1


def test_shallow_text_is_decided_without_the_token_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every manifest has fewer brackets than the limit: counting them is enough."""

    class NoScan:
        def finditer(self, text: str) -> object:
            raise AssertionError("scanned a document that cannot be too deep")

    monkeypatch.setattr(bounded, "_JSON_TOKENS", NoScan())
    check_json_depth("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    with pytest.raises(AssertionError):
        check_json_depth("[" * (MAX_DEPTH + 1))
