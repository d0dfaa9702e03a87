"""Conformance: the data map, exactly as `wendy init` assembles it (spec section 2).

Each rule of section 2 has a row here, checked on a small synthetic template
and, where the type matters, through the real Go engine (``%T`` shows the
Go type the value reaches the template with).  The Go standard-library
behaviours the CLI inherits are checked against the real Go functions.
"""

from __future__ import annotations

import json
import math
import pickle
import random
import struct
from collections.abc import Sequence
from pathlib import Path

import pytest
from _template_helpers import checkbox, make_template, phase, radio, render_text, text_input

from wendy_llm.engine import gofuncs
from wendy_llm.engine.client import shared_renderer
from wendy_llm.errors import AppIdError, DataTypeError, ValuesError
from wendy_llm.render.manifest import load_manifest
from wendy_llm.render.values import check_app_id, parse_override

PORT = {
    "name": "PORT",
    "type": "integer",
    "default": 8080,
    "validate": {"min": 1, "max": 65535},
}
TYPES = '{{printf "%T" .PORT}}'


# --- step 1: APP_ID ------------------------------------------------------------


def test_app_id_comes_first_and_a_manifest_app_id_is_ignored(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "APP_ID", "type": "string", "default": "from-manifest"}, PORT],
    )
    values = t.values("my-app", {"APP_ID": "from-var"})
    assert list(values) == ["APP_ID", "PORT"]
    assert values["APP_ID"] == "my-app"


def test_app_id_is_trimmed_as_go_trims() -> None:
    assert check_app_id("  my-app\t\n", strict=False) == "my-app"
    # Go's TrimSpace keeps U+001C..U+001F (Python's strip() would not).
    assert check_app_id("\x1cmy-app", strict=False) == "\x1cmy-app"
    assert check_app_id("\u3000my-app\u0085", strict=False) == "my-app"


@pytest.mark.parametrize("app_id", ["", "   ", "\t\n"])
def test_empty_app_id_is_an_error_even_when_not_strict(app_id: str) -> None:
    with pytest.raises(AppIdError, match=r"^app id \(APP_ID\) must not be empty$") as info:
        check_app_id(app_id, strict=False)
    assert info.value.variable == "APP_ID"


@pytest.mark.parametrize(
    "app_id",
    ["my-app", "My_App.2", "_private", "a", "9lives", "llm-app", "x" * 200, "yes-please"],
)
def test_strict_app_id_accepts_project_names(app_id: str) -> None:
    assert check_app_id(app_id) == app_id


@pytest.mark.parametrize(
    ("app_id", "fragment"),
    [
        ("-app", "not starting with '-' or '.'"),
        (".app", "not starting with '-' or '.'"),
        ("my app", "use ASCII letters"),
        ("my/app", "use ASCII letters"),
        ("../etc", "use ASCII letters"),
        ("appé", "use ASCII letters"),
        ('a"b', "use ASCII letters"),
        ("a:b", "use ASCII letters"),
        ("true", "reads as a boolean"),
        ("False", "reads as a boolean"),
        ("yes", "reads as a boolean"),
        ("off", "reads as a boolean"),
        ("y", "reads as a boolean"),
        ("N", "reads as a boolean"),
        ("null", "reads as null"),
        ("123", "reads as a number"),
        ("0x1F", "reads as a number"),
        ("0o17", "reads as a number"),
        ("1_000", "reads as a number"),
        ("1e5", "reads as a number"),
        ("1.5", "reads as a number"),
        ("2024-01-02", "reads as a date"),
    ],
)
def test_strict_app_id_rejects_unsafe_ids(app_id: str, fragment: str) -> None:
    with pytest.raises(AppIdError) as info:
        check_app_id(app_id)
    message = str(info.value)
    assert fragment in message
    assert "--no-strict" in message
    # The CLI accepts every one of them.
    assert check_app_id(app_id, strict=False) == app_id


