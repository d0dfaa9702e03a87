"""Go's encoding/json decoding into a struct (``wendy_llm.render.manifest.gojson``).

Each case is a behaviour of Go's ``json.Unmarshal`` a Wendy file depends on;
the expected values are what Go leaves in the struct.
"""

from __future__ import annotations

import pytest

from wendy_llm.render.manifest.gojson import GoJsonSyntaxError, decode
from wendy_llm.render.manifest.gotypes import (
    ANY,
    BOOL,
    FLOAT,
    INT,
    STRING,
    Field,
    Map,
    Pointer,
    Slice,
    Struct,
    go_type_name,
)

INNER = Struct("Inner", (Field("a", STRING), Field("b", INT)))
OUTER = Struct(
    "Outer",
    (
        Field("name", STRING),
        Field("count", INT),
        Field("ratio", FLOAT),
        Field("on", BOOL),
        Field("extra", ANY),
        Field("inner", INNER),
        Field("ptr", Pointer(INNER)),
        Field("items", Slice(INNER)),
        Field("byName", Map(Pointer(INNER))),
    ),
)


def value(text: str) -> dict[str, object]:
    decoded = decode(OUTER, text)
    assert decoded.errors == []
    assert isinstance(decoded.value, dict)
    return decoded.value


def test_absent_fields_hold_go_zero_values() -> None:
    assert value("{}") == {
        "name": "",
        "count": 0,
        "ratio": 0.0,
        "on": False,
        "extra": None,
        "inner": {"a": "", "b": 0},
        "ptr": None,
        "items": None,
        "byName": None,
    }


def test_unknown_keys_are_ignored_and_recorded() -> None:
    decoded = decode(OUTER, '{"name": "x", "nmae": "y", "inner": {"c": 1}}')
    assert decoded.errors == []
    assert decoded.ignored == [((), "nmae"), (("inner",), "c")]


def test_keys_match_exactly_first_then_case_insensitively() -> None:
    assert value('{"NAME": "x"}')["name"] == "x"
    # The Kelvin sign folds to k, as in Go's Unicode simple folding.
    kelvin = decode(Struct("K", (Field("kind", STRING),)), '{"\u212aind": "x"}')
    assert kelvin.value == {"kind": "x"}


def test_the_last_of_repeated_keys_wins_and_is_recorded() -> None:
    decoded = decode(OUTER, '{"name": "a", "Name": "b"}')
    assert decoded.value is not None and decoded.value["name"] == "b"  # type: ignore[index]
    assert decoded.repeated == [((), "Name")]


def test_a_repeated_struct_key_merges_into_the_first() -> None:
    assert value('{"inner": {"a": "x"}, "inner": {"b": 2}}')["inner"] == {"a": "x", "b": 2}
    assert value('{"ptr": {"a": "x"}, "ptr": {"b": 2}}')["ptr"] == {"a": "x", "b": 2}
    items = value('{"items": [{"a": "x"}, {"a": "y"}], "items": [{"b": 1}]}')["items"]
    assert items == [{"a": "x", "b": 1}]


def test_a_repeated_map_key_replaces_the_entry() -> None:
    assert value('{"byName": {"k": {"a": "x"}, "k": {"b": 2}}}')["byName"] == {
        "k": {"a": "", "b": 2}
    }


def test_null_is_a_no_op_for_values_and_nil_for_references() -> None:
    got = value('{"name": null, "count": null, "inner": null, "ptr": null, "items": null}')
    assert (got["name"], got["count"], got["inner"]) == ("", 0, {"a": "", "b": 0})
    assert (got["ptr"], got["items"]) == (None, None)
    assert value('{"byName": {"k": null}}')["byName"] == {"k": None}
    assert value('{"name": "x", "name": null}')["name"] == "x"


def test_numbers_in_interface_values_are_float64() -> None:
    assert value('{"extra": {"n": 8080, "l": [1, "a", true, null]}}')["extra"] == {
        "n": 8080.0,
        "l": [1.0, "a", True, None],
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"count": "1"}', "count: json: cannot unmarshal string into Go value of type int"),
        ('{"count": 1.5}', "count: json: cannot unmarshal number 1.5 into Go value of type int"),
        ('{"count": 1e2}', "count: json: cannot unmarshal number 1e2 into Go value of type int"),
        (
            '{"count": 9223372036854775808}',
            "count: json: cannot unmarshal number 9223372036854775808 into Go value of type int",
        ),
        (
            '{"ratio": 1e400}',
            "ratio: json: cannot unmarshal number 1e400 into Go value of type float64",
        ),
        (
            '{"extra": [1e400]}',
            "extra[0]: json: cannot unmarshal number 1e400 into Go value of type float64",
        ),
        ('{"on": 1}', "on: json: cannot unmarshal number into Go value of type bool"),
        ('{"name": ["x"]}', "name: json: cannot unmarshal array into Go value of type string"),
        ('{"inner": []}', "inner: json: cannot unmarshal array into Go value of type Inner"),
        ('{"items": {}}', "items: json: cannot unmarshal object into Go value of type []Inner"),
        (
            '{"byName": []}',
            "byName: json: cannot unmarshal array into Go value of type map[string]*Inner",
        ),
        ("[]", "json: cannot unmarshal array into Go value of type Outer"),
    ],
)
def test_a_value_of_the_wrong_type_is_a_decode_error(text: str, message: str) -> None:
    decoded = decode(OUTER, text)
    assert [str(e) for e in decoded.errors] == [message]


def test_decoding_goes_on_after_an_error_and_reports_each() -> None:
    decoded = decode(OUTER, '{"count": "1", "name": "x", "on": "yes"}')
    assert [e.path for e in decoded.errors] == [("count",), ("on",)]
    assert decoded.value is not None and decoded.value["name"] == "x"  # type: ignore[index]


def test_int_accepts_negative_zero_and_the_int64_range() -> None:
    assert value('{"count": -0}')["count"] == 0
    assert value('{"count": -9223372036854775808}')["count"] == -(2**63)


@pytest.mark.parametrize("text", ['{"ratio": NaN}', '{"ratio": Infinity}', '{"a": 1,}', ""])
def test_what_go_rejects_as_syntax(text: str) -> None:
    with pytest.raises(GoJsonSyntaxError):
        decode(OUTER, text)


def test_invalid_utf8_in_a_string_becomes_the_replacement_character() -> None:
    decoded = decode(OUTER, b'{"name": "a\xffb"}')
    assert decoded.value is not None and decoded.value["name"] == "a\ufffdb"  # type: ignore[index]


def test_raw_paths_map_field_names_to_the_keys_as_written() -> None:
    decoded = decode(OUTER, '{"Items": [{"A": "x"}]}')
    assert decoded.raw_path(("items", 0, "a")) == ("Items", 0, "A")
    assert decoded.raw_path(("items", 3, "a")) == ("Items", 3, "a")


def test_type_names_print_as_go_does() -> None:
    assert go_type_name(Map(Pointer(Slice(INNER)))) == "map[string]*[]Inner"
    assert go_type_name(ANY) == "interface {}"
