"""The engine behaves as the Wendy CLI's (spec: wendy-init.md section 1).

Go's messages are asserted verbatim where they have been stable across Go
releases; where a release appended detail (e.g. the operand types after
``incompatible types for comparison``), only the stable prefix is checked.
"""

from __future__ import annotations

import pytest

from wendy_llm import (
    Renderer,
    RenderJob,
    TemplateError,
    TemplateExecError,
    TemplateParseError,
)


def render(
    renderer: Renderer, text: str | bytes, data: dict[str, object], name: str = "t"
) -> bytes:
    return renderer.render(text, data, name)


def failure(
    renderer: Renderer, text: str, data: dict[str, object], name: str = "t"
) -> TemplateError:
    with pytest.raises(TemplateError) as caught:
        renderer.render(text, data, name)
    return caught.value


# --- missingkey=error -------------------------------------------------------------


def test_a_missing_key_is_an_execution_error(renderer: Renderer) -> None:
    error = failure(renderer, "{{.Nope}}", {})
    assert isinstance(error, TemplateExecError)
    assert error.message == (
        'template: t:1:2: executing "t" at <.Nope>: map has no entry for key "Nope"'
    )
    assert (error.name, error.line, error.column) == ("t", 1, 2)


def test_a_missing_key_inside_if_is_an_error_too(renderer: Renderer) -> None:
    error = failure(renderer, "line one\n  {{if .Nope}}y{{end}}", {})
    assert isinstance(error, TemplateExecError)
    assert error.message == (
        'template: t:2:7: executing "t" at <.Nope>: map has no entry for key "Nope"'
    )
    assert (error.line, error.column) == (2, 7)


def test_a_missing_nested_key_is_an_error(renderer: Renderer) -> None:
    error = failure(renderer, "{{.A.B}}", {"A": {}})
    assert error.message.endswith('at <.A.B>: map has no entry for key "B"')


def test_a_key_holding_none_is_present(renderer: Renderer) -> None:
    assert render(renderer, '{{.N}}|{{printf "%v" .N}}', {"N": None}) == b"<no value>|<nil>"


def test_index_is_the_known_hole(renderer: Renderer) -> None:
    assert render(renderer, '{{index . "NOPE"}}', {}) == b"<no value>"


def test_the_template_is_named_by_its_path(renderer: Renderer) -> None:
    error = failure(renderer, "\n{{.X}}", {}, name="ollama/Dockerfile")
    assert error.name == "ollama/Dockerfile"
    assert error.message.startswith(
        'template: ollama/Dockerfile:2:2: executing "ollama/Dockerfile"'
    )


# --- types --------------------------------------------------------------------------


def test_eq_of_float64_and_int_fails(renderer: Renderer) -> None:
    error = failure(renderer, "{{if eq .PORT 8080}}y{{end}}", {"PORT": 8080.0})
    assert isinstance(error, TemplateExecError)
    assert error.message.startswith(
        'template: t:1:5: executing "t" at <eq .PORT 8080>: error calling eq:'
        " incompatible types for comparison"
    )


def test_eq_of_int_and_int_works(renderer: Renderer) -> None:
    assert render(renderer, "{{if eq .PORT 8080}}y{{end}}", {"PORT": 8080}) == b"y"


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (1000000.0, b"1e+06"),
        (8080.0, b"8080"),
        (0.5, b"0.5"),
        (123456789.0, b"1.23456789e+08"),
        (1e21, b"1e+21"),
        (1000000, b"1000000"),
    ],
)
def test_numbers_print_as_go_prints_them(renderer: Renderer, value: object, printed: bytes) -> None:
    assert render(renderer, "{{.V}}", {"V": value}) == printed


def test_bools(renderer: Renderer) -> None:
    data: dict[str, object] = {"T": True, "F": False}
    assert render(renderer, "{{.T}} {{.F}} {{not .F}} {{and .T .F}} {{or .F .T}}", data) == (
        b"true false true false true"
    )
    assert render(renderer, "{{if .F}}yes{{else}}no{{end}}", data) == b"no"


def test_nested_maps_and_lists(renderer: Renderer) -> None:
    data: dict[str, object] = {"svc": {"web": {"port": 80}, "db": {"port": 5432}}, "L": [1, "x"]}
    assert render(renderer, "{{.svc.web.port}} {{index .L 1}} {{len .L}}", data) == b"80 x 2"
    # Go ranges over maps in sorted key order.
    text = "{{range $k, $v := .svc}}{{$k}}={{$v.port}};{{end}}"
    assert render(renderer, text, data) == b"db=5432;web=80;"
    assert render(renderer, "{{.svc}}", data) == b"map[db:map[port:5432] web:map[port:80]]"


# --- syntax ------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [(1, b"one"), (2, b"two"), (3, b"many")])
def test_else_if(renderer: Renderer, value: int, expected: bytes) -> None:
    text = "{{if eq .A 1}}one{{else if eq .A 2}}two{{else}}many{{end}}"
    assert render(renderer, text, {"A": value}) == expected


