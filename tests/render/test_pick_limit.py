"""Listing picks is bounded before it starts (issue 38): a picker of too many
answer pairs is refused naming its file and the count, not left running."""

from __future__ import annotations

from pathlib import Path

import pytest
from _template_helpers import make_template, phase, radio

from wendy_llm import ManifestError, options
from wendy_llm.render.pick_limit import answer_pairs


def test_answer_pairs_counts_pairs_of_answers_of_different_questions() -> None:
    assert answer_pairs([3]) == 0
    assert answer_pairs([2, 3]) == 6
    assert answer_pairs([20] * 60) == 60 * 59 // 2 * 400  # 708,000


def test_a_picker_of_too_many_pairs_is_refused_naming_its_file_and_count(tmp_path: Path) -> None:
    # 60 radio questions of 20 options: pairwise generation never ended.
    questions = [radio(f"Q{q}", [f"v{v}" for v in range(20)], default="v0") for q in range(60)]
    template = make_template(tmp_path, phases=[phase(*questions)], name="wide")
    with pytest.raises(ManifestError) as caught:
        template.picks()
    assert caught.value.file == "template.schema.json"
    assert str(caught.value).startswith(
        "template wide: template.schema.json: the picker's 60 questions make 708,000 pairs"
    )
    assert f"more than the {options.PICKS_MAX_PAIRS:,}" in str(caught.value)


def test_a_picker_within_the_limit_still_gets_its_pairwise_picks(tmp_path: Path) -> None:
    questions = [radio(f"Q{q}", ["a", "b", "c"], default="a") for q in range(6)]
    template = make_template(tmp_path, phases=[phase(*questions)], name="small")
    picks = template.picks()  # 3**6 = 729 combinations: a pairwise set, far fewer
    assert 9 <= len(picks) < 729
