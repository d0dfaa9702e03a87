"""Which base render each pick is held to, and how the comparison classifies it.

Small templates in memory (``template_from_files``) and the real engine: a
base with two Ollama-style tags, and heads that add a tag, a sentinel, a
question the base does not have, or stricter answers than the base takes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from wendy_llm.compare.diff import Side, compare_templates
from wendy_llm.compare.pairing import pair_picks
from wendy_llm.compare.scope import FileScope
from wendy_llm.render.template import Template, template_from_files
from wendy_llm.render.variants import CANONICAL, Inputs

COMPOSE = """\
services:
  backend:
    environment:
      MODEL: "{{.MODEL}}"
    ports:
      - "{{.PORT}}:{{.PORT}}"
volumes:
  {{.APP_ID}}-data: {}
"""
BASE = Side("baseline", "base", "base")
HEAD = Side("working-tree", "head", "head")
SCOPE = FileScope(("docker-compose.yml",))


def template(
    options: list[str],
    *,
    compose: str = COMPOSE,
    questions: list[dict[str, object]] | None = None,
    variables: list[dict[str, object]] | None = None,
) -> Template:
    radio = {
        "id": "MODEL",
        "type": "radio",
        "default": options[0],
        "options": [{"value": v, "label": v} for v in options],
    }
    port = {"name": "PORT", "type": "integer", "default": 8080, "validate": {"min": 1}}
    manifest = {"name": "mini", "variables": [port, *(variables or [])]}
    picker = {"phases": [{"questions": [radio, *(questions or [])]}]}
    files = {
        "template.json": json.dumps(manifest).encode(),
        "template.schema.json": json.dumps(picker).encode(),
        "docker-compose.yml": compose.encode(),
    }
    return template_from_files("py/mini", files)


def modes(
    base: Template, head: Template, sentinels: Mapping[str, list[str]]
) -> list[tuple[str, str, str | None]]:
    return [(p.slug, p.mode, p.reason) for p in pair_picks(base, head.picks(), sentinels)]


def test_each_pick_is_paired_by_slug_then_by_answers() -> None:
    base = template(["a:1", "b:2", "gone:3"])
    head = template(["a:1", "b:2", "new:4", "special"])
    assert modes(base, head, {"MODEL": ["special"]}) == [
        ("a-1", "pick", None),
        ("b-2", "pick", None),
        ("new-4", "answers", None),
        ("special", "exempt", "sentinel MODEL=special: checked by its rules, not byte for byte"),
        ("gone-3", "removed", None),
    ]
    # Undeclared, "special" is an answer like any other: --var accepts it.
    assert modes(base, head, {})[3] == ("special", "answers", None)


def test_a_question_the_base_does_not_have_makes_a_pick_not_comparable() -> None:
    base = template(["a:1", "b:2"])
    gpu: dict[str, object] = {
        "id": "GPU",
        "type": "radio",
        "default": "yes",
        "options": [{"value": "yes"}, {"value": "no"}],
    }
    head = template(["a:1", "b:2"], questions=[gpu])
    reason = "the base has no variable or picker question GPU"
    assert modes(base, head, {}) == [
        ("a-1__yes", "not-comparable", reason),
        ("a-1__no", "not-comparable", reason),
        ("b-2__yes", "not-comparable", reason),
        ("b-2__no", "not-comparable", reason),
        ("a-1", "removed", None),
        ("b-2", "removed", None),
    ]


def test_an_answer_the_base_rejects_makes_a_pick_not_comparable() -> None:
    # The base declares MODEL in template.json too, with a pattern: --var
    # answers are converted and validated against it (and the variable wins
    # over the question, so the base has one pick, "default").
    strict: dict[str, object] = {
        "name": "MODEL",
        "type": "string",
        "default": "a:1",
        "validate": {"pattern": "^[a-z]+:[0-9]+$"},
    }
    base = template(["a:1", "b:2"], variables=[strict])
    head = template(["a:1", "b:2", "Big:X"])
    assert modes(base, head, {}) == [
        ("a-1", "answers", None),
        ("b-2", "answers", None),
        (
            "big-x",
            "not-comparable",
            'the base rejects its answers: invalid value for MODEL: "Big:X" does not match the '
            "pattern ^[a-z]+:[0-9]+$",
        ),
        ("default", "removed", None),
    ]


def test_a_new_pick_is_compared_with_the_base_rendered_with_its_answers() -> None:
    base = template(["a:1", "b:2"])
    leak = COMPOSE.replace(
        'MODEL: "{{.MODEL}}"\n', 'MODEL: "{{.MODEL}}"\n{{if eq .MODEL "new:4"}}\n{{end}}'
    )
    head = template(["a:1", "b:2", "new:4"], compose=leak)
    diff = compare_templates("py/mini", base, head, base_side=BASE, head_side=HEAD, scope=SCOPE)
    a, _, new = diff.picks
    assert (a.slug, a.status, a.compared_with) == ("a-1", "unchanged", "pick")
    assert (new.slug, new.status, new.compared_with) == ("new-4", "changed", "answers")
    assert new.note() == "new: compared with the base rendered with its answers"
    # The reports' pick tables show a changed pick's files instead.
    assert new.table_note() is None
    [change] = new.files  # the canonical input shows it; the variant adds nothing new
    assert change.variant is None and "+" in change.diff
    assert change.diff[:2] == (
        "--- docker-compose.yml (baseline base)",
        "+++ docker-compose.yml (working tree head)",
    )


def test_a_new_pick_the_base_does_not_render_is_added_with_the_reason() -> None:
    broken = COMPOSE + '{{if eq .MODEL "new:4"}}{{.NOPE}}{{end}}\n'
    base = template(["a:1", "b:2"], compose=broken)
    head = template(["a:1", "b:2", "new:4"])
    diff = compare_templates("py/mini", base, head, base_side=BASE, head_side=HEAD, scope=SCOPE)
    new = diff.picks[2]
    assert (new.slug, new.status, new.compared_with) == ("new-4", "added", None)
    assert new.reason is not None
    assert new.reason.startswith(
        "the base does not render its answers: rendering docker-compose.yml"
    )
    assert new.note() == f"not comparable: {new.reason}"
    assert new.table_note() == new.note()
    assert diff.counts()["added"] == 1


def test_a_hard_coded_port_is_caught_by_the_variant_only() -> None:
    base = template(["a:1"])
    head = template(["a:1"], compose=COMPOSE.replace('"{{.PORT}}:{{.PORT}}"', '"8080:{{.PORT}}"'))
    canonical_only = compare_templates(
        "py/mini", base, head, base_side=BASE, head_side=HEAD, scope=SCOPE, inputs=[CANONICAL]
    )
    assert [p.status for p in canonical_only.picks] == ["unchanged"]
    diff = compare_templates("py/mini", base, head, base_side=BASE, head_side=HEAD, scope=SCOPE)
    assert [i.label for i in diff.inputs] == ["canonical", "app-id=my.app-2 PORT=9080"]
    [pick] = diff.picks
    [change] = pick.files
    assert (pick.status, change.variant) == ("changed", "app-id=my.app-2 PORT=9080")
    assert change.describe() == "docker-compose.yml (changed, variant app-id=my.app-2 PORT=9080)"
    assert '-      - "9080:9080"' in change.diff and '+      - "8080:9080"' in change.diff
    assert (
        change.diff[0]
        == "--- docker-compose.yml (baseline base, variant app-id=my.app-2 PORT=9080)"
    )


def test_a_variant_the_base_rejects_is_skipped_with_the_reason() -> None:
    base = template(["a:1"], variables=[])
    narrow = json.loads(base.files["template.json"])
    narrow["variables"][0]["validate"]["max"] = 9000
    base = template_from_files(
        "py/mini", {**base.files, "template.json": json.dumps(narrow).encode()}
    )
    head = template(["a:1"])
    diff = compare_templates("py/mini", base, head, base_side=BASE, head_side=HEAD, scope=SCOPE)
    [pick] = diff.picks
    assert pick.status == "unchanged"
    assert pick.skipped == (
        ("app-id=my.app-2 PORT=9080", "the base does not render it: PORT must be at most 9000"),
    )


def test_a_hard_coded_app_id_needs_a_variant_with_another_app_id() -> None:
    base = template(["a:1"])
    head = template(["a:1"], compose=COMPOSE.replace("{{.APP_ID}}-data", "llm-app-data"))
    same_app_id = [CANONICAL, Inputs("llm-app", {"PORT": "3000"})]
    held = compare_templates(
        "py/mini", base, head, base_side=BASE, head_side=HEAD, scope=SCOPE, inputs=same_app_id
    )
    assert [p.status for p in held.picks] == ["unchanged"]
    diff = compare_templates("py/mini", base, head, base_side=BASE, head_side=HEAD, scope=SCOPE)
    [change] = diff.picks[0].files
    assert change.variant == "app-id=my.app-2 PORT=9080"
    assert "-  my.app-2-data: {}" in change.diff and "+  llm-app-data: {}" in change.diff
