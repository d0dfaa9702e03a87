"""How much work listing a template's picks may be, decided before it starts.

Beyond :data:`~wendy_llm.options.PICKS_FULL_PRODUCT` combinations, picks are
a pairwise covering set, whose generation takes time growing with the pairs
of answers to cover times the picks it makes: 60 radio questions of 20
options each (708,000 pairs) never ended.  The pairs are counted from the
answers each question offers, and a picker of more than
:data:`~wendy_llm.options.PICKS_MAX_PAIRS` is refused with an error naming
its file and the count.
"""

from __future__ import annotations

from collections.abc import Sequence

from wendy_llm import options
from wendy_llm.errors import ManifestError
from wendy_llm.render.manifest.records import PICKER_FILE


def answer_pairs(choices: Sequence[int]) -> int:
    """The pairs of answers of two different questions, each question offering
    ``choices[i]`` answers (the sum of their products, pair by pair)."""
    total = sum(choices)
    return (total * total - sum(c * c for c in choices)) // 2


def refuse_too_many_pairs(choices: Sequence[int]) -> None:
    """``ManifestError`` naming the picker when its pairs pass the limit."""
    pairs = answer_pairs(choices)
    if pairs > options.PICKS_MAX_PAIRS:
        questions = sum(1 for count in choices if count > 1)
        raise ManifestError(
            f"{PICKER_FILE}: the picker's {questions} questions make {pairs:,} pairs of "
            f"answers to cover, more than the {options.PICKS_MAX_PAIRS:,} picks are "
            "computed for (ask fewer questions, or offer fewer options)",
            file=PICKER_FILE,
        )
