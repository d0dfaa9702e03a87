"""The compose path, fact by fact: a table of small compose projects (wendy-run.md section 3).

Each case (tests/_compose_cases_{keys,refs,yaml,build}.py)
names the row or consequence of section 3 it tests and pins the device view
``plan --json`` prints for it (``view``: the dataclasses of
:mod:`wendy_llm.device.model` as ``dataclasses.asdict`` gives them).
"""

from __future__ import annotations

import json
from collections import Counter

import jsonschema
import pytest
from _compose_cases import Case, check, command_errors
from _compose_cases_build import CASES as BUILD_CASES
from _compose_cases_keys import CASES as KEY_CASES
from _compose_cases_refs import CASES as REF_CASES
from _compose_cases_yaml import CASES as YAML_CASES

from wendy_llm.device import PROFILES
from wendy_llm.reports.json import dumps, plan_json, schema_path
from wendy_llm.reports.plan import format_plan
from wendy_llm.validate.checks.device import build_view

CASES = [*KEY_CASES, *REF_CASES, *YAML_CASES, *BUILD_CASES]
PLAN_SCHEMA = jsonschema.Draft202012Validator(
    json.loads(schema_path("plan").read_text(encoding="utf-8"))
)


def test_there_are_at_least_100_cases_with_distinct_names_and_facts() -> None:
    assert len(CASES) >= 100
    repeated = [name for name, n in Counter(c.id for c in CASES).items() if n > 1]
    assert repeated == []
    assert all(c.fact and c.expect for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_device_view_follows_the_fact(case: Case) -> None:
    tree = {"docker-compose.yml": case.compose.encode()}
    tree.update({path: text.encode() for path, text in case.files.items()})
    view = build_view(tree, "demo")
    document = dumps(
        plan_json(view, template="case", pick=None, app_id="demo", answers={}, devices=PROFILES)
    )
    plan = json.loads(document)  # the very document plan --json prints
    PLAN_SCHEMA.validate(plan)
    check(case, plan["view"])
    errors = command_errors(plan["view"])
    assert (errors == []) == ("error" not in case.expect), case.id
    absent = any(f["code"] == "DEV049" for f in plan["view"]["findings"])
    assert plan["ok"] == (errors == [] and not absent), case.id


def test_the_plan_says_the_creation_order_is_partial() -> None:
    compose = (
        "services:\n  web:\n    image: nginx\n    depends_on: [api]\n"
        "  api:\n    image: api\n    depends_on: [db, web]\n  db:\n    image: postgres\n"
        "    command: ['python -u', app.py]\n"
    )
    view = build_view({"docker-compose.yml": compose.encode()}, "demo")
    text = format_plan(view, template="t", pick=None, app_id="demo", devices=PROFILES)
    assert "the rest is unordered and changes from run to run" in text
    assert "Apps, in creation order" not in text
    # api waits for db; web and api form a cycle: neither is ordered before the other.
    assert "   after    db\n" in text
    assert "   cycle    depends on web: not ordered (a cycle)\n" in text
    assert "['python', '-u', 'app.py'] (compose command, replacing the image's" in text
    assert "restart  unless-stopped, the device default (compose restart: absent)" in text