def test_non_strict_app_id_reaches_the_render_unchanged(tmp_path: Path) -> None:
    t = make_template(tmp_path, files={"a.txt": "[{{.APP_ID}}]"})
    assert render_text(t, "a.txt", app_id=" true ", strict=False) == "[true]"


# --- step 2: template.json variables --------------------------------------------


def test_defaults_keep_json_typing_and_overrides_are_converted(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[
            PORT,
            {"name": "DEBUG", "type": "boolean", "default": False},
            {"name": "NAME", "type": "string", "default": "x"},
            {"name": "RATIO", "type": "string", "default": 0.5},
        ],
        files={"t.txt": '{{printf "%T %T %T %T" .PORT .DEBUG .NAME .RATIO}}'},
    )
    assert t.values("a") == {
        "APP_ID": "a",
        "PORT": 8080.0,
        "DEBUG": False,
        "NAME": "x",
        "RATIO": 0.5,
    }
    assert render_text(t, "t.txt") == "float64 bool string float64"
    overridden = {"PORT": "9090", "DEBUG": "T", "NAME": "y", "RATIO": "0.25"}
    assert t.values("a", overridden) == {
        "APP_ID": "a",
        "PORT": 9090,
        "DEBUG": True,
        "NAME": "y",
        "RATIO": "0.25",
    }
    assert render_text(t, "t.txt", overrides=overridden) == "int bool string string"


def test_variables_are_processed_in_file_order(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[
            {"name": "B", "type": "integer"},
            {"name": "A", "type": "integer"},
        ],
    )
    # Both are bad: the first in file order is reported.
    with pytest.raises(ValuesError, match=r"^invalid value for B: "):
        t.values("a", {"A": "x", "B": "y"})
    assert list(t.values("a", {"A": "1", "B": "2"})) == ["APP_ID", "B", "A"]


def test_float_versus_int_typing_is_carried_to_the_output(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[PORT, {"name": "BIG", "type": "integer", "default": 1000000}],
        files={
            "cmp.txt": "{{if eq .PORT 8080}}int{{else}}other{{end}}",
            "show.yaml": 'port: {{.PORT}} big: {{.BIG}} half: {{printf "%v" .PORT}}',
        },
    )
    # From the default: float64, so `eq .PORT 8080` (an int constant) fails.
    with pytest.raises(Exception, match="incompatible types for comparison: float64 and int"):
        t.render("my-app")
    # From --var: an int, so it works.
    tree = t.render("my-app", {"PORT": "8080"})
    assert tree["cmp.txt"] == b"int"
    assert tree["show.yaml"] == b"port: 8080 big: 1e+06 half: 8080"
    tree = t.render("my-app", {"PORT": "8080", "BIG": "1000000"})
    assert tree["show.yaml"] == b"port: 8080 big: 1000000 half: 8080"


def test_negative_zero_default_stays_a_float(tmp_path: Path) -> None:
    manifest = '{"variables": [{"name": "Z", "type": "integer", "default": -0}]}'
    t = make_template(tmp_path, files={"template.json": manifest, "z.txt": "{{.Z}}"})
    value = t.values("a")["Z"]
    assert isinstance(value, float) and math.copysign(1.0, value) < 0
    assert render_text(t, "z.txt") == "-0"


ATOI_CASES = {
    "5": 5, "+5": 5, "-5": -5, "0": 0, "-0": 0, "00012": 12, " 5": None, "5 ": None,
    "1_000": None, "0x10": None, "1e3": None, "": None, "+": None, "-": None, "++5": None,
    "5.0": None, "\uff19": None, "\u0661\u0662": None,
    "9223372036854775807": 9223372036854775807, "9223372036854775808": None,
    "-9223372036854775808": -9223372036854775808, "-9223372036854775809": None, "\t5": None,
    "1" * 5000: None,
}  # fmt: skip


def test_integer_conversion_is_strconv_atoi() -> None:
    assert {s: gofuncs.atoi(s) for s in ATOI_CASES} == ATOI_CASES


