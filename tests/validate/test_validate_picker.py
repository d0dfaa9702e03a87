"""Picker lint (uniqueness, default, option fields, experimental, the colon rule) and sentinels."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from _check_helpers import PICKER

from wendy_llm.validate.checks.picker import check_sentinel_renders, lint_picker
from wendy_llm.validate.rulerun import subject_for
from wendy_llm.validate.rules.file import load_rules, parse_rules

RULES = parse_rules(
    "sentinels:\n  OLLAMA_MODEL:\n    values: [big-dflash]\n"
    "    tag_paths: [compose.services.*.environment.OLLAMA_MODEL]\n"
    "picker: {option_fields: [label, size, parameters, comments]}\n",
    "mini.rules.yaml",
)


def picker(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(PICKER)
    question = doc["phases"][0]["questions"][0]
    for key, value in changes.items():
        question[key] = value
    return doc


def options() -> list[dict[str, str]]:
    return copy.deepcopy(PICKER["phases"][0]["questions"][0]["options"])


def lint(doc: dict[str, Any], with_rules: bool = True) -> list[tuple[str, int | None]]:
    text = json.dumps(doc, indent=2)
    return [(f.message, f.line) for f in lint_picker(text, RULES if with_rules else None)]


def line_with(doc: dict[str, Any], needle: str, nth: int = 1) -> int:
    """The line of the nth line containing ``needle`` in the linted text."""
    lines = json.dumps(doc, indent=2).splitlines()
    hits = [number for number, line in enumerate(lines, start=1) if needle in line]
    return hits[nth - 1]


def test_a_good_picker_passes() -> None:
    assert lint(picker()) == []


def test_duplicate_option_values() -> None:
    opts = options()
    opts.append(dict(opts[1]))
    doc = picker(options=opts)
    # The line of the repeated option's opening brace, just above its value.
    line = line_with(doc, '"value": "qwen2.5:3b"', nth=2) - 1
    assert lint(doc) == [('OLLAMA_MODEL: option "qwen2.5:3b" appears more than once', line)]


def test_default_must_be_an_option() -> None:
    doc = picker(default="gemma4:e9b")
    assert lint(doc) == [
        (
            'OLLAMA_MODEL: the default "gemma4:e9b" is not one of the options',
            line_with(doc, '"default"'),
        )
    ]


def test_checkbox_default_items_must_be_options() -> None:
    opts = [{**o, "value": v} for o, v in zip(options(), ["a:1", "b:2", "big-dflash"], strict=True)]
    found = lint(picker(type="checkbox", default="a:1, c:3", options=opts))
    assert [m for m, _ in found] == ['OLLAMA_MODEL: the default "c:3" is not one of the options']


def test_every_option_needs_its_descriptive_fields() -> None:
    opts = options()
    del opts[0]["size"]
    opts[1]["comments"] = "  "
    assert [m for m, _ in lint(picker(options=opts))] == [
        'OLLAMA_MODEL: option "gemma4:e2b" has no "size" (every option needs label, size, '
        "parameters, comments)",
        'OLLAMA_MODEL: option "qwen2.5:3b" has no "comments" (every option needs label, size, '
        "parameters, comments)",
    ]


def test_without_rules_no_option_field_is_required() -> None:
    # The CLI ignores every key of an option but value and label: the fields are a
    # convention a template opts into (census: false failures on 5 templates).
    opts = [{"value": o["value"]} for o in options()]
    opts[2]["label"] = "experimental backend"
    assert lint(picker(options=opts), with_rules=False) == []
    no_picker_section = parse_rules("version: 1\n", "r.yaml")
    assert lint_picker(json.dumps(picker(options=opts)), no_picker_section) == []


def test_the_rules_file_can_change_the_required_fields() -> None:
    rules = parse_rules("picker: {option_fields: [label]}\n", "r.yaml")
    opts = [{"value": o["value"], "label": o["label"]} for o in options()]
    opts[2]["comments"] = "Experimental: vLLM."
    assert lint_picker(json.dumps(picker(options=opts)), rules) == []


def test_experimental_options_say_so_first() -> None:
    opts = options()
    opts[2]["comments"] = "The vLLM backend (experimental)."
    doc = picker(options=opts)
    assert lint(doc) == [
        (
            'OLLAMA_MODEL: option "big-dflash" is experimental, so its comments must start '
            'with "Experimental:"',
            line_with(doc, "The vLLM backend (experimental)."),
        )
    ]


def test_colon_rule_only_declared_sentinels_may_lack_a_colon() -> None:
    opts = options()
    opts[1]["value"] = "qwen2.5"
    doc = picker(options=opts)
    assert lint(doc) == [
        (
            'OLLAMA_MODEL: option "qwen2.5" has no colon, so it is not an Ollama tag; only a '
            "declared sentinel may lack one",
            line_with(doc, '"value": "qwen2.5"'),
        )
    ]


def test_without_rules_no_question_is_known_to_hold_tags() -> None:
    opts = options()
    opts[1]["value"] = "qwen2.5"
    assert lint(picker(options=opts), with_rules=False) == []


def test_a_sentinel_must_be_an_option_and_lack_a_colon() -> None:
    rules = parse_rules(
        "sentinels:\n  OLLAMA_MODEL: {values: [gone, 'gemma4:e2b', big-dflash]}\n"
        "  NOT_A_QUESTION: {values: [x]}\n",
        "r.yaml",
    )
    found = lint_picker(json.dumps(picker(), indent=2), rules)
    assert [(f.message, f.file) for f in found] == [
        ('OLLAMA_MODEL: the sentinel "gone" is not one of the options', "template.schema.json"),
        (
            'OLLAMA_MODEL: the sentinel "gemma4:e2b" has a colon, so it could pass for an '
            "Ollama tag",
            "template.schema.json",
        ),
        (
            'OLLAMA_MODEL: its default "gemma4:e2b" is the sentinel (declared at r.yaml:2), '
            "so `wendy init` without an answer picks it; the default must be an ordinary option",
            "template.schema.json",
        ),
        ('sentinels: "NOT_A_QUESTION" is not a question of template.schema.json', "r.yaml"),
    ]


def sentinel_check(
    model: str, listed: bool = False, env: str | None = None
) -> list[tuple[str, int | None]]:
    if env is None:
        env = f'      - "OLLAMA_MODEL={model}"\n' if listed else f'      OLLAMA_MODEL: "{model}"\n'
    tree = {
        "docker-compose.yml": (
            f"services:\n  ollama:\n    image: ollama/ollama\n    environment:\n{env}"
            "  web:\n    image: x\n"
        ).encode()
    }
    subject = subject_for(RULES, "x", {"APP_ID": "app"}, tree)
    return [(f.message, f.line) for f in check_sentinel_renders(RULES, subject.documents)]


def test_a_tag_reaching_ollama_is_fine() -> None:
    assert sentinel_check("gemma4:e2b") == []


def test_the_sentinel_is_found_in_an_environment_written_as_a_list() -> None:
    # The tag paths read the normalised Compose model: a list is a mapping
    # there (the finding points at the list's `environment:` line).
    assert sentinel_check("big-dflash", listed=True) == [
        (
            'compose.services.ollama.environment.OLLAMA_MODEL is "big-dflash", a sentinel of '
            "OLLAMA_MODEL, not an Ollama tag: the sentinel must never reach an Ollama pull",
            4,
        )
    ]


def test_the_sentinel_must_never_reach_an_ollama_pull() -> None:
    assert sentinel_check("big-dflash") == [
        (
            'compose.services.ollama.environment.OLLAMA_MODEL is "big-dflash", a sentinel of '
            "OLLAMA_MODEL, not an Ollama tag: the sentinel must never reach an Ollama pull",
            5,
        )
    ]


def test_any_colonless_value_at_a_tag_path_is_not_a_tag() -> None:
    assert sentinel_check("gemma4") == [
        (
            'compose.services.ollama.environment.OLLAMA_MODEL is "gemma4", which is not an Ollama '
            "tag (no colon)",
            5,
        )
    ]


@pytest.mark.parametrize(
    "env",
    ["      OLLAMA_MODEL:\n", "      - OLLAMA_MODEL\n"],  # both: taken from the shell, unset
)
def test_a_tag_path_holding_no_text_shows_the_value_as_json(env: str) -> None:
    [(message, _)] = sentinel_check("", env=env)
    assert message == (
        "compose.services.ollama.environment.OLLAMA_MODEL is null, which is not an Ollama tag "
        "(no colon)"
    )


def image_sentinel_check(model: str) -> list[tuple[str, str | None, int | None]]:
    rules = parse_rules(
        "sentinels:\n  OLLAMA_MODEL:\n    values: [big-dflash]\n"
        "    tag_paths: [dockerfiles.*.environment.values.OLLAMA_MODEL]\n",
        "mini.rules.yaml",
    )
    # The render ships ollama/Dockerfile, but no service builds it (the
    # vLLM pick of a two-backend template): the image would still pull it.
    tree = {
        "docker-compose.yml": b"services:\n  vllm:\n    build: ./vllm\n",
        "vllm/Dockerfile": b"FROM vllm/vllm-openai\n",
        "ollama/Dockerfile": (
            "ARG VERSION=0.32.5\nFROM ollama/ollama:${VERSION}\n"
            f'ENV OLLAMA_HOST=0.0.0.0:11434 \\\n    OLLAMA_MODEL="{model}"\n'
        ).encode(),
    }
    subject = subject_for(rules, "x", {"APP_ID": "app"}, tree)
    found = check_sentinel_renders(rules, subject.documents)
    return [(f.message, f.file, f.line) for f in found]


def test_the_sentinel_in_an_image_no_service_builds_is_found() -> None:
    assert image_sentinel_check("gemma4:e2b") == []
    assert image_sentinel_check("big-dflash") == [
        (
            'dockerfiles.ollama/Dockerfile.environment.values.OLLAMA_MODEL is "big-dflash", a '
            "sentinel of OLLAMA_MODEL, not an Ollama tag: the sentinel must never reach an "
            "Ollama pull",
            "ollama/Dockerfile",
            4,
        )
    ]


def test_the_llm_templates_picker_passes_with_its_rules() -> None:
    repo = Path(__file__).resolve().parents[2]
    text = (repo / "templates" / "python" / "llm" / "template.schema.json").read_bytes()
    rules = load_rules(repo / "golden" / "python" / "llm.rules.yaml")
    assert lint_picker(text, rules) == []
    assert rules.sentinels["OLLAMA_MODEL"].values == ("laguna-s-2.1-dflash",)
