"""The rules format's selectors, relations and text assertions, on small real renders.

Every render goes through the real ``docker-compose config`` (the normalised
model) and the device view, as ``check`` makes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from wendy_llm.errors import RulesError
from wendy_llm.validate.compose import ComposeValidator
from wendy_llm.validate.rulerun import subject_for
from wendy_llm.validate.rules import parse_rules
from wendy_llm.validate.topology import check_topology

COMPOSE_RUNS = ComposeValidator()
VALUES: Mapping[str, object] = {"APP_ID": "my.app", "PORT": 3000, "MODEL": "m:1"}

BACKEND_DOCKERFILE = b"""\
ARG VERSION=0.32.5
FROM ollama/ollama:${VERSION} AS base
FROM base
ENV OLLAMA_HOST=0.0.0.0:11434 \\
    OLLAMA_MODELS=/models/ollama
"""
WEB_DOCKERFILE = b"""\
FROM ubuntu:24.04
ARG PORT=3000
ENV WEBUI_NAME="x" \\
    PORT=${PORT} \\
    OPENAI_API_KEY=secret
"""
COMPOSE = b"""\
services:
  backend:
    build: ./backend
    ports: ["11434:11434"]
    volumes: ["my.app-models:/models"]
  web:
    build: {context: ./web, args: {PORT: "3000"}}
    environment:
      - OPENAI_API_KEY=secret
      - PORT=3000
    ports:
      - target: 3000
        published: "3000"
    volumes:
      - type: volume
        source: web-data
        target: /data
    depends_on: {backend: {condition: service_started}}
volumes:
  my.app-models:
  web-data:
    name: shared-data
