"""Property 4 of the python/llm template: invalid inputs (app ids, ports,
picker values) give the documented error and no render, from the library
and from the CLI.

Strategies come from the template's own files (``tests/_strategies.py``);
example counts from ``tests/_hypothesis_profiles.py`` (500 examples per
property with ``CI`` set; no deadlines).  The properties of a module share
one ``Renderer`` (``tests/_property_helpers.py``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from pathlib import Path

import pytest
from _golden_helpers import run_cli
from _hypothesis_profiles import property_settings
from _property_helpers import INT64_MAX, INT64_MIN
from _strategies import (
    TEMPLATE_DIR,
    model_question,
    non_integer_texts,
    port_range,
    rule_breaking_app_ids,
    strict_app_ids,
    template,
    yaml_typed_app_ids,
)
from hypothesis import given
from hypothesis import strategies as st

from wendy_llm.engine.client import Renderer
from wendy_llm.engine.gofuncs import trim_space
from wendy_llm.errors import AppIdError, ValuesError, WendyLlmError, cli_text
from wendy_llm.render.values import shown

NO_STRICT = "pass --no-strict to render exactly as wendy init would"  # the CLI's wording


# --- 4. invalid inputs ---------------------------------------------------------------


@pytest.fixture(scope="module")
def out_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("refused-renders")


def assert_refused(
    renderer: Renderer,
    out_root: Path,
    app_id: str,
    overrides: Mapping[str, str],
    error: type[WendyLlmError],
    message: str,
) -> None:
    """The library raises exactly ``error(message)``; the CLI exits 2 with
    that message and writes nothing."""
    with pytest.raises(WendyLlmError) as raised:
        template().render(app_id, overrides, renderer=renderer)
    assert type(raised.value) is error
    assert cli_text(raised.value) == f"template {template().id}: {message}"
    assert "--no-strict" not in str(raised.value)  # a library caller's advice is strict=False
    out = out_root / uuid.uuid4().hex
    argv = ["render", str(TEMPLATE_DIR), f"--app-id={app_id}", "--out", str(out)]
    for key, value in overrides.items():
        argv += ["--var", f"{key}={value}"]
    status, stdout, stderr = run_cli(*argv)
    assert status == 2
    assert stderr == f"wendy-llm: error: template {TEMPLATE_DIR.name}: {message}\n"
    assert stdout == ""
    assert not out.exists()
    assert list(out_root.iterdir()) == [], "a refused render left files behind"


@property_settings()
@given(app_id=rule_breaking_app_ids())
def test_app_ids_breaking_the_project_name_rule_are_refused(
    renderer: Renderer, out_root: Path, app_id: str
) -> None:
    quoted = shown(trim_space(app_id))
    message = (
        f"invalid app id {quoted}: use ASCII letters, digits, '.', '_' and '-', not starting "
        f"with '-' or '.' (wendy's project-name rule); {NO_STRICT}"
    )
    assert_refused(renderer, out_root, app_id, {}, AppIdError, message)


@property_settings()
@given(case=yaml_typed_app_ids())
def test_app_ids_yaml_reads_as_another_type_are_refused(
    renderer: Renderer, out_root: Path, case: tuple[str, str]
) -> None:
    app_id, kind = case
    message = (
        f"app id {shown(app_id)} reads as {kind} in YAML, so an unquoted {{{{.APP_ID}}}} "
        "would change the structure of a rendered YAML or JSON file; use an id YAML reads "
        f"as a string (e.g. {app_id}-app); {NO_STRICT}"
    )
    assert_refused(renderer, out_root, app_id, {}, AppIdError, message)


@pytest.mark.parametrize("app_id", ["", " ", "\t\n\r "])
def test_empty_app_ids_are_refused(renderer: Renderer, out_root: Path, app_id: str) -> None:
    message = "app id (APP_ID) must not be empty"
    assert_refused(renderer, out_root, app_id, {}, AppIdError, message)


def _out_of_range_ports() -> st.SearchStrategy[int]:
    low, high = port_range()
    return st.one_of(
        st.sampled_from([low - 1, high + 1, -1, INT64_MIN, INT64_MAX]),
        st.integers(-(1 << 70), low - 1),
        st.integers(high + 1, 1 << 70),
    )


@property_settings()
@given(port=_out_of_range_ports(), app_id=strict_app_ids())
def test_ports_outside_the_range_are_refused(
    renderer: Renderer, out_root: Path, port: int, app_id: str
) -> None:
    low, high = port_range()
    if not INT64_MIN <= port <= INT64_MAX:
        # strconv.Atoi's range error: the CLI words it as any non-integer.
        message = f"invalid value for PORT: expected integer, got {shown(str(port))}"
    elif port < low:
        message = f"PORT must be at least {low}"
    else:
        message = f"PORT must be at most {high}"
    assert_refused(renderer, out_root, app_id, {"PORT": str(port)}, ValuesError, message)


@property_settings()
@given(raw=non_integer_texts(), app_id=strict_app_ids())
def test_non_numeric_ports_are_refused(
    renderer: Renderer, out_root: Path, raw: str, app_id: str
) -> None:
    message = f"invalid value for PORT: expected integer, got {shown(raw)}"
    assert_refused(renderer, out_root, app_id, {"PORT": raw}, ValuesError, message)


@property_settings()
@given(data=st.data(), app_id=strict_app_ids())
def test_unknown_picker_values_are_refused_in_strict_mode(
    renderer: Renderer, out_root: Path, data: st.DataObject, app_id: str
) -> None:
    question = model_question()
    options = list(question.option_values)
    near_misses = st.sampled_from(options).flatmap(
        lambda v: st.sampled_from([v.upper(), v + " ", " " + v, v.replace(":", "-"), v + ":x"])
    )
    value = data.draw(st.one_of(st.text(), near_misses).filter(lambda v: v not in options))
    message = (
        f"invalid value for {question.id}: {shown(value)} is not an option of radio "
        f"question {question.id} (valid: {', '.join(options)}); {NO_STRICT}"
    )
    assert_refused(renderer, out_root, app_id, {question.id: value}, ValuesError, message)
