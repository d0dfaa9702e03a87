"""Loading template.json and template.schema.json as the CLI decodes them (Go's encoding/json)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from _template_helpers import write_files

from wendy_llm.errors import ManifestError
from wendy_llm.render.manifest import jsonpos
from wendy_llm.render.manifest.jsonpos import format_json_path, value_positions
from wendy_llm.render.manifest.load import When, load_manifest, load_picker
from wendy_llm.render.template import load_template

REPO = Path(__file__).resolve().parents[2]


def manifest_error(text: str) -> ManifestError:
    with pytest.raises(ManifestError) as info:
        load_manifest(text.encode())
    return info.value


def picker_error(document: object) -> ManifestError:
    text = document if isinstance(document, str) else json.dumps(document, indent=2)
    with pytest.raises(ManifestError) as info:
        load_picker(text.encode())
    return info.value


def test_defaults_are_floats_and_rules_are_ints() -> None:
    m = load_manifest(
        b"""{"name": "x", "extra": {"anything": [1, 2]}, "variables": [
            {"name": "PORT", "type": "integer", "default": 8080,
             "validate": {"min": 1, "max": 65535.0, "enum": [80]}},
            {"name": "ON", "type": "boolean", "default": true},
            {"name": "S", "default": "text", "description": "d", "required": true},
            {"name": "N", "default": null},
            {"name": "HUGE", "default": 12345678901234567890123}
        ]}"""
    )
    port, on, s, n, huge = m.variables
    assert port.default == 8080.0 and isinstance(port.default, float)
    assert (port.validate.min, port.validate.max) == (1, 65535)
    assert isinstance(port.validate.max, int)
    assert port.validate.ignored == ("enum",)
    assert on.default is True
    assert (s.type, s.default, s.description) == ("", "text", "d")
    assert n.default is None
    assert huge.default == 12345678901234567890123.0
    assert [v.index for v in m.variables] == [0, 1, 2, 3, 4]


def test_variables_may_be_absent() -> None:
    assert load_manifest(b"{}").variables == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"variables": [}', "template.json:1:16: invalid JSON: Expecting value"),
        ('{\n  "variables": [\n    {"name": "x",}\n  ]\n}', "template.json:3:18: invalid JSON: "),
        ("", "template.json:1:1: invalid JSON: Expecting value"),
        ('{"variables": []} x', "template.json:1:19: invalid JSON: Extra data"),
        (
            '{"variables": [{"name": "x", "default": NaN}]}',
            "template.json: invalid JSON: invalid character 'N' looking for beginning of value",
        ),
        (
            '{"variables": [{"name": "x", "default": 1e999}]}',
            "template.json: variables[0].default: json: cannot unmarshal number 1e999 into Go "
            "value of type float64",
        ),
        ('{"variables": [{"name": "x", "default": 1' + "0" * 400 + "}]}", "of type float64"),
    ],
)
def test_syntax_errors_name_file_line_and_column(text: str, message: str) -> None:
    assert message in str(manifest_error(text))


def test_syntax_error_fields() -> None:
    error = manifest_error('{\n  "variables": [\n    {"name": "x",}\n  ]\n}')
    assert (error.file, error.line, error.column) == ("template.json", 3, 18)


def test_non_utf8_is_read_as_go_reads_it() -> None:
    # Outside a string it is a syntax error; inside one, Go reads U+FFFD.
    with pytest.raises(ManifestError, match=r"^template\.json:1:2: invalid JSON: "):
        load_manifest(b'{\xff"variables": []}')
    (variable,) = load_manifest(b'{"variables": [{"name": "A", "default": "\xff"}]}').variables
    assert variable.default == "\ufffd"


def _go(path: str, what: str, go_type: str) -> str:
    return f"{path}: json: cannot unmarshal {what} into Go value of type {go_type}"


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "template.json: json: cannot unmarshal array into Go value of type Manifest"),
        ({"variables": {}}, "template.json: " + _go("variables", "object", "[]Variable")),
        ({"variables": [1]}, "template.json: " + _go("variables[0]", "number", "Variable")),
        (
            {"variables": [{"name": "a", "type": 3}]},
            "template.json: " + _go("variables[0].type", "number", "string"),
        ),
        (
            {"variables": [{"name": "a", "validate": {"min": 1.5}}]},
            "template.json: variables[0].validate.min: 1.5 is not an integer",
        ),
        (
            {"variables": [{"name": "a", "validate": {"min": "1"}}]},
            "template.json: " + _go("variables[0].validate.min", "string", "float64"),
        ),
        (
            {"variables": [{"name": "a", "validate": {"pattern": 5}}]},
            "template.json: " + _go("variables[0].validate.pattern", "number", "string"),
        ),
        (
            {"variables": [{"name": "a", "validate": {"max": 2**70}}]},
            "template.json: variables[0].validate.max: 1180591620717411303424 "
            "does not fit a Go int",
        ),
    ],
)
def test_decode_errors_name_the_json_path(document: object, message: str) -> None:
    assert str(manifest_error(json.dumps(document))) == message


def test_the_first_decode_error_is_reported_with_its_location() -> None:
    error = manifest_error('{"variables": [\n  {"name": "a"},\n  {"name": 5, "type": 6}\n]}')
    assert str(error) == "template.json: " + _go("variables[1].name", "number", "string")
    assert (error.json_path, error.line, error.column) == ("variables[1].name", 3, 12)


def test_what_the_cli_does_not_refuse_loads() -> None:
    # A variable without a name (Go's zero value ""), an array default, unknown keys,
    # keys in another case: the CLI decodes them all.
    m = load_manifest(
        json.dumps(
            {
                "variables": [
                    {"type": "string", "default": "x"},
                    {"NAME": "L", "Default": [1, "a"], "validate": {"enum": [1]}},
                ],
                "author": "someone",
            }
        ).encode()
    )
    nameless, listed = m.variables
    assert (nameless.name, nameless.default) == ("", "x")
    assert (listed.name, listed.default, listed.validate.ignored) == ("L", [1.0, "a"], ("enum",))


def _picker(*questions: dict[str, object]) -> dict[str, object]:
    return {"phases": [{"questions": list(questions)}]}


def test_the_spec_example_error_is_exact() -> None:
    options = [{"value": "a"}, {"value": "b"}, {"value": "c"}, {"value": 4, "size": "x"}]
    error = picker_error(_picker({"id": "M", "type": "radio", "options": options}))
    assert str(error) == (
        "template.schema.json: phases[0].questions[0].options[3].value: json: cannot unmarshal "
        "number into Go value of type string"
    )
    assert error.file == "template.schema.json"
    assert error.json_path == "phases[0].questions[0].options[3].value"
    assert error.line is not None


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"phases": {}}, _go("phases", "object", "[]Phase")),
        (
            _picker({"id": "M", "type": "radio", "options": [{"value": 4}]}),
            _go("phases[0].questions[0].options[0].value", "number", "string"),
        ),
        (
            _picker({"id": "M", "type": "radio", "default": 1}),
            _go("phases[0].questions[0].default", "number", "string"),
        ),
        (
            _picker({"id": "M", "type": "radio", "required": "yes"}),
            _go("phases[0].questions[0].required", "string", "bool"),
        ),
        (
            _picker({"id": "M", "type": "radio", "when": {"questionId": "X"}}),
            "phases[0].questions[0].when: needs exactly one of equals, in and contains",
        ),
        (
            _picker(
                {"id": "M", "type": "radio", "when": {"questionId": "X", "equals": "a", "in": []}}
            ),
            "phases[0].questions[0].when: needs exactly one of equals, in and contains",
        ),
        (
            _picker({"id": "M", "type": "radio", "when": {"questionId": "X", "in": "a"}}),
            _go("phases[0].questions[0].when.in", "string", "[]string"),
        ),
    ],
)
def test_picker_decode_errors(document: object, message: str) -> None:
    assert str(picker_error(document)) == f"template.schema.json: {message}"


def test_a_picker_the_cli_does_not_refuse_loads() -> None:
    picker = load_picker(
        json.dumps(
            {
                "phases": [
                    {
                        "when": {"equals": "a"},
                        "questions": [
                            {"type": "radio", "options": [{"label": "no value"}]},
                            {"id": "T", "type": "text", "default": "hello"},
                            {"id": "N"},
                            {"ID": "C", "Type": "checkbox", "Options": [{"Value": "x"}]},
                        ],
                    }
                ]
            }
        ).encode()
    )
    (phase,) = picker.phases
    assert phase.when == When(question_id="", kind="equals", values=("a",))
    nameless, text, untyped, upper = phase.questions
    assert (nameless.id, nameless.option_values, nameless.kind) == ("", ("",), "radio")
    assert (text.type, text.kind, text.known_type, text.default) == (
        "text",
        "input",
        False,
        "hello",
    )
    assert (untyped.type, untyped.kind, untyped.known_type) == ("", "input", False)
    assert (upper.id, upper.kind, upper.option_values) == ("C", "checkbox", ("x",))
    assert upper.options[0].extra == {}


def test_picker_loads_questions_options_and_whens() -> None:
    picker = load_picker(
        json.dumps(
            {
                "title": "extra fields are fine",
                "phases": [
                    {
                        "id": "model",
                        "when": {"questionId": "A", "in": ["x", "y"]},
                        "questions": [
                            {
                                "id": "M",
                                "label": "Model",
                                "type": "radio",
                                "required": True,
                                "default": "b",
                                "options": [
                                    {"value": "a", "label": "A", "size": "edge", "comments": "c"},
                                    {"value": "b"},
                                ],
                                "when": {"questionId": "B", "contains": "gpu"},
                            },
                            {"id": "K", "type": "input", "secret": True},
                        ],
                    }
                ],
            }
        ).encode()
    )
    (phase,) = picker.phases
    assert phase.when == When(question_id="A", kind="in", values=("x", "y"))
    m, k = phase.questions
    assert (m.id, m.label, m.type, m.default, m.required, m.secret) == (
        "M",
        "Model",
        "radio",
        "b",
        True,
        False,
    )
    assert m.option_values == ("a", "b")
    assert m.options[0].extra == {"size": "edge", "comments": "c"}
    assert m.when == When(question_id="B", kind="contains", values=("gpu",))
    assert (k.default, k.required, k.secret, k.when) == ("", False, True, None)
    assert picker.questions == (m, k)
    assert picker.line_of(m.json_path) is not None


def test_load_template_reports_the_broken_file(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "demo",
        {"template.json": "{}", "template.schema.json": '{"phases": [{"questions": [{"id": 1}]}]}'},
    )
    with pytest.raises(
        ManifestError,
        match=r"^template demo: template\.schema\.json: phases\[0\]\.questions\[0\]\.id: ",
    ):
        load_template(root)


@pytest.mark.parametrize(
    "path", [REPO / "templates" / "python" / "llm", REPO / "golden" / "baseline" / "python" / "llm"]
)
def test_the_real_templates_load(path: Path) -> None:
    t = load_template(path)
    names = [v.name for v in t.manifest.variables]
    assert names[:2] == ["APP_ID", "PORT"]
    port = t.manifest.variables[1]
    assert port.default == 8080.0 and (port.validate.min, port.validate.max) == (1, 65535)
    assert t.picker is not None
    question = t.picker.questions[0]
    assert (question.id, question.type, question.required) == ("OLLAMA_MODEL", "radio", True)
    assert question.default == "gemma4:e2b"
    assert all({"size", "parameters", "comments"} <= set(o.extra) for o in question.options)


def test_value_positions_and_json_paths() -> None:
    text = '{\n  "a": [1, {"b c": "x\\"y"}],\n  "d": true\n}'
    positions = value_positions(text)
    assert positions[("a",)] == (2, 8)
    assert positions[("a", 1, "b c")] == (2, 20)
    assert positions[("d",)] == (3, 8)
    assert format_json_path(("a", 1, "b c")) == 'a[1]["b c"]'
    assert format_json_path(()) == ""


def test_negative_zero_default_keeps_its_sign() -> None:
    (z,) = load_manifest(b'{"variables": [{"name": "Z", "default": -0}]}').variables
    assert isinstance(z.default, float) and math.copysign(1.0, z.default) == -1.0


def test_positions_are_walked_only_when_a_line_is_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Loading a valid manifest does not walk it for positions (a render never
    asks for a line); the first line asked for walks it once."""
    walks: list[str] = []

    def counting(text: str) -> object:
        walks.append(text)
        return value_positions(text)

    monkeypatch.setattr(jsonpos, "value_positions", counting)
    text = '{"variables": [{"name": "PORT", "default": 8080}]}'
    manifest = load_manifest(text.encode())
    assert walks == []
    assert manifest.line_of(("variables", 0, "default")) == 1
    assert manifest.line_of(("variables", 0)) == 1
    assert walks == [text]
