"""Topology rules: the rules file format, selectors, operators, and the llm template's rules."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from wendy_llm.errors import RulesError
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import load_template
from wendy_llm.validate.checks.compose import ComposeValidator
from wendy_llm.validate.checks.topology import check_topology, rule_coverage
from wendy_llm.validate.findings import Finding
from wendy_llm.validate.rulerun import subject_for
from wendy_llm.validate.rules.docpath import PathSyntaxError, parse_path, resolve
from wendy_llm.validate.rules.file import load_rules, parse_rules

REPO = Path(__file__).resolve().parents[2]
LLM_RULES = REPO / "golden" / "python" / "llm.rules.yaml"
DFLASH = "laguna-s-2.1-dflash"

COMPOSE = b"""\
services:
  vllm:
    build: ./vllm
    ports: ["8000:8000"]
  web:
    build: ./web
    environment:
      URL: "http://vllm:8000/v1"
      PORT: "8080"
      ENABLED: true
    volumes: ["app-hf:/data"]
    depends_on:
      vllm: {condition: service_healthy}
volumes:
  app-hf:
"""
WENDY = b'{"appId": "app", "services": {"vllm": {"entitlements": [{"type": "gpu"}]}}}'
TREE = {
    "docker-compose.yml": COMPOSE,
    "wendy.json": WENDY,
    "vllm/Dockerfile": b"FROM vllm/vllm-openai:v0.9\nENV VLLM_API_KEY=k1\n",
    "web/Dockerfile": b"FROM ubuntu:24.04\nENV WEBUI_NAME=x\n",
}
VALUES: Mapping[str, object] = {"APP_ID": "app", "PORT": 8080.0, "MODEL": "big"}
#: One validator for the module: identical compose files share a Compose run.
COMPOSE_RUNS = ComposeValidator()


def run(rules_text: str, tree: Mapping[str, bytes] = TREE, slug: str = "big") -> list[Finding]:
    rules = parse_rules(rules_text, "t.rules.yaml")
    subject = subject_for(rules, slug, VALUES, tree, compose=COMPOSE_RUNS)
    return check_topology(rules, subject)


def one(assertion: str) -> list[tuple[str, int | None]]:
    found = run(f"rules:\n  - name: r\n    assert:\n      - {assertion}\n")
    return [(f.message, f.line) for f in found]


@pytest.mark.parametrize(
    "assertion",
    [
        "{path: compose.services.ollama, absent: true}",
        "{path: compose.services.vllm, present: true}",
        '{path: compose.services.web.environment.URL, equals: "http://vllm:8000/v1"}',
        '{path: compose.services.web.environment.PORT, equals: "${PORT}"}',
        '{path: "compose.services.vllm.ports[0].target", equals: 8000}',
        '{path: "compose.services.vllm.ports[0].published", equals: "8000"}',
        '{path: compose.services.web.environment.ENABLED, equals: "true"}',
        "{path: compose.services.web.depends_on, contains: vllm}",
        "{path: compose.services.web.depends_on, excludes: ollama}",
        "{path: compose.services.*.ports, excludes: '11434:11434'}",
        '{path: "compose.volumes.${APP_ID}-hf", present: true}',
        '{path: "wendy.services.vllm.entitlements[*].type", contains: gpu}',
        "{path: 'wendy.services.vllm.entitlements[0].type', equals: gpu}",
        "{path: wendy.appId, matches: 'a[p]+'}",
        "{path: compose.services.*.build.context, matches: '\\./[a-z]+'}",
        "{path: other.anything, absent: true}",
    ],
)
def test_assertions_that_hold(assertion: str) -> None:
    text = (
        f"documents: {{other: other.yml}}\nrules:\n  - name: r\n    assert:\n      - {assertion}\n"
    )
    assert run(text) == []


def test_absent_names_the_match_and_its_line() -> None:
    assert one("{path: compose.services.web, absent: true}") == [
        ('rule "r": compose.services.web is present (must be absent)', 5)
    ]


def test_present_on_a_missing_path_points_at_the_nearest_parent() -> None:
    assert one("{path: compose.services.web.healthcheck.test, present: true}") == [
        ('rule "r": compose.services.web.healthcheck.test is missing', 5)
    ]


def test_equals_shows_actual_and_expected() -> None:
    assert one('{path: compose.services.web.environment.URL, equals: "http://ollama:11434"}') == [
        (
            'rule "r": compose.services.web.environment.URL is "http://vllm:8000/v1", '
            'expected "http://ollama:11434"',
            8,
        )
    ]


def test_typed_equals_does_not_confuse_bool_and_int() -> None:
    # Compose's model: environment values are text, port targets numbers.
    assert one("{path: compose.services.web.environment.ENABLED, equals: true}") == [
        ('rule "r": compose.services.web.environment.ENABLED is "true", expected true', 10)
    ]
    assert one("{path: 'compose.services.vllm.ports[0].target', equals: true}") == [
        ('rule "r": compose.services.vllm.ports[0].target is 8000, expected true', 4)
    ]


def test_contains_lists_what_is_there() -> None:
    assert one("{path: compose.services.web.depends_on, contains: ollama}") == [
        ('rule "r": compose.services.web.depends_on does not contain "ollama" (it has "vllm")', 12)
    ]


def test_matches_is_a_full_match_and_message_is_appended() -> None:
    found = run(
        "rules:\n  - name: r\n    assert:\n"
        "      - {path: wendy.appId, matches: 'ap', message: ids are whole words}\n"
    )
    assert [f.message for f in found] == [
        'rule "r": wendy.appId is "app", which does not match /ap/ (ids are whole words)'
    ]
    assert found[0].file == "wendy.json"


def test_a_document_missing_from_the_render() -> None:
    tree = {"docker-compose.yml": COMPOSE}
    found = run(
        "rules:\n  - name: r\n    assert:\n      - {path: wendy.appId, present: true}\n", tree
    )
    assert [(f.message, f.file, f.line) for f in found] == [
        ('rule "r": wendy.appId: the render has no wendy document', "t.rules.yaml", 4)
    ]


def test_an_unknown_variable_in_a_path() -> None:
    found = run(
        "rules:\n  - name: r\n    assert:\n      - {path: 'compose.${NOPE}', absent: true}\n"
    )
    assert [f.message for f in found] == ['rule "r": ${NOPE} is not a variable of this render']


def test_dollar_dollar_is_a_literal_dollar() -> None:
    tree = {**TREE, "wendy.json": b'{"hooks": {"postStart": {"cli": "open http://${HOST}:8080"}}}'}
    text = (
        "rules:\n  - name: r\n    assert:\n"
        "      - {path: wendy.hooks.postStart.cli, equals: 'open http://$${HOST}:${PORT}'}\n"
    )
    assert run(text, tree) == []


@pytest.mark.parametrize(
    ("picks", "selected"),
    [
        ("{only: [big]}", True),
        ("{only: [small]}", False),
        ("{except: [big]}", False),
        ("{when: {MODEL: big}}", True),
        ("{when: {MODEL: [small, big]}}", True),
        ("{when: {PORT: 8080}}", True),
        ("{when: {PORT: '8080'}}", True),
        ("{unless: {MODEL: big}}", False),
        ("{when: {MODEL: big}, except: [big]}", False),
        ("{when: {NOT_A_VAR: x}}", False),
    ],
)
def test_pick_selectors(picks: str, selected: bool) -> None:
    text = (
        f"rules:\n  - name: r\n    picks: {picks}\n"
        "    assert:\n      - {path: compose, absent: true}\n"
    )
    assert bool(run(text)) is selected


def test_rule_coverage_finds_unknown_picks_questions_and_dead_rules() -> None:
    rules = parse_rules(
        "rules:\n"
        "  - name: typo\n    picks: {only: [bgi]}\n    assert: [{path: compose.a, absent: true}]\n"
        "  - name: unknown-question\n    picks: {when: {MODLE: big}}\n"
        "    assert: [{path: compose.a, absent: true}]\n"
        "  - name: fine\n    picks: {except: [small]}\n"
        "    assert: [{path: compose.a, absent: true}]\n",
        "t.rules.yaml",
    )
    picks = [("big", VALUES), ("small", {**VALUES, "MODEL": "small"})]
    found = rule_coverage(rules, picks, ["MODEL"])
    assert [(f.message, f.line) for f in found] == [
        ('rule "typo" names the pick "bgi", which the template does not have', 2),
        ('rule "typo" selects no pick, so it checks nothing', 2),
        ('rule "unknown-question" selects on "MODLE", which is not a variable of the template', 5),
        ('rule "unknown-question" selects no pick, so it checks nothing', 5),
    ]


def test_malformed_rules_file_names_the_file_line_and_rule(tmp_path: Path) -> None:
    path = tmp_path / "llm.rules.yaml"
    path.write_text(
        "rules:\n"
        "  - name: fine\n    assert: [{path: compose.a, absent: true}]\n"
        "  - name: dflash-has-no-ollama\n"
        "    assert:\n"
        "      - {path: compose.services.ollama, absent: true}\n"
        "      - {path: compose.volumes.x, equal: 1}\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesError) as caught:
        load_rules(path, display="golden/python/llm.rules.yaml")
    assert str(caught.value) == (
        "golden/python/llm.rules.yaml:7: rules[1] (dflash-has-no-ollama): assert[1]: "
        'unknown property "equal"'
    )
    assert caught.value.line == 7
    assert caught.value.rule == "rules[1] (dflash-has-no-ollama)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "rules:\n  - name: r\n    assert: [{path: compose.a, absent: true, present: true}]\n",
            "t.yaml:3: rules[0] (r): assert[0]: a path assertion needs exactly one of absent, "
            "present, equals, contains, excludes, matches (it has absent, present)",
        ),
        (
            "rules:\n  - name: r\n    assert: [{path: compse.a, absent: true}]\n",
            't.yaml:3: rules[0] (r): assert[0].path: path "compse.a" names an unknown document '
            '"compse" (known: compose, device, dockerfiles, wendy; declare others under '
            "documents:)",
        ),
        (
            "rules:\n  - name: r\n    assert: [{path: compose..a, absent: true}]\n",
            't.yaml:3: rules[0] (r): assert[0].path: bad path "compose..a": '
            "empty segment before position 9",
        ),
        (
            "rules:\n  - name: r\n    assert: [{path: compose.a, matches: '('}]\n",
            't.yaml:3: rules[0] (r): assert[0].matches: bad regular expression "(": '
            "error parsing regexp: missing closing ): `(`",
        ),
        (
            "rules:\n  - name: r\n    assert: [{path: compose.a, absent: true}]\n"
            "  - name: r\n    assert: [{path: compose.b, absent: true}]\n",
            't.yaml:4: rules[1] (r): name: the rule name "r" is already used by rules[0]',
        ),
        ("gate: {files: []}\n", "t.yaml:1: gate: files: must not be empty"),
        (
            "sentinels: {Q: {tag_paths: [x]}}\n",
            't.yaml:1: sentinels: Q: missing the required property "values"',
        ),
        (
            "rulez: []\n",
            't.yaml:1: (top level): unknown property "rulez"',
        ),
        (
            "rules: [\n",
            "t.yaml:2: YAML: while parsing a flow node did not find expected node content",
        ),
    ],
)
def test_malformed_rules(text: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules(text, "t.yaml")
    assert str(caught.value) == message


def test_path_syntax() -> None:
    path = parse_path('compose.x["a.b"].y[0].*')
    assert (path.document, path.segments) == ("compose", ("x", "a.b", "y", 0, "*"))
    assert [m.value for m in resolve(path, {"x": {"a.b": {"y": [{"k": 1, "l": 2}]}}})] == [1, 2]
    with pytest.raises(PathSyntaxError):
        parse_path("*.a")


# --- the llm template's own rules, on its real renders ------------------------


@pytest.fixture(scope="module")
def llm_renders() -> dict[str, tuple[dict[str, object], dict[str, bytes]]]:
    template = load_template(REPO / "templates" / "python" / "llm", id="python/llm")
    out = {}
    for pick in template.picks():
        values = template.values(CANONICAL_APP_ID, dict(pick.answers))
        out[pick.slug] = (values, dict(template.render_values(values)))
    return out


def llm_check(slug: str, values: Mapping[str, object], tree: Mapping[str, bytes]) -> list[str]:
    rules = load_rules(LLM_RULES)
    subject = subject_for(
        rules,
        slug,
        values,
        tree,
        golden_root=REPO / "golden",
        template_id="python/llm",
        answers={"OLLAMA_MODEL": str(values["OLLAMA_MODEL"])},
        compose=COMPOSE_RUNS,
    )
    return [f.message for f in check_topology(rules, subject)]


def test_every_llm_pick_satisfies_the_rules(
    llm_renders: dict[str, tuple[dict[str, object], dict[str, bytes]]],
) -> None:
    assert DFLASH in llm_renders and len(llm_renders) == 17
    for slug, (values, tree) in llm_renders.items():
        assert llm_check(slug, values, tree) == [], slug


def test_dflash_render_that_keeps_the_ollama_volume_fails(
    llm_renders: dict[str, tuple[dict[str, object], dict[str, bytes]]],
) -> None:
    values, tree = llm_renders[DFLASH]
    compose = tree["docker-compose.yml"].replace(
        b"\nvolumes:\n", b"\nvolumes:\n  llm-app-models:\n"
    )
    assert compose.count(b"llm-app-models") == 1
    found = llm_check(DFLASH, values, {**tree, "docker-compose.yml": compose})
    # Compose drops a volume no service mounts, so the model has none: the
    # rules catch the leftover declaration in the text.
    assert found == [
        'rule "dflash-has-no-ollama": docker-compose.yml contains "llm-app-models" (must not) '
        "(not even an unused declaration of the Ollama volume)"
    ]


def test_ollama_pick_wired_to_vllm_fails(
    llm_renders: dict[str, tuple[dict[str, object], dict[str, bytes]]],
) -> None:
    values, tree = llm_renders["gemma4-e2b"]
    compose = tree["docker-compose.yml"].replace(b'"gemma4:e2b"', b'"gemma4:e4b"')
    assert llm_check("gemma4-e2b", values, {**tree, "docker-compose.yml": compose}) == [
        'rule "ollama-topology": the values differ: compose.services.ollama.environment.'
        'OLLAMA_MODEL (docker-compose.yml:8) is "gemma4:e4b"; device.services.ollama.environment.'
        'values.OLLAMA_MODEL (ollama/Dockerfile:27) is "gemma4:e2b" (the Ollama image pulls the '
        "same tag on a device as compose says)",
        'rule "ollama-topology": compose.services.ollama.environment.OLLAMA_MODEL is '
        '"gemma4:e4b", expected "gemma4:e2b" (the service pulls exactly the picked tag)',
    ]


def test_an_ollama_image_pulling_another_model_than_compose_fails(
    llm_renders: dict[str, tuple[dict[str, object], dict[str, bytes]]],
) -> None:
    # On a device the container gets only its image's ENV: compose saying
    # the right tag is not enough.
    values, tree = llm_renders["gemma4-e4b"]
    dockerfile = tree["ollama/Dockerfile"].replace(
        b'OLLAMA_MODEL="gemma4:e4b"', b'OLLAMA_MODEL="gemma4:e2b"'
    )
    assert dockerfile != tree["ollama/Dockerfile"]
    assert llm_check("gemma4-e4b", values, {**tree, "ollama/Dockerfile": dockerfile}) == [
        # Open WebUI, on a device, opens on a model the Ollama image does not pull ...
        'rule "open-webui-default-model": the values differ: device.services.open-webui.'
        'environment.values.DEFAULT_MODELS (open-webui/Dockerfile:67) is "gemma4:e4b"; '
        "device.services.ollama.environment.values.OLLAMA_MODEL (ollama/Dockerfile:27) is "
        '"gemma4:e2b" (Open WebUI\'s default model is the model Ollama serves)',
        # ... because the image pulls another model than compose says.
        'rule "ollama-topology": the values differ: compose.services.ollama.environment.'
        'OLLAMA_MODEL (docker-compose.yml:8) is "gemma4:e4b"; device.services.ollama.environment.'
        'values.OLLAMA_MODEL (ollama/Dockerfile:27) is "gemma4:e2b" (the Ollama image pulls the '
        "same tag on a device as compose says)",
    ]
