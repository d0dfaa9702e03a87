"""Conformance: the Go standard-library behaviours the CLI inherits (``Atoi``-free
``%v``, ``strconv.Quote``, ``TrimSpace``, regexp, ...), checked against the
real Go functions the helper runs, and the value errors' exact texts."""

from __future__ import annotations

import json
import math
import pickle
import random
import struct
from pathlib import Path

import pytest
from _engine_helpers import helper_round_trips
from _template_helpers import PORT, checkbox, make_template, phase, text_input

from wendy_llm.engine import gofuncs
from wendy_llm.engine.client import shared_renderer
from wendy_llm.errors import AppIdError, DataTypeError, ValuesError
from wendy_llm.render.manifest.load import load_manifest
from wendy_llm.render.values import check_app_id, parse_override

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
    with pytest.raises(
        ValuesError, match=r'^template demo: invalid value for S: "ab" does not match'
    ):
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
    overrides = {"PORT": "4321", "ON": "t", "S": "abc"}
    with helper_round_trips() as batches:
        values = t.values("round-trip-app", overrides)
        # Conversions and checks in one batch; what the walk compares in a second.
        assert len(batches) == 2, batches
        assert (values["A"], values["B"], values["C"]) == ("a", "b", "c")
        assert t.values("round-trip-app", overrides) == values
        assert len(batches) == 2, "a repeated assembly went to the helper again"


def test_app_id_error_texts_exactly() -> None:
    hint = "pass strict=False to render exactly as wendy init would"
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
