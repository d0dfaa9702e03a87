"""Overrides as a pipeline holds them (issue 31): numbers and booleans are the
text a ``--var`` would give, anything else a ``ValuesError`` naming the
variable and the type; unknown names are an error in strict mode and an
``UnknownVariableWarning`` without it."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from _template_helpers import PORT, make_template, phase, radio, render_text

from wendy_llm.errors import AppIdError, ValuesError, WendyLlmError
from wendy_llm.render.overrides import UnknownVariableWarning
from wendy_llm.render.template import Template

FLAG: dict[str, object] = {"name": "FLAG", "type": "boolean", "default": False}
NAME: dict[str, object] = {"name": "NAME", "type": "string", "default": "n"}


@pytest.fixture
def template(tmp_path: Path) -> Template:
    return make_template(
        tmp_path,
        variables=[PORT, FLAG, NAME],
        phases=[phase(radio("MODEL", ["a", "b"]))],
        files={"t.txt": '{{printf "%T=%v %T=%v %T=%v" .PORT .PORT .FLAG .FLAG .NAME .NAME}}'},
    )


@pytest.mark.parametrize(
    ("overrides", "text"),
    [
        ({"PORT": 3000}, "int=3000 bool=false string=n"),
        ({"PORT": 3000.0}, "int=3000 bool=false string=n"),  # JSON/YAML 3000.0
        ({"FLAG": True, "NAME": 5}, "float64=8080 bool=true string=5"),
        ({"FLAG": 1, "NAME": 0.5}, "float64=8080 bool=true string=0.5"),  # ParseBool("1")
        ({"NAME": False}, "float64=8080 bool=false string=false"),
    ],
)
def test_numbers_and_booleans_render_as_their_var_text_would(
    template: Template, overrides: dict[str, object], text: str
) -> None:
    as_text = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in overrides.items()}
    as_text = {k: v.removesuffix(".0") for k, v in as_text.items()}
    assert render_text(template, "t.txt", overrides=overrides) == text  # type: ignore[arg-type]
    assert render_text(template, "t.txt", overrides=as_text) == text


@pytest.mark.parametrize(
    ("name", "value", "fragment"),
    [
        ("PORT", 3000.5, "invalid value for PORT: expected integer, got the float 3000.5"),
        ("PORT", float("nan"), "invalid value for PORT: expected integer, got the float nan"),
        ("PORT", None, "invalid value for PORT: expected a string, number or boolean"),
        ("NAME", ["a"], "got list"),
        ("MODEL", {"a": 1}, "invalid value for MODEL: expected a string, number or boolean"),
        ("NAME", object(), "got object"),
        ("FLAG", 0.5, 'invalid value for FLAG: expected boolean, got "0.5"'),
        ("PORT", True, 'invalid value for PORT: expected integer, got "true"'),
    ],
)
def test_other_values_are_a_values_error_naming_the_variable(
    template: Template, name: str, value: object, fragment: str
) -> None:
    with pytest.raises(ValuesError) as info:
        template.render("my-app", {name: value})  # type: ignore[dict-item]
    assert info.value.variable == name
    assert fragment in str(info.value)
    assert str(info.value).startswith("template demo: ")


@pytest.mark.parametrize("app_id", [None, 5, 5.0, b"my-app", ["my-app"]])
def test_an_app_id_that_is_not_a_string_is_an_app_id_error(
    template: Template, app_id: object
) -> None:
    with pytest.raises(AppIdError) as info:
        template.render(app_id)  # type: ignore[arg-type]
    assert f"expected a string, got {type(app_id).__name__}" in str(info.value)
    assert info.value.variable == "APP_ID"


def test_overrides_that_are_not_a_mapping_or_have_odd_keys(template: Template) -> None:
    for overrides in (["PORT=1"], "PORT=1", 5):
        with pytest.raises(ValuesError, match="overrides must be a mapping"):
            template.values("my-app", overrides)  # type: ignore[arg-type]
    with pytest.raises(ValuesError, match="override name 1 is a int"):
        template.values("my-app", {1: "x"})  # type: ignore[dict-item]


def test_an_unknown_name_in_strict_mode_names_the_known_and_the_nearest(
    template: Template,
) -> None:
    with pytest.raises(ValuesError) as info:
        template.render("my-app", {"PROT": "3000"})
    assert info.value.variable == "PROT"
    assert str(info.value) == (
        "template demo: unknown variable PROT (did you mean PORT?): the template has no "
        "variable or picker question of that name (known: PORT, FLAG, NAME, MODEL); "
        "strict=False renders anyway, ignoring it as wendy init does"
    )
    with pytest.raises(ValuesError, match=r"known: PORT, FLAG, NAME, MODEL\)(?!.*did you)"):
        template.values("my-app", {"ZZZZZZ": "1"})
    # Picker questions are names too; APP_ID is known (and, as in the CLI, ignored).
    assert template.values("my-app", {"MODEL": "b", "APP_ID": "x"})["MODEL"] == "b"


def test_an_unknown_name_without_strict_is_a_warning_at_the_callers_line(
    template: Template,
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        values = template.values("my-app", {"PROT": 3000}, strict=False)
    assert values["PROT"] == "3000" and values["PORT"] == 8080.0  # wendy init's data map
    (warning,) = caught
    assert warning.category is UnknownVariableWarning
    assert "unknown variable PROT (did you mean PORT?)" in str(warning.message)
    assert warning.filename == __file__


def test_every_failure_of_values_is_a_library_error(template: Template) -> None:
    for value in (None, 3.5, [], {}, set(), b"x", "\ud800", object()):
        with pytest.raises(WendyLlmError):
            template.render("my-app", {"PORT": value})  # type: ignore[dict-item]