BOOL_CASES = {
    "1": True, "t": True, "T": True, "TRUE": True, "true": True, "True": True, "0": False,
    "f": False, "F": False, "FALSE": False, "false": False, "False": False, "tRUE": None,
    "yes": None, "no": None, "on": None, "": None, " true": None, "true ": None, "2": None,
    "TrUe": None,
}  # fmt: skip


def test_boolean_conversion_is_strconv_parsebool() -> None:
    assert {s: gofuncs.parse_bool(s) for s in BOOL_CASES} == BOOL_CASES


@pytest.mark.parametrize(
    ("variable", "raw", "message"),
    [
        (PORT, "x", 'invalid value for PORT: expected integer, got "x"'),
        (PORT, " 80", 'invalid value for PORT: expected integer, got " 80"'),
        (PORT, "1_000", 'invalid value for PORT: expected integer, got "1_000"'),
        (PORT, 'a"b\n', 'invalid value for PORT: expected integer, got "a\\"b\\n"'),
        (
            PORT,
            "9" * 5000,
            f'invalid value for PORT: expected integer, got "{"9" * 64}"... (5000 characters)',
        ),
        (PORT, "0", "PORT must be at least 1"),
        (PORT, "-5", "PORT must be at least 1"),
        (PORT, "65536", "PORT must be at most 65535"),
        (
            {"name": "ON", "type": "boolean"},
            "yes",
            'invalid value for ON: expected boolean, got "yes"',
        ),
        (
            {"name": "SLUG", "type": "string", "validate": {"pattern": "^[a-z]+$"}},
            "Abc",
            'invalid value for SLUG: "Abc" does not match the pattern ^[a-z]+$',
        ),
        (
            {"name": "SLUG", "type": "string", "validate": {"pattern": "^[a-z]+$"}},
            "abc\n",
            'invalid value for SLUG: "abc\\n" does not match the pattern ^[a-z]+$',
        ),
        (
            {"name": "SLUG", "type": "string", "validate": {"pattern": "(?=a)"}},
            "a",
            "invalid validate.pattern for SLUG: error parsing regexp: "
            "invalid or unsupported Perl syntax: `(?=`",
        ),
    ],
)
def test_override_errors_use_the_cli_wording(
    tmp_path: Path, variable: dict[str, object], raw: str, message: str
) -> None:
    t = make_template(tmp_path, variables=[variable])
    name = str(variable["name"])
    with pytest.raises(ValuesError) as info:
        t.values("a", {name: raw})
    assert str(info.value) == message
    assert info.value.variable == name


def test_boundaries_are_inclusive_and_unvalidated_rules_pass(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[
            PORT,
            {"name": "S", "type": "string", "validate": {"min": 5, "pattern": "b"}},
            {"name": "N", "type": "integer", "validate": {"pattern": "^x$", "enum": [1]}},
        ],
    )
    values = t.values("a", {"PORT": "1", "S": "abc", "N": "7"})
    assert values["PORT"] == 1 and values["S"] == "abc" and values["N"] == 7
    assert t.values("a", {"PORT": "65535", "S": "b", "N": "7"})["PORT"] == 65535


def test_pattern_is_unanchored_match_string(tmp_path: Path) -> None:
    t = make_template(
        tmp_path, variables=[{"name": "S", "type": "string", "validate": {"pattern": "[0-9]"}}]
    )
    assert t.values("a", {"S": "abc1def"})["S"] == "abc1def"
    with pytest.raises(ValuesError):
        t.values("a", {"S": "abc"})


def test_defaults_are_not_validated(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[
            {"name": "P", "type": "integer", "default": 70000, "validate": {"max": 10}},
            {
                "name": "S",
                "type": "string",
                "default": "UPPER",
                "validate": {"pattern": "^[a-z]+$"},
            },
            {"name": "B", "type": "boolean", "default": "not-a-bool"},
        ],
    )
    assert t.values("a") == {"APP_ID": "a", "P": 70000.0, "S": "UPPER", "B": "not-a-bool"}


