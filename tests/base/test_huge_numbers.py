"""Numbers too big for Go or for Python's int parser: typed errors, short messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _cli_helpers import run_module
from _template_helpers import make_template, write_files

from wendy_llm.errors import ManifestError, ValuesError
from wendy_llm.render.manifest.load import load_manifest, load_picker

DIGITS = "9" * 5000
PORT = {"name": "PORT", "type": "integer", "default": 8080, "validate": {"min": 1}}
CUT = f'"{"9" * 64}"... (5000 characters)'


def test_a_5000_digit_var_is_the_cli_integer_error_cut_short(tmp_path: Path) -> None:
    t = make_template(tmp_path, variables=[PORT])
    with pytest.raises(ValuesError) as caught:
        t.values("a", {"PORT": DIGITS})
    assert caught.value.describe() == f"invalid value for PORT: expected integer, got {CUT}"
    assert str(caught.value).startswith("template demo: invalid value for PORT:")
    assert caught.value.variable == "PORT"


def test_a_5000_digit_var_on_the_command_line_exits_2(tmp_path: Path) -> None:
    t = make_template(tmp_path, variables=[PORT], files={"a.txt": "{{.PORT}}"})
    assert t.root is not None
    run = run_module(
        "render", str(t.root), "--app-id", "a", "--var", f"PORT={DIGITS}", "--out", "out",
        cwd=tmp_path,
    )  # fmt: skip
    assert (run.code, run.out) == (2, "")
    assert (
        run.err
        == f"wendy-llm: error: template demo: invalid value for PORT: expected integer, got {CUT}\n"
    )


@pytest.mark.parametrize("number", [DIGITS, "-" + DIGITS])
def test_a_5000_digit_number_in_a_manifest_is_gos_range_error(number: str) -> None:
    manifest = '{"variables": [{"name": "P", "default": N}]}'.replace("N", number)
    with pytest.raises(ManifestError) as caught:
        load_manifest(manifest.encode())
    assert str(caught.value) == (
        f"template.json: variables[0].default: json: cannot unmarshal number {number} into Go"
        " value of type float64"
    )


@pytest.mark.parametrize("number", [DIGITS, "-" + DIGITS])
def test_a_5000_digit_number_go_ignores_loads(number: str) -> None:
    # Go skips fields it does not read; Python's int() must not choke on them.
    picker = '{"phases": [{"questions": [], "size": N}]}'.replace("N", number)
    assert load_picker(picker.encode()).phases[0].questions == ()
    manifest = '{"variables": [{"name": "P", "x": N}]}'.replace("N", number)
    assert load_manifest(manifest.encode()).variables[0].name == "P"


def test_a_5000_digit_number_in_template_json_exits_2(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "t",
        {
            "template.json": '{"variables": [{"name": "P", "validate": {"min": N}}]}'.replace(
                "N", DIGITS
            )
        },
    )
    run = run_module("render", str(root), "--app-id", "a", "--out", "out", cwd=tmp_path)
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        "wendy-llm: error: template t: template.json: variables[0].validate.min: json: cannot"
        f" unmarshal number {DIGITS} into Go value of type float64\n"
    )


def test_numbers_within_range_still_load() -> None:
    big = "1" + "0" * 300  # a float64 still holds it
    loaded = load_manifest(json.dumps({"variables": [{"name": "P", "default": int(big)}]}).encode())
    assert loaded.variables[0].default == float(big)
