"""Properties of the python/llm template and of the engine, over generated inputs.

1. Every pick but the DFlash sentinel renders the gated files
   (``docker-compose.yml``, ``wendy.json``) byte for byte as the stored
   baseline template does, for the same app id, port and model.
2. The DFlash render keeps no trace of Ollama and wires Open WebUI to vLLM.
3. Every render parses, carries the inputs exactly where expected, and has
   the key structure of a reference render: no input adds, removes or
   renames a key.
4. Invalid inputs give the documented error and no render (library and CLI).
5. The engine answers arbitrary template text and data with output or a
   typed error, within its timeout, and keeps working.
6. Rendering is deterministic across calls, helper restarts and threads.

Strategies come from the template's own files (``tests/_strategies.py``);
example counts from ``tests/_hypothesis_profiles.py`` (500 examples per
property with ``CI`` set; no deadlines).  One module-wide ``Renderer`` serves
every property; property 6 adds a second one whose helper it kills.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml
from _hypothesis_profiles import CI_PROFILE, DEV_PROFILE, property_settings
from _strategies import (
    TEMPLATE_DIR,
    Inputs,
    Port,
    all_picks,
    baseline,
    default_port,
    gate_files,
    inputs,
    model_question,
    non_integer_texts,
    ollama_picks,
    port_range,
    rule_breaking_app_ids,
    sentinel_picks,
    strict_app_ids,
    template,
    yaml_typed_app_ids,
)
from hypothesis import event, given, settings
from hypothesis import strategies as st

from wendy_llm.cli import main as cli_main
from wendy_llm.engine.client import Renderer, RenderJob
from wendy_llm.engine.gofuncs import trim_space
from wendy_llm.errors import (
    AppIdError,
    DataTypeError,
    OutputTooLarge,
    RenderTimeout,
    TemplateError,
    ValuesError,
    WendyLlmError,
)
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import Template
from wendy_llm.render.values import shown

COMPOSE = "docker-compose.yml"
WENDY_JSON = "wendy.json"

# The renderer every property shares: a short timeout so that engine
# examples which loop are cut off quickly, and an output cap far above any
# template render but low enough that runaway output stops fast.
RENDER_TIMEOUT_S = 2.0
MAX_OUTPUT_BYTES = 8 << 20
# Beyond the timeout: killing the helper, moving megabytes of text (each
# byte that moves restarts the timeout) and a loaded machine's scheduling.
# Only a hang guard: a timeout that failed to cut a render would leave the
# call running for minutes (the looping examples) or for ever.
TIMEOUT_SLACK_S = 60.0

NO_STRICT = "pass strict=False (--no-strict) to render exactly as wendy init would"
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


@pytest.fixture(scope="module")
def renderer() -> Iterator[Renderer]:
    with Renderer(timeout=RENDER_TIMEOUT_S, max_output_bytes=MAX_OUTPUT_BYTES) as shared:
        shared.render("warm-up", {})  # the helper's start is not an example's cost
        yield shared


def render_files(
    engine: Renderer, renders: Sequence[tuple[Template, Mapping[str, object]]], paths: Sequence[str]
) -> list[dict[str, bytes]]:
    """``paths`` of each (template, values) render, in one engine round trip."""
    jobs = [
        RenderJob(source.data, values, source.path)
        for of, values in renders
        for source in of.sources
        if source.path in paths
    ]
    results = engine.render_many(jobs)
    failed = [r for r in results if isinstance(r, TemplateError)]
    assert not failed, f"render failed: {failed[0]}"
    out: list[dict[str, bytes]] = [{} for _ in renders]
    index = 0
    for slot, (of, _) in enumerate(renders):
        for source in of.sources:
            if source.path in paths:
                out[slot][source.path] = bytes(results[index])  # type: ignore[arg-type]
                index += 1
    return out


def parse(files: Mapping[str, bytes]) -> tuple[dict[str, Any], dict[str, Any]]:
    compose = yaml.safe_load(files[COMPOSE])
    wendy = json.loads(files[WENDY_JSON])
    assert isinstance(compose, dict) and isinstance(wendy, dict)
    return compose, wendy


# --- 1. byte identity with the baseline ---------------------------------------------


@property_settings()
@given(case=inputs(ollama_picks()))
def test_ollama_picks_render_the_gated_files_exactly_as_the_baseline(
    renderer: Renderer, case: Inputs
) -> None:
    values = case.values(template())
    # The baseline predates some options: it takes them as `wendy init` would.
    base_values = case.values(baseline(), strict=False)
    assert values == base_values
    ours, theirs = render_files(
        renderer, [(template(), values), (baseline(), base_values)], gate_files()
    )
    for path in gate_files():
        assert ours[path] == theirs[path], f"{path} differs from the baseline's render"


# --- 2. the DFlash render -------------------------------------------------------------


def strings(node: object, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every key and string value of a parsed document, with its path."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, f"<key {key}>"), str(key)
            yield from strings(value, (*path, str(key)))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from strings(item, (*path, f"[{index}]"))
    elif isinstance(node, str):
        yield path, node


def vllm_api_key() -> str:
    """The key the vLLM image defaults VLLM_API_KEY to (its Dockerfile)."""
    dockerfile = template().files["vllm/Dockerfile"].decode()
    (key,) = [
        part.split("=", 1)[1]
        for part in dockerfile.replace("\\\n", " ").split()
        if part.startswith("VLLM_API_KEY=")
    ]
    return key


@property_settings()
@given(case=inputs(sentinel_picks()))
def test_the_dflash_render_has_no_trace_of_ollama_and_wires_vllm(
    renderer: Renderer, case: Inputs
) -> None:
    (files,) = render_files(renderer, [(template(), case.values(template()))], gate_files())
    compose, wendy = parse(files)
    app = case.app_id
    services = compose["services"]
    assert "ollama" not in services and "vllm" in services
    assert set(compose["volumes"]) == {f"{app}-hf", f"{app}-openwebui"}
    vllm = services["vllm"]
    assert vllm["build"] == "./vllm"
    assert vllm["volumes"] == [f"{app}-hf:/models"]
    webui = services["open-webui"]
    assert webui["depends_on"] == ["vllm"]
    environment = webui["environment"]
    assert environment["ENABLE_OLLAMA_API"] == "False"
    assert environment["ENABLE_OPENAI_API"] == "True"
    assert environment["OPENAI_API_BASE_URL"] == "http://vllm:8000/v1"
    assert environment["OPENAI_API_KEY"] == vllm_api_key()
    assert "ollama" not in wendy["services"]
    assert {"type": "gpu"} in wendy["services"]["vllm"]["entitlements"]
    # No other reference to Ollama: its name, port, URL, build context,
    # volume or dependency. Strings starting with the app id (volume names
    # and mounts, appId) are checked with the id masked: an id may itself
    # contain "ollama".
    allowed = {("services", "open-webui", "environment", "<key ENABLE_OLLAMA_API>")}
    for document in (compose, wendy):
        for path, text in strings(document):
            masked = "<APP_ID>" + text[len(app) :] if text.startswith(app) else text
            if path in allowed:
                continue
            for trace in ("ollama", "11434", "-models"):
                assert trace not in masked.lower(), f"{'.'.join(path)} = {text!r} mentions {trace}"
    comments = [
        line for line in files[COMPOSE].decode().splitlines() if line.lstrip().startswith("#")
    ]
    assert not [c for c in comments if "ollama" in c.lower()]


# --- 3. inputs land exactly where expected -------------------------------------------

REFERENCE_PORT = 54321  # distinctive: it appears nowhere in a render but as PORT


def reference_documents(renderer: Renderer, answers: Mapping[str, str]) -> tuple[Any, Any]:
    values = template().values(CANONICAL_APP_ID, {**answers, "PORT": str(REFERENCE_PORT)})
    (files,) = render_files(renderer, [(template(), values)], gate_files())
    return parse(files)


def substitute(node: object, app_id: str, port: int) -> object:
    """The reference document with the canonical inputs replaced by these."""

    def text(value: str) -> str:
        # The port first: an app id may itself contain the reference port's digits.
        return value.replace(str(REFERENCE_PORT), str(port)).replace(CANONICAL_APP_ID, app_id)

    if isinstance(node, dict):
        return {text(str(k)): substitute(v, app_id, port) for k, v in node.items()}
    if isinstance(node, list):
        return [substitute(item, app_id, port) for item in node]
    if isinstance(node, str):
        return text(node)
    if type(node) is int and node == REFERENCE_PORT:
        return port
    return node


@property_settings()
@given(case=inputs(all_picks()))
def test_inputs_land_exactly_where_expected_and_nowhere_else(
    renderer: Renderer, case: Inputs
) -> None:
    (files,) = render_files(renderer, [(template(), case.values(template()))], gate_files())
    compose, wendy = parse(files)
    app, port = case.app_id, case.port.number
    assert wendy["appId"] == app
    assert type(wendy["readiness"]["tcpSocket"]["port"]) is int
    assert wendy["readiness"]["tcpSocket"]["port"] == port
    assert wendy["hooks"]["postStart"]["cli"].endswith(f"}}:{port}")
    webui = compose["services"]["open-webui"]
    assert webui["ports"] == [f"{port}:{port}"]
    assert webui["environment"]["PORT"] == str(port)
    volumes = compose["volumes"]
    assert volumes and all(name.startswith(f"{app}-") for name in volumes)
    for name, service in compose["services"].items():
        for mount in service.get("volumes", []):
            assert mount.rsplit(":", 1)[0] in volumes, f"{name} mounts an undeclared volume"
    # Against a reference render of the same pick: with the inputs swapped
    # in, the documents are equal, so no input added, removed or renamed a
    # key, or changed any other value.
    ref_compose, ref_wendy = reference_documents(renderer, case.pick.answers)
    assert compose == substitute(ref_compose, app, port)
    assert wendy == substitute(ref_wendy, app, port)


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
    assert str(raised.value) == message
    out = out_root / uuid.uuid4().hex
    argv = ["render", str(TEMPLATE_DIR), f"--app-id={app_id}", "--out", str(out)]
    for key, value in overrides.items():
        argv += ["--var", f"{key}={value}"]
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = cli_main(argv)
    assert status == 2
    assert stderr.getvalue() == f"wendy-llm: error: {message}\n"
    assert stdout.getvalue() == ""
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


# --- 6. determinism ------------------------------------------------------------------


@pytest.fixture(scope="module")
def restarted() -> Iterator[Renderer]:
    """A second renderer, whose helper the property kills before each use."""
    with Renderer(timeout=RENDER_TIMEOUT_S, max_output_bytes=MAX_OUTPUT_BYTES) as other:
        yield other


@pytest.fixture(scope="module")
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=4) as executor:
        yield executor


def tree_bytes(values: Mapping[str, object], engine: Renderer) -> dict[str, bytes]:
    tree = template().render_values(values, renderer=engine)
    return {path: item.data for path, item in tree.files.items()}


@property_settings()
@given(case=inputs(all_picks()))
def test_rendering_is_deterministic_across_calls_restarts_and_threads(
    renderer: Renderer, restarted: Renderer, pool: ThreadPoolExecutor, case: Inputs
) -> None:
    values = case.values(template())
    first = tree_bytes(values, renderer)
    assert tree_bytes(values, renderer) == first
    old = restarted.pid
    if old is not None:
        os.kill(old, signal.SIGKILL)
    assert tree_bytes(values, restarted) == first
    assert restarted.pid not in (None, old)
    together = list(pool.map(lambda _: tree_bytes(values, renderer), range(8)))
    assert all(result == first for result in together)


def test_a_closed_and_reopened_renderer_renders_every_pick_the_same(renderer: Renderer) -> None:
    inputs_ = [
        Inputs(app_id, pick, port)
        for pick in template().picks()
        for app_id, port in (
            (CANONICAL_APP_ID, default_port()),
            ("x_1.y", Port(3000, "var", "3000")),
        )
    ]
    before = [tree_bytes(case.values(template()), renderer) for case in inputs_]
    for _ in range(2):
        with Renderer(timeout=RENDER_TIMEOUT_S) as fresh:
            assert [tree_bytes(case.values(template()), fresh) for case in inputs_] == before


# --- settings --------------------------------------------------------------------------


@pytest.mark.parametrize("profile", [CI_PROFILE, DEV_PROFILE])
def test_no_property_has_a_deadline(profile: str) -> None:
    # A deadline fails an example that merely ran slowly on a loaded machine.
    assert settings.get_profile(profile).deadline is None
    assert property_settings().deadline is None