def test_missing_value_without_default_tells_how_to_pass_it(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "TOKEN", "type": "string"}, {"name": "N", "default": None}],
    )
    with pytest.raises(ValuesError) as info:
        t.values("a")
    assert str(info.value) == "missing value for TOKEN: pass --var TOKEN=VALUE"
    assert info.value.variable == "TOKEN"
    # "default": null is no default either.
    with pytest.raises(ValuesError, match=r"^missing value for N: pass --var N=VALUE$"):
        t.values("a", {"TOKEN": "t"})


def test_duplicate_variables_are_processed_in_order(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "X", "default": "first"}, {"name": "X", "default": "second"}],
    )
    assert t.values("a")["X"] == "second"


# --- step 3: unconsumed overrides --------------------------------------------


def test_unconsumed_overrides_are_raw_strings(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[PORT],
        files={"t.txt": '{{printf "%T=%v %T=%v" .EXTRA .EXTRA .FLAG .FLAG}}'},
    )
    overrides = {"EXTRA": "123", "FLAG": "true", "PORT": "80"}
    values = t.values("a", overrides)
    assert values["EXTRA"] == "123" and values["FLAG"] == "true"
    assert render_text(t, "t.txt", overrides=overrides) == "string=123 string=true"


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
    assert str(info.value) == "missing answer for picker question MODEL: pass --var MODEL=VALUE"
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
        ValuesError, match=r"^missing answer for picker question KEY: pass --var KEY=VALUE$"
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
    assert str(info.value).startswith(
        'invalid value for MODEL: "gemma4" is not an option of radio question MODEL '
        "(valid: gemma4:e2b, qwen2.5:3b)"
    )
    assert info.value.variable == "MODEL"
    with pytest.raises(
        ValuesError, match=r'^invalid value for FEAT: "db" is not an option of checkbox'
    ):
        t.values("app", {"FEAT": "gpu,db"})
    assert t.values("app", {"FEAT": "web, gpu"})["FEAT"] == "web, gpu"
    assert t.values("app", {"FEAT": ""})["FEAT"] == ""
    # The CLI accepts anything.
    assert t.values("app", {"MODEL": "gemma4", "FEAT": "x"}, strict=False)["MODEL"] == "gemma4"


# --- Go's functions, as the helper runs them ----------------------------------------
# The value rules call Go's own functions inside the helper; these tables pin
# what those functions answer for the inputs that matter (Go's documented
# behaviour), so a change in how they are called shows up here.


def _float_samples() -> list[float]:
    rng = random.Random(20261129)
    randoms = [rng.uniform(-1e7, 1e7) for _ in range(100)]
    randoms += [rng.random() * 10 ** rng.randint(-30, 30) for _ in range(200)]
    randoms += [float(rng.randint(-(10**9), 10**9)) for _ in range(100)]
    randoms += [struct_float(rng.getrandbits(64)) for _ in range(200)]
    return list(FLOAT_CASES) + [f for f in randoms if math.isfinite(f)]


def struct_float(bits: int) -> float:
    """The float64 with these 64 bits (any exponent, any mantissa)."""
    return float(struct.unpack("<d", bits.to_bytes(8, "little"))[0])


FLOAT_CASES = {
    8080.0: "8080", 1e6: "1e+06", 999999.0: "999999", 1234567.0: "1.234567e+06", 0.5: "0.5",
    0.0001: "0.0001", 0.00001: "1e-05", 1e21: "1e+21", 1e20: "1e+20",
    123456789012.0: "1.23456789012e+11", -0.0: "-0", 1.5e-7: "1.5e-07", 100.0: "100",
    3.14159: "3.14159", 1e100: "1e+100", 5e-324: "5e-324",
    1.7976931348623157e308: "1.7976931348623157e+308", -8080.0: "-8080",
    0.1 + 0.2: "0.30000000000000004", 2.0**53: "9.007199254740992e+15",
    2.0**53 + 2: "9.007199254740994e+15", 1 / 3: "0.3333333333333333", 100000.0: "100000",
    999999.9999: "999999.9999", 0.000123456: "0.000123456",
}  # fmt: skip


