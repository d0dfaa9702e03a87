"""The committed fixtures agree with the bundled templates (as `make check` asks)."""

from __future__ import annotations

from pathlib import Path

from wendy_llm import check_golden

REPO = Path(__file__).resolve().parents[2]


def test_committed_fixtures_match_every_pick() -> None:
    result = check_golden(REPO / "templates", REPO / "golden")
    assert [c.template_id for c in result.checked] == ["python/llm"]
    assert len(result.checked[0].picks) == 17
    assert result.ok, "\n\n".join(p.message() for p in result.problems)
