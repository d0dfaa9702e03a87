"""The rules format's selectors, on small real renders: service and volume
traits, the baseline selector, @selectors in paths.

Every render goes through the real ``docker-compose config`` (the normalised
model) and the device view, as ``check`` makes them (``tests/_rules_helpers.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _rules_helpers import BACKEND_DOCKERFILE, findings, one

# --- service traits --------------------------------------------------------


@pytest.mark.parametrize(
    ("selector", "chosen"),
    [
        ("{name: back*}", ["backend"]),
        ("{image: 'ollama/ollama*'}", ["backend"]),  # the final base, through a stage and an ARG
        ("{image: 'docker.io/ollama/ollama:0.32.5'}", ["backend"]),  # qualified spelling
        ("{image: 'ubuntu:*'}", ["web"]),
        ("{port: 11434}", ["backend"]),
        ("{published_port: 3000}", ["web"]),  # long syntax
        ("{target_port: [3000, 11434]}", ["backend", "web"]),
        ("{mount: /models}", ["backend"]),
        ("{mount: '/d*'}", ["web"]),  # long syntax
        ("{env: 'OLLAMA_*'}", ["backend"]),  # image ENV
        ("{compose_env: OPENAI_API_KEY}", ["web"]),  # a list in the file
        ("{image_env: OPENAI_API_KEY}", ["web"]),
        ("{compose_env: 'OLLAMA_*'}", []),
        ("{env: ['*', '!OLLAMA_*', '!WEBUI_*', '!PORT', '!OPENAI_API_KEY']}", []),
        ("{build_context: backend/}", ["backend"]),  # ./backend, backend and backend/ are one
        ("{build_context: ./web}", ["web"]),  # the mapping form
        ("{context_dockerfile_from: 'ollama/*'}", ["backend"]),
        ("{any: [{port: 11434}, {name: web}]}", ["backend", "web"]),
        ("{all: [{port: 11434}, {name: web}]}", []),
        ("{port: 11434, name: backend}", ["backend"]),  # several traits: all must hold
        ("{not: {port: 11434}}", ["web"]),
    ],
)
def test_service_traits(selector: str, chosen: list[str]) -> None:
    found = one(f"{{services: {selector}, absent: true}}")
    assert sorted(m.split('service "')[1].split('"')[0] for m in found) == chosen


def test_a_port_trait_whose_variable_is_not_a_number_says_so() -> None:
    assert one("{services: {port: '${APP_ID}'}, absent: true}") == [
        't.rules.yaml:4: rule "r": cannot be checked: the port "my.app" is not a number'
    ]


def test_a_selected_service_is_named_with_its_line_and_every_trait() -> None:
    found = one(
        "{services: ollama, absent: true, message: no Ollama here}",
        "  services:\n    ollama: {any: [{image: 'ollama/ollama*'}, {port: 11434}, "
        "{env: 'OLLAMA_*'}]}\n",
    )
    assert found == [
        'docker-compose.yml:2: rule "r": service "backend" is ollama (its build ends on the image '
        "ollama/ollama:0.32.5 (backend/Dockerfile); it publishes port 11434 (11434:11434); its "
        "image sets OLLAMA_HOST, OLLAMA_MODELS (backend/Dockerfile)), which must be absent "
        "(no Ollama here)"
    ]


def test_present_and_count() -> None:
    assert one("{services: {port: 1}, present: true}") == [
        't.rules.yaml:4: rule "r": no service matches port 1 (one must)'
    ]
    assert one("{services: {name: '*'}, count: 1}") == [
        't.rules.yaml:4: rule "r": 2 services match name * ("backend", "web"), expected 1'
    ]
    assert one("{services: {name: web}, count: 1}") == []


# --- volume traits, the baseline ---------------------------------------------


@pytest.mark.parametrize(
    ("selector", "chosen"),
    [
        ("{name: '${APP_ID}-models'}", ["my.app-models"]),  # ${VAR} in a trait
        ("{name: shared-data}", ["web-data"]),  # the storage name written for it
        ("{target: /data}", ["web-data"]),
        ("{mounted_by: {port: 11434}}", ["my.app-models"]),
        ("{mounted_by: {name: nobody}}", []),
    ],
)
def test_volume_traits(selector: str, chosen: list[str]) -> None:
    found = one(f"{{volumes: {selector}, absent: true}}")
    assert sorted(m.split('volume "')[1].split('"')[0] for m in found) == chosen


def test_a_baseline_selector_without_a_baseline_says_why() -> None:
    assert one("{volumes: {baseline: {name: '*'}}, absent: true}") == [
        't.rules.yaml:4: rule "r": cannot be checked: no stored baseline was given'
    ]


def test_a_baseline_selector_reads_the_baseline_rendered_with_the_same_answers(
    tmp_path: Path,
) -> None:
    base = tmp_path / "golden" / "baseline" / "py" / "t"
    (base / "backend").mkdir(parents=True)
    (base / "template.json").write_text('{"variables": [{"name": "MODEL", "default": "x"}]}')
    (base / "backend" / "Dockerfile").write_bytes(BACKEND_DOCKERFILE)
    (base / "docker-compose.yml").write_text(
        "services:\n  old:\n    build: ./backend\n    environment: {M: '{{.MODEL}}'}\n"
        "    volumes: ['{{.APP_ID}}-{{.MODEL}}:/models']\nvolumes:\n  '{{.APP_ID}}-{{.MODEL}}':\n"
    )
    rules = (
        "rules:\n  - name: r\n    assert:\n"
        "      - {volumes: {baseline: {mounted_by: {image: 'ollama/*'}}}, absent: true}\n"
    )
    golden = tmp_path / "golden"
    # The baseline renders the answer into the volume's name.
    assert findings(rules, golden_root=golden, answers={"MODEL": "other"}) == []
    assert findings(rules, golden_root=golden, answers={"MODEL": "models"}) == [
        'docker-compose.yml:20: rule "r": volume "my.app-models" matches baseline mounted_by '
        f"image ollama/* (the baseline {base} rendered with MODEL=models (app id my.app) has a "
        'volume named my.app-models: service "old" mounts it at /models (its build ends on the '
        "image ollama/ollama:0.32.5 (backend/Dockerfile))), which must be absent"
    ]


# --- @selectors in paths -------------------------------------------------------


def test_a_path_selects_services_by_identity() -> None:
    selectors = "  services:\n    front: {published_port: '${PORT}'}\n"
    assert one("{path: compose.services.@front.build.context, equals: ./web}", selectors) == []
    assert (
        one("{path: compose.services.@front.environment.PORT, equals: '${PORT}'}", selectors) == []
    )
    assert (
        one("{path: device.services.@front.environment.values.PORT, equals: '3000'}", selectors)
        == []
    )
    assert one("{path: compose.services.@front.environment.NOPE, present: true}", selectors) == [
        'docker-compose.yml:8: rule "r": compose.services.@front.environment.NOPE '
        '(@front: "web") is missing'
    ]


def test_a_path_whose_selector_selects_nothing_says_so() -> None:
    selectors = "  services:\n    none: {port: 1}\n"
    assert one("{path: compose.services.@none.build, present: true}", selectors) == [
        'docker-compose.yml:1: rule "r": compose.services.@none.build (@none: nothing is none) '
        "is missing"
    ]
