"""The Renderer's data and text: Python types as Go sees them, values that
round-trip exactly, unrepresentable data named by its path, bytes that are
not UTF-8."""

from __future__ import annotations

import enum
from types import MappingProxyType

import pytest

from wendy_llm import DataTypeError, Renderer, RenderJob, TemplateExecError


class Colour(enum.StrEnum):
    RED = "red"


class Size(enum.IntEnum):
    BIG = 3


# --- data types ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "go_type"),
    [
        ("s", "string"),
        (b"s", "string"),
        (bytearray(b"s"), "string"),
        (True, "bool"),
        (8080, "int"),
        (8080.0, "float64"),
        (None, "<nil>"),
        ([1, "a"], "[]interface {}"),
        ((1, "a"), "[]interface {}"),
        ({"a": 1}, "map[string]interface {}"),
        (MappingProxyType({"a": 1}), "map[string]interface {}"),
        (Colour.RED, "string"),
        (Size.BIG, "int"),
    ],
)
def test_python_types_reach_go_as_documented(
    renderer: Renderer, value: object, go_type: str
) -> None:
    assert renderer.render('{{printf "%T" .X}}', {"X": value}) == go_type.encode()


def test_int_and_float_stay_distinct(renderer: Renderer) -> None:
    template = "{{if eq .PORT 8080}}int{{end}}"
    assert renderer.render(template, {"PORT": 8080}) == b"int"
    with pytest.raises(TemplateExecError, match="incompatible types for comparison"):
        renderer.render(template, {"PORT": 8080.0})


def test_values_round_trip_exactly(renderer: Renderer) -> None:
    data = {
        "min": -(2**63),
        "max": 2**63 - 1,
        "f": 0.1,
        "nan": float("nan"),
        "inf": float("-inf"),
        "text": "naïve ☃",
        "nested": {"l": [{"deep": [True, None, 2.5]}]},
    }
    out = renderer.render("{{.min}} {{.max}} {{.f}} {{.nan}} {{.inf}} {{.text}} {{.nested}}", data)
    assert out == (
        b"-9223372036854775808 9223372036854775807 0.1 NaN -Inf "
        + "naïve ☃".encode()
        + b" map[l:[map[deep:[true <nil> 2.5]]]]"
    )


@pytest.mark.parametrize(
    ("data", "path", "fragment"),
    [
        ({"a": {1, 2}}, ".a", "has type set"),
        ({"a": {"b": [1, object()]}}, ".a.b[1]", "has type object"),
        ({"a": {1: "x"}}, ".a", "keys must be str"),
        ({"big": 2**63}, ".big", "does not fit in a Go int"),
        ({"a": {"b": "x\ud800"}}, ".a.b", "lone surrogate"),
    ],
)
def test_unrepresentable_data_names_the_path(
    renderer: Renderer, data: dict[str, object], path: str, fragment: str
) -> None:
    with pytest.raises(DataTypeError, match=fragment) as caught:
        renderer.render("x", data)
    assert caught.value.key_path == path
    assert path in str(caught.value)


def test_string_values_past_the_encoding_cache_bound_render_exactly(renderer: Renderer) -> None:
    # wire.py remembers the encoding of short str values, up to a bound: more
    # distinct values than that, twice over, must each still render as itself.
    values = [f"v{i}" for i in range(9000)] * 2
    jobs = [RenderJob("{{.v}}", {"v": value}) for value in values]
    assert renderer.render_many(jobs) == [value.encode() for value in values]


def test_cyclic_data_is_an_error_not_a_crash(renderer: Renderer) -> None:
    cyclic: dict[str, object] = {}
    cyclic["self"] = cyclic
    with pytest.raises(DataTypeError, match="nested more than"):
        renderer.render("x", cyclic)


def test_data_must_be_a_mapping(renderer: Renderer) -> None:
    with pytest.raises(DataTypeError, match="must be a mapping"):
        renderer.render("x", [1])  # type: ignore[arg-type]


def test_bad_data_in_a_later_chunk_keeps_the_helper_in_step(renderer: Renderer) -> None:
    jobs = [RenderJob("{{.I}}", {"I": i}) for i in range(200)]
    jobs[150] = RenderJob("{{.I}}", {"I": {1, 2}})
    with pytest.raises(DataTypeError):
        renderer.render_many(jobs)
    pid = renderer.pid
    assert renderer.render("{{.I}}", {"I": 7}) == b"7"
    assert renderer.pid == pid


# --- bytes ----------------------------------------------------------------------


def test_non_utf8_template_and_data_bytes_survive(renderer: Renderer) -> None:
    template = b"caf\xe9 \xff{{.A}}\x80{{.B}}"
    out = renderer.render(template, {"A": b"\xc3\x28", "B": "\udcfe"})
    assert out == b"caf\xe9 \xff\xc3\x28\x80\xfe"


def test_str_templates_are_utf8(renderer: Renderer) -> None:
    assert renderer.render("é{{.A}}", {"A": "ü"}) == "éü".encode()
