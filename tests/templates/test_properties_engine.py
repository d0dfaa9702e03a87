"""Property 5: the engine answers arbitrary template text and data with
output or a typed error, within its timeout, and keeps working.

Strategies come from the template's own files (``tests/_strategies.py``);
example counts from ``tests/_hypothesis_profiles.py`` (500 examples per
property with ``CI`` set; no deadlines).  The properties of a module share
one ``Renderer`` (``tests/_property_helpers.py``).
"""

from __future__ import annotations

import time

import pytest
from _hypothesis_profiles import property_settings
from _property_helpers import INT64_MAX, INT64_MIN
from hypothesis import event, given
from hypothesis import strategies as st

from wendy_llm.engine.client import Renderer
from wendy_llm.errors import (
    DataTypeError,
    OutputTooLarge,
    RenderTimeout,
    TemplateError,
    WendyLlmError,
)

# Beyond the timeout: killing the helper, moving megabytes of text (each
# byte that moves restarts the timeout) and a loaded machine's scheduling.
# Only a hang guard: a timeout that failed to cut a render would leave the
# call running for minutes (the looping examples) or for ever.
TIMEOUT_SLACK_S = 60.0


# --- 5. the engine never hangs or crashes --------------------------------------------

_ACTIONS = [
    "{{",
    "}}",
    "{{-",
    "-}}",
    "{{- ",
    " -}}",
    "{{.}}",
    "{{.a}}",
    "{{.a.b.c}}",
    "{{$}}",
    "{{$x := .a}}",
    "{{$x}}",
    "{{if .a}}",
    "{{else}}",
    "{{else if .b}}",
    "{{end}}",
    "{{range .}}",
    "{{range $i, $e := .a}}",
    "{{range 3}}",
    "{{break}}",
    "{{continue}}",
    "{{with .k}}",
    '{{define "t"}}',
    '{{template "t" .}}',
    '{{block "b" .}}',
    '{{index . "k"}}',
    "{{index .a 0}}",
    "{{len .}}",
    "{{slice .a 1}}",
    '{{printf "%v %q %x" . .a .b}}',
    "{{print . . .}}",
    "{{println}}",
    "{{html .}}",
    "{{js .}}",
    "{{urlquery .}}",
    "{{call .a}}",
    "{{and .a .b}}",
    "{{or}}",
    "{{not .}}",
    "{{eq .a 1}}",
    "{{lt 1 .a}}",
    "{{/* comment */}}",
    "{{/*",
    "*/}}",
    '{{"',
    "{{`",
    "{{(",
    "{{)",
    "{{|",
    "{{nil}}",
    "{{.a | printf}}",
    "\x00",
    "\ufeff",
    "é",
    "\U0001d11e",
    "\udcff",  # a surrogate-escaped byte (documented: str is encoded with surrogateescape)
]

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(INT64_MIN, INT64_MAX),
    st.floats(),
    st.text(max_size=30),
    st.binary(max_size=30),
    st.sampled_from(["\x00", "\udc80\udcff", "{{.a}}", "}}"]),
)
_values = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.text(max_size=6), children, max_size=5)
    ),
    max_leaves=30,
)
# The wire format takes up to 200 levels of nesting (deeper is a DataTypeError).
_MAX_DATA_DEPTH = 190


def _nested(depth: int, leaf: object) -> object:
    node: object = leaf
    for level in range(depth):
        node = {"a": node} if level % 2 else [node]
    return node


_data = st.one_of(
    st.dictionaries(
        st.sampled_from(["a", "b", "k", ""]) | st.text(max_size=6), _values, max_size=6
    ),
    st.builds(lambda d, leaf: {"a": _nested(d, leaf)}, st.integers(1, _MAX_DATA_DEPTH), _scalars),
    st.integers(10_000, 3_000_000).map(lambda n: {"a": "y" * n, "b": [1, 2, 3]}),
)
_texts = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300),
    st.lists(st.one_of(st.sampled_from(_ACTIONS), st.text(max_size=6)), max_size=60).map("".join),
    st.builds(
        lambda n, m, middle: "{{if 1}}" * n + middle + "{{end}}" * m,
        st.integers(0, 3000),
        st.integers(0, 3000),
        st.sampled_from(_ACTIONS),
    ),
    st.builds(
        lambda n, m: "{{" + "(" * n + "1" + ")" * m + "}}", st.integers(0, 500), st.integers(0, 500)
    ),
    st.builds(
        str.__add__, st.integers(10_000, 3_000_000).map("x".__mul__), st.sampled_from(_ACTIONS)
    ),
)


def _assert_engine_answers(engine: Renderer, text: str | bytes, data: dict[str, object]) -> None:
    started = time.monotonic()
    try:
        output = engine.render(text, data, name="fuzz")
    except (TemplateError, RenderTimeout, OutputTooLarge) as exc:
        # Typed answers: the template is bad, too slow, or its output too big.
        event(f"outcome: {type(exc).__name__}")
    else:
        assert isinstance(output, bytes)
        event("outcome: output" + (" (empty)" if not output else ""))
    elapsed = time.monotonic() - started
    assert elapsed < engine.timeout + TIMEOUT_SLACK_S, f"took {elapsed:.1f}s"
    # ... and the next call still works.
    assert engine.render("{{.probe}}", {"probe": "still alive"}) == b"still alive"


@property_settings()
@given(text=_texts, data=_data)
def test_the_engine_answers_any_text_and_data_in_time(
    renderer: Renderer, text: str | bytes, data: dict[str, object]
) -> None:
    _assert_engine_answers(renderer, text, data)


def test_a_render_that_runs_too_long_times_out_and_the_next_works(renderer: Renderer) -> None:
    endless = "{{range .L}}{{range $.L}}{{range $.L}}{{end}}{{end}}{{end}}never"
    with pytest.raises(RenderTimeout):
        renderer.render(endless, {"L": list(range(2000))})
    assert renderer.render("{{.a}}", {"a": 1}) == b"1"


def test_data_beyond_what_go_can_hold_is_a_typed_error(renderer: Renderer) -> None:
    for data in ({"a": 1 << 64}, {"a": _nested(_MAX_DATA_DEPTH + 20, 1)}, {"a": object()}):
        with pytest.raises(DataTypeError):
            renderer.render("{{.a}}", data)
    assert renderer.render("{{.a}}", {"a": "ok"}) == b"ok"


@pytest.mark.parametrize(
    ("text", "data"),
    [("a\ud800b", {}), ("{{.a}}", {"a": "\ud800"}), ("{{.a}}", {"\udfff": 1})],
    ids=["in-text", "in-data-value", "in-data-key"],
)
def test_lone_surrogates_are_a_typed_error_not_a_crash(
    renderer: Renderer, text: str, data: dict[str, object]
) -> None:
    # A str holding a surrogate that surrogateescape cannot encode (outside
    # U+DC80..U+DCFF) cannot reach Go as UTF-8; the engine must say so with
    # a WendyLlmError (DataTypeError for data), not leak UnicodeEncodeError.
    with pytest.raises(WendyLlmError):
        renderer.render(text, data)
    assert renderer.render("{{.a}}", {"a": "ok"}) == b"ok"
