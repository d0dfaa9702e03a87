"""Conformance: the data map `wendy init` assembles, steps 1 to 3: the app id, the
``template.json`` variables, the other overrides (docs/wendy-init-semantics.md,
section 3).

Each rule has a row here, checked on a small synthetic template and, where the
type matters, through the real Go engine (``%T`` shows the Go type the value
reaches the template with). The picker walk is in test_conformance_picker.py,
Go's own functions in test_conformance_gofuncs.py.
"""

from __future__ import annotations

import math
import string
from pathlib import Path

import pytest
import yaml
from _template_helpers import PORT, make_template, render_text

from wendy_llm.engine import gofuncs
from wendy_llm.errors import AppIdError, ValuesError, cli_text
from wendy_llm.render import values
from wendy_llm.render.overrides import UnknownVariableWarning
from wendy_llm.render.values import check_app_id

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
    assert "strict=False" in message  # the library's advice; the CLI's says --no-strict
    assert "--no-strict" in cli_text(info.value)
    # The CLI accepts every one of them.
    assert check_app_id(app_id, strict=False) == app_id


def test_app_ids_skip_pyyaml_only_where_pyyaml_would_read_a_string(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first-character shortcut (PyYAML is imported only for ids that may
    not be strings) is PyYAML's own dispatch, and gives what asking PyYAML
    gives for every id of up to two characters and for words of every resolver."""
    assert values._YAML_TYPED_FIRST | {""} == set(yaml.SafeLoader.yaml_implicit_resolvers)
    alphabet = string.ascii_letters + string.digits + "._-"
    ids = [a + b for a in alphabet[:-2] for b in ["", *alphabet]]
    ids += ["true", "Off", "NULL", "nan", "inf", "2024-01-02", "1_000", "o1", "Tango", "zz"]
    shortcut = [values._yaml_kind.__wrapped__(app_id) for app_id in ids]
    monkeypatch.setattr(values, "_YAML_TYPED_FIRST", frozenset(alphabet))
    assert shortcut == [values._yaml_kind.__wrapped__(app_id) for app_id in ids]


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
    with pytest.raises(ValuesError, match=r"^template demo: invalid value for B: "):
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
    assert info.value.describe() == message
    assert str(info.value) == f"template {t.id}: {message}"
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
    # Advice for a library caller; the command line's names --var.
    assert str(info.value) == (
        'template demo: missing value for TOKEN; give it in the overrides ({"TOKEN": ...})'
    )
    assert cli_text(info.value) == "template demo: missing value for TOKEN; pass --var TOKEN=VALUE"
    assert info.value.variable == "TOKEN"
    # "default": null is no default either.
    with pytest.raises(ValuesError, match=r"^template demo: missing value for N; give it"):
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
    # Names the template does not declare: an error in strict mode (issue 31),
    # kept as raw strings as by wendy init without it.
    with pytest.warns(UnknownVariableWarning, match="unknown variable (EXTRA|FLAG)"):
        values = t.values("a", overrides, strict=False)
    assert values["EXTRA"] == "123" and values["FLAG"] == "true"
    with pytest.warns(UnknownVariableWarning):
        text = render_text(t, "t.txt", overrides=overrides, strict=False)
    assert text == "string=123 string=true"
