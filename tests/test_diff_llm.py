"""The python/llm gate: the template against its stored Ollama-only baseline."""

from __future__ import annotations

from pathlib import Path

from wendy_llm import Policy, Side, diff_template, evaluate_policy, load_template
from wendy_llm.compare.scope import scope_from_rules
from wendy_llm.repo.layout import rules_path

REPO = Path(__file__).resolve().parent.parent
TEMPLATE = REPO / "templates/python/llm"
BASELINE = REPO / "golden/baseline/python/llm"


def test_every_baseline_pick_is_unchanged_within_the_gate_and_three_are_added() -> None:
    head = load_template(TEMPLATE, id="python/llm")
    base = load_template(BASELINE, id="python/llm")
    scope = scope_from_rules(rules_path(REPO / "golden", "python/llm"))
    assert scope.globs == ("docker-compose.yml", "wendy.json")
    diff = diff_template(
        "python/llm",
        base,
        head,
        base_side=Side("baseline", str(BASELINE), str(BASELINE)),
        head_side=Side("working-tree", str(TEMPLATE), str(TEMPLATE)),
        scope=scope,
    )
    base_slugs = {p.slug for p in base.picks()}
    assert len(base_slugs) == 14
    by_status = {s: {p.slug for p in diff.with_status(s)} for s in ("unchanged", "added")}
    assert by_status["unchanged"] == base_slugs
    assert by_status["added"] == {
        "laguna-xs-2.1-q4_k_m",
        "laguna-s-2.1-q4_k_m",
        "laguna-s-2.1-dflash",
    }
    assert diff.counts() == {"unchanged": 14, "changed": 0, "added": 3, "removed": 0}
    assert evaluate_policy(diff, Policy(expect_unchanged=True)).holds
