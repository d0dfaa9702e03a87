"""The rules file: mistakes named with the rule and assertion at fault, and
every example the README's rules section gives parses."""

from __future__ import annotations

from pathlib import Path

import pytest

from wendy_llm.errors import RulesError
from wendy_llm.validate.rules.file import parse_rules
from wendy_llm.validate.rules.traits import SERVICE_TRAITS, VOLUME_TRAITS

# --- the rules file -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "rules:\n  - name: r\n    assert: [{services: ollama, absent: true}]\n",
            't.yaml:3: rules[0] (r): assert[0].services: no services selector is named "ollama" '
            "(declared: none)",
        ),
        (
            "selectors:\n  volumes:\n    v: {name: x}\n"
            "rules:\n  - name: r\n    assert: [{services: v, absent: true}]\n",
            't.yaml:6: rules[0] (r): assert[0].services: "v" selects volumes, not services',
        ),
        (
            "selectors:\n  services:\n    a: {is: b}\n    b: {any: [{is: a}]}\n",
            "t.yaml:3: selectors: services.a: selectors refer to each other in a circle: "
            "a -> b -> a",
        ),
        (
            "selectors:\n  services:\n    a: {name: x}\n  volumes:\n    a: {name: x}\n",
            't.yaml:5: selectors: volumes.a: the selector name "a" is already used for services',
        ),
        (
            "selectors:\n  services:\n    a: {colour: red}\n",
            't.yaml:3: selectors: services.a: unknown property "colour"',
        ),
        (
            "rules:\n  - name: r\n    assert: [{path: compose.services.@x.a, present: true}]\n",
            't.yaml:3: rules[0] (r): assert[0]: path "compose.services.@x.a": no selector is named '
            '"x" (declared: none)',
        ),
        (
            "rules:\n  - name: r\n    assert: [{path: 'compose.a]', absent: true}]\n",
            't.yaml:3: rules[0] (r): assert[0].path: bad path "compose.a]": unexpected "]" at '
            "position 10",
        ),
        (
            "rules:\n  - name: r\n    assert: [{path: 'compose.a[\"b\"]c', absent: true}]\n",
            't.yaml:3: rules[0] (r): assert[0].path: bad path "compose.a[\\"b\\"]c": missing "." '
            'before "c"',
        ),
        (
            "rules:\n  - name: r\n    assert: [{path: 'compose.@.a', absent: true}]\n",
            't.yaml:3: rules[0] (r): assert[0].path: bad path "compose.@.a": "@" is not a selector '
            "name",
        ),
        (
            "rules:\n  - name: r\n    assert: [{path: compose.a., absent: true}]\n",
            't.yaml:3: rules[0] (r): assert[0].path: bad path "compose.a.": the path is empty or '
            'ends with "."',
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
            "error parsing regexp: missing closing ): `(`",
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


# --- docs/rules.md's examples ---------------------------------------------------------


def readme_rules_section() -> str:
    """docs/rules.md (the rules language's reference, moved there from the README)."""
    return (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")


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
    # a row per trait entry, mounted_by and baseline, three text operators
    assert len(assertions) == len(SERVICE_TRAITS) + len(VOLUME_TRAITS) + 2 + 3
    for assertion in assertions:
        parse_rules(f"{head}      - {assertion}\n", "README.md")
    [relations] = [b.split("```", 1)[0] for b in rest.split("```yaml\n")[1:2]]
    indented = "".join(f"      {line}\n" for line in relations.splitlines())
    assert len(parse_rules(head + indented, "README.md").rules[0].assertions) == 2
