"""Conformance: the data map, exactly as `wendy init` assembles it (spec section 2).

Each rule of section 2 has a row here, checked on a small synthetic template
and, where the type matters, through the real Go engine (``%T`` shows the
Go type the value reaches the template with).  The Go standard-library
behaviours the CLI inherits are checked against the real Go functions.
"""

from __future__ import annotations

import math
import pickle
import random
import struct
from pathlib import Path

import pytest
from _go_oracle import go_atoi, go_float_v, go_match, go_parse_bool, go_strings
from _template_helpers import checkbox, make_template, phase, radio, render_text, text_input

from wendy_llm.engine.client import shared_renderer
from wendy_llm.errors import AppIdError, ValuesError
from wendy_llm.render import gostd
from wendy_llm.render.goregexp import GoRegexpError, GoRegexpUnsupported, go_match_string
from wendy_llm.render.gostd import go_format_value, go_quote, go_trim_space
from wendy_llm.render.values import check_app_id

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


ATOI_CASES = [
    "5", "+5", "-5", "0", "-0", "00012", " 5", "5 ", "1_000", "0x10", "1e3", "", "+", "-",
    "++5", "5.0", "\uff19", "\u0661\u0662", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "\t5",
]  # fmt: skip


def test_integer_conversion_is_strconv_atoi() -> None:
    assert [gostd.go_atoi(s) for s in ATOI_CASES] == go_atoi(ATOI_CASES)


BOOL_CASES = [
    "1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False",
    "tRUE", "yes", "no", "on", "", " true", "true ", "2", "TrUe",
]  # fmt: skip


def test_boolean_conversion_is_strconv_parsebool() -> None:
    assert [gostd.go_parse_bool(s) for s in BOOL_CASES] == go_parse_bool(BOOL_CASES)


