"""A declared sentinel is never what ``wendy init`` picks for an unanswered question:
not its default, nor (a radio without one) its first option. The finding names the
question, the option and the rules file line that declares the sentinel."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from _check_helpers import PICKER

from wendy_llm.validate.checks.picker import lint_picker, unanswered_values
from wendy_llm.validate.rules.file import parse_rules

RULES = parse_rules(
    "# a comment line, so the declaration is not on line 1\n"
    "sentinels:\n  OLLAMA_MODEL:\n    values:\n      - other-dflash\n      - big-dflash\n",
    "mini.rules.yaml",
)
DECLARED = "mini.rules.yaml:6"  # the line of "- big-dflash"


def question(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(PICKER)
    q = doc["phases"][0]["questions"][0]
    q["options"].append({**q["options"][2], "value": "other-dflash"})
    for key, value in changes.items():
        if value is None:
            q.pop(key, None)
        else:
            q[key] = value
    return doc


def lint(doc: dict[str, Any]) -> list[tuple[str, int | None]]:
    text = json.dumps(doc, indent=2)
    return [
        (f.message, f.line)
        for f in lint_picker(text, RULES)
        if "sentinel" in f.message and "colon" not in f.message
    ]


def line_of(doc: dict[str, Any], needle: str) -> int:
    lines = json.dumps(doc, indent=2).splitlines()
    return next(n for n, line in enumerate(lines, start=1) if needle in line)


def test_an_ordinary_default_passes() -> None:
    assert lint(question()) == []


def test_the_sentinel_as_the_default_fails_naming_question_option_and_declaration() -> None:
    doc = question(default="big-dflash")
    assert lint(doc) == [
        (
            f'OLLAMA_MODEL: its default "big-dflash" is the sentinel (declared at {DECLARED}), '
            "so `wendy init` without an answer picks it; the default must be an ordinary option",
            line_of(doc, '"default"'),
        )
    ]


def test_a_radio_without_default_falls_back_to_its_first_option() -> None:
    doc = question(default=None)
    opts = doc["phases"][0]["questions"][0]["options"]
    opts.insert(0, opts.pop(2))  # big-dflash first
    [(message, line)] = lint(doc)
    assert message.startswith(
        'OLLAMA_MODEL: with no default it falls back to its first option "big-dflash", '
        f"the sentinel (declared at {DECLARED})"
    )
    assert line == line_of(doc, '"value": "big-dflash"')
    # An empty default is no default either (the CLI tests for a non-empty one).
    assert [m for m, _ in lint(question(default="", options=opts))] == [message]


def test_a_checkbox_default_holding_a_sentinel_fails() -> None:
    doc = question(type="checkbox", default="gemma4:e2b, other-dflash")
    [(message, _)] = lint(doc)
    assert message.startswith(
        'OLLAMA_MODEL: its default "other-dflash" is the sentinel (declared at mini.rules.yaml:5)'
    )


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, (["gemma4:e2b"], "default")),
        ({"default": ""}, (["gemma4:e2b"], "first option")),
        ({"type": "checkbox", "default": "a, b,"}, (["a", "b"], "default")),
        ({"type": "input", "default": ""}, ([], "default")),
    ],
)
def test_unanswered_values_follow_wendy_init(
    changes: dict[str, Any], expected: tuple[list[str], str]
) -> None:
    q = {**PICKER["phases"][0]["questions"][0], **changes}
    assert unanswered_values(q) == expected
