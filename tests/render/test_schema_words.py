"""JSON Schema violations read in the user's words: JSON names, never Python's.

Issue 11 item 11: ``null`` as template.json said "None is not of type
'object'". Manifests and wendy.json are now decoded as Go decodes them
(errors in Go's words); the rules file's schema violations go through one
translator.  These tables check that no Python spelling reaches a user.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from wendy_llm.cli import main
from wendy_llm.errors import ManifestError, RulesError
from wendy_llm.render.manifest.load import load_manifest, load_picker
from wendy_llm.validate.checks.wendy_json import validate_wendy_json
from wendy_llm.validate.rules.file import parse_rules

# Python's spellings that must never reach a user.
PYTHON_WORDS = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|'[^']*'|\bis not of type\b|\bdict\b")


def manifest_message(document: object) -> str:
    with pytest.raises(ManifestError) as info:
        load_manifest(json.dumps(document).encode())
    return str(info.value)


def picker_message(document: object) -> str:
    with pytest.raises(ManifestError) as info:
        load_picker(json.dumps(document).encode())
    return str(info.value)


def question(**fields: object) -> dict[str, object]:
    return {"phases": [{"questions": [{"id": "M", "type": "radio", **fields}]}]}


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "template.json: json: cannot unmarshal array into Go value of type Manifest"),
        ("x", "template.json: json: cannot unmarshal string into Go value of type Manifest"),
        (
            {"variables": {}},
            "template.json: variables: json: cannot unmarshal object into Go value of type "
            "[]Variable",
        ),
        (
            {"variables": [True]},
            "template.json: variables[0]: json: cannot unmarshal bool into Go value of type "
            "Variable",
        ),
        (
            {"variables": [{"name": "a", "validate": {"min": 1.5}}]},
            "template.json: variables[0].validate.min: 1.5 is not an integer",
        ),
    ],
)
def test_manifest_decode_messages(document: object, message: str) -> None:
    text = manifest_message(document)
    assert text == message
    assert not PYTHON_WORDS.search(text.replace('"', "")), text


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (
            question(when={"questionId": "X"}),
            "phases[0].questions[0].when: needs exactly one of equals, in and contains",
        ),
        (
            question(options=[{"value": 4}]),
            "phases[0].questions[0].options[0].value: json: cannot unmarshal number into Go "
            "value of type string",
        ),
    ],
)
def test_picker_decode_messages(document: object, message: str) -> None:
    text = picker_message(document)
    assert text == f"template.schema.json: {message}"
    assert not PYTHON_WORDS.search(text.replace('"', "")), text


WENDY = {"appId": "a", "version": "1.0.0"}


@pytest.mark.parametrize(
    "change",
    [
        {"readiness": {"tcpSocket": {"port": "80"}}},
        {"readiness": {"tcpSocket": {"port": 0}}},
        {"entitlements": [{"type": "lidar"}]},
        {"entitlements": [{"type": "persist", "name": "d", "path": "data"}]},
        {"debug": None, "services": {"a": None}},
    ],
)
def test_wendy_json_messages_use_no_python_words(change: dict[str, object]) -> None:
    text = json.dumps({**WENDY, **change}, indent=2).encode()
    messages = [f.message for f in validate_wendy_json({"wendy.json": text}, "a")]
    assert messages
    for message in messages:
        assert not PYTHON_WORDS.search(message.replace('"', "")), message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("gate: {files: []}\n", "t.yaml:1: gate: files: must not be empty"),
        ("sentinels: {Q: {tag_paths: [x]}}\n",
         't.yaml:1: sentinels: Q: missing the required property "values"'),
        ("rulez: []\n", 't.yaml:1: (top level): unknown property "rulez"'),
        ("version: 2\n", "t.yaml:1: version: expected 1, got 2"),
        ("documents: {1x: a.yml}\n",
         't.yaml:1: documents: the key "1x" does not match the pattern '
         '"^[A-Za-z_][A-Za-z0-9_-]*$"'),
    ],
)  # fmt: skip
def test_rules_file_schema_messages(text: str, message: str) -> None:
    with pytest.raises(RulesError) as info:
        parse_rules(text, "t.yaml")
    assert str(info.value) == message


def test_null_template_json_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's example, end to end: Go decodes ``null`` into a struct as a no-op,
    so the CLI reads an empty manifest, and so do we (no Python words anywhere)."""
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "template.json").write_text("null\n")
    assert main(["picks", str(tmp_path / "t")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("default") and "None" not in out + err
