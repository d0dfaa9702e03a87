"""The Renderer's robustness: types, crashes, timeouts, caps, bytes, threads, zombies."""

from __future__ import annotations

import enum
import gc
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import MappingProxyType

import pytest
from _engine_helpers import (
    ENDLESS,
    ENDLESS_DATA,
    NESTED_RANGE,
    calibrated_items,
    cpu_ticks,
    is_reaped,
    write_script,
)

from wendy_llm import (
    DataTypeError,
    EngineError,
    OutputTooLarge,
    Renderer,
    RenderJob,
    RenderTimeout,
    TemplateExecError,
    TemplateParseError,
    shared_renderer,
)
from wendy_llm.engine.toolchain import helper_path
from wendy_llm.engine.wire import encode_request, error_location


@pytest.fixture(scope="module")
def renderer() -> Iterator[Renderer]:
    with Renderer() as shared:
        yield shared


class Colour(enum.StrEnum):
    RED = "red"


class Size(enum.IntEnum):
    BIG = 3


# --- data types ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "go_type"),
    [
        ("s", "string"),
        (b"s", "string"),
        (bytearray(b"s"), "string"),
        (True, "bool"),
        (8080, "int"),
        (8080.0, "float64"),
        (None, "<nil>"),
        ([1, "a"], "[]interface {}"),
        ((1, "a"), "[]interface {}"),
        ({"a": 1}, "map[string]interface {}"),
        (MappingProxyType({"a": 1}), "map[string]interface {}"),
        (Colour.RED, "string"),
        (Size.BIG, "int"),
    ],
)
def test_python_types_reach_go_as_documented(
    renderer: Renderer, value: object, go_type: str
) -> None:
    assert renderer.render('{{printf "%T" .X}}', {"X": value}) == go_type.encode()


def test_int_and_float_stay_distinct(renderer: Renderer) -> None:
    template = "{{if eq .PORT 8080}}int{{end}}"
    assert renderer.render(template, {"PORT": 8080}) == b"int"
    with pytest.raises(TemplateExecError, match="incompatible types for comparison"):
        renderer.render(template, {"PORT": 8080.0})


def test_values_round_trip_exactly(renderer: Renderer) -> None:
    data = {
        "min": -(2**63),
        "max": 2**63 - 1,
        "f": 0.1,
        "nan": float("nan"),
        "inf": float("-inf"),
        "text": "naïve ☃",
        "nested": {"l": [{"deep": [True, None, 2.5]}]},
    }
    out = renderer.render("{{.min}} {{.max}} {{.f}} {{.nan}} {{.inf}} {{.text}} {{.nested}}", data)
    assert out == (
        b"-9223372036854775808 9223372036854775807 0.1 NaN -Inf "
        + "naïve ☃".encode()
        + b" map[l:[map[deep:[true <nil> 2.5]]]]"
    )


@pytest.mark.parametrize(
    ("data", "path", "fragment"),
    [
        ({"a": {1, 2}}, ".a", "has type set"),
        ({"a": {"b": [1, object()]}}, ".a.b[1]", "has type object"),
        ({"a": {1: "x"}}, ".a", "keys must be str"),
        ({"big": 2**63}, ".big", "does not fit in a Go int"),
    ],
)
def test_unrepresentable_data_names_the_path(
    renderer: Renderer, data: dict[str, object], path: str, fragment: str
) -> None:
    with pytest.raises(DataTypeError, match=fragment) as caught:
        renderer.render("x", data)
    assert caught.value.path == path
    assert path in str(caught.value)


def test_cyclic_data_is_an_error_not_a_crash(renderer: Renderer) -> None:
    cyclic: dict[str, object] = {}
    cyclic["self"] = cyclic
    with pytest.raises(DataTypeError, match="nested more than"):
        renderer.render("x", cyclic)


def test_data_must_be_a_mapping(renderer: Renderer) -> None:
    with pytest.raises(DataTypeError, match="must be a mapping"):
        renderer.render("x", [1])  # type: ignore[arg-type]


def test_bad_data_in_a_later_chunk_keeps_the_helper_in_step(renderer: Renderer) -> None:
    jobs = [RenderJob("{{.I}}", {"I": i}) for i in range(200)]
    jobs[150] = RenderJob("{{.I}}", {"I": {1, 2}})
    with pytest.raises(DataTypeError):
        renderer.render_many(jobs)
    pid = renderer.pid
    assert renderer.render("{{.I}}", {"I": 7}) == b"7"
    assert renderer.pid == pid


# --- batches ------------------------------------------------------------------


