"""Lints: each code, with its file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _template_helpers import checkbox, make_template, phase, radio, text_input

from wendy_llm.render.lints.checks import LintWarning
from wendy_llm.render.manifest import jsonpos
from wendy_llm.render.template import Template, load_template

REPO = Path(__file__).resolve().parents[2]


def codes(template: Template) -> list[tuple[str, int | None, str]]:
    return [(w.file, w.line, w.code) for w in template.lint()]


def only(template: Template, code: str) -> list[LintWarning]:
    return [w for w in template.lint() if w.code == code]


def test_clean_template_has_no_warnings(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[
            {"name": "APP_ID", "type": "string"},
            {"name": "PORT", "type": "integer", "default": 8080},
        ],
        phases=[phase(radio("M", ["a", "b"]))],
        files={"a.yaml": "port: {{.PORT}} m: {{.M}}", "logo.png": b"\x89PNG"},
    )
    assert t.lint() == []


def test_the_real_llm_templates_lint_clean() -> None:
    for path in [
        REPO / "templates" / "python" / "llm",
        REPO / "golden" / "baseline" / "python" / "llm",
    ]:
        assert [str(w) for w in load_template(path).lint()] == []


def test_large_numeric_default(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[
            {"name": "OK", "type": "integer", "default": 999999},
            {"name": "BIG", "type": "integer", "default": 1000000},
            {"name": "TINY", "type": "string", "default": 0.00001},
        ],
        files={"a.txt": "{{.BIG}} {{.TINY}}"},
    )
    warnings = only(t, "large-number")
    lines = (tmp_path / "demo" / "template.json").read_text().splitlines()
    expected = [i + 1 for i, line in enumerate(lines) if '"default": 1000000' in line]
    expected += [i + 1 for i, line in enumerate(lines) if '"default": 1e-05' in line]
    assert [(w.file, w.line) for w in warnings] == [("template.json", n) for n in expected]
    assert warnings[0].message.startswith("default of BIG (1000000) renders as 1e+06")
    assert "default of TINY (1e-05) renders as 1e-05" in warnings[1].message


def test_number_typing_default_float_fails(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "PORT", "type": "integer", "default": 8080}],
        files={"ok.txt": "{{.PORT}}", "cmp.yaml": "a: 1\n{{if eq .PORT 8080}}b: 2{{end}}\n"},
    )
    (warning,) = only(t, "number-typing")
    assert (warning.file, warning.line) == ("cmp.yaml", 2)
    assert warning.message.startswith(
        "works only when PORT is set with --var (a Go int); with its default (a Go float64) it "
        "fails: template: cmp.yaml:2:5: "
    )
    assert "incompatible types for comparison" in warning.message
    (error,) = only(t, "render-error")
    assert (error.file, error.line) == ("cmp.yaml", 2)


def test_number_typing_override_fails(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "RATIO", "type": "integer", "default": 2}],
        files={"x.txt": "\n\n{{if eq .RATIO 2.0}}two{{end}}"},
    )
    (warning,) = only(t, "number-typing")
    assert (warning.file, warning.line) == ("x.txt", 3)
    assert warning.message.startswith(
        "works only with RATIO's default (a Go float64); set with --var (a Go int) it fails"
    )
    assert only(t, "render-error") == []


def test_number_typing_of_a_string_variable(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "PORT", "type": "string", "default": 8080}],
        files={"x.txt": '{{if eq .PORT "8080"}}ok{{end}}'},
    )
    (warning,) = only(t, "number-typing")
    assert "set with --var (a Go string)" in warning.message


def test_copied_file_with_template_syntax(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        files={
            "Dockerfile.cuda": "FROM x\nENV A={{.APP_ID}}\n",
            "App.tsx": "const a = {{.X}};",
            "style.scss": "{{ not a field }}",
            "ok.yaml": "{{.APP_ID}}",
        },
    )
    warnings = only(t, "copied-template")
    assert [(w.file, w.line) for w in warnings] == [("App.tsx", 1), ("Dockerfile.cuda", 2)]
    assert "copies this file unrendered" in warnings[0].message


def test_ignored_rules_and_unknown_types(tmp_path: Path) -> None:
    variables: list[dict[str, object]] = [
        {"name": "A", "type": "string", "validate": {"enum": ["x"], "min": 1}},
        {"name": "B", "type": "integer", "validate": {"pattern": "^1", "maxLength": 3}},
        {"name": "C", "type": "number", "default": "1"},
        {"name": "D", "type": "boolean", "validate": {"max": 1}},
    ]
    t = make_template(tmp_path, variables=variables)
    ignored = only(t, "ignored-rule")
    assert [w.message for w in ignored] == [
        "validate.enum of A is ignored by wendy init (it checks only min/max on integers and "
        "pattern on strings)",
        'validate.min of A is ignored by wendy init for a variable of type "string"',
        "validate.maxLength of B is ignored by wendy init (it checks only min/max on integers "
        "and pattern on strings)",
        'validate.pattern of B is ignored by wendy init for a variable of type "integer"',
        'validate.max of D is ignored by wendy init for a variable of type "boolean"',
    ]
    assert all(w.file == "template.json" and w.line is not None for w in ignored)
    (unknown,) = only(t, "unknown-type")
    assert unknown.message.startswith('type "number" of C is not one wendy init converts')


def test_invalid_patterns_carry_gos_compile_error(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[
            {"name": "A", "validate": {"pattern": "(?=x)"}},
            {"name": "B", "validate": {"pattern": r"\p{Greek}"}},  # Go's regexp has it
            {"name": "C", "validate": {"pattern": "^[a-z]+$"}},
        ],
    )
    (warning,) = only(t, "invalid-pattern")
    assert warning.message == (
        "validate.pattern of A is not a Go regexp (error parsing regexp: invalid or "
        "unsupported Perl syntax: `(?=`): every --var value for it is rejected"
    )


def test_invalid_defaults_and_duplicates(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[
            {"name": "P", "type": "integer", "default": 70000, "validate": {"max": 65535}},
            {"name": "Q", "type": "integer", "default": "80"},
            {"name": "R", "type": "integer", "default": 1.5},
            {"name": "S", "type": "string", "default": "UP", "validate": {"pattern": "^[a-z]+$"}},
            {"name": "T", "type": "boolean", "default": "yes"},
            {"name": "P", "type": "integer", "default": 1},
        ],
    )
    messages = [w.message for w in only(t, "default-invalid")]
    assert messages == [
        "default of P breaks its own rule (P must be at most 65535); wendy init never checks "
        "defaults",
        'default of Q ("80") is not a JSON integer; wendy init never checks defaults',
        "default of R (1.5) is not a JSON integer; wendy init never checks defaults",
        'default of S breaks its own rule (invalid value for S: "UP" does not match the pattern '
        "^[a-z]+$); wendy init never checks defaults",
        'default of T ("yes") is not a JSON boolean; wendy init never checks defaults',
    ]
    (duplicate,) = only(t, "duplicate-variable")
    assert duplicate.line is not None and "P is declared more than once" in duplicate.message


def test_picker_lints(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "MODEL", "default": "m"}],
        phases=[
            phase(
                radio("MODEL", ["a"]),
                radio("SIZE", ["s", "l"], default="xl"),
                checkbox("FEAT", ["gpu", "web"], default="gpu, db"),
                text_input("X", when={"questionId": "NOPE", "equals": "1"}),
                text_input("Y", when={"questionId": "MODEL", "equals": "m"}),
            ),
            phase(when={"questionId": "GHOST", "in": ["1"]}),
        ],
    )
    found = {(w.code, w.message) for w in t.lint() if w.file == "template.schema.json"}
    assert found == {
        (
            "shadowed-question",
            "question MODEL is never asked: a template.json variable MODEL already holds the value",
        ),
        ("default-not-option", 'default "xl" of radio question SIZE is not one of its options'),
        ("default-not-option", 'default "db" of checkbox question FEAT is not one of its options'),
        (
            "unknown-question",
            'when refers to "NOPE", which is neither a question nor a variable: it is always false',
        ),
        (
            "unknown-question",
            'when refers to "GHOST", which is neither a question nor a variable: '
            "it is always false",
        ),
    }


def test_checkbox_flags_and_pick_render_errors(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[phase(checkbox("FEAT", ["gpu", "web"], default="gpu"))],
        files={"c.yaml": "x: 1\n{{if .FEAT_gpu}}gpu: true{{end}}\n", "d.txt": "{{.FEAT_gpux}}"},
    )
    (flag,) = only(t, "checkbox-flags")
    assert (flag.file, flag.line) == ("c.yaml", 2)
    errors = only(t, "render-error")
    assert {(w.file, w.line) for w in errors} == {("c.yaml", 2), ("d.txt", 1)}
    assert any('map has no entry for key "FEAT_gpu"' in w.message for w in errors)


def test_no_value_in_output(tmp_path: Path) -> None:
    t = make_template(tmp_path, files={"a.txt": 'first\n{{index . "NOPE"}}\n'})
    (warning,) = only(t, "no-value")
    assert warning.file == "a.txt"
    assert "renders '<no value>' (output line 2)" in warning.message


def test_values_error_is_reported_not_raised(tmp_path: Path) -> None:
    t = make_template(tmp_path, variables=[{"name": "TOKEN"}], files={"a.txt": "{{.TOKEN}}"})
    (warning,) = only(t, "values-error")
    assert warning.message == "pick default: missing value for TOKEN"


def test_warnings_print_with_file_and_line(tmp_path: Path) -> None:
    warning = LintWarning("a.txt", 3, "copied-template", "msg")
    assert str(warning) == "a.txt:3: copied-template: msg"
    assert str(LintWarning("a.txt", None, "no-value", "msg")) == "a.txt: no-value: msg"


def test_lines_point_into_template_json(tmp_path: Path) -> None:
    variables: list[dict[str, object]] = [
        {"name": "A", "default": 1},
        {"name": "BIG", "type": "integer", "default": 1e7},
    ]
    t = make_template(tmp_path, variables=variables)
    (warning,) = only(t, "large-number")
    text = (tmp_path / "demo" / "template.json").read_text().splitlines()
    assert warning.line is not None
    assert '"default": 10000000.0' in text[warning.line - 1]
    assert (
        json.loads((tmp_path / "demo" / "template.json").read_text())["variables"][1]["name"]
        == "BIG"
    )


def test_a_template_without_warnings_is_linted_without_walking_its_manifests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lines are looked up only for a warning (finding one walks the whole
    file); python/llm has no lint warning, so nothing is walked."""
    walks: list[str] = []
    walk = jsonpos.value_positions

    def counting(text: str) -> object:
        walks.append(text)
        return walk(text)

    monkeypatch.setattr(jsonpos, "value_positions", counting)
    template = load_template(REPO / "templates" / "python" / "llm")
    assert template.lint() == []
    assert walks == []
