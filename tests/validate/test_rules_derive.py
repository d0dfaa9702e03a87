"""Relations on derived values (``key: true``, ``url: PART``, ``map: TABLE``):
a URL's port against the port a backend listens on, a URL's host against the
service's name, a value against its table entry, on a small real render
(``tests/_rules_helpers.py``: the real ``docker-compose config`` and device view).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _rules_helpers import TREE, findings

from wendy_llm.errors import RulesError
from wendy_llm.validate.rules.derive import DeriveProblem, table_entry, url_part
from wendy_llm.validate.rules.file import parse_rules

WEB_URL = b"    environment:\n      - OPENAI_API_KEY=secret\n"
BACKEND_URL = b"      - BACKEND_URL=http://backend:11434/api\n"
WITH_URL = {
    **TREE,
    "docker-compose.yml": TREE["docker-compose.yml"].replace(WEB_URL, WEB_URL + BACKEND_URL),
}

LISTENS = (
    "rules:\n  - name: r\n    assert:\n      - same:\n"
    "          - {path: compose.services.web.environment.BACKEND_URL, url: port}\n"
    "          - {path: device.services.backend.environment.values.OLLAMA_HOST, url: port}\n"
    "      - same:\n"
    "          - {path: compose.services.web.environment.BACKEND_URL, url: host}\n"
    "          - {path: 'compose.services.backend', key: true}\n"
)


@pytest.mark.parametrize(
    ("text", "part", "expected"),
    [
        ("http://vllm:8000/v1", "port", "8000"),
        ("http://vllm:8000/v1", "host", "vllm"),
        ("http://vllm:8000/v1", "path", "/v1"),
        ("http://vllm:8000/v1", "scheme", "http"),
        ("http://vllm/v1", "port", "80"),
        ("https://api.example.com", "port", "443"),
        ("0.0.0.0:11434", "port", "11434"),
        (":8000", "port", "8000"),
        ("0.0.0.0:11434", "host", "0.0.0.0"),
    ],
)
def test_url_parts(text: str, part: str, expected: str) -> None:
    assert url_part(text, part) == expected


@pytest.mark.parametrize(
    ("text", "part", "why"),
    [
        ("0.0.0.0", "port", '"0.0.0.0" has no port'),
        ("vllm:port", "port", '"vllm:port" is not a URL or an address'),
        ("", "host", '"" is not a URL or an address'),
        (":8000", "host", '":8000" names no host'),
        ("0.0.0.0:1", "scheme", '"0.0.0.0:1" has no scheme'),
    ],
)
def test_url_parts_that_are_not_there(text: str, part: str, why: str) -> None:
    with pytest.raises(DeriveProblem) as caught:
        url_part(text, part)
    assert str(caught.value).startswith(why)


def test_a_table_entry_and_a_value_without_one() -> None:
    assert table_entry("t", "drafters", {"t": "d"}) == "d"
    with pytest.raises(DeriveProblem) as caught:
        table_entry("u", "drafters", {"t": "d"})
    assert str(caught.value) == (
        '"u" has no entry in the table "drafters" (it has "t"; add one to the rules file\'s tables)'
    )


def test_a_url_points_at_the_port_and_the_service_the_backend_listens_on() -> None:
    assert findings(LISTENS, WITH_URL) == []


def test_a_url_to_another_port_fails_naming_both_values() -> None:
    tree = {
        **WITH_URL,
        "backend/Dockerfile": TREE["backend/Dockerfile"].replace(b":11434", b":11500"),
    }
    assert findings(LISTENS, tree) == [
        'backend/Dockerfile:4: rule "r": the values differ: the port of '
        'compose.services.web.environment.BACKEND_URL = "http://backend:11434/api" '
        '(docker-compose.yml:8) is "11434"; the port of '
        'device.services.backend.environment.values.OLLAMA_HOST = "0.0.0.0:11500" '
        '(backend/Dockerfile:4) is "11500"'
    ]


def test_a_url_to_another_host_fails() -> None:
    tree = {
        **WITH_URL,
        "docker-compose.yml": WITH_URL["docker-compose.yml"].replace(b"//backend:", b"//ollama:"),
    }
    [found] = findings(LISTENS, tree)
    assert (
        'the host of compose.services.web.environment.BACKEND_URL = "http://ollama:11434/api"'
        in found
    )
    assert 'the key of compose.services.backend (docker-compose.yml:2) is "backend"' in found


def test_a_value_that_is_no_url_fails_the_relation() -> None:
    tree = {
        **WITH_URL,
        "docker-compose.yml": WITH_URL["docker-compose.yml"].replace(
            b"http://backend:11434/api", b"backend"
        ),
    }
    assert findings(LISTENS, tree)[0] == (
        'docker-compose.yml:8: rule "r": compose.services.web.environment.BACKEND_URL: '
        '"backend" has no port'
    )


TABLE = (
    "tables:\n  keys: {secret: '3000', other: '4000'}\n"
    "rules:\n  - name: r\n    assert:\n      - same:\n"
    "          - {path: compose.services.web.environment.OPENAI_API_KEY, map: keys}\n"
    "          - device.services.web.environment.values.PORT\n"
)


def test_a_value_relates_to_another_through_a_table() -> None:
    assert findings(TABLE) == []
    other = TABLE.replace("secret: '3000'", "secret: '5000'")
    [found] = findings(other)
    assert found.startswith('web/Dockerfile:4: rule "r": the values differ: the keys entry of ')
    assert '= "secret" (docker-compose.yml:8) is "5000"' in found


def test_a_value_missing_from_the_table_fails() -> None:
    [found] = findings(TABLE.replace("secret: '3000'", "public: '3000'"))
    assert found == (
        'docker-compose.yml:8: rule "r": compose.services.web.environment.OPENAI_API_KEY: '
        '"secret" has no entry in the table "keys" (it has "public", "other"; '
        "add one to the rules file's tables)"
    )


SAME = "rules:\n  - name: r\n    assert:\n      - same: "


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            SAME + "[{path: compose.a, map: nope}, compose.b]\n",
            't.yaml:4: rules[0] (r): assert[0].same[0].map: no table is named "nope" '
            "(declared under tables: none)",
        ),
        (
            SAME + "[{file: x, capture: y, key: true}, compose.b]\n",
            "t.yaml:4: rules[0] (r): assert[0].same[0].key: key goes with path, not file "
            "(a file has no keys)",
        ),
        (
            SAME + "[{path: compose.a, url: port_}, compose.b]\n",
            "t.yaml:4: rules[0] (r): assert[0].same[0].url: ",
        ),
        ("tables: {t: {}}\n", "t.yaml:1: tables: t: "),
    ],
)
def test_mistakes_in_derivations_are_located(text: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules(text, "t.yaml")
    assert str(caught.value).startswith(message)


# --- docs/rules.md's examples ---------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def _yaml_blocks() -> list[str]:
    text = DOCS.read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in text.split("```yaml\n")[1:]]


def test_the_docs_rules_files_are_valid() -> None:
    files = [b for b in _yaml_blocks() if b.lstrip().startswith(("version:", "selectors:"))]
    assert len(files) == 2
    rules = [parse_rules(text, "docs/rules.md") for text in files]
    assert (
        rules[0].tables
        == rules[1].tables
        == {"dflash-drafters": {"poolside/Laguna-S-2.1-NVFP4": "poolside/Laguna-S-2.1-DFlash"}}
    )
    assert [r.name for r in rules[1].rules] == ["dflash-backend-url", "dflash-drafter"]


def test_every_derived_value_example_in_the_docs_parses() -> None:
    text = DOCS.read_text(encoding="utf-8")
    table = text.split("**Derived values.**", 1)[1].split("```yaml", 1)[0]
    examples = [
        found.group(1)
        for line in table.splitlines()
        if line.startswith("| `")
        for found in [re.match(r"`(\{[^`]*\})`", line.split(" | ")[2])]
        if found is not None
    ]
    assert len(examples) == 3
    head = (
        "selectors:\n  services:\n    vllm: {port: 8000}\n    ollama: {port: 11434}\n"
        "tables:\n  dflash-drafters: {a: b}\nrules:\n  - name: r\n    assert:\n"
    )
    for example in examples:
        uses_the_table = "      - same: [{path: compose.a, map: dflash-drafters}, compose.b]\n"
        text = f"{head}      - same: [{example}, compose.x]\n{uses_the_table}"
        parse_rules(text, "docs/rules.md")


def test_a_mapping_has_no_url() -> None:
    rules = SAME + "[{path: compose.services.web.environment, url: port}, compose.services.web.x]\n"
    [found, _] = findings(rules)
    assert found.endswith(
        'rule "r": compose.services.web.environment: it is '
        '{"OPENAI_API_KEY": "secret", "PORT": "3000"}, not a single value'
    )


def test_a_table_no_relation_uses_is_refused() -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules("tables:\n  spare: {a: b}\n", "t.yaml")
    assert str(caught.value) == (
        't.yaml:2: tables: spare: the table "spare" is used by no relation (map: spare)'
    )