def test_render_many_keeps_order_and_returns_errors_in_place(renderer: Renderer) -> None:
    shared = {"X": "x"}
    jobs = [
        RenderJob("a{{.X}}", shared, "a.txt"),
        RenderJob("{{.Missing}}", shared, "b.txt"),
        RenderJob("{{if}}", shared, "c.txt"),
        RenderJob(b"d{{.X}}", {"X": "y"}, "d.txt"),
    ]
    results = renderer.render_many(jobs)
    assert results[0] == b"ax"
    assert isinstance(results[1], TemplateExecError) and results[1].name == "b.txt"
    assert isinstance(results[2], TemplateParseError) and results[2].name == "c.txt"
    assert results[3] == b"dy"
    assert renderer.render_many([]) == []


def test_large_batches_share_texts_and_data(renderer: Renderer) -> None:
    data = {"N": 1}
    jobs = [RenderJob(f"{{{{.N}}}}-{i % 3}", data) for i in range(1000)]
    request = encode_request(jobs[:64], 1 << 20)
    # Three distinct texts and one data map are sent once each.
    assert request.count(b"{{.N}}-") == 3
    results = renderer.render_many(jobs)
    assert results == [f"1-{i % 3}".encode() for i in range(1000)]


def test_same_text_under_two_names_reports_each_name(renderer: Renderer) -> None:
    jobs = [RenderJob("{{.Nope}}", {}, "one"), RenderJob("{{.Nope}}", {}, "two")]
    first, second = renderer.render_many(jobs)
    assert isinstance(first, TemplateExecError) and "template: one:1:2:" in str(first)
    assert isinstance(second, TemplateExecError) and "template: two:1:2:" in str(second)


def test_the_parse_cache_keys_on_name_and_text_and_survives_eviction(
    renderer: Renderer,
) -> None:
    # The helper caches parsed templates by (name, text) and clears the
    # cache wholesale past 4096 entries: no render may see another's text.
    assert renderer.render("first {{.A}}", {"A": 1}, "same.txt") == b"first 1"
    assert renderer.render("second {{.A}}", {"A": 2}, "same.txt") == b"second 2"
    jobs = [RenderJob(f"{i}:{{{{.A}}}}", {"A": i}, f"t{i % 7}") for i in range(5000)]
    assert renderer.render_many(jobs) == [f"{i}:{i}".encode() for i in range(5000)]
    assert renderer.render("first {{.A}}", {"A": 3}, "same.txt") == b"first 3"
    broken = renderer.render_many([RenderJob("{{.A", {}, "same.txt")])[0]
    assert isinstance(broken, TemplateParseError) and broken.name == "same.txt"


# --- crashes --------------------------------------------------------------------


def test_helper_killed_between_calls_is_restarted() -> None:
    with Renderer() as renderer:
        assert renderer.render("{{.A}}", {"A": 1}) == b"1"
        pid = renderer.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        assert renderer.render("{{.A}}", {"A": 2}) == b"2"
        assert renderer.pid not in (None, pid)
        assert is_reaped(pid)


def test_helper_killed_during_a_call_is_restarted_and_the_call_retried() -> None:
    with Renderer() as renderer:
        items = calibrated_items(renderer, 1.5)
        pid = renderer.pid
        assert pid is not None
        outcome: dict[str, bytes] = {}
        worker = threading.Thread(
            target=lambda: outcome.setdefault("out", renderer.render(NESTED_RANGE, {"L": items}))
        )
        baseline = cpu_ticks(pid)
        worker.start()
        # Kill only once the helper is provably rendering (it has burnt CPU
        # since the request went out) and the call is still in flight: a
        # fixed sleep could land before or after the render on a busy machine.
        deadline = time.monotonic() + 60
        while cpu_ticks(pid) < baseline + 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert worker.is_alive(), "the render finished before the helper could be killed"
        os.kill(pid, signal.SIGKILL)
        worker.join(timeout=60)
        assert outcome["out"] == b"done"
        # A live helper that is not the killed one: the call restarted it.
        assert renderer.pid not in (None, pid)
        assert is_reaped(pid)


def test_a_helper_crashing_once_is_retried(tmp_path: Path) -> None:
    marker = tmp_path / "crashed-once"
    script = write_script(
        tmp_path / "helper",
        f'if [ ! -e "{marker}" ]; then : > "{marker}"; echo boom >&2; exit 3; fi\n'
        f'exec "{helper_path()}" "$@"\n',
    )
    with Renderer(helper=script) as renderer:
        assert renderer.render("{{.A}}", {"A": "ok"}) == b"ok"
    assert marker.exists()


