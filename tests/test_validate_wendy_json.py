"""The wendy-json validator: parse, schema, and agreement with the compose file."""

from __future__ import annotations

from _check_helpers import COMPOSE, WENDY_JSON, good_tree, with_files

from wendy_llm.validate.findings import Finding
from wendy_llm.validate.wendy_json import validate_wendy_json


def check(wendy: str = WENDY_JSON, compose: str = COMPOSE, app_id: str = "app") -> list[Finding]:
    tree = with_files(good_tree(), **{"wendy.json": wendy, "docker-compose.yml": compose})
    return validate_wendy_json(tree, app_id)


def messages(findings: list[Finding]) -> list[tuple[str, int | None]]:
    return [(f.message, f.line) for f in findings]


def test_a_valid_render_passes() -> None:
    assert check() == []


def test_a_render_without_wendy_json_has_nothing_to_check() -> None:
    tree = good_tree()
    del tree["wendy.json"]
    assert validate_wendy_json(tree, "app") == []


def test_service_missing_from_compose() -> None:
    text = WENDY_JSON.replace('"open-webui": {', '"webui": {')
    found = check(text)
    assert messages(found) == [
        (
            "service 'webui' is not a service in docker-compose.yml (it has: ollama, open-webui)",
            14,
        )
    ]
    assert found[0].check == "wendy-json" and found[0].file == "wendy.json"


def test_wrong_readiness_port() -> None:
    text = WENDY_JSON.replace('"port": 8080', '"port": 8081')
    assert messages(check(text)) == [
        (
            "readiness port 8081 is not published by any service in docker-compose.yml "
            "(published TCP ports: 8080 (open-webui), 11434 (ollama))",
            20,
        )
    ]


def test_readiness_port_published_in_long_syntax_counts() -> None:
    compose = COMPOSE.replace(
        '      - "8080:8080"', "      - target: 8080\n        published: 8080"
    )
    assert check(compose=compose) == []


def test_container_only_port_is_not_published() -> None:
    compose = COMPOSE.replace('"8080:8080"', '"8080"')
    assert [m for m, _ in messages(check(compose=compose))] == [
        "readiness port 8080 is not published by any service in docker-compose.yml "
        "(published TCP ports: 11434 (ollama))"
    ]


def test_context_spellings_are_the_same_directory() -> None:
    text = WENDY_JSON.replace('"context": "./ollama"', '"context": "ollama/"')
    assert check(text) == []


def test_context_differing_from_the_compose_build_context() -> None:
    text = WENDY_JSON.replace('"context": "./ollama"', '"context": "./vllm"')
    assert messages(check(text)) == [
        (
            "service 'ollama' has context './vllm', but docker-compose.yml builds it "
            "from './ollama'",
            7,
        )
    ]


def test_app_id_must_be_the_app_id() -> None:
    assert messages(check(app_id="other")) == [("appId is 'app', but the app id is 'other'", 2)]


def test_schema_port_must_be_an_integer() -> None:
    text = WENDY_JSON.replace('"port": 8080', '"port": "8080"')
    assert messages(check(text)) == [
        ('schema: readiness.tcpSocket.port: expected an integer, got the string "8080"', 20)
    ]


def test_schema_unknown_key_is_an_error() -> None:
    text = WENDY_JSON.replace('"timeoutSeconds": 180', '"timeoutSecs": 180')
    found = check(text)
    assert len(found) == 1
    assert found[0].message == 'schema: readiness: unknown property "timeoutSecs"'


def test_schema_entitlement_needs_a_type() -> None:
    text = WENDY_JSON.replace('"type": "gpu"', '"kind": "gpu"')
    assert [m for m, _ in messages(check(text))] == [
        'schema: services.ollama.entitlements[0]: missing the required property "type"'
    ]


def test_json_syntax_error_has_line_and_column() -> None:
    text = WENDY_JSON.replace('"version": "0.1.0",', '"version": "0.1.0"')
    found = check(text)
    assert messages(found) == [("JSON: Expecting ',' delimiter (line 4, column 3)", 4)]


def test_duplicate_keys_are_reported() -> None:
    text = WENDY_JSON.replace('"version": "0.1.0",', '"version": "0.1.0",\n  "appId": "x",')
    assert messages(check(text)) == [
        ('JSON: duplicate key "appId" (the Wendy CLI would keep only the last)', 4)
    ]


def test_compose_that_does_not_parse_blocks_cross_checks() -> None:
    found = check(compose="services: [\n")
    assert [f.message for f in found] == [
        "cannot cross-check with docker-compose.yml: it does not parse"
    ]
