"""The python/llm gate: the template against its stored Ollama-only baseline."""

from __future__ import annotations

from pathlib import Path

from wendy_llm import Policy, Side, diff_template, evaluate_policy, load_template
from wendy_llm.repo.layout import rules_path
from wendy_llm.validate.stored.baseline import declared_sentinels, rules_of

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "templates/python/llm"
BASELINE = REPO / "golden/baseline/python/llm"


def test_every_ollama_pick_is_unchanged_within_the_gate_and_the_sentinel_is_exempt() -> None:
    head = load_template(TEMPLATE, id="python/llm")
    base = load_template(BASELINE, id="python/llm")
    rules = rules_of(rules_path(REPO / "golden", "python/llm"))
    assert rules is not None
    scope = rules.gate
    assert scope.globs == ("docker-compose.yml", "wendy.json")
    diff = diff_template(
        "python/llm",
        base,
        head,
        base_side=Side("baseline", str(BASELINE), str(BASELINE)),
        head_side=Side("working-tree", str(TEMPLATE), str(TEMPLATE)),
        scope=scope,
        sentinels=declared_sentinels(rules),
    )
    base_slugs = {p.slug for p in base.picks()}
    assert len(base_slugs) == 14
    # Canonical and variant inputs, on both sides.
    assert [i.label for i in diff.inputs] == ["canonical", "app-id=my.app-2 PORT=9080"]
    by_status = {s: {p.slug for p in diff.with_status(s)} for s in ("unchanged", "exempt")}
    new_ollama = {"laguna-xs-2.1-q4_k_m", "laguna-s-2.1-q4_k_m"}
    assert by_status["unchanged"] == base_slugs | new_ollama
    assert by_status["exempt"] == {"laguna-s-2.1-dflash"}
    assert {p.slug for p in diff.picks if p.compared_with == "answers"} == new_ollama
    assert all(p.skipped == () for p in diff.picks)
    assert diff.counts() == {
        "unchanged": 16,
        "changed": 0,
        "added": 0,
        "removed": 0,
        "exempt": 1,
    }
    assert evaluate_policy(diff, Policy(expect_unchanged=True)).holds
