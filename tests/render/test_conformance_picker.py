"""Conformance: the picker walk of the data map (step 4), its ``when`` conditions
and strict answers (docs/wendy-init-semantics.md, section 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _template_helpers import PORT, checkbox, make_template, phase, radio, render_text, text_input

from wendy_llm.errors import ValuesError, cli_text

# --- step 4: the picker walk -------------------------------------------------


def test_radio_default_else_first_option_else_required_error(tmp_path: Path) -> None:
    t = make_template(
        tmp_path / "a",
        phases=[
            phase(
                radio("WITH_DEFAULT", ["a", "b"], default="b"),
                radio("FIRST", ["x", "y"]),
                radio("NOTHING", []),
            )
        ],
    )
    values = t.values("app")
    assert values["WITH_DEFAULT"] == "b"
    assert values["FIRST"] == "x"
    assert "NOTHING" not in values
    required = make_template(tmp_path / "b", phases=[phase(radio("MODEL", [], required=True))])
    with pytest.raises(ValuesError) as info:
        required.values("app")
    assert cli_text(info.value) == (
        "template demo: missing answer for picker question MODEL; pass --var MODEL=VALUE"
    )
    assert required.values("app", {"MODEL": "m"})["MODEL"] == "m"


def test_input_default_else_empty_else_required_error(tmp_path: Path) -> None:
    t = make_template(
        tmp_path / "a",
        phases=[phase(text_input("NAME", default="n"), text_input("EMPTY"))],
    )
    assert t.values("app")["NAME"] == "n"
    assert t.values("app")["EMPTY"] == ""
    required = make_template(
        tmp_path / "b", phases=[phase(text_input("KEY", required=True, secret=True))]
    )
    with pytest.raises(
        ValuesError, match=r"^template demo: missing answer for picker question KEY; give it in"
    ):
        required.values("app")


def test_checkbox_stores_the_default_and_one_boolean_per_option(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[phase(checkbox("FEAT", ["gpu", "web", "db"], default="gpu, db"))],
        files={"f.txt": "{{.FEAT}}|{{.FEAT_gpu}}|{{.FEAT_web}}|{{.FEAT_db}}"},
    )
    values = t.values("app")
    assert values["FEAT"] == "gpu, db"
    assert (values["FEAT_gpu"], values["FEAT_web"], values["FEAT_db"]) == (True, False, True)
    assert render_text(t, "f.txt") == "gpu, db|true|false|true"


def test_checkbox_answered_by_var_sets_no_booleans(tmp_path: Path) -> None:
    # The question's id is in the map, so the walk skips it entirely.
    t = make_template(
        tmp_path,
        phases=[phase(checkbox("FEAT", ["gpu", "web"], default="gpu"))],
        files={"f.txt": "{{.FEAT}}{{if .FEAT_gpu}}!{{end}}"},
    )
    values = t.values("app", {"FEAT": "web"})
    assert values["FEAT"] == "web"
    assert "FEAT_gpu" not in values and "FEAT_web" not in values
    with pytest.raises(Exception, match=r'rendering f\.txt: .*map has no entry for key "FEAT_gpu"'):
        t.render("app", {"FEAT": "web"})


def test_checkbox_when_contains(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[
            phase(
                checkbox("FEAT", ["gpu", "web", "db"], default="web"),
                text_input(
                    "GPU_NAME", default="orin", when={"questionId": "FEAT", "contains": "gpu"}
                ),
                text_input("DB_URL", default="pg", when={"questionId": "FEAT", "contains": "db"}),
            )
        ],
    )
    assert "GPU_NAME" not in t.values("app")
    assert t.values("app", {"FEAT": " db ,gpu "})["GPU_NAME"] == "orin"
    assert t.values("app", {"FEAT": "db,gpu"})["DB_URL"] == "pg"
    # Parts are whole values, not substrings.
    assert "GPU_NAME" not in t.values("app", {"FEAT": "gpus"}, strict=False)


def test_an_answered_question_is_skipped_and_var_wins(tmp_path: Path) -> None:
    t = make_template(tmp_path, phases=[phase(radio("MODEL", ["a", "b"], default="a"))])
    assert t.values("app", {"MODEL": "b"})["MODEL"] == "b"


def test_template_json_variable_shadows_a_picker_question(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "MODEL", "type": "integer", "default": 3}],
        phases=[phase(radio("MODEL", ["a", "b"], default="a"))],
        files={"m.txt": '{{printf "%T %v" .MODEL .MODEL}}'},
    )
    assert t.values("app")["MODEL"] == 3.0
    assert render_text(t, "m.txt") == "float64 3"
    # The override goes to the variable (typed as integer); the question,
    # never asked, does not check it against its options even when strict.
    assert t.values("app", {"MODEL": "7"})["MODEL"] == 7
    assert render_text(t, "m.txt", overrides={"MODEL": "7"}) == "int 7"


def test_when_on_phase_and_question(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[
            phase(radio("BACKEND", ["ollama", "vllm"])),
            phase(
                radio("QUANT", ["q4", "q8"]),
                when={"questionId": "BACKEND", "equals": "ollama"},
            ),
            phase(
                text_input("KEY", default="k", when={"questionId": "BACKEND", "in": ["vllm", "x"]}),
            ),
        ],
    )
    assert t.values("app") == {"APP_ID": "app", "BACKEND": "ollama", "QUANT": "q4"}
    assert t.values("app", {"BACKEND": "vllm"}) == {"APP_ID": "app", "BACKEND": "vllm", "KEY": "k"}


def test_when_on_an_absent_question_is_false(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[phase(text_input("X", default="x", when={"questionId": "NOPE", "equals": ""}))],
    )
    assert "X" not in t.values("app")


def test_when_compares_go_v_formatting_of_stored_values(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[
            PORT,
            {"name": "BIG", "type": "integer", "default": 1000000},
            {"name": "ON", "type": "boolean", "default": True},
        ],
        phases=[
            phase(
                text_input("A", default="a", when={"questionId": "PORT", "equals": "8080"}),
                text_input("B", default="b", when={"questionId": "BIG", "equals": "1e+06"}),
                text_input("C", default="c", when={"questionId": "ON", "in": ["true"]}),
                text_input("D", default="d", when={"questionId": "PORT", "equals": "8080.0"}),
            )
        ],
    )
    values = t.values("app")
    assert (values["A"], values["B"], values["C"]) == ("a", "b", "c")
    assert "D" not in values
    overridden = t.values("app", {"BIG": "1000000", "ON": "1"})
    assert "B" not in overridden  # an int formats as 1000000
    assert overridden["C"] == "c"  # ParseBool("1") is true, formatted "true"


def test_walk_is_sequential_and_later_questions_see_earlier_answers(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[
            phase(
                text_input("SECOND", default="2", when={"questionId": "FIRST", "equals": "1"}),
                text_input("FIRST", default="1"),
                text_input("THIRD", default="3", when={"questionId": "FIRST", "equals": "1"}),
            )
        ],
    )
    assert t.values("app") == {"APP_ID": "app", "FIRST": "1", "THIRD": "3"}


# --- strict answers ------------------------------------------------------------


def test_strict_rejects_answers_that_are_not_options(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[
            phase(
                radio("MODEL", ["gemma4:e2b", "qwen2.5:3b"]),
                checkbox("FEAT", ["gpu", "web"], default=""),
            )
        ],
    )
    with pytest.raises(ValuesError) as info:
        t.values("app", {"MODEL": "gemma4"})
    assert info.value.describe().startswith(
        'invalid value for MODEL: "gemma4" is not an option of radio question MODEL '
        "(valid: gemma4:e2b, qwen2.5:3b)"
    )
    assert info.value.variable == "MODEL"
    with pytest.raises(
        ValuesError,
        match=r'^template demo: invalid value for FEAT: "db" is not an option of checkbox',
    ):
        t.values("app", {"FEAT": "gpu,db"})
    assert t.values("app", {"FEAT": "web, gpu"})["FEAT"] == "web, gpu"
    assert t.values("app", {"FEAT": ""})["FEAT"] == ""
    # The CLI accepts anything.
    assert t.values("app", {"MODEL": "gemma4", "FEAT": "x"}, strict=False)["MODEL"] == "gemma4"
