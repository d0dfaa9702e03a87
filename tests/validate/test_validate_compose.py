"""The compose validator: YAML, render-level checks, and the real `docker-compose config`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _check_helpers import COMPOSE, good_tree, with_files

from wendy_llm.codes.tools import COMPOSE_REFUSED, COMPOSE_WARNED
from wendy_llm.errors import ValidatorToolError
from wendy_llm.validate.checks.compose import ComposeValidator
from wendy_llm.validate.documents.compose_where import WHOLE_FILE, locate
from wendy_llm.validate.documents.parse import parse_yaml
from wendy_llm.validate.findings import error, warning
from wendy_llm.validate.tools.compose_run import ComposeOutcome
from wendy_llm.validate.tools.programs import find_tool


def test_a_valid_render_passes() -> None:
    assert ComposeValidator().validate(good_tree()) == []


def test_undefined_depends_on_target_reports_composes_own_message() -> None:
    broken = with_files(
        good_tree(), **{"docker-compose.yml": COMPOSE.replace("- ollama", "- olama")}
    )
    findings = ComposeValidator().validate(broken)
    assert len(findings) == 1
    finding = findings[0]
    assert finding.check == "compose"
    assert finding.severity == "error"
    assert finding.file == "docker-compose.yml"
    assert 'service "open-webui" depends on undefined service "olama"' in finding.message
    # The temporary directory compose ran in never leaks into the message.
    assert "/tmp" not in finding.message and "tree-" not in finding.message


def test_yaml_syntax_error_is_reported_with_its_line_and_compose_is_not_run() -> None:
    text = COMPOSE.replace('      - "11434:11434"', '      - ["11434:11434"')
    validator = ComposeValidator()
    findings = validator.validate(with_files(good_tree(), **{"docker-compose.yml": text}))
    assert [(f.file, f.line) for f in findings] == [("docker-compose.yml", 8)]
    assert findings[0].message.startswith("YAML: ")
    assert validator.runs == 0


def test_schema_violation_reported_by_compose() -> None:
    text = COMPOSE.replace("    build: ./open-webui\n", "    build: ./open-webui\n    bogus: 1\n")
    findings = ComposeValidator().validate(with_files(good_tree(), **{"docker-compose.yml": text}))
    assert [f.severity for f in findings] == ["error"]
    assert "services.open-webui" in findings[0].message
    assert "bogus" in findings[0].message


def test_missing_build_context_is_an_error_with_the_service_and_line() -> None:
    tree = good_tree()
    del tree["open-webui/Dockerfile"], tree["open-webui/entrypoint.sh"]
    findings = ComposeValidator().validate(tree)
    assert [(f.file, f.line) for f in findings] == [("docker-compose.yml", 11)]
    assert (
        'service "open-webui": build context "./open-webui" does not exist' in findings[0].message
    )


def test_build_context_without_its_dockerfile() -> None:
    tree = good_tree()
    del tree["ollama/Dockerfile"]
    findings = ComposeValidator().validate(tree)
    assert [f.message for f in findings] == [
        'service "ollama": no Dockerfile at ollama/Dockerfile in the render'
    ]


def test_two_services_publishing_one_host_port() -> None:
    text = COMPOSE.replace('"8080:8080"', '"11434:8080"')
    findings = ComposeValidator().validate(with_files(good_tree(), **{"docker-compose.yml": text}))
    assert [(f.message, f.line) for f in findings] == [
        ('services "ollama" and "open-webui" both publish host port 11434/tcp', 13)
    ]


def test_unset_variable_is_a_warning_not_a_failure() -> None:
    text = COMPOSE.replace('PORT: "8080"', 'PORT: "${WEBUI_PORT}"')
    findings = ComposeValidator().validate(with_files(good_tree(), **{"docker-compose.yml": text}))
    assert [f.severity for f in findings] == ["warning"]
    assert 'The "WEBUI_PORT" variable is not set' in findings[0].message


def test_the_callers_environment_does_not_leak_into_compose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEBUI_PORT", "8080")
    monkeypatch.setenv("DOCKER_HOST", "tcp://127.0.0.1:1")
    text = COMPOSE.replace('PORT: "8080"', 'PORT: "${WEBUI_PORT}"')
    findings = ComposeValidator().validate(with_files(good_tree(), **{"docker-compose.yml": text}))
    assert [f.severity for f in findings] == ["warning"]


def test_identical_renders_run_compose_once_and_different_ones_each() -> None:
    validator = ComposeValidator(workers=2)
    same = [good_tree(), good_tree(), good_tree()]
    other = with_files(good_tree(), **{"docker-compose.yml": COMPOSE.replace("e2b", "e4b")})
    results = validator.validate_many([*same, other])
    assert results == [[], [], [], []]
    assert validator.runs == 2
    # A second call is answered from the cache.
    assert validator.validate(good_tree()) == []
    assert validator.runs == 2


def test_a_removed_build_context_is_not_served_from_the_cache() -> None:
    validator = ComposeValidator()
    assert validator.validate(good_tree()) == []
    tree = good_tree()
    del tree["open-webui/Dockerfile"], tree["open-webui/entrypoint.sh"]
    assert len(validator.validate(tree)) == 1
    assert validator.runs == 2


def test_every_compose_file_name_is_validated() -> None:
    tree = good_tree()
    tree["compose.yaml"] = tree.pop("docker-compose.yml").replace(b"- ollama", b"- nope")
    findings = ComposeValidator().validate(tree)
    assert [f.file for f in findings] == ["compose.yaml"]


def test_a_missing_compose_binary_is_a_clear_error(tmp_path: Path) -> None:
    validator = ComposeValidator(binary=tmp_path / "docker-compose")
    with pytest.raises(ValidatorToolError, match=r"cannot run .*docker-compose"):
        validator.validate(good_tree())


def test_find_tool_names_the_package_to_install() -> None:
    with pytest.raises(ValidatorToolError, match=r"no-such-tool not found .* install no-such-tool"):
        find_tool("no-such-tool")
    assert find_tool("docker-compose").name == "docker-compose"


# --- the normalised model the same run prints ---------------------------------


def test_one_run_per_distinct_file_gives_findings_and_the_normalised_model() -> None:
    validator = ComposeValidator()
    [first, second] = validator.run_many([good_tree(), good_tree()])
    assert validator.runs == 1
    assert first.findings == [] and first.models == second.models
    model = first.models["docker-compose.yml"]
    assert isinstance(model, dict)
    ollama = model["services"]["ollama"]
    # Compose's one spelling: build a mapping, ports and volumes long syntax,
    # paths relative to the project, no project name anywhere.
    assert ollama["build"] == {"context": "./ollama", "dockerfile": "Dockerfile"}
    assert ollama["ports"] == [
        {"mode": "ingress", "target": 11434, "published": "11434", "protocol": "tcp"}
    ]
    assert "name" not in model
    assert model["volumes"] == {
        "app-models": {"name": "app-models"},
        "app-openwebui": {"name": "app-openwebui"},
    }


def test_paths_in_the_model_are_relative_to_the_project() -> None:
    tree = {
        "app/compose.yaml": (
            b"services:\n  a:\n    build: {context: ../src, dockerfile: Dockerfile}\n"
            b"    volumes: ['./data:/data', 'kept:/kept']\n"
            b"volumes:\n  kept:\n    name: written-name\n"
        ),
        "src/Dockerfile": b"FROM busybox\n",
        "app/data/x": b"",
    }
    [result] = ComposeValidator().run_many([tree])
    model = result.models["app/compose.yaml"]
    assert isinstance(model, dict)
    service = model["services"]["a"]
    assert service["build"]["context"] == "../src"
    assert [(v["type"], v["source"]) for v in service["volumes"]] == [
        ("bind", "./data"),
        ("volume", "kept"),
    ]
    assert model["volumes"]["kept"]["name"] == "written-name"  # as written, not derived


def test_a_refused_file_has_no_model_and_a_yaml_error_is_not_run() -> None:
    refused = with_files(
        good_tree(), **{"docker-compose.yml": COMPOSE.replace("- ollama", "- olama")}
    )
    broken = with_files(good_tree(), **{"docker-compose.yml": "services: [\n"})
    validator = ComposeValidator()
    [no_model, not_run] = validator.run_many([refused, broken])
    assert no_model.models == {"docker-compose.yml": None} and no_model.findings
    assert not_run.models == {} and validator.runs == 1


def test_an_outcome_is_a_small_serialisable_value() -> None:
    outcome = ComposeOutcome(
        (warning(COMPOSE_WARNED, "docker-compose: obsolete", None),), {"services": {}}
    )
    assert ComposeOutcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome
    with pytest.raises((TypeError, ValueError)):
        ComposeOutcome.from_json({"findings": [{"severity": "fatal", "message": "", "line": 1}]})


def test_a_message_that_spans_lines_stays_one_finding() -> None:
    # Compose quotes the port as written, newline and all (issue 29): one
    # finding, never a second one made of the fragment.
    text = COMPOSE.replace('"11434:11434"', '"1:2\\n::error file=x::fake"')
    findings = ComposeValidator().validate(with_files(good_tree(), **{"docker-compose.yml": text}))
    assert len(findings) == 1, findings
    assert findings[0].message.startswith("docker-compose config: invalid IP address: 1:2\n::error")


# --- Compose's refusal at the key it names (issue 37) ------------------------


def refused(text: str) -> list[tuple[int | None, str]]:
    findings = ComposeValidator().validate(with_files(good_tree(), **{"docker-compose.yml": text}))
    return [(f.line, f.message) for f in findings if f.code == "CMP001"]


def test_compose_refusal_is_at_the_key_it_names() -> None:
    """The position map of every compose finding: depends_on of the service that
    names an undefined one, the unknown key itself, the port Compose names by value."""
    ((line, _),) = refused(COMPOSE.replace("- ollama", "- olama"))
    assert line == 19  # services.open-webui.depends_on
    bogus = COMPOSE.replace("    build: ./open-webui\n", "    build: ./open-webui\n    bogus: 1\n")
    ((line, _),) = refused(bogus)
    assert line == 12
    ((line, message),) = refused(COMPOSE.replace('"8080:8080"', '"99999:8080"'))
    assert (line, "invalid hostPort: 99999" in message) == (13, True)


def test_a_compose_refusal_naming_no_key_is_at_line_1_and_says_so() -> None:
    parsed = parse_yaml("docker-compose.yml", COMPOSE.encode())
    vague = error(COMPOSE_REFUSED, "docker-compose config: something broke", "docker-compose.yml")
    found = locate(vague, parsed, COMPOSE)
    assert found.line == 1 and found.message.endswith(f"({WHOLE_FILE})")
    named = error(COMPOSE_REFUSED, "docker-compose config: volumes.app-models: bad", None)
    assert locate(named, parsed, COMPOSE).line == 23
