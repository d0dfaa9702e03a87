"""Picks: every reachable set of picker answers (the ``--var`` answers of one variant).

``enumerate_picks`` walks the picker as `wendy init` does and branches at
every question asked: the full product up to
:data:`~wendy_llm.options.PICKS_FULL_PRODUCT` combinations, else a pairwise
covering set (AETG style, deterministic). Names come from
:mod:`~wendy_llm.render.slugs`. The rules: docs/wendy-init-semantics.md,
section 6.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Hashable, Iterator, Mapping, Sequence
from types import MappingProxyType

from wendy_llm import options
from wendy_llm.engine import gofuncs
from wendy_llm.errors import PickError, ValuesError, quoted
from wendy_llm.record import Record
from wendy_llm.render.manifest.load import Manifest, Picker, Question
from wendy_llm.render.pick_limit import refuse_too_many_pairs
from wendy_llm.render.slugs import finish_slug, slugify, unique_slugs
from wendy_llm.render.values import (
    APP_ID,
    answer_with_default,
    evaluate_when,
    template_variables,
    walk_calls,
)

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final, TypeVar

    _T = TypeVar("_T", bound=Hashable)

CANONICAL_APP_ID = "llm-app"
REQUIRED_INPUT_PLACEHOLDER = "example"


class Pick(Record):
    """One variant: ``answers`` are the ``--var`` overrides it stands for.

    A :class:`~wendy_llm.record.Record` that hashes by its slug alone (its
    answers are a mapping).
    """

    __slots__ = ("answers", "slug")
    _fields = ("slug", "answers")

    def __init__(self, slug: str, answers: Mapping[str, str]) -> None:
        self.slug: Final = slug
        self.answers: Final = answers

    def __hash__(self) -> int:
        return hash(self.slug)


# An answer to one question: the override string, or None to leave the
# question to the picker's own default answer.
Answer = str | None


def _dedupe(values: Sequence[_T]) -> list[_T]:
    return list(dict.fromkeys(values))


def _selection(text: str) -> frozenset[str]:
    """The options a checkbox answer selects (the CLI's comma split and trim)."""
    return frozenset(p for p in gofuncs.comma_parts(text) if p)


def checkbox_choices(question: Question) -> list[Answer]:
    """The enumerated answers of a checkbox question (None = its default)."""
    values = _dedupe(question.option_values)
    if len(values) <= options.PICKS_CHECKBOX_SUBSETS:
        subsets = [
            list(combo)
            for size in range(len(values) + 1)
            for combo in itertools.combinations(values, size)
        ]
    else:
        subsets = [[v] for v in values] + [[], values]
    default = _selection(question.default)
    choices: list[Answer] = [None if frozenset(s) == default else ",".join(s) for s in subsets]
    if None not in choices:
        # A default outside the enumerated subsets is tried first.
        choices.insert(0, None)
    return _dedupe(choices)


def question_choices(question: Question) -> list[Answer]:
    """Every answer the enumeration tries for ``question``, in order."""
    if question.type == "radio":
        if question.options:
            return list(_dedupe(question.option_values))
        return [question.default] if question.default else [None]
    if question.type == "checkbox":
        return checkbox_choices(question)
    if question.required and not question.default:
        return [REQUIRED_INPUT_PLACEHOLDER]
    return [None]


def _default_answer(question: Question, values: dict[str, object]) -> None:
    """What the picker itself stores for an unanswered question."""
    # A required question without a default stores nothing; values() reports it.
    with contextlib.suppress(ValuesError):
        answer_with_default(question, values)


def _store(question: Question, answer: Answer, values: dict[str, object]) -> None:
    if answer is None:
        _default_answer(question, values)
    else:
        values[question.id] = answer


class _Item:
    """One question of the walk, numbered, with the answers tried for it (a plain
    class: a dataclass costs more to create than the whole enumeration)."""

    __slots__ = ("choices", "index", "phase", "question")

    def __init__(
        self, index: int, phase: int, question: Question, choices: tuple[Answer, ...]
    ) -> None:
        self.index = index
        self.phase = phase
        self.question = question
        self.choices = choices


Path = tuple[tuple[int, Answer], ...]


class _Walker:
    """Walks the picker, branching at asked questions."""

    def __init__(self, picker: Picker, base: Mapping[str, object]) -> None:
        self.picker = picker
        self.base = dict(base)
        items: list[_Item] = []
        for p_index, phase in enumerate(picker.phases):
            for question in phase.questions:
                items.append(
                    _Item(len(items), p_index, question, tuple(question_choices(question)))
                )
        self.items = items

    def asked(self, item: _Item, values: Mapping[str, object], phases: dict[int, bool]) -> bool:
        if item.phase not in phases:
            when = self.picker.phases[item.phase].when
            phases[item.phase] = when is None or evaluate_when(when, values)
        if not phases[item.phase]:
            return False
        when = item.question.when
        if when is not None and not evaluate_when(when, values):
            return False
        return item.question.id not in values

    def full_product(self, limit: int) -> list[Path] | None:
        """Every leaf of the walk, or None when there are more than ``limit``."""
        out: list[Path] = []

        def visit(k: int, values: dict[str, object], phases: dict[int, bool], path: Path) -> bool:
            if k == len(self.items):
                out.append(path)
                return len(out) <= limit
            item = self.items[k]
            phases = dict(phases)
            if not self.asked(item, values, phases):
                return visit(k + 1, values, phases, path)
            for answer in item.choices:
                branch = dict(values)
                _store(item.question, answer, branch)
                if not visit(k + 1, branch, phases, (*path, (k, answer))):
                    return False
            return True

        return out if visit(0, dict(self.base), {}, ()) else None

    def walk(self, choose: Chooser) -> Path | None:
        """One path; ``choose`` picks each asked question's answer (or None
        to abandon the walk)."""
        values = dict(self.base)
        phases: dict[int, bool] = {}
        path: list[tuple[int, Answer]] = []
        for item in self.items:
            if not self.asked(item, values, phases):
                if not choose.skipped(item):
                    return None
                continue
            options = choose.order(item, path)
            if not options:
                return None
            answer = options[0]
            _store(item.question, answer, values)
            path.append((item.index, answer))
        return tuple(path)

    def search(self, choose: Chooser, budget: int) -> Path | None:
        """Depth-first: the first path ``choose`` accepts, within ``budget`` steps."""
        steps = 0

        def visit(
            k: int, values: dict[str, object], phases: dict[int, bool], path: Path
        ) -> Path | None:
            nonlocal steps
            steps += 1
            if steps > budget:
                return None
            if k == len(self.items):
                return path
            item = self.items[k]
            phases = dict(phases)
            if not self.asked(item, values, phases):
                return visit(k + 1, values, phases, path) if choose.skipped(item) else None
            for answer in choose.order(item, list(path)):
                branch = dict(values)
                _store(item.question, answer, branch)
                found = visit(k + 1, branch, phases, (*path, (k, answer)))
                if found is not None:
                    return found
            return None

        return visit(0, dict(self.base), {}, ())


class Chooser:
    """Answer order for pairwise generation: forced answers first, then the
    answers covering the most uncovered pairs."""

    def __init__(
        self,
        forced: Mapping[int, Answer],
        covered_pairs: set[tuple[tuple[int, Answer], tuple[int, Answer]]],
        covered_singles: set[tuple[int, Answer]],
    ) -> None:
        self.forced = forced
        self.covered_pairs = covered_pairs
        self.covered_singles = covered_singles

    def skipped(self, item: _Item) -> bool:
        return item.index not in self.forced

    def order(self, item: _Item, path: Sequence[tuple[int, Answer]]) -> list[Answer]:
        if item.index in self.forced:
            return [self.forced[item.index]]

        # Pairs with the answers chosen so far and with the forced answers
        # still ahead (pairs are keyed in walk order).
        ahead = [(k, a) for k, a in self.forced.items() if k > item.index]

        def gain(answer: Answer) -> int:
            this = (item.index, answer)
            new_pairs = sum(1 for prev in path if (prev, this) not in self.covered_pairs)
            new_pairs += sum(1 for later in ahead if (this, later) not in self.covered_pairs)
            return new_pairs * 2 + (this not in self.covered_singles)

        return sorted(item.choices, key=lambda a: -gain(a))


def _coverage(
    path: Path,
) -> tuple[set[tuple[int, Answer]], set[tuple[tuple[int, Answer], tuple[int, Answer]]]]:
    singles = set(path)
    pairs = {(a, b) for a, b in itertools.combinations(path, 2)}
    return singles, pairs


def _pairwise(walker: _Walker) -> list[Path]:
    covered_singles: set[tuple[int, Answer]] = set()
    covered_pairs: set[tuple[tuple[int, Answer], tuple[int, Answer]]] = set()
    paths: list[Path] = []

    def gain(path: Path) -> int:
        singles, pairs = _coverage(path)
        return len(pairs - covered_pairs) * 2 + len(singles - covered_singles)

    def add(path: Path) -> None:
        singles, pairs = _coverage(path)
        covered_singles.update(singles)
        covered_pairs.update(pairs)
        paths.append(path)

    def covered(forced: Mapping[int, Answer]) -> bool:
        keys = tuple(sorted(forced.items(), key=lambda kv: kv[0]))
        return keys in covered_pairs if len(keys) == 2 else keys[0] in covered_singles

    first = walker.walk(_DefaultsChooser())
    if first is not None:
        add(first)
    branching = [item for item in walker.items if item.choices]
    targets: list[dict[int, Answer]] = [
        {a.index: x, b.index: y}
        for a, b in itertools.combinations(branching, 2)
        for x in a.choices
        for y in b.choices
    ]
    targets += [{item.index: x} for item in branching for x in item.choices]
    unreachable: set[int] = set()
    while True:
        pending = [
            i for i, forced in enumerate(targets) if i not in unreachable and not covered(forced)
        ]
        if not pending:
            return paths
        # Each pick is the best of a few candidates, each seeded by one
        # uncovered pair (AETG); a seed no walk reaches is unreachable.
        best: Path | None = None
        for i in pending[: options.PAIRWISE_CANDIDATES]:
            chooser = Chooser(targets[i], covered_pairs, covered_singles)
            path = walker.walk(chooser) or walker.search(chooser, options.PAIRWISE_SEARCH_STEPS)
            if path is None:
                unreachable.add(i)
            elif best is None or gain(path) > gain(best):
                best = path
        if best is not None:
            add(best)


class _DefaultsChooser(Chooser):
    """The all-defaults walk: radio defaults, everything else unanswered."""

    def __init__(self) -> None:
        super().__init__({}, set(), set())

    def skipped(self, item: _Item) -> bool:
        return True

    def order(self, item: _Item, path: Sequence[tuple[int, Answer]]) -> list[Answer]:
        question = item.question
        if question.type == "radio" and question.default in item.choices:
            return [question.default]
        return [None] if None in item.choices else list(item.choices[:1])


def base_values(manifest: Manifest, app_id: str = CANONICAL_APP_ID) -> dict[str, object]:
    """The map before the picker walk with no overrides (steps 1-2 of the
    value assembly; variables without a default are left out)."""
    values: dict[str, object] = {APP_ID: app_id}
    for variable in template_variables(manifest):
        if variable.default is not None:
            values[variable.name] = variable.default
    return values


def _slug_parts(walker: _Walker, path: Path) -> Iterator[str]:
    for index, answer in path:
        item = walker.items[index]
        if len(item.choices) < 2:
            continue
        if answer is None:
            question = item.question
            if question.type == "checkbox":
                chosen = _selection(question.default)
                answer = ",".join(v for v in _dedupe(question.option_values) if v in chosen)
            else:
                answer = question.default
        yield slugify(answer)


def enumerate_picks(manifest: Manifest, picker: Picker | None) -> list[Pick]:
    """Every pick of a template with these manifests (see the module docstring)."""
    if picker is None:
        return [Pick(slug="default", answers=MappingProxyType({}))]
    base = base_values(manifest)
    # Two prefetches at most: the choices need the checkbox defaults split.
    gofuncs.prefetch(walk_calls(picker, base))
    walker = _Walker(picker, base)
    choices = {it.question.id: [c for c in it.choices if c is not None] for it in walker.items}
    gofuncs.prefetch(walk_calls(picker, base, choices))
    paths = walker.full_product(options.PICKS_FULL_PRODUCT)
    if paths is None:
        refuse_too_many_pairs([len(item.choices) for item in walker.items])
        paths = _pairwise(walker)
    answers = [{walker.items[i].question.id: a for i, a in path if a is not None} for path in paths]
    slugs = [finish_slug("__".join(_slug_parts(walker, path)) or "default") for path in paths]
    return [
        Pick(slug=slug, answers=MappingProxyType(ans))
        for slug, ans in zip(unique_slugs(slugs, answers), answers, strict=True)
    ]


def find_pick(template_id: str, picks: Sequence[Pick], slug: str) -> Pick:
    """The pick named ``slug``; ``PickError`` lists the valid ones."""
    for pick in picks:
        if pick.slug == slug:
            return pick
    names = [p.slug for p in picks]
    shown = ", ".join(names[:20]) + (f", ... ({len(names)} in all)" if len(names) > 20 else "")
    raise PickError(f"template {template_id} has no pick {quoted(slug)}; its picks: {shown}")
