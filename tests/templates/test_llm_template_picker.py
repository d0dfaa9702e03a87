"""The python/llm template's picker: the seventeen options in order, the
default, the sentinel, each option's metadata and the spec's facts in the
Laguna options' comments, the baseline's options kept as they were.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _llm_template_helpers import (
    APP_ID,
    BASELINE_DIR,
    BASELINE_VALUES,
    DEFAULT_MODEL,
    EXPECTED_VALUES,
    LAGUNA_VALUES,
    SENTINEL,
    TEMPLATE_DIR,
    model_question,
    option_values,
)

from wendy_llm.render.template import Template

OPTION_FIELDS = ("label", "size", "parameters", "comments")


# (label, size, parameters) of the new options, from the spec's table.
LAGUNA_METADATA = {
    "laguna-xs-2.1:q4_K_M": ("laguna-xs-2.1", "edge server", "33B/3B active Q4"),
    "laguna-s-2.1:q4_K_M": ("laguna-s-2.1", "workstation+", "118B/8B active Q4"),
    SENTINEL: (
        "laguna-s-2.1 (DFlash \u2022 vLLM, experimental)",
        "workstation+",
        "118B/8B active NVFP4 + 1B draft",
    ),
}


# --- the picker ------------------------------------------------------------------


def test_picker_offers_exactly_the_seventeen_values_in_order() -> None:
    assert option_values(TEMPLATE_DIR) == list(EXPECTED_VALUES)


def test_picker_default_is_gemma4_e2b(template: Template) -> None:
    assert model_question(TEMPLATE_DIR)["default"] == DEFAULT_MODEL
    assert template.values(APP_ID)["OLLAMA_MODEL"] == DEFAULT_MODEL


def test_only_the_sentinel_lacks_a_colon() -> None:
    # An Ollama pull tag always has one; the sentinel must never pass for a tag.
    assert [v for v in option_values(TEMPLATE_DIR) if ":" not in v] == [SENTINEL]


@pytest.mark.parametrize("template_dir", [TEMPLATE_DIR, BASELINE_DIR], ids=["template", "baseline"])
def test_every_option_has_its_four_metadata_fields(template_dir: Path) -> None:
    for option in model_question(template_dir)["options"]:
        for field in OPTION_FIELDS:
            value = option.get(field)
            assert isinstance(value, str) and value.strip(), f"{option['value']}: {field}"


def test_the_dflash_option_says_it_is_experimental() -> None:
    (option,) = [o for o in model_question(TEMPLATE_DIR)["options"] if o["value"] == SENTINEL]
    assert option["comments"].startswith("Experimental:")


def test_laguna_options_carry_the_spec_metadata() -> None:
    options = {o["value"]: o for o in model_question(TEMPLATE_DIR)["options"]}
    for value, (label, size, parameters) in LAGUNA_METADATA.items():
        option = options[value]
        assert (option["label"], option["size"], option["parameters"]) == (label, size, parameters)


def test_the_change_keeps_every_baseline_option_as_it_was() -> None:
    baseline_options = model_question(BASELINE_DIR)["options"]
    kept = [o for o in model_question(TEMPLATE_DIR)["options"] if o["value"] not in LAGUNA_VALUES]
    assert [o["value"] for o in baseline_options] == list(BASELINE_VALUES)
    assert kept == baseline_options


def test_both_templates_declare_the_same_variables() -> None:
    manifests = [
        json.loads((d / "template.json").read_text(encoding="utf-8"))["variables"]
        for d in (TEMPLATE_DIR, BASELINE_DIR)
    ]
    assert manifests[0] == manifests[1]
    port = next(v for v in manifests[0] if v["name"] == "PORT")
    assert (port["type"], port["default"], port["validate"]) == (
        "integer",
        8080,
        {"min": 1, "max": 65535},
    )


def test_picks_cover_every_option_in_order(template: Template) -> None:
    assert [p.answers["OLLAMA_MODEL"] for p in template.picks()] == list(EXPECTED_VALUES)


# --- the spec's facts in the picker's comments ---------------------------------

# Facts the spec gives for the new options, each of which must reach the
# picker's comments (the spec's "facts" column).
LAGUNA_FACTS = {
    "laguna-xs-2.1:q4_K_M": (
        "agentic-coding",
        "256K context",
        "20GB download",
        "59 tok/s decode",
        "Thor",
        "AGX Orin 32GB or larger",
        "not a Pi 5 or an Orin Nano 8GB",
    ),
    "laguna-s-2.1:q4_K_M": (
        "256K context",
        "1M figure belongs to other tags, not q4_K_M",
        "96GB download",
        "re-published",
        "75GB",
        "20.6 tok/s",
        "Thor 128GB / DGX Spark class only",
    ),
    SENTINEL: (
        "~72GB download",
        "vLLM instead of Ollama",
        "128K of the 256K context",
        "KV-cache budget on unified memory",
        "CUDA 13.3",
        "vLLM >= 0.25.1",
    ),
}


@pytest.mark.parametrize("value", sorted(LAGUNA_FACTS))
def test_laguna_option_comments_carry_the_spec_facts(value: str) -> None:
    (option,) = [o for o in model_question(TEMPLATE_DIR)["options"] if o["value"] == value]
    missing = [fact for fact in LAGUNA_FACTS[value] if fact not in option["comments"]]
    assert not missing, f"{value}: comments lack {missing}"
