"""Which base render each pick of the head is held to.

``wendy-llm diff`` and ``check``'s baseline check compare every pick of a
template (the head) with its base (a git revision, a stored baseline):

- a pick the base also has (the same slug) is held to that pick's render
  (``pick``); its answers may have changed, which the report shows;
- a new pick whose answers give one of its question's declared sentinel
  values (the rules file's ``sentinels:``) is ``exempt``: a sentinel selects
  something the base never had, and the rules check it instead;
- any other new pick is held to the base rendered with the same answers
  (``answers``), passed as ``--var`` answers are: ``wendy init`` accepts a
  radio answer outside the question's options from ``--var``, so the base
  renders a new Ollama tag just as the head does;
- a new pick the base cannot render with its answers is ``not-comparable``,
  with the reason: an answer to a variable or question the base does not
  have, or a value its ``template.json`` rejects (decided here), or a
  render that fails (decided when rendering, :mod:`.sides`);
- a base pick the head no longer has is ``removed``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from wendy_llm.errors import ValuesError
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.values import template_variables

if TYPE_CHECKING:
    from wendy_llm.render.picks import Pick
    from wendy_llm.render.template import Template

Mode = Literal["pick", "answers", "exempt", "not-comparable", "removed"]

#: Picker question id -> the option values declared as sentinels.
Sentinels = Mapping[str, Collection[str]]


class Named(Protocol):
    """A pick, or a render of one: a slug and the answers it stands for."""

    @property
    def slug(self) -> str: ...

    @property
    def answers(self) -> Mapping[str, str]: ...


@dataclass(frozen=True)
class Pairing:
    """How one pick is compared.

    ``answers`` are the pick's (the base's, for a removed pick);
    ``base_answers`` what the base is rendered with (``pick`` and
    ``answers`` modes); ``reason`` says why a pick is exempt or not
    comparable.
    """

    slug: str
    answers: Mapping[str, str]
    mode: Mode
    base_answers: Mapping[str, str] | None = None
    reason: str | None = None

    @property
    def compared(self) -> bool:
        return self.mode in ("pick", "answers")


def pair_by_slug(head: Sequence[Named], base: Sequence[Named]) -> list[Pairing]:
    """Picks matched by slug only: new picks are not comparable (no base template)."""
    by_slug = {p.slug: p for p in base}
    out = []
    for pick in head:
        old = by_slug.get(pick.slug)
        if old is None:
            out.append(Pairing(pick.slug, pick.answers, "not-comparable"))
        else:
            out.append(Pairing(pick.slug, pick.answers, "pick", old.answers))
    return out + _removed(head, base)


def pair_picks(
    base: Template, head: Sequence[Pick], sentinels: Sentinels | None = None
) -> list[Pairing]:
    """Every head pick paired with its base render (module docstring), then removed picks."""
    by_slug = {p.slug: p for p in base.picks()}
    out: list[Pairing] = []
    for pick in head:
        old = by_slug.get(pick.slug)
        if old is not None:
            out.append(Pairing(pick.slug, pick.answers, "pick", old.answers))
            continue
        sentinel = _sentinel(pick.answers, sentinels or {})
        if sentinel is not None:
            out.append(Pairing(pick.slug, pick.answers, "exempt", None, sentinel))
            continue
        problem = _unrenderable(base, pick.answers)
        if problem is not None:
            out.append(Pairing(pick.slug, pick.answers, "not-comparable", None, problem))
            continue
        out.append(Pairing(pick.slug, pick.answers, "answers", pick.answers))
    return out + _removed(head, list(by_slug.values()))


def _removed(head: Sequence[Named], base: Sequence[Named]) -> list[Pairing]:
    slugs = {p.slug for p in head}
    return [Pairing(p.slug, p.answers, "removed") for p in base if p.slug not in slugs]


def _sentinel(answers: Mapping[str, str], sentinels: Sentinels) -> str | None:
    for question, values in sentinels.items():
        answer = answers.get(question)
        if answer is not None and answer in values:
            return f"sentinel {question}={answer}: checked by its rules, not byte for byte"
    return None


def _unrenderable(base: Template, answers: Mapping[str, str]) -> str | None:
    """Why the base cannot take these answers, or None when it can."""
    known = {v.name for v in template_variables(base.manifest)}
    if base.picker is not None:
        known |= {q.id for q in base.picker.questions}
    unknown = [name for name in answers if name not in known]
    if unknown:
        names = ", ".join(unknown)
        return f"the base has no variable or picker question {names}"
    try:
        base.values(CANONICAL_APP_ID, dict(answers), strict=False)
    except ValuesError as exc:
        return f"the base rejects its answers: {exc.describe()}"
    return None
