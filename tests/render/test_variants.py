"""The gate's inputs: the canonical one and the variant derived from ``template.json``."""

from __future__ import annotations

from pathlib import Path

from _template_helpers import make_template

from wendy_llm import load_template
from wendy_llm.render.variants import (
    CANONICAL,
    VARIANT_APP_ID,
    Inputs,
    gate_inputs,
    variant_inputs,
)

REPO = Path(__file__).resolve().parents[2]


def test_the_llm_variant_has_a_dotted_app_id_and_another_port_typed_as_var_types_it() -> None:
    template = load_template(REPO / "templates" / "python" / "llm")
    canonical, variant = gate_inputs(template)
    assert canonical == CANONICAL and canonical.label == "canonical"
    assert variant == Inputs("my.app-2", {"PORT": "9080"})
    assert variant.label == "app-id=my.app-2 PORT=9080"
    answers = {"OLLAMA_MODEL": "gemma4:e2b"}
    # The default stays a JSON-decoded float64; --var makes an int.
    default = template.values(canonical.app_id, canonical.with_answers(answers))
    varied = template.values(variant.app_id, variant.with_answers(answers))
    assert (type(default["PORT"]), default["PORT"], default["APP_ID"]) == (float, 8080.0, "llm-app")
    assert (type(varied["PORT"]), varied["PORT"], varied["APP_ID"]) == (int, 9080, VARIANT_APP_ID)
    assert varied["OLLAMA_MODEL"] == "gemma4:e2b"
    assert variant_inputs(template) == variant  # deterministic


def test_an_integer_takes_the_first_offset_its_range_accepts(tmp_path: Path) -> None:
    variables: list[dict[str, object]] = [
        {"name": "WIDE", "type": "integer", "default": 8080},
        {"name": "LOW", "type": "integer", "default": 5, "validate": {"min": 1, "max": 60}},
        {"name": "NEG", "type": "integer", "default": -30, "validate": {"min": -90, "max": 0}},
        {"name": "STUCK", "type": "integer", "default": 7, "validate": {"min": 7, "max": 7}},
        {"name": "NODEFAULT", "type": "integer"},
        {"name": "FRACTION", "type": "integer", "default": 2.5},
    ]
    template = make_template(tmp_path, variables=variables)
    assert dict(variant_inputs(template).overrides) == {"WIDE": "9080", "LOW": "15", "NEG": "-20"}


def test_an_integer_never_takes_a_number_the_template_already_holds(tmp_path: Path) -> None:
    # 9080 and 7080 are another service's ports: the variant must not collide.
    files = {"docker-compose.yml": 'ports: ["9080:9080", "{{.PORT}}:{{.PORT}}"]\nx: -7080\n'}
    variables: list[dict[str, object]] = [{"name": "PORT", "type": "integer", "default": 8080}]
    template = make_template(tmp_path, variables=variables, files=files)
    assert dict(variant_inputs(template).overrides) == {"PORT": "8180"}


def test_identifier_strings_get_dots_and_dashes_where_their_pattern_allows(
    tmp_path: Path,
) -> None:
    variables: list[dict[str, object]] = [
        {"name": "SERVICE", "type": "string", "default": "api"},
        {
            "name": "BUS",
            "type": "string",
            "default": "i2c-1",
            "validate": {"pattern": "^i2c-[0-9]+$"},
        },
        {"name": "GREETING", "type": "string", "default": "Hello from Wendy"},
        {"name": "DEVICE", "type": "string", "default": "/dev/ttyUSB0"},
        {"name": "NUMBERISH", "type": "string", "default": "123"},
        {"name": "FLAG", "type": "boolean", "default": True},
    ]
    template = make_template(tmp_path, variables=variables)
    variant = variant_inputs(template)
    assert dict(variant.overrides) == {"SERVICE": "api.v-2"}
    assert variant.label == "app-id=my.app-2 SERVICE=api.v-2"
    values = template.values(variant.app_id, variant.with_answers({}))
    assert values["SERVICE"] == "api.v-2" and values["BUS"] == "i2c-1" and values["FLAG"] is True


def test_a_template_without_variables_still_varies_the_app_id(tmp_path: Path) -> None:
    template = make_template(tmp_path)
    assert gate_inputs(template) == (CANONICAL, Inputs(VARIANT_APP_ID, {}))
    assert gate_inputs(template)[1].label == "app-id=my.app-2"


def test_a_picks_answers_win_over_the_variant(tmp_path: Path) -> None:
    variant = Inputs("my.app-2", {"MODEL": "x", "PORT": "9080"})
    assert variant.with_answers({"MODEL": "y"}) == {"MODEL": "y", "PORT": "9080"}
