"""JSON Schema violations read in the user's words: JSON names, never Python's.

Issue 11 item 11: ``null`` as template.json said "None is not of type
'object'". Every message a manifest, wendy.json or rules file schema
produces goes through one translator; this table runs it against the
package's real schemas.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from wendy_llm.cli import main
from wendy_llm.errors import ManifestError, RulesError
from wendy_llm.render.manifest import load_manifest, load_picker
from wendy_llm.validate.documents import parse_json
from wendy_llm.validate.rules import parse_rules
from wendy_llm.validate.wendy_json import schema_findings

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
        (None, "template.json: expected an object, got null"),
        ([], "template.json: expected an object, got an array"),
        ("x", 'template.json: expected an object, got the string "x"'),
        ({"variables": {}}, "template.json: variables: expected an array, got an object"),
        ({"variables": [1]}, "template.json: variables[0]: expected an object, got 1"),
        ({"variables": [True]}, "template.json: variables[0]: expected an object, got true"),
        ({"variables": [{}]}, 'template.json: variables[0]: missing the required property "name"'),
        ({"variables": [{"name": ""}]}, "template.json: variables[0].name: must not be empty"),
        (
            {"variables": [{"name": "a", "default": [1]}]},
            "template.json: variables[0].default: expected a string, a number, a boolean or "
            "null, got an array",
        ),
        (
            {"variables": [{"name": "a", "validate": {"min": 1.5}}]},
            "template.json: variables[0].validate.min: expected an integer, got 1.5",
        ),
        (
            {"variables": [{"name": "a", "validate": {"pattern": None}}]},
            "template.json: variables[0].validate.pattern: expected a string, got null",
        ),
    ],
)
def test_manifest_shape_messages(document: object, message: str) -> None:
    text = manifest_message(document)
    assert text == message
    assert not PYTHON_WORDS.search(text.replace('"', "")), text


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (
            question(type="select"),
            'phases[0].questions[0].type: expected one of "radio", "checkbox", "input", '
            'got the string "select"',
        ),
        (
            question(when={"questionId": "X"}),
            "phases[0].questions[0].when: needs exactly one of equals, in and contains",
        ),
        (question(options=[{"label": "x"}]), 'phases[0].questions[0].options[0]: missing the '
         'required property "value"'),
        (question(default=None), "phases[0].questions[0].default: expected a string, got null"),
    ],
)  # fmt: skip
def test_picker_shape_messages(document: object, message: str) -> None:
    assert picker_message(document) == f"template.schema.json: {message}"


WENDY = {"appId": "a", "version": "1.0.0", "services": {}}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"readiness": {"tcpSocket": {"port": "80"}}},
         'schema: readiness.tcpSocket.port: expected an integer, got the string "80"'),
        ({"readiness": {"tcpSocket": {"port": 0}}},
         "schema: readiness.tcpSocket.port: must be at least 1, got 0"),
        ({"readiness": {"tcpSocket": {"port": 80}, "timeoutSecs": 1}},
         'schema: readiness: unknown property "timeoutSecs"'),
        ({"extra": 1, "more": 2}, 'schema: (top level): unknown properties "extra", "more"'),
        ({"services": {"-bad": {}}},
         'schema: services: the key "-bad" does not match the pattern '
         '"^[a-zA-Z0-9][a-zA-Z0-9_.-]*$"'),
        ({"version": "one"},
         'schema: version: the string "one" does not match the pattern '
         '"^[0-9]+\\\\.[0-9]+\\\\.[0-9]+(?:[-+][0-9A-Za-z.+-]+)?$"'),
    ],
)  # fmt: skip
def test_wendy_json_schema_messages(change: dict[str, object], message: str) -> None:
    text = json.dumps({**WENDY, **change}, indent=2).encode()
    messages = [f.message for f in schema_findings(parse_json("wendy.json", text))]
    assert message in messages, messages


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
    """The issue's example, end to end."""
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "template.json").write_text("null\n")
    assert main(["picks", str(tmp_path / "t")]) == 2
    assert (
        capsys.readouterr().err == "wendy-llm: error: template.json: expected an object, got null\n"
    )
