"""The rules format's relations (``same``) and text assertions, on small real
renders, and the compose model the rules read.

Every render goes through the real ``docker-compose config`` (the normalised
model) and the device view, as ``check`` makes them (``tests/_rules_helpers.py``).
"""

from __future__ import annotations

import pytest
from _rules_helpers import COMPOSE, TREE, WEB_DOCKERFILE, findings, one

from wendy_llm import RulesError
from wendy_llm.validate.rules.file import parse_rules

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
        'web/Dockerfile:5: rule "r": the values differ: '
        'compose.services.web.environment.OPENAI_API_KEY (docker-compose.yml:8) is "secret"; '
        'device.services.web.environment.values.OPENAI_API_KEY (web/Dockerfile:5) is "other"; '
        'web/entrypoint.sh:2 is "secret"'
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
        't.rules.yaml:4: rule "r": compose.services.x.y reaches nothing'
    ]
    assert one(
        "{same: [compose.services.web.environment, compose.services.web.build.context]}"
    ) == [
        'docker-compose.yml:8: rule "r": compose.services.web.environment is '
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
            ['web/entrypoint.sh:3: rule "r": web/entrypoint.sh contains "--port 3000" (must not)'],
        ),
        (
            "{file: web/entrypoint.sh, contains: '--port 8080'}",
            [
                'web/entrypoint.sh:1: rule "r": web/entrypoint.sh does not contain "--port 8080" '
                "(line 1: web/entrypoint.sh as a whole)"
            ],
        ),
        (
            "{file: docker-compose.yml, matches: '${APP_ID}-models:'}",
            [],  # the app id's dot is escaped: it matches only a dot
        ),
        (
            "{file: docker-compose.yml, matches: 'myXapp'}",
            [
                'docker-compose.yml:1: rule "r": docker-compose.yml has nothing matching /myXapp/ '
                "(line 1: docker-compose.yml as a whole)"
            ],
        ),
        (
            "{file: 'missing/*.sh', contains: x}",
            ['t.rules.yaml:4: rule "r": no rendered file matches missing/*.sh'],
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
    assert found == [
        'x.txt:1: rule "r": x.txt has nothing matching /my\\.app-models/ (line 1: x.txt as a whole)'
    ]


def test_a_capture_is_placed_at_its_line_after_non_ascii_text() -> None:
    # Go's offsets are UTF-8 bytes: a line of "é" before the match must not move it.
    entrypoint = "# café — ünïcode\n" + TREE["web/entrypoint.sh"].decode()
    tree = {**TREE, "web/Dockerfile": WEB_DOCKERFILE.replace(b"=secret", b"=other")}
    tree["web/entrypoint.sh"] = entrypoint.encode()
    found = findings(
        "rules:\n  - name: r\n    assert:\n      - same:\n"
        "          - device.services.web.environment.values.OPENAI_API_KEY\n"
        "          - {file: web/entrypoint.sh, capture: 'OPENAI_API_KEY:-([^}]*)'}\n",
        tree,
    )
    assert found[0].endswith('web/entrypoint.sh:3 is "secret"'), found


def test_a_regex_that_backtracks_exponentially_ends_with_a_finding() -> None:
    # Python's backtracking re took minutes on this line (issue 38); Go's RE2
    # engine, which the rules use, is linear in the text.
    tree = {**TREE, "run.sh": ("#!/bin/sh\n# " + "a" * 43 + "!\n").encode()}
    found = findings(
        "rules:\n  - name: r\n    assert:\n      - {file: run.sh, matches: '^# (a|aa)+$'}\n",
        tree,
    )
    assert found == [
        'run.sh:1: rule "r": run.sh has nothing matching /^# (a|aa)+$/ (line 1: run.sh as a whole)'
    ]


def test_the_rules_regex_dialect_is_go_re2() -> None:
    with pytest.raises(RulesError) as caught:  # a backreference: Python's, not RE2's
        parse_rules("rules:\n  - name: r\n    assert: [{file: x, matches: '(a)\\1'}]\n", "t")
    assert "error parsing regexp: invalid escape sequence: `\\1`" in str(caught.value)


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
        'docker-compose.yml:18: rules "a", "b" cannot be checked: docker-compose config does '
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
        'deploy/app.yml:1: rule "a" cannot be checked: deploy/app.yml is not run through '
        "docker-compose config (only compose.yaml, compose.yml, docker-compose.yaml, "
        "docker-compose.yml are) (line 1: deploy/app.yml as a whole)"
    ]