def test_format_value_is_fmt_v() -> None:
    assert {f: gofuncs.format_value(f) for f in FLOAT_CASES} == FLOAT_CASES
    assert gofuncs.format_value(0.0) == "0"
    others = [True, False, -42, None, "text", b"\xffx", [1, 2.5, "a"], {"b": 1.0, "a": [True]}]
    assert [gofuncs.format_value(v) for v in others] == [
        "true", "false", "-42", "<nil>", "text", "\udcffx", "[1 2.5 a]", "map[a:[true] b:1]"
    ]  # fmt: skip


def test_format_value_matches_the_engine() -> None:
    samples = _float_samples()[:120]
    data: dict[str, object] = {f"F{i}": f for i, f in enumerate(samples)}
    data.update(B=True, C=False, I=-42, S="text")
    text = "|".join(['{{printf "%v" .' + key + "}}" for key in data])
    rendered = shared_renderer().render(text, data).decode()
    assert rendered.split("|") == [gofuncs.format_value(v) for v in data.values()]


def test_quote_trim_space_and_comma_parts_are_gos() -> None:
    quoted = {
        'a"b\\c\n\t\x00\x7f': '"a\\"b\\\\c\\n\\t\\x00\\x7f"',
        "é☃\u200b\u00a0 \U0001f600": '"é☃\\u200b\\u00a0 😀"',
        "\u2028\ufeff": '"\\u2028\\ufeff"',
        "\x1b[0m": '"\\x1b[0m"',
        "": '""',
        "\udcff": '"\\xff"',  # a byte smuggled in by surrogateescape: invalid UTF-8 to Go
    }
    assert {t: gofuncs.quote(t) for t in quoted} == quoted
    trimmed = {
        "\x1c\x1d x \u0085\u00a0\u3000\v": "\x1c\x1d x",  # Python's strip() drops \x1c too
        " \t": "",
        "\u2000a\u200a": "a",
        "\u200bx\u200b": "\u200bx\u200b",
    }
    assert {t: gofuncs.trim_space(t) for t in trimmed} == trimmed
    assert gofuncs.comma_parts(" a ,b,,\u00a0c\x1c") == ("a", "b", "", "c\x1c")
    assert gofuncs.comma_parts("") == ("",)


def test_texts_go_cannot_receive_are_typed_errors() -> None:
    with pytest.raises(DataTypeError, match="lone surrogate"):
        gofuncs.trim_space("a\ud800")
    with pytest.raises(ValuesError, match=r"^invalid value for PORT: .*lone surrogate"):
        parse_override(
            load_manifest(json.dumps({"variables": [PORT]}).encode()).variables[0], "\ud800"
        )
    with pytest.raises(AppIdError, match=r"^invalid app id: .*lone surrogate"):
        check_app_id("\ud800x")


REGEXP_CASES = [
    ("^[a-z]+$", "abc", True), ("^[a-z]+$", "abc\n", False), ("(?m)^b$", "a\nb\nc", True),
    ("a(?i)b", "aB", True), ("(a(?i)b)c", "aBC", False), (r"\d+", "١٢", False),
    (r"\w", "é", False), (r"\s", "\v", False), (r"\bfoo\b", "éfooé", True),
    ("[[:alpha:]]+", "abc", True),
    ("[[:foo:]]", "a", "error parsing regexp: invalid character class range: `[:foo:]`"),
    ("[[:^alpha:]]", "1", True), (r"a{,5}", "a{,5}", True),
    (r"a{1001}", "a", "error parsing regexp: invalid repeat count: `{1001}`"),
    (r"a**", "a", "error parsing regexp: invalid nested repetition operator: `**`"),
    (r"a*+", "a", "error parsing regexp: invalid nested repetition operator: `*+`"),
    (r"(?=a)", "a", "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"),
    (r"(a)\1", "aa", "error parsing regexp: invalid escape sequence: `\\1`"),
    (r"\12", "\n", True), (r"\x{263a}", "☺", True), (r"\Qa.b\E", "axb", False),
    (r"\z", "", True), (r"\Z", "", "error parsing regexp: invalid escape sequence: `\\Z`"),
    (r"[]a]", "]", True), (r"(?i)k", "\u212a", True), (r"(?i)[^k]", "K", False),
    (r"(?<name>a)", "a", True), (r"(?P<n>a)(?P<n>b)", "ab", True), (r"(?U)a+", "aa", True),
    (r"(?s).", "\n", True), (r"(ab", "ab", "error parsing regexp: missing closing ): `(ab`"),
    (r"[a\D]", "5", False), (r"[^a\D]", "5", True), ("a(?i)*", "aaa", True),
    ("(?i)\\B", "k \u212a", True), (r"^v\d+\.\d+(\.\d+)?$", "v1.2.3", True),
    (r"^[a-z0-9-]{3,63}$", "my-app", True), (r"^\p{Greek}+$", "αβ", True),
    (r"\pL", "1", False),
]  # fmt: skip