def test_a_helper_crashing_twice_raises_a_clear_error(tmp_path: Path) -> None:
    script = write_script(
        tmp_path / "helper", "echo 'helper exploded: out of cheese' >&2\nexit 7\n"
    )
    with Renderer(helper=script) as renderer:
        with pytest.raises(EngineError, match="failed twice in a row") as caught:
            renderer.render("x", {}, "docker-compose.yml")
        message = str(caught.value)
        assert "exit status 7" in message
        assert "out of cheese" in message
        assert "docker-compose.yml" in message
        assert str(script) in message


def test_a_helper_breaking_the_protocol_raises_engine_error(tmp_path: Path) -> None:
    script = write_script(
        tmp_path / "helper", "printf '\\000\\000\\000\\000\\000'\nexec sleep 30\n"
    )
    with Renderer(helper=script) as renderer:
        with pytest.raises(EngineError, match="empty record"):
            renderer.render("x", {})
        assert renderer.pid is None  # the out-of-step helper was killed


def test_a_helper_that_cannot_start_raises_engine_error(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-helper"
    with (
        Renderer(helper=missing) as renderer,
        pytest.raises(EngineError, match="cannot start the Go helper"),
    ):
        renderer.render("x", {})


# --- timeouts -----------------------------------------------------------------


def test_a_runaway_render_times_out_and_the_next_call_works() -> None:
    with Renderer(timeout=0.5) as renderer:
        renderer.render("warm", {})
        pid = renderer.pid
        assert pid is not None
        start = time.monotonic()
        with pytest.raises(RenderTimeout, match=r"rendering loop\.txt took longer than 0\.5s"):
            renderer.render(ENDLESS, ENDLESS_DATA, "loop.txt")
        assert time.monotonic() - start < 5
        assert is_reaped(pid)
        assert renderer.pid is None
        assert renderer.render("{{.A}}", {"A": "again"}) == b"again"


def test_a_silent_helper_times_out(tmp_path: Path) -> None:
    script = write_script(tmp_path / "helper", "exec sleep 30\n")
    with Renderer(helper=script, timeout=0.3) as renderer, pytest.raises(RenderTimeout):
        renderer.render("x", {})


def test_the_timeout_applies_per_render_not_per_batch() -> None:
    # Each render is calibrated to 1/25 of the timeout, so a loaded machine
    # slowing one render down 25-fold is needed for a spurious timeout.
    timeout = 1.0
    with Renderer(timeout=timeout) as renderer:
        items = calibrated_items(renderer, 0.04)
        # Calibration on a loaded machine is approximate, so grow the batch
        # until it as a whole outlasts the timeout: only then does its
        # success show that the timeout is per render.
        count = 15
        for _ in range(6):
            jobs = [RenderJob(NESTED_RANGE, {"L": items})] * count
            start = time.monotonic()
            results = renderer.render_many(jobs)
            elapsed = time.monotonic() - start
            assert results == [b"done"] * count
            if elapsed > timeout:
                break
            count *= 2
        assert elapsed > timeout, f"{count} renders never outlasted {timeout}s"


def test_a_timeout_inside_a_batch_names_the_slow_template() -> None:
    with Renderer(timeout=0.5) as renderer:
        renderer.render("warm", {})
        quick = [RenderJob("quick", {}, f"quick-{i}") for i in range(5)]
        jobs = [*quick, RenderJob(ENDLESS, ENDLESS_DATA, "slow"), *quick]
        with pytest.raises(RenderTimeout, match="rendering slow took longer"):
            renderer.render_many(jobs)


# --- output cap ---------------------------------------------------------------


def test_output_up_to_the_cap_renders_and_beyond_it_fails() -> None:
    template = "{{range .L}}0123456789{{end}}"
    with Renderer(max_output_bytes=1000) as renderer:
        assert renderer.render(template, {"L": list(range(100))}) == b"0123456789" * 100
        pid = renderer.pid
        with pytest.raises(OutputTooLarge, match=r"big\.txt produced more than 1000 bytes"):
            renderer.render(template, {"L": list(range(101))}, "big.txt")
        # The helper stopped the render itself and is still in service.
        assert renderer.pid == pid
        assert renderer.render("ok", {}) == b"ok"


def test_a_runaway_output_is_stopped_inside_the_helper() -> None:
    # Unbounded, this would produce 40 GB.
    template = "{{range .L}}{{range $.L}}0123456789{{end}}{{end}}"
    with Renderer(max_output_bytes=1 << 20) as renderer:
        jobs = [RenderJob("fine", {}), RenderJob(template, {"L": list(range(2000))}, "huge")]
        with pytest.raises(OutputTooLarge, match="huge"):
            renderer.render_many(jobs)


# --- bytes ----------------------------------------------------------------------


def test_non_utf8_template_and_data_bytes_survive(renderer: Renderer) -> None:
    template = b"caf\xe9 \xff{{.A}}\x80{{.B}}"
    out = renderer.render(template, {"A": b"\xc3\x28", "B": "\udcfe"})
    assert out == b"caf\xe9 \xff\xc3\x28\x80\xfe"


def test_str_templates_are_utf8(renderer: Renderer) -> None:
    assert renderer.render("é{{.A}}", {"A": "ü"}) == "éü".encode()


# --- threads ----------------------------------------------------------------------


def test_many_threads_get_their_own_results(renderer: Renderer) -> None:
    def work(thread: int) -> list[tuple[bytes, bytes]]:
        pairs = []
        for i in range(50):
            expected = f"{thread}:{i}:" + "x" * (i * 37 % 500)
            data = {"T": thread, "I": i, "P": "x" * (i * 37 % 500)}
            if i % 5 == 0:
                out = renderer.render_many([RenderJob("{{.T}}:{{.I}}:{{.P}}", data)])[0]
                assert isinstance(out, bytes)
            else:
                out = renderer.render("{{.T}}:{{.I}}:{{.P}}", data)
            pairs.append((out, expected.encode()))
        return pairs

    with ThreadPoolExecutor(max_workers=8) as pool:
        for pairs in pool.map(work, range(8)):
            for got, expected in pairs:
                assert got == expected


# --- lifecycle ------------------------------------------------------------------


def test_close_reaps_the_helper_and_refuses_further_renders() -> None:
    renderer = Renderer()
    renderer.render("x", {})
    pid = renderer.pid
    assert pid is not None
    renderer.close()
    assert is_reaped(pid)
    assert renderer.closed
    with pytest.raises(EngineError, match="closed"):
        renderer.render("x", {})
    renderer.close()  # idempotent


def test_garbage_collection_reaps_the_helper() -> None:
    renderer = Renderer()
    renderer.render("x", {})
    pid = renderer.pid
    assert pid is not None
    del renderer
    gc.collect()
    assert is_reaped(pid)


def test_the_helper_starts_lazily() -> None:
    with Renderer() as renderer:
        assert renderer.pid is None
        renderer.render("x", {})
        assert renderer.pid is not None


def test_a_forked_child_gets_its_own_helper(renderer: Renderer) -> None:
    renderer.render("warm", {})
    parent_pid = renderer.pid
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        try:
            rendered = renderer.render("{{.A}}", {"A": "child"})
            os.write(write_end, rendered + b" " + str(renderer.pid).encode())
            renderer.close()
        finally:
            os._exit(0)
    os.close(write_end)
    _, status = os.waitpid(child, 0)
    answer = os.read(read_end, 1000).decode()
    os.close(read_end)
    assert os.waitstatus_to_exitcode(status) == 0
    out, child_helper = answer.split()
    assert out == "child"
    assert int(child_helper) != parent_pid
    assert renderer.pid == parent_pid
    assert renderer.render("{{.A}}", {"A": "parent"}) == b"parent"


@pytest.mark.parametrize(
    "kwargs",
    [{"timeout": 0}, {"timeout": -1.0}, {"max_output_bytes": 0}, {"max_output_bytes": 1 << 40}],
)
def test_invalid_settings_are_rejected(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Renderer(**kwargs)  # type: ignore[arg-type]


def test_shared_renderer_is_one_per_process_and_reopens() -> None:
    first = shared_renderer()
    assert shared_renderer() is first
    assert first.render("{{.A}}", {"A": 1}) == b"1"
    first.close()
    second = shared_renderer()
    assert second is not first
    assert second.render("{{.A}}", {"A": 2}) == b"2"


def test_benchmark_in_go_reports_nanoseconds_per_render(renderer: Renderer) -> None:
    per_render = renderer.benchmark_in_go(RenderJob("{{.A}}", {"A": 1}), 1000)
    assert 0 < per_render < 1e7
    with pytest.raises(TemplateExecError):
        renderer.benchmark_in_go(RenderJob("{{.Nope}}", {}), 10)


@pytest.mark.parametrize(
    ("message", "name", "location"),
    [
        ("template: t:3:7: executing ...", "t", (3, 7)),
        ("template: t:12: unexpected EOF", "t", (12, None)),
        ("template: a:1:b:4:2: executing ...", "a:1:b", (4, 2)),
        ('template: inner:5:1: executing "inner" ...', "file.txt", (5, 1)),
        ('template: t: "t" is an incomplete or empty template', "t", (None, None)),
        ("something else entirely", "t", (None, None)),
    ],
)
def test_error_location(message: str, name: str, location: tuple[int | None, int | None]) -> None:
    assert error_location(message, name) == location