@pytest.mark.parametrize(
    ("variable", "raw", "message"),
    [
        (PORT, "x", 'invalid value for PORT: expected integer, got "x"'),
        (PORT, " 80", 'invalid value for PORT: expected integer, got " 80"'),
        (PORT, "1_000", 'invalid value for PORT: expected integer, got "1_000"'),
        (PORT, 'a"b\n', 'invalid value for PORT: expected integer, got "a\\"b\\n"'),
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


# --- Go's formatting and regexps, checked against Go itself ----------------------


def _float_samples() -> list[float]:
    rng = random.Random(20261129)
    fixed = [
        8080.0, 1e6, 999999.0, 1234567.0, 0.5, 0.0001, 0.00001, 1e21, 1e20, 123456789012.0,
        -0.0, 0.0, 1.5e-7, 100.0, 3.14159, 1e100, 5e-324, 1.7976931348623157e308, -8080.0,
        0.1 + 0.2, 2.0**53, 2.0**53 + 2, 1 / 3, 100000.0, 999999.9999, 0.000123456,
    ]  # fmt: skip
    randoms = [rng.uniform(-1e7, 1e7) for _ in range(100)]
    randoms += [rng.random() * 10 ** rng.randint(-30, 30) for _ in range(200)]
    randoms += [float(rng.randint(-(10**9), 10**9)) for _ in range(100)]
    randoms += [struct_float(rng.getrandbits(64)) for _ in range(200)]
    return fixed + [f for f in randoms if math.isfinite(f)]


def struct_float(bits: int) -> float:
    """The float64 with these 64 bits (any exponent, any mantissa)."""
    return float(struct.unpack("<d", bits.to_bytes(8, "little"))[0])


def test_go_format_value_matches_fmt_v() -> None:
    samples = _float_samples()
    assert [go_format_value(f) for f in samples] == go_float_v(samples)


def test_go_format_value_matches_the_engine() -> None:
    samples = _float_samples()[:120]
    data: dict[str, object] = {f"F{i}": f for i, f in enumerate(samples)}
    data.update(B=True, C=False, I=-42, S="text")
    text = "|".join(['{{printf "%v" .' + key + "}}" for key in data])
    rendered = shared_renderer().render(text, data).decode()
    assert rendered.split("|") == [go_format_value(v) for v in data.values()]


def test_go_quote_and_trim_space_match_go() -> None:
    texts = ['a"b\\c\n\t\x00\x7f', "é☃\u200b\u00a0 \U0001f600", "\u2028\ufeff", "\x1b[0m", ""]
    assert [go_quote(t) for t in texts] == go_strings("quote", texts)
    spaced = ["\x1c\x1d x \u0085\u00a0\u3000\v", " \t", "\u2000a\u200a", "\u200bx\u200b"]
    assert [go_trim_space(t) for t in spaced] == go_strings("trimspace", spaced)


REGEXP_CASES = [
    ("^[a-z]+$", "abc"), ("^[a-z]+$", "abc\n"), ("(?m)^b$", "a\nb\nc"), ("a(?i)b", "aB"),
    ("(a(?i)b)c", "aBC"), (r"\d+", "١٢"), (r"\w", "é"), (r"\s", "\v"), (r"\bfoo\b", "éfooé"),
    ("[[:alpha:]]+", "abc"), ("[[:foo:]]", "a"), ("[[:^alpha:]]", "1"), (r"a{,5}", "a{,5}"),
    (r"a{1001}", "a"), (r"a**", "a"), (r"a*+", "a"), (r"(?=a)", "a"), (r"(a)\1", "aa"),
    (r"\12", "\n"), (r"\x{263a}", "☺"), (r"\Qa.b\E", "axb"), (r"\z", ""), (r"\Z", ""),
    (r"[]a]", "]"), (r"(?i)k", "\u212a"), (r"(?i)[^k]", "K"), (r"(?<name>a)", "a"),
    (r"(?P<n>a)(?P<n>b)", "ab"), (r"(?U)a+", "aa"), (r"(?s).", "\n"), (r"(ab", "ab"),
    (r"[a\D]", "5"), (r"[^a\D]", "5"), ("a(?i)*", "aaa"), ("(?i)\\B", "k \u212a"),
    (r"^v\d+\.\d+(\.\d+)?$", "v1.2.3"), (r"^[a-z0-9-]{3,63}$", "my-app"),
]  # fmt: skip


def _compare_with_go(cases: list[tuple[str, str]]) -> list[str]:
    mismatches = []
    for (pattern, text), go in zip(cases, go_match(cases), strict=True):
        try:
            ours, error = go_match_string(pattern, text), ""
        except GoRegexpUnsupported:
            continue  # documented: the translation refuses instead of guessing
        except GoRegexpError as exc:
            ours, error = False, str(exc)
        if bool(error) != bool(go.error) or ours != go.match:
            mismatches.append(f"{pattern!r} on {text!r}: go={go} ours={ours} {error}")
    return mismatches


def test_go_regexp_translation_matches_go_on_known_cases() -> None:
    assert _compare_with_go(REGEXP_CASES) == []


def test_go_regexp_translation_matches_go_on_random_patterns() -> None:
    rng = random.Random(7)
    tokens = [
        "a", "b", "K", "k", "\u212a", "é", "1", "_", "-", ".", "^", "$", "*", "+", "?", "{2}",
        "{1,}", "{,2}", "{", "}", "(", ")", "(?:", "(?i)", "(?m)", "(?s)", "(?i:", "|", "[",
        "]", "[^", r"\d", r"\D", r"\w", r"\W", r"\s", r"\S", r"\b", r"\B", r"\A", r"\z", r"\.",
        r"\n", "[[:alpha:]]", "[[:^digit:]]", r"\x41", r"\101", "a-z", r"\Qa*\E", "\n", " ",
    ]  # fmt: skip
    chars = ["a", "b", "K", "k", "\u212a", "é", "1", "_", "-", ".", "\n", " ", "A", "\u017f", "{"]
    cases = [
        (
            "".join(rng.choice(tokens) for _ in range(rng.randint(1, 7))),
            "".join(rng.choice(chars) for _ in range(rng.randint(0, 6))),
        )
        for _ in range(3000)
    ]
    assert _compare_with_go(cases) == []


def test_unsupported_go_regexp_is_reported_not_guessed(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "S", "type": "string", "validate": {"pattern": r"^\p{Greek}+$"}}],
    )
    with pytest.raises(ValuesError, match=r"^invalid validate.pattern for S: .*Unicode class"):
        t.values("a", {"S": "αβ"})


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