@pytest.mark.parametrize(("pattern", "text", "expected"), REGEXP_CASES)
def test_patterns_are_gos_regexp(pattern: str, text: str, expected: bool | str) -> None:
    error = gofuncs.regexp_error(pattern)
    if isinstance(expected, str):
        assert error == expected
    else:
        assert error is None
        assert gofuncs.match_string(pattern, text) is expected


def test_unicode_classes_work_as_in_go(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "S", "type": "string", "validate": {"pattern": r"^\p{Greek}+$"}}],
    )
    assert t.values("a", {"S": "αβ"})["S"] == "αβ"
    with pytest.raises(ValuesError, match=r'^invalid value for S: "ab" does not match'):
        t.values("a", {"S": "ab"})


def test_a_value_assembly_costs_two_round_trips_at_most(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[
            PORT,
            {"name": "ON", "type": "boolean", "default": True},
            {"name": "S", "type": "string", "validate": {"pattern": "^[a-z]+$"}},
        ],
        phases=[
            phase(
                checkbox("FEAT", ["gpu", "web"], default="gpu, web"),
                text_input("A", default="a", when={"questionId": "PORT", "equals": "4321"}),
                text_input("B", default="b", when={"questionId": "FEAT", "contains": "web"}),
                text_input("C", default="c", when={"questionId": "ON", "equals": "true"}),
            )
        ],
    )
    renderer = shared_renderer()
    batches: list[int] = []
    evaluate = renderer.evaluate

    def counting(calls: Sequence[bytes]) -> list[tuple[int, bytes]]:
        batches.append(len(calls))
        return evaluate(calls)

    overrides = {"PORT": "4321", "ON": "t", "S": "abc"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gofuncs, "_answers", {})  # a cold cache
        patch.setattr(renderer, "evaluate", counting)
        values = t.values("round-trip-app", overrides)
        # Conversions and checks in one batch; what the walk compares in a second.
        assert len(batches) == 2, batches
        assert (values["A"], values["B"], values["C"]) == ("a", "b", "c")
        assert t.values("round-trip-app", overrides) == values
        assert len(batches) == 2, "a repeated assembly went to the helper again"


def test_app_id_error_texts_exactly() -> None:
    hint = "pass strict=False (--no-strict) to render exactly as wendy init would"
    with pytest.raises(AppIdError) as info:
        check_app_id("my app")
    assert str(info.value) == (
        "invalid app id \"my app\": use ASCII letters, digits, '.', '_' and '-', not starting "
        f"with '-' or '.' (wendy's project-name rule); {hint}"
    )
    with pytest.raises(AppIdError) as info:
        check_app_id("123")
    assert str(info.value) == (
        'app id "123" reads as a number in YAML, so an unquoted {{.APP_ID}} would change the '
        "structure of a rendered YAML or JSON file; use an id YAML reads as a string "
        f"(e.g. 123-app); {hint}"
    )


def test_values_errors_survive_pickling() -> None:
    for error in [ValuesError("m", variable="V"), AppIdError("a")]:
        copy = pickle.loads(pickle.dumps(error))
        assert (type(copy), str(copy), copy.variable) == (type(error), str(error), error.variable)
