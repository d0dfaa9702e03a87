"""Hypothesis strategies for the python/llm property suite.

Everything is derived from the template's own files: the port range and
default from ``template.json`` (the ``PORT`` variable's ``validate``), the
picks from ``template.schema.json`` (``Template.picks()``), the sentinel
from the template's rules file.  Valid app ids follow wendy's project-name
rule (:func:`project_name_app_ids`); those YAML reads as another type are
valid for `wendy init` too and are rendered with ``strict=False``, the rest
(:func:`strict_app_ids`) strictly.

Inputs are held as the CLI holds them: ``PORT`` is a Go float64 when it
comes from the ``template.json`` default (``8080.0``) and a Go int when it
comes from ``--var PORT=n``; :class:`Port` carries which.
"""

from __future__ import annotations

import functools
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from hypothesis import strategies as st

from wendy_llm.errors import WendyLlmError
from wendy_llm.render.manifest.load import Question, Variable
from wendy_llm.render.picks import Pick
from wendy_llm.render.template import Template, load_template
from wendy_llm.render.values import check_app_id
from wendy_llm.repo.layout import rules_path
from wendy_llm.validate.rules.file import Rules, load_rules

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE_ID = "python/llm"
TEMPLATE_DIR = ROOT / "templates" / TEMPLATE_ID
GOLDEN_DIR = ROOT / "golden"
BASELINE_DIR = GOLDEN_DIR / "baseline" / TEMPLATE_ID

PORT_NAME = "PORT"


# --- the template, its baseline and its rules (loaded once) ---------------------


@functools.cache
def template() -> Template:
    return load_template(TEMPLATE_DIR, id=TEMPLATE_ID)


@functools.cache
def baseline() -> Template:
    return load_template(BASELINE_DIR)


@functools.cache
def rules() -> Rules:
    return load_rules(rules_path(GOLDEN_DIR, TEMPLATE_ID))


def port_variable() -> Variable:
    (variable,) = [v for v in template().manifest.variables if v.name == PORT_NAME]
    return variable


def port_range() -> tuple[int, int]:
    rules_ = port_variable().validate
    assert rules_.min is not None and rules_.max is not None, "PORT must declare min and max"
    return int(rules_.min), int(rules_.max)


def model_question() -> Question:
    """The picker's radio question (the model); the template has exactly one."""
    picker = template().picker
    assert picker is not None
    (question,) = [q for q in picker.questions if q.type == "radio"]
    return question


def sentinel_values() -> frozenset[str]:
    """Option values that select a non-Ollama backend (from the rules file)."""
    sentinel = rules().sentinels[model_question().id]
    return frozenset(sentinel.values)


def is_sentinel_pick(pick: Pick) -> bool:
    return pick.answers.get(model_question().id) in sentinel_values()


def gate_files() -> tuple[str, ...]:
    """The files held byte-identical to the baseline (the rules' ``gate``)."""
    return rules().gate_files


# --- app ids ----------------------------------------------------------------------

_NAME_FIRST = string.ascii_letters + string.digits + "_"
_NAME_REST = _NAME_FIRST + ".-"

# Valid names that look like something else, where a rule is easiest to get wrong.
_TRICKY_VALID = (
    "a",
    "_",
    "0a",
    "A-",
    "x.",
    "a..b",
    "app-1.2.3",
    "1.2.3",
    "yes-app",
    "no_",
    "true1",
    "Null-",
    "0x1G",
    "1e5x",
    "on.off",
    "llm",
    "ollama",
    "models",
    "vllm-hf",
    "open-webui",
    "x" * 200,
)


def is_strict_app_id(text: str) -> bool:
    """Whether strict mode accepts ``text`` unchanged (no trimming needed)."""
    try:
        return check_app_id(text) == text
    except WendyLlmError:
        return False


def strict_app_ids() -> st.SearchStrategy[str]:
    """App ids by the project-name rule (ASCII letters, digits, ``.``, ``_``,
    ``-``; not starting with ``-`` or ``.``) that strict mode also accepts:
    those YAML reads as strings (not ``true``, ``null``, ``1e5``, ...)."""
    built = st.builds(
        str.__add__, st.sampled_from(_NAME_FIRST), st.text(alphabet=_NAME_REST, max_size=40)
    )
    return st.one_of(built, st.sampled_from(_TRICKY_VALID)).filter(is_strict_app_id)


def project_name_app_ids() -> st.SearchStrategy[str]:
    """Every id `wendy init` takes: the project-name rule alone, so also ids
    YAML reads as another type (``true``, ``1e5``, ``2024-01-01``), which
    only strict mode refuses; :class:`Inputs` renders those with
    ``strict=False``, as ``wendy init`` would."""
    return st.one_of(strict_app_ids(), yaml_typed_app_ids().map(lambda pair: pair[0]))


# --- ports ------------------------------------------------------------------------

PortSource = Literal["default", "var", "float"]


@dataclass(frozen=True)
class Port:
    """A port and how the CLI holds it: the template.json default (a Go
    float64), ``--var PORT=<spelling>`` (a Go int), or another float64 (the
    form a different JSON default would take; set in the values map)."""

    number: int
    source: PortSource
    spelling: str = ""

    @property
    def overrides(self) -> dict[str, str]:
        return {PORT_NAME: self.spelling} if self.source == "var" else {}

    def hold(self, values: dict[str, object]) -> dict[str, object]:
        if self.source == "float":
            values[PORT_NAME] = float(self.number)
        return values

    @property
    def text(self) -> str:
        """How Go prints it (``%v``): a float64 with an integral value prints
        without a fraction, like an int."""
        return str(self.number)