"""
TREE: Mapping[str, bytes] = {
    "docker-compose.yml": COMPOSE,
    "backend/Dockerfile": BACKEND_DOCKERFILE,
    "web/Dockerfile": WEB_DOCKERFILE,
    "web/entrypoint.sh": b'#!/bin/sh\nKEY="${OPENAI_API_KEY:-secret}"\nexec serve --port 3000\n',
}


def findings(
    rules_text: str,
    tree: Mapping[str, bytes] = TREE,
    *,
    golden_root: Path | None = None,
    answers: Mapping[str, str] | None = None,
) -> list[str]:
    rules = parse_rules(rules_text, "t.rules.yaml")
    template_id = None if golden_root is None else "py/t"
    subject = subject_for(
        rules,
        "p",
        VALUES,
        tree,
        golden_root=golden_root,
        template_id=template_id,
        answers=answers,
        compose=COMPOSE_RUNS,
    )
    return [f"{f.file}:{f.line}: {f.message}" for f in check_topology(rules, subject)]


def one(assertion: str, selectors: str = "") -> list[str]:
    head = f"selectors:\n{selectors}" if selectors else ""
    return findings(f"{head}rules:\n  - name: r\n    assert:\n      - {assertion}\n")


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
    assert sorted(m.split("service '")[1].split("'")[0] for m in found) == chosen


def test_a_selected_service_is_named_with_its_line_and_every_trait() -> None:
    found = one(
        "{services: ollama, absent: true, message: no Ollama here}",
        "  services:\n    ollama: {any: [{image: 'ollama/ollama*'}, {port: 11434}, "
        "{env: 'OLLAMA_*'}]}\n",
    )
    assert found == [
        "docker-compose.yml:2: rule 'r': service 'backend' is ollama (its build ends on the image "
        "ollama/ollama:0.32.5 (backend/Dockerfile); it publishes port 11434 (11434:11434); its "
        "image sets OLLAMA_HOST, OLLAMA_MODELS (backend/Dockerfile)), which must be absent "
        "(no Ollama here)"
    ]


def test_present_and_count() -> None:
    assert one("{services: {port: 1}, present: true}") == [
        "t.rules.yaml:4: rule 'r': no service matches port 1 (one must)"
    ]
    assert one("{services: {name: '*'}, count: 1}") == [
        "t.rules.yaml:4: rule 'r': 2 services match name * ('backend', 'web'), expected 1"
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
    assert sorted(m.split("volume '")[1].split("'")[0] for m in found) == chosen


def test_a_baseline_selector_without_a_baseline_says_why() -> None:
    assert one("{volumes: {baseline: {name: '*'}}, absent: true}") == [
        "t.rules.yaml:4: rule 'r': cannot be checked: no stored baseline was given"
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
        "docker-compose.yml:20: rule 'r': volume 'my.app-models' matches baseline mounted_by "
        f"image ollama/* (the baseline {base} rendered with MODEL=models (app id my.app) has a "
        "volume named my.app-models: service 'old' mounts it at /models (its build ends on the "
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
        "docker-compose.yml:8: rule 'r': compose.services.@front.environment.NOPE "
        "(@front: 'web') is missing"
    ]


def test_a_path_whose_selector_selects_nothing_says_so() -> None:
    selectors = "  services:\n    none: {port: 1}\n"
    assert one("{path: compose.services.@none.build, present: true}", selectors) == [
        "docker-compose.yml:1: rule 'r': compose.services.@none.build (@none: nothing is none) "
        "is missing"
    ]


# --- relations ------------------------------------------------------------------


def test_same_holds_across_compose_the_image_and_a_file() -> None:
    assert (
        one(
            "{same: [compose.services.web.environment.OPENAI_API_KEY, "
            "device.services.web.environment.values.OPENAI_API_KEY, "
            "{file: web/entrypoint.sh, capture: 'OPENAI_API_KEY:-([^}]*)'}]}"
        )
        == []
    )


def test_same_names_each_value_and_points_at_the_odd_one_out() -> None:
    tree = {**TREE, "web/Dockerfile": WEB_DOCKERFILE.replace(b"=secret", b"=other")}
    found = findings(
        "rules:\n  - name: r\n    assert:\n      - same:\n"
        "          - compose.services.web.environment.OPENAI_API_KEY\n"
        "          - device.services.web.environment.values.OPENAI_API_KEY\n"
        "          - {file: web/entrypoint.sh, capture: 'OPENAI_API_KEY:-([^}]*)'}\n",
        tree,
    )
    assert found == [
        "web/Dockerfile:5: rule 'r': the values differ: "
        "compose.services.web.environment.OPENAI_API_KEY (docker-compose.yml:8) is 'secret'; "
        "device.services.web.environment.values.OPENAI_API_KEY (web/Dockerfile:5) is 'other'; "
        "web/entrypoint.sh:2 is 'secret'"
    ]


def test_same_needs_every_required_value_and_allows_optional_ones() -> None:
    assert (
        one(
            "{same: [compose.services.web.environment.PORT, {path: compose.services.x.y, "
            "optional: true}, device.services.web.build.arg_defaults.PORT]}"
        )
        == []
    )
    assert one("{same: [compose.services.web.environment.PORT, compose.services.x.y]}") == [
        "t.rules.yaml:4: rule 'r': compose.services.x.y reaches nothing"
    ]
    assert one(
        "{same: [compose.services.web.environment, compose.services.web.build.context]}"
    ) == [
        "docker-compose.yml:8: rule 'r': compose.services.web.environment is "
        '{"OPENAI_API_KEY": "secret", "PORT": "3000"}, not a single value'
    ]


# --- text assertions -------------------------------------------------------------


@pytest.mark.parametrize(
    ("assertion", "expected"),
    [
        ("{file: web/entrypoint.sh, contains: 'exec serve'}", []),
        ("{file: '**/*.sh', matches: '^exec serve --port ${PORT}$'}", []),
        ("{file: 'nothing/*', excludes: x}", []),
        (
            "{file: web/entrypoint.sh, excludes: '--port ${PORT}'}",
            ["web/entrypoint.sh:3: rule 'r': web/entrypoint.sh contains '--port 3000' (must not)"],
        ),
        (
            "{file: web/entrypoint.sh, contains: '--port 8080'}",
            ["web/entrypoint.sh:None: rule 'r': web/entrypoint.sh does not contain '--port 8080'"],
        ),
        (
            "{file: docker-compose.yml, matches: '${APP_ID}-models:'}",
            [],  # the app id's dot is escaped: it matches only a dot
        ),
        (
            "{file: docker-compose.yml, matches: 'myXapp'}",
            ["docker-compose.yml:None: rule 'r': docker-compose.yml has nothing matching /myXapp/"],
        ),
        (
            "{file: 'missing/*.sh', contains: x}",
            ["t.rules.yaml:4: rule 'r': no rendered file matches missing/*.sh"],
        ),
    ],
)
def test_text_assertions(assertion: str, expected: list[str]) -> None:
    assert one(assertion) == expected


def test_a_substituted_regex_escapes_the_value() -> None:
    tree = {**TREE, "x.txt": b"myXapp-models\n"}
    found = findings(
        "rules:\n  - name: r\n    assert:\n      - {file: x.txt, matches: '${APP_ID}-models'}\n",
        tree,
    )
    assert found == ["x.txt:None: rule 'r': x.txt has nothing matching /my\\.app-models/"]


# --- the compose model the rules read ---------------------------------------------


def test_a_compose_file_compose_refuses_stops_its_rules_once() -> None:
    refused = COMPOSE.replace(b"depends_on: {backend:", b"depends_on: {nope:")
    tree = {**TREE, "docker-compose.yml": refused}
    text = (
        "rules:\n  - name: a\n    assert:\n      - {path: compose.services.web, present: true}\n"
        "      - {services: {name: web}, present: true}\n"
        "  - name: b\n    assert:\n      - {same: [compose.x, wendy.y]}\n"
        "      - {file: docker-compose.yml, contains: services}\n"
    )
    assert findings(text, tree) == [
        "docker-compose.yml:None: rules 'a', 'b' cannot be checked: docker-compose config does "
        "not accept docker-compose.yml, so its normalised model is unknown (the compose check "
        "says why)"
    ]


def test_a_compose_document_compose_does_not_run_on_says_so() -> None:
    tree = {**TREE, "deploy/app.yml": COMPOSE}
    text = (
        "documents: {compose: deploy/app.yml}\nrules:\n  - name: a\n    assert:\n"
        "      - {path: compose.services, present: true}\n"
    )
    assert findings(text, tree) == [
        "deploy/app.yml:None: rule 'a' cannot be checked: deploy/app.yml is not run through "
        "docker-compose config (only compose.yaml, compose.yml, docker-compose.yaml, "
        "docker-compose.yml are)"
    ]


def one_on(tree: Mapping[str, bytes], assertion: str) -> list[str]:
    return findings(f"rules:\n  - name: r\n    assert:\n      - {assertion}\n", tree)


# --- the rules file -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "rules:\n  - name: r\n    assert: [{services: ollama, absent: true}]\n",
            "t.yaml:3: rules[0] (r): assert[0].services: no services selector is named 'ollama' "
            "(declared: none)",
        ),
        (
            "selectors:\n  volumes:\n    v: {name: x}\n"
            "rules:\n  - name: r\n    assert: [{services: v, absent: true}]\n",
            "t.yaml:6: rules[0] (r): assert[0].services: 'v' selects volumes, not services",
        ),
        (
            "selectors:\n  services:\n    a: {is: b}\n    b: {any: [{is: a}]}\n",
            "t.yaml:3: selectors: services.a: selectors refer to each other in a circle: "
            "a -> b -> a",
        ),
        (
            "selectors:\n  services:\n    a: {name: x}\n  volumes:\n    a: {name: x}\n",
            "t.yaml:5: selectors: volumes.a: the selector name 'a' is already used for services",
        ),
        (
            "selectors:\n  services:\n    a: {colour: red}\n",
            't.yaml:3: selectors: services.a: unknown property "colour"',
        ),
        (
            "rules:\n  - name: r\n    assert: [{path: compose.services.@x.a, present: true}]\n",
            "t.yaml:3: rules[0] (r): assert[0]: path 'compose.services.@x.a': no selector is named "
            "'x' (declared: none)",
        ),
        (
            "rules:\n  - name: r\n    assert: [{services: {port: 1}, equals: 1}]\n",
            "t.yaml:3: rules[0] (r): assert[0]: a services assertion needs exactly one of absent, "
            "present, count (it has equals)",
        ),
        (
            "rules:\n  - name: r\n    assert: [{file: x, contains: 1}]\n",
            "t.yaml:3: rules[0] (r): assert[0].contains: a file assertion's contains must be text",
        ),
        (
            "rules:\n  - name: r\n    assert: [{same: [compose.a, {file: x}]}]\n",
            't.yaml:3: rules[0] (r): assert[0].same[1]: a file reference needs "capture" (a '
            "regular expression)",
        ),
        (
            "rules:\n  - name: r\n    assert: [{same: [compose.a, {file: x, capture: '('}]}]\n",
            't.yaml:3: rules[0] (r): assert[0].same[1].capture: bad regular expression "(": '
            "missing ), unterminated subpattern at position 0",
        ),
        (
            "rules:\n  - name: r\n    assert: [{same: [compose.a, compose.b], absent: true}]\n",
            "t.yaml:3: rules[0] (r): assert[0]: a same assertion takes no operator (it has absent)",
        ),
        (
            "selectors:\n  services:\n    a: {port: [1, http]}\n",
            "t.yaml:3: selectors: services.a.port[1]: expected a port number (1..65535) or "
            '"${VAR}", got the string "http"',
        ),
        (
            "selectors:\n  services:\n    a: {port: 0}\n",
            "t.yaml:3: selectors: services.a.port: must be at least 1, got 0",
        ),
        (
            "sentinels: {Q: {values: [x], tag_paths: [compose.services.@a.x]}}\n",
            "t.yaml:1: sentinels: Q.tag_paths[0]: a tag path cannot use @selectors",
        ),
    ],
)
def test_mistakes_in_the_rules_file_name_the_rule_and_assertion(text: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules(text, "t.yaml")
    assert str(caught.value) == message


# --- the README's examples ----------------------------------------------------------


def readme_rules_section() -> str:
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    return text.split("### The rules file", 1)[1].split("\n## ", 1)[0]


def test_the_readme_rules_example_is_a_valid_rules_file() -> None:
    example = readme_rules_section().split("```yaml\n", 1)[1].split("```", 1)[0]
    rules = parse_rules(example, "README.md")
    assert [r.name for r in rules.rules] == ["dflash-has-no-ollama"]
    assert set(rules.selectors) == {"ollama", "vllm", "ollama-data"}


def _examples(table: str) -> list[str]:
    """The example column of a README table (its second cell, in backquotes)."""
    out = []
    for line in table.splitlines():
        cells = line.split(" | ")
        if line.startswith("| `") and len(cells) > 2 and cells[1].startswith("`{"):
            out.append(cells[1].strip("`"))
    return out


def test_every_example_in_the_readme_rules_section_parses() -> None:
    section = readme_rules_section()
    services, rest = section.split("| service trait |", 1)[1].split("| volume trait |", 1)
    volumes, rest = rest.split("**Relations**", 1)
    text = rest.split("**Text**", 1)[1]
    head = (
        "selectors:\n  services:\n    ollama: {port: 11434}\n    vllm: {port: 8000}\n"
        "    open-webui: {port: 8080}\nrules:\n  - name: r\n    assert:\n"
    )
    assertions = [f"{{services: {e}, absent: true}}" for e in _examples(services)]
    assertions += [f"{{volumes: {e}, absent: true}}" for e in _examples(volumes)]
    assertions += _examples(text)
    assert len(assertions) == 7 + 4 + 3
    for assertion in assertions:
        parse_rules(f"{head}      - {assertion}\n", "README.md")
    [relations] = [b.split("```", 1)[0] for b in rest.split("```yaml\n")[1:2]]
    indented = "".join(f"      {line}\n" for line in relations.splitlines())
    assert len(parse_rules(head + indented, "README.md").rules[0].assertions) == 2