def test_trim_markers(renderer: Renderer) -> None:
    assert render(renderer, "a  \n {{- .X -}} \n\t b", {"X": "x"}) == b"axb"
    assert render(renderer, "a {{.X -}}\n\nb", {"X": "x"}) == b"a xb"
    # A dash without the space is a negative number, not a trim marker.
    assert render(renderer, "{{-3}}", {}) == b"-3"


def test_comments_leave_nothing_behind(renderer: Renderer) -> None:
    assert render(renderer, "a{{/* note */}}b", {}) == b"ab"
    assert render(renderer, "a\n{{- /* multi\nline */ -}}\nb", {}) == b"ab"


def test_no_html_escaping_and_default_delimiters(renderer: Renderer) -> None:
    assert render(renderer, "{{.X}} [[.X]] ${X}", {"X": "<a&'b'>"}) == b"<a&'b'> [[.X]] ${X}"


def test_builtins_only(renderer: Renderer) -> None:
    assert render(renderer, '{{printf "%05d|%q" .I .S}}', {"I": 42, "S": "s"}) == b'00042|"s"'
    for function in ("upper", "default", "toYaml", "include"):
        error = failure(renderer, f"{{{{{function} .X}}}}", {"X": 1})
        assert isinstance(error, TemplateParseError)
        assert error.message == f'template: t:1: function "{function}" not defined'


def test_define_and_template(renderer: Renderer) -> None:
    text = '{{define "port"}}{{.PORT}}{{end}}port={{template "port" .}}'
    assert render(renderer, text, {"PORT": 8080}) == b"port=8080"


def test_an_empty_template_renders_nothing(renderer: Renderer) -> None:
    assert render(renderer, "", {}) == b""
    assert render(renderer, "{{/* only a comment */}}", {}) == b""


# --- errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("{{if}}", 1, "template: t:1: missing value for if"),
        ("ok\n{{end}}", 2, "template: t:2: unexpected {{end}}"),
        ("a\nb\n\n  {{.X", 4, "template: t:4: unclosed action"),
        ("{{/* open", 1, "template: t:1: unclosed comment"),
        ("{{$x}}", 1, 'template: t:1: undefined variable "$x"'),
        ("{{if .A}}\nx", 2, "template: t:2: unexpected EOF"),
    ],
)
def test_parse_errors_carry_the_line(
    renderer: Renderer, text: str, line: int, message: str
) -> None:
    error = failure(renderer, text, {"A": 1, "X": 1})
    assert isinstance(error, TemplateParseError)
    assert error.message == message
    assert (error.name, error.line, error.column) == ("t", line, None)
    assert str(error) == message


@pytest.mark.parametrize(
    ("text", "data", "line", "column", "message"),
    [
        (
            "{{index .L 5}}",
            {"L": [1]},
            1,
            2,
            'template: t:1:2: executing "t" at <index .L 5>: error calling index:'
            " index out of range: 5",
        ),
        (
            "{{len 3}}",
            {},
            1,
            2,
            'template: t:1:2: executing "t" at <len 3>: error calling len: len of type int',
        ),
        (
            "\n\n{{.X 1}}",
            {"X": 1},
            3,
            2,
            'template: t:3:2: executing "t" at <.X>: X is not a method but has arguments',
        ),
        (
            '{{template "nope"}}',
            {},
            1,
            11,
            'template: t:1:11: executing "t" at <{{template "nope"}}>: template "nope" not defined',
        ),
    ],
)
def test_exec_errors_carry_line_and_column(
    renderer: Renderer,
    text: str,
    data: dict[str, object],
    line: int,
    column: int,
    message: str,
) -> None:
    error = failure(renderer, text, data)
    assert isinstance(error, TemplateExecError)
    assert error.message == message
    assert (error.line, error.column) == (line, column)


def test_an_error_inside_a_defined_template_locates_it_in_the_file(renderer: Renderer) -> None:
    text = 'a\n{{define "inner"}}\n  {{.Nope}}{{end}}{{template "inner" .}}'
    error = failure(renderer, text, {}, name="file.txt")
    assert error.name == "file.txt"
    assert error.message.startswith('template: file.txt:3:4: executing "inner" at <.Nope>')
    assert (error.line, error.column) == (3, 4)


def test_a_name_with_colons_still_yields_the_location(renderer: Renderer) -> None:
    error = failure(renderer, "\n{{.Nope}}", {}, name="a:1:b")
    assert (error.line, error.column) == (2, 2)


def test_errors_come_back_in_batches_too(renderer: Renderer) -> None:
    results = renderer.render_many(
        [RenderJob("{{.A}}", {"A": 1}, "ok"), RenderJob("{{if}}", {}, "bad")]
    )
    assert results[0] == b"1"
    assert isinstance(results[1], TemplateParseError)
    assert results[1].message == "template: bad:1: missing value for if"