def default_port() -> Port:
    default = port_variable().default
    assert isinstance(default, float), "JSON decoding holds the default as a float"
    return Port(int(default), "default")


def ports() -> st.SearchStrategy[Port]:
    low, high = port_range()
    numbers = st.integers(low, high)
    # strconv.Atoi also takes a sign and leading zeros: "+80", "0080".
    spellings = numbers.flatmap(
        lambda n: st.sampled_from([str(n), f"+{n}", f"0{n}", f"000{n}"]).map(
            lambda s: Port(n, "var", s)
        )
    )
    return st.one_of(
        st.just(default_port()),
        spellings,
        numbers.map(lambda n: Port(n, "float")),
        st.sampled_from([low, high]).map(lambda n: Port(n, "var", str(n))),
    )


# --- picks and whole inputs ---------------------------------------------------------


def all_picks() -> st.SearchStrategy[Pick]:
    return st.sampled_from(template().picks())


def ollama_picks() -> st.SearchStrategy[Pick]:
    return st.sampled_from([p for p in template().picks() if not is_sentinel_pick(p)])


def sentinel_picks() -> st.SearchStrategy[Pick]:
    return st.sampled_from([p for p in template().picks() if is_sentinel_pick(p)])


@dataclass(frozen=True)
class Inputs:
    app_id: str
    pick: Pick
    port: Port

    @property
    def overrides(self) -> dict[str, str]:
        return {**self.pick.answers, **self.port.overrides}

    @property
    def strict(self) -> bool:
        """Whether strict mode takes these inputs (the app id is the only
        input that can fail it: picks and ports are valid by construction)."""
        return is_strict_app_id(self.app_id)

    def values(self, of: Template, *, strict: bool | None = None) -> dict[str, object]:
        """The data map ``of`` renders with for these inputs (strict when
        the inputs allow it, unless ``strict`` says otherwise)."""
        strict_ = self.strict if strict is None else strict
        return self.port.hold(of.values(self.app_id, self.overrides, strict=strict_))


def inputs(picks: st.SearchStrategy[Pick]) -> st.SearchStrategy[Inputs]:
    """Valid inputs: any project-name app id, a pick, a port as the CLI holds it."""
    return st.builds(Inputs, project_name_app_ids(), picks, ports())


# --- invalid inputs ---------------------------------------------------------------


def _outside_the_rule() -> st.SearchStrategy[str]:
    """Characters the project-name rule does not allow, kept by trimming."""
    return st.characters(codec="utf-8").filter(lambda c: c not in _NAME_REST and c.strip() != "")


def rule_breaking_app_ids() -> st.SearchStrategy[str]:
    """Ids with a character the rule forbids inside them, or starting with
    ``-`` / ``.`` (after trimming, as the CLI trims)."""
    name = st.text(alphabet=_NAME_REST, max_size=12)
    # Allowed characters on both sides, so trimming cannot remove the bad one.
    inside = st.builds(
        lambda a, c, b: a + c + b,
        st.text(alphabet=_NAME_FIRST, min_size=1, max_size=12),
        st.one_of(_outside_the_rule(), st.sampled_from([" ", "\t", "\x00", "é", "/", ":"])),
        st.text(alphabet=_NAME_REST, min_size=1, max_size=12),
    )
    leading = st.builds(str.__add__, st.sampled_from(["-", "."]), name)
    return st.one_of(inside, leading)


def yaml_typed_app_ids() -> st.SearchStrategy[tuple[str, str]]:
    """Ids within the project-name rule that YAML reads as another type,
    with that type as the error words it."""
    numbers = st.one_of(
        st.integers(0, 10**30).map(str),
        # Below 1e16 repr has no exponent sign ("1e+16" breaks the rule first).
        st.floats(min_value=0, max_value=1e15, allow_nan=False).map(repr),
        st.sampled_from(["0x1F", "0o17", "1e5", "1_000", "0b101", "1.5E-3"]),
    ).map(lambda s: (s, "a number"))
    booleans = st.sampled_from(
        ["true", "True", "TRUE", "false", "yes", "No", "on", "OFF", "y", "N"]
    ).map(lambda s: (s, "a boolean"))
    nulls = st.sampled_from(["null", "Null", "NULL"]).map(lambda s: (s, "null"))
    dates = st.dates().map(lambda d: (d.isoformat(), "a date"))
    return st.one_of(numbers, booleans, nulls, dates).filter(lambda pair: _within_rule(pair[0]))


def _within_rule(text: str) -> bool:
    return text[:1] in _NAME_FIRST and all(c in _NAME_REST for c in text)


def non_integer_texts() -> st.SearchStrategy[str]:
    """What ``strconv.Atoi`` rejects: anything but ``[+-]?[0-9]+`` (ASCII)."""
    return st.one_of(
        st.text(max_size=20),
        st.sampled_from(["", " 80", "80 ", "8_080", "0x50", "80.0", "1e3", "٣", "+", "-"]),
    ).filter(lambda s: not _is_atoi(s))


def _is_atoi(text: str) -> bool:
    body = text[1:] if text[:1] in ("+", "-") else text
    return bool(body) and all("0" <= c <= "9" for c in body)
