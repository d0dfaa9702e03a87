"""Picks: every reachable set of picker answers, and their slugs.

A pick stands for the ``--var`` overrides (``answers``) a user would pass to
get one variant of a template.  Canonical golden inputs are the app id
``CANONICAL_APP_ID``, every other variable at its default, plus the pick's
answers.

Enumeration walks the picker as `wendy init` does (phases, then questions,
in order; a phase or question whose ``when`` is false, or whose id a
``template.json`` variable already holds, is not asked), branching at every
question that is asked:

- radio: each option value, in order (a radio without options: its default,
  or nothing);
- checkbox: every subset of the options when there are at most 4 (ordered
  by size, then option order), otherwise the default, each single option,
  none and all.  The default selection is left *unanswered*: only the
  picker's own default answer sets the ``ID_<value>`` booleans (a ``--var``
  answer skips the question; see ``values.py``), so this is the one
  selection that renders as `wendy init` renders it without ``--var``.
  Other selections are answered ``ID=a,b`` (option order, no spaces);
- input: left at its default (unanswered); a required input without a
  default is answered ``example``.

A question hidden by an earlier answer's ``when`` is not enumerated for
that answer.  When the whole tree has at most 64 leaves every leaf is a
pick (the full product).  Otherwise the picks are a *pairwise* (all-pairs)
covering set built greedily (AETG style): the all-defaults pick first,
then, while a pair of answers to two questions (or a single answer) is not
covered, the best of up to 4 candidate picks, each forcing one uncovered
pair and choosing every other answer to cover as many uncovered pairs as
possible.  A pair that no walk can reach (a depth-first search of at most
5000 steps finds none) is skipped.  The result is deterministic; it is not
minimal (e.g. 6 three-option questions give 15 picks where the full
product has 729).  ``when`` is assumed to refer to earlier
questions or to variables (as the interactive picker requires).

Slug rule (``slugify``), per answered question with more than one choice,
in walk order:

1. lower-case the answer;
2. replace every run of characters other than ``a-z 0-9 . _`` (including
   ``-``, ``/``, ``:``, ``,``, spaces, non-ASCII) by one ``-``; collapse
   runs of ``_`` and of ``.`` to one; trim ``-``, ``.``, ``_`` at both ends;
3. an empty result becomes ``none`` (an empty answer, e.g. no checkbox
   selected) or ``v-<hash>`` (an answer with no ASCII letter or digit).

Parts are joined with ``__`` (which a part never contains); a template with
nothing to choose has the single slug ``default``.  Then, for every OS:

- a Windows reserved device name (``con``, ``prn``, ``aux``, ``nul``,
  ``com0``-``com9``, ``lpt0``-``lpt9``) before the first dot gets a ``_``
  appended to it (``nul.x`` -> ``nul_.x``);
- a slug ending in ``.json`` (the fixture layout's own files) ends in
  ``-json`` instead;
- a slug longer than 64 characters is cut to 55 and suffixed with ``-``
  and 8 hex digits of its SHA-256;
- slugs that collide (e.g. ``Q4_K_M`` and ``q4_k_m``) all get ``-`` and 6
  hex digits of the SHA-256 of their answers appended; unique slugs never
  carry a hash, so adding an option only renames the options it collides
  with.

Examples: ``gemma4:e2b`` -> ``gemma4-e2b``; ``laguna-s-2.1-dflash`` ->
``laguna-s-2.1-dflash``; ``hf.co/nvidia/NVIDIA-Nemotron-3-Nano-4B-GGUF:Q4_K_M``
-> ``hf.co-nvidia-nvidia-nemotron-3-nano-4b-gguf-q4_k_m``.  A slug always
starts with a letter or digit and holds only ``a-z 0-9 . _ -``.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import re
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar

from wendy_llm.engine import gofuncs
from wendy_llm.errors import PickError, ValuesError, quoted
from wendy_llm.render.manifest import Picker, Question
from wendy_llm.render.values import (
    APP_ID,
    answer_with_default,
    evaluate_when,
    template_variables,
    walk_calls,
)

if TYPE_CHECKING:
    from wendy_llm.render.template import Template

_T = TypeVar("_T", bound=Hashable)

CANONICAL_APP_ID = "llm-app"
MAX_PRODUCT = 64
MAX_CHECKBOX_SUBSETS_OPTIONS = 4
MAX_SLUG_LENGTH = 64
REQUIRED_INPUT_PLACEHOLDER = "example"
_SEARCH_BUDGET = 5000
_CANDIDATES = 4

_UNSAFE = re.compile(r"[^a-z0-9._]+")
_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"] + [f"com{i}" for i in range(10)] + [f"lpt{i}" for i in range(10)]
)


@dataclass(frozen=True)
class Pick:
    """One variant: ``answers`` are the ``--var`` overrides it stands for."""

    slug: str
    answers: Mapping[str, str] = field(hash=False)


# An answer to one question: the override string, or None to leave the
# question to the picker's own default answer.
Answer = str | None


def _digest(text: str, length: int) -> str:
    # surrogatepass: an answer may hold a lone surrogate (a JSON "\\udc80").
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:length]


def _dedupe(values: Sequence[_T]) -> list[_T]:
    return list(dict.fromkeys(values))


def _selection(text: str) -> frozenset[str]:
    """The options a checkbox answer selects (the CLI's comma split and trim)."""
    return frozenset(p for p in gofuncs.comma_parts(text) if p)


def checkbox_choices(question: Question) -> list[Answer]:
    """The enumerated answers of a checkbox question (None = its default)."""
    values = _dedupe(question.option_values)
    if len(values) <= MAX_CHECKBOX_SUBSETS_OPTIONS:
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


@dataclass(frozen=True)
class _Item:
    index: int
    phase: int
    question: Question
    choices: tuple[Answer, ...]


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
        for i in pending[:_CANDIDATES]:
            chooser = Chooser(targets[i], covered_pairs, covered_singles)
            path = walker.walk(chooser) or walker.search(chooser, _SEARCH_BUDGET)
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


def base_values(template: Template, app_id: str = CANONICAL_APP_ID) -> dict[str, object]:
    """The map before the picker walk with no overrides (steps 1-2 of the
    value assembly; variables without a default are left out)."""
    values: dict[str, object] = {APP_ID: app_id}
    for variable in template_variables(template.manifest):
        if variable.default is not None:
            values[variable.name] = variable.default
    return values


def slugify(answer: str) -> str:
    """One slug part (steps 1-3 of the slug rule)."""
    text = _UNSAFE.sub("-", answer.lower())
    text = re.sub(r"_+", "_", text)
    text = re.sub(r"\.+", ".", text).strip("-._")
    if text:
        return text
    return "none" if not answer.strip() else f"v-{_digest(answer, 6)}"


def _finish(slug: str) -> str:
    base, dot, rest = slug.partition(".")
    if base in _RESERVED:
        slug = f"{base}_{dot}{rest}"
    if slug.endswith(".json"):
        slug = slug[: -len(".json")] + "-json"
    if len(slug) > MAX_SLUG_LENGTH:
        slug = slug[: MAX_SLUG_LENGTH - 9].rstrip("-._") + "-" + _digest(slug, 8)
    return slug


def _answers_key(answers: Mapping[str, str]) -> str:
    return json.dumps(dict(answers), sort_keys=True, ensure_ascii=False)


def _unique(slugs: list[str], answers: list[dict[str, str]]) -> list[str]:
    """Append an answers hash to every slug that is not unique."""
    length = 6
    result = list(slugs)
    while True:
        counts: dict[str, int] = {}
        for slug in result:
            counts[slug] = counts.get(slug, 0) + 1
        clashing = [i for i, slug in enumerate(result) if counts[slug] > 1]
        if not clashing:
            return result
        for i in clashing:
            digest = _digest(_answers_key(answers[i]), length)
            head = slugs[i][: MAX_SLUG_LENGTH - length - 1].rstrip("-._")
            result[i] = f"{head}-{digest}"
        length += 2


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


def enumerate_picks(template: Template) -> list[Pick]:
    """Every pick of ``template`` (see the module docstring)."""
    if template.picker is None:
        return [Pick(slug="default", answers=MappingProxyType({}))]
    base = base_values(template)
    # Two prefetches at most: the choices need the checkbox defaults split.
    gofuncs.prefetch(walk_calls(template.picker, base))
    walker = _Walker(template.picker, base)
    choices = {it.question.id: [c for c in it.choices if c is not None] for it in walker.items}
    gofuncs.prefetch(walk_calls(template.picker, base, choices))
    paths = walker.full_product(MAX_PRODUCT)
    if paths is None:
        paths = _pairwise(walker)
    answers = [{walker.items[i].question.id: a for i, a in path if a is not None} for path in paths]
    slugs = [_finish("__".join(_slug_parts(walker, path)) or "default") for path in paths]
    return [
        Pick(slug=slug, answers=MappingProxyType(ans))
        for slug, ans in zip(_unique(slugs, answers), answers, strict=True)
    ]


def find_pick(template: Template, slug: str) -> Pick:
    """The pick named ``slug``; ``PickError`` lists the valid ones."""
    picks = template.picks()
    for pick in picks:
        if pick.slug == slug:
            return pick
    names = [p.slug for p in picks]
    shown = ", ".join(names[:20]) + (f", ... ({len(names)} in all)" if len(names) > 20 else "")
    raise PickError(f"template {template.id} has no pick {quoted(slug)}; its picks: {shown}")
