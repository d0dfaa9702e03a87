"""Picks: enumeration, pairwise covering, slugs."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from _engine_helpers import helper_round_trips
from _template_helpers import checkbox, make_template, phase, radio, text_input

from wendy_llm.errors import PickError
from wendy_llm.render.manifest.load import Option, Question
from wendy_llm.render.picks import (
    CANONICAL_APP_ID,
    Pick,
    _Walker,
    base_values,
    checkbox_choices,
)
from wendy_llm.render.slugs import MAX_SLUG_LENGTH, slugify
from wendy_llm.render.template import Template, load_template

REPO = Path(__file__).resolve().parents[2]
LLM = REPO / "templates" / "python" / "llm"
BASELINE = REPO / "golden" / "baseline" / "python" / "llm"

HF_MODEL = "hf.co/nvidia/NVIDIA-Nemotron-3-Nano-4B-GGUF:Q4_K_M"
SAFE_SLUG = re.compile(r"[a-z0-9][a-z0-9._-]*")
WINDOWS_RESERVED = {"con", "prn", "aux", "nul"} | {
    f"{p}{i}" for p in ("com", "lpt") for i in range(10)
}


def assert_safe(slug: str) -> None:
    assert SAFE_SLUG.fullmatch(slug), slug
    assert len(slug) <= MAX_SLUG_LENGTH, slug
    assert not slug.endswith((".", " ", ".json")), slug
    assert slug.split(".")[0] not in WINDOWS_RESERVED, slug


def answers(picks: list[Pick]) -> list[dict[str, str]]:
    return [dict(p.answers) for p in picks]


# --- the real llm template ---------------------------------------------------------


@pytest.mark.parametrize("path", [LLM, BASELINE], ids=["llm", "baseline"])
def test_llm_picks_are_one_per_option_with_unique_safe_slugs(path: Path) -> None:
    t = load_template(path)
    assert t.picker is not None
    options = t.picker.questions[0].option_values
    picks = t.picks()
    assert answers(picks) == [{"OLLAMA_MODEL": value} for value in options]
    slugs = [p.slug for p in picks]
    assert len(set(slugs)) == len(slugs)
    assert len({s.lower() for s in slugs}) == len(slugs)  # case-insensitive file systems
    for slug in slugs:
        assert_safe(slug)
        assert not re.search(r"-[0-9a-f]{6}$", slug), "no collision, so no hash"


def test_llm_slugs_read_like_the_model_names() -> None:
    slugs = {p.answers["OLLAMA_MODEL"]: p.slug for p in load_template(LLM).picks()}
    assert slugs["gemma4:e2b"] == "gemma4-e2b"
    assert slugs["laguna-s-2.1-dflash"] == "laguna-s-2.1-dflash"
    assert slugs["laguna-s-2.1:q4_K_M"] == "laguna-s-2.1-q4_k_m"
    assert slugs[HF_MODEL] == "hf.co-nvidia-nvidia-nemotron-3-nano-4b-gguf-q4_k_m"


def test_every_llm_pick_renders_with_canonical_inputs() -> None:
    t = load_template(LLM)
    for pick in t.picks():
        tree = t.render(CANONICAL_APP_ID, dict(pick.answers))
        assert "docker-compose.yml" in tree


# --- slug rule -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "slug"),
    [
        ("gemma4:e2b", "gemma4-e2b"),
        (HF_MODEL, "hf.co-nvidia-nvidia-nemotron-3-nano-4b-gguf-q4_k_m"),
        ("laguna-s-2.1-dflash", "laguna-s-2.1-dflash"),
        ("  Spaces  and\ttabs ", "spaces-and-tabs"),
        ("a__b", "a_b"),
        ("a...b", "a.b"),
        ("..hidden..", "hidden"),
        ("-dash-", "dash"),
        ("gpu,web", "gpu-web"),
        ("", "none"),
        ("   ", "none"),
        ("C:\\Program Files\\x", "c-program-files-x"),
        ("a<b>c|d?e*f\"g", "a-b-c-d-e-f-g"),
    ],
)  # fmt: skip
def test_slugify(answer: str, slug: str) -> None:
    assert slugify(answer) == slug


def test_slugify_non_ascii_answers_get_a_stable_hash() -> None:
    assert re.fullmatch(r"v-[0-9a-f]{6}", slugify("日本語"))
    assert slugify("日本語") == slugify("日本語") != slugify("中文")


def _one_radio(tmp_path: Path, values: list[str]) -> Template:
    return make_template(tmp_path, phases=[phase(radio("M", values))])


def test_answers_with_lone_surrogates_get_slugs(tmp_path: Path) -> None:
    # JSON escapes can spell a lone surrogate ("\udc80"); slugging it must not crash.
    t = _one_radio(tmp_path, ["\udc80", "\ud800", "é\udc80", "a\udc80", "a\ud800"])
    slugs = [p.slug for p in t.picks()]
    assert len(set(slugs)) == 5
    for slug in slugs:
        assert_safe(slug)


def test_reserved_names_json_suffix_and_length(tmp_path: Path) -> None:
    long_value = "x" * 40 + ":" + "y" * 60
    t = _one_radio(tmp_path, ["con", "NUL.txt", "lpt1", "model.json", long_value, "console"])
    slugs = [p.slug for p in t.picks()]
    assert slugs[:4] == ["con_", "nul_.txt", "lpt1_", "model-json"]
    assert len(slugs[4]) <= MAX_SLUG_LENGTH
    assert re.fullmatch(r"x{40}-y{14}-[0-9a-f]{8}", slugs[4])
    assert slugs[5] == "console"
    for slug in slugs:
        assert_safe(slug)


def test_colliding_slugs_all_get_a_hash_and_others_do_not(tmp_path: Path) -> None:
    t = _one_radio(tmp_path, ["q4_K_M", "Q4_K_M", "q4:k:m", "other"])
    slugs = [p.slug for p in t.picks()]
    assert slugs[3] == "other"
    # q4_K_M -> q4_k_m and Q4_K_M -> q4_k_m collide; q4:k:m -> q4-k-m does not.
    assert slugs[2] == "q4-k-m"
    assert all(re.fullmatch(r"q4_k_m-[0-9a-f]{6}", s) for s in slugs[:2])
    assert len(set(slugs)) == 4
    # Stable: the same answers always give the same slug.
    assert [p.slug for p in _one_radio(tmp_path / "again", ["q4_K_M", "Q4_K_M"]).picks()] == slugs[
        :2
    ]


def test_several_questions_join_with_double_underscore(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[phase(radio("A", ["x", "y"]), radio("B", ["p:1", "q"]), radio("C", ["only"]))],
    )
    assert [p.slug for p in t.picks()] == ["x__p-1", "x__q", "y__p-1", "y__q"]
    assert answers(t.picks())[0] == {"A": "x", "B": "p:1", "C": "only"}


def test_no_picker_or_nothing_to_choose_is_one_default_pick(tmp_path: Path) -> None:
    assert make_template(tmp_path / "a").picks() == [Pick(slug="default", answers={})]
    t = make_template(tmp_path / "b", phases=[phase(radio("A", ["only"]), text_input("N"))])
    assert [(p.slug, dict(p.answers)) for p in t.picks()] == [("default", {"A": "only"})]


# --- enumeration rules ---------------------------------------------------------------


def test_checkbox_with_up_to_four_options_tries_every_subset(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[phase(checkbox("F", ["a", "b", "c"], default="b"))],
        files={"f.txt": "{{.F}}"},
    )
    picks = t.picks()
    assert len(picks) == 8
    # The default selection stays unanswered, so the picker sets F_b itself.
    assert answers(picks) == [
        {"F": ""}, {"F": "a"}, {}, {"F": "c"}, {"F": "a,b"}, {"F": "a,c"}, {"F": "b,c"},
        {"F": "a,b,c"},
    ]  # fmt: skip
    assert [p.slug for p in picks] == ["none", "a", "b", "c", "a-b", "a-c", "b-c", "a-b-c"]
    assert t.values(CANONICAL_APP_ID, dict(picks[2].answers))["F_b"] is True


def test_checkbox_with_more_options_tries_default_singles_none_all(tmp_path: Path) -> None:
    values = ["a", "b", "c", "d", "e"]
    t = make_template(tmp_path, phases=[phase(checkbox("F", values, default="b, d"))])
    assert answers(t.picks()) == [
        {}, {"F": "a"}, {"F": "b"}, {"F": "c"}, {"F": "d"}, {"F": "e"}, {"F": ""},
        {"F": "a,b,c,d,e"},
    ]  # fmt: skip
    assert t.picks()[0].slug == "b-d"


def test_checkbox_default_that_is_a_single_option_is_not_repeated(tmp_path: Path) -> None:
    t = make_template(tmp_path, phases=[phase(checkbox("F", list("abcde"), default="c"))])
    assert answers(t.picks())[:4] == [{"F": "a"}, {"F": "b"}, {}, {"F": "d"}]
    assert len(t.picks()) == 7


def test_question_hidden_by_an_answer_is_not_enumerated_for_it(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[
            phase(radio("BACKEND", ["ollama", "vllm"])),
            phase(radio("QUANT", ["q4", "q8"]), when={"questionId": "BACKEND", "equals": "ollama"}),
            phase(
                checkbox("FEAT", ["gpu", "web"], default="gpu"),
                radio("GPU", ["orin", "thor"], when={"questionId": "FEAT", "contains": "gpu"}),
            ),
        ],
    )
    picks = t.picks()
    ollama = [p for p in picks if p.answers["BACKEND"] == "ollama"]
    vllm = [p for p in picks if p.answers["BACKEND"] == "vllm"]
    assert all("QUANT" not in p.answers for p in vllm)
    # FEAT: 4 subsets; GPU asked only when the selection contains gpu (2 of 4).
    assert len(vllm) == 2 + 2 * 2
    assert len(ollama) == 2 * len(vllm)
    for pick in picks:
        values = t.values(CANONICAL_APP_ID, dict(pick.answers))
        assert ("GPU" in pick.answers) == ("gpu" in str(values["FEAT"]))
    assert len({p.slug for p in picks}) == len(picks)


def test_shadowed_and_input_questions(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "MODEL", "type": "string", "default": "m"}],
        phases=[
            phase(
                radio("MODEL", ["a", "b"]),
                text_input("NAME", default="n"),
                text_input("KEY", required=True),
                radio("SIZE", ["s", "l"]),
            )
        ],
    )
    assert answers(t.picks()) == [{"KEY": "example", "SIZE": "s"}, {"KEY": "example", "SIZE": "l"}]
    assert [p.slug for p in t.picks()] == ["s", "l"]
    for pick in t.picks():
        assert t.values(CANONICAL_APP_ID, dict(pick.answers))["MODEL"] == "m"


def test_up_to_64_combinations_is_the_full_product(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[
            phase(radio("A", list("abcd")), radio("B", list("abcd")), radio("C", list("abcd")))
        ],
    )
    assert len(t.picks()) == 64
    assert {tuple(p.answers.values()) for p in t.picks()} == set(
        itertools.product("abcd", repeat=3)
    )


def _all_leaves(t: Template) -> list[dict[str, str | None]]:
    assert t.picker is not None
    walker = _Walker(t.picker, base_values(t.manifest))
    paths = walker.full_product(10**6)
    assert paths is not None
    return [{walker.items[i].question.id: a for i, a in path} for path in paths]


def _pairs(assignment: dict[str, str | None]) -> set[tuple[tuple[str, str | None], ...]]:
    items = sorted(assignment.items(), key=lambda kv: kv[0])
    out: set[tuple[tuple[str, str | None], ...]] = {(item,) for item in items}
    out |= set(itertools.combinations(items, 2))
    return out


def test_more_than_64_combinations_is_a_pairwise_covering_set(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        phases=[
            phase(
                radio("A", ["a1", "a2", "a3"], default="a2"),
                radio("B", ["b1", "b2", "b3"]),
                radio("C", ["c1", "c2", "c3"], when={"questionId": "A", "in": ["a1", "a2"]}),
                radio("D", ["d1", "d2", "d3"]),
                checkbox("E", ["e1", "e2"], default="e1"),
            )
        ],
    )
    leaves = _all_leaves(t)
    assert len(leaves) > 64
    picks = t.picks()
    assert len(picks) < 30
    # The first pick keeps every default.
    assert dict(picks[0].answers) == {"A": "a2", "B": "b1", "C": "c1", "D": "d1"}
    reachable = set().union(*(_pairs(leaf) for leaf in leaves))
    covered: set[tuple[tuple[str, str | None], ...]] = set()
    walker_ids = {q.id for q in t.picker.questions} if t.picker else set()
    for pick in picks:
        assignment: dict[str, str | None] = {k: v for k, v in pick.answers.items()}
        values = t.values(CANONICAL_APP_ID, dict(pick.answers))
        if "E" in walker_ids and "E" not in pick.answers and "E_e1" in values:
            assignment["E"] = None  # left at its default
        covered |= _pairs(assignment)
    assert reachable <= covered
    assert len({p.slug for p in picks}) == len(picks)


def test_pairwise_is_deterministic(tmp_path: Path) -> None:
    phases = [phase(*(radio(f"Q{i}", ["x", "y", "z"]) for i in range(6)))]
    first = make_template(tmp_path / "a", phases=phases).picks()
    second = make_template(tmp_path / "b", phases=phases).picks()
    assert first == second
    assert len(first) < 3**6


def test_checkbox_choices_helper_orders_subsets_by_size() -> None:
    question = Question(
        id="F",
        label="",
        type="checkbox",
        options=(Option(value="a", label=""), Option(value="b", label="")),
        default="b",
        required=False,
        secret=False,
        when=None,
        json_path=(),
    )
    assert checkbox_choices(question) == ["", "a", None, "a,b"]


# --- lookup --------------------------------------------------------------------------


def test_find_pick_by_slug_and_unknown_slug_error(tmp_path: Path) -> None:
    t = _one_radio(tmp_path, ["a:1", "b"])
    assert dict(t.pick("a-1").answers) == {"M": "a:1"}
    with pytest.raises(PickError) as info:
        t.pick("c")
    assert str(info.value) == 'template demo has no pick "c"; its picks: a-1, b'


def test_picks_are_cached_and_returned_as_copies(tmp_path: Path) -> None:
    t = _one_radio(tmp_path, ["a", "b"])
    first = t.picks()
    first.clear()
    assert len(t.picks()) == 2
    assert hash(t.picks()[0]) == hash(Pick(slug="a", answers={"M": "a"}))


def test_enumeration_costs_two_round_trips_at_most(tmp_path: Path) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "PORT", "type": "integer", "default": 8080}],
        phases=[
            phase(
                checkbox("FEAT", ["gpu", "web", "db"], default="gpu, web"),
                radio("SIZE", ["s", "m"], when={"questionId": "FEAT", "contains": "db"}),
                radio("MODE", ["a", "b"], when={"questionId": "PORT", "equals": "8080"}),
            )
        ],
    )
    with helper_round_trips() as batches:
        picks = t.picks()
    assert len(batches) <= 2, batches
    # The walk compared as Go does: SIZE only where FEAT contains db, MODE always.
    assert all("MODE" in p.answers for p in picks)
    assert {("db" in p.answers.get("FEAT", "")) for p in picks if "SIZE" in p.answers} == {True}
