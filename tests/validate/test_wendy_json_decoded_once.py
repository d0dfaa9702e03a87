"""A render's ``wendy.json`` is decoded and its positions walked once per distinct
text (issue 26: the ``wendy-json`` check, its app-id line and the device view
each read it; most picks render the same one), and what is shared is read-only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _check_helpers import good_tree

from wendy_llm.render.manifest import gojson, jsonpos
from wendy_llm.validate.checks.device import build_view
from wendy_llm.validate.checks.wendy_json import app_id_line, validate_wendy_json
from wendy_llm.wendycli import wendy_json


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    calls = {"decode": 0, "positions": 0}
    real_scanner = jsonpos._Scanner

    def decode(*args: Any) -> Any:
        calls["decode"] += 1
        return gojson.decode(*args)

    class Scanner(real_scanner):  # type: ignore[misc, valid-type]
        def __init__(self, text: str) -> None:
            calls["positions"] += 1
            super().__init__(text)

    monkeypatch.setattr("wendy_llm.wendycli.wendy_json.decode", decode)
    monkeypatch.setattr(jsonpos, "_Scanner", Scanner)
    for cached in (wendy_json.judge, wendy_json._decoded_text, jsonpos.value_positions):
        cached.cache_clear()
    yield calls
    for cached in (wendy_json.judge, wendy_json._decoded_text, jsonpos.value_positions):
        cached.cache_clear()


def test_every_check_of_every_render_shares_one_decode(counted: dict[str, int]) -> None:
    first, second = good_tree(), good_tree()  # two picks, the same wendy.json bytes
    for tree in (first, second):
        findings = validate_wendy_json(tree, "app")
        assert not [f for f in findings if f.severity == "error"]
        assert app_id_line(tree) == ("app", 2)
        assert build_view(tree, "app").deploy == "compose"
    assert counted == {"decode": 1, "positions": 1}
    # Another text is decoded on its own.
    other = dict(first, **{"wendy.json": first["wendy.json"].replace(b'"app"', b'"other"')})
    validate_wendy_json(other, "other")
    assert counted == {"decode": 2, "positions": 2}


def test_what_is_shared_cannot_be_changed(counted: dict[str, int]) -> None:
    positions = jsonpos.value_positions('{"a": 1}')
    with pytest.raises(TypeError):
        positions[("b",)] = (1, 1)  # type: ignore[index]
    assert wendy_json.judge('{"appId": "x"}') is wendy_json.judge('{"appId": "x"}')
