"""The Renderer under many renders: render_many's order and in-place errors,
texts and data shared in a batch, the parse cache, error names and
locations, many threads at once, and the benchmark run inside Go."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from wendy_llm import (
    EngineError,
    Renderer,
    RenderJob,
    TemplateError,
    TemplateExecError,
    TemplateParseError,
)
from wendy_llm.engine.answers import error_location, same_output
from wendy_llm.engine.wire import encode_request

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


def test_an_output_repeated_in_a_batch_crosses_the_pipe_once(renderer: Renderer) -> None:
    """The helper refers back to an equal earlier output of the batch (the lints
    render every pick, and most files come out the same): the same bytes object
    is returned, equal to what rendering alone gives."""
    data = [{"A": "x" * 100}, {"A": "y" * 100}]
    jobs = [RenderJob("{{.A}}", data[i % 2], f"f{i}") for i in range(4)]
    jobs.insert(2, RenderJob("{{.Missing}}", data[0], "bad"))
    results = renderer.render_many(jobs)
    assert results[0] is results[3] and results[1] is results[4]
    assert results[:2] == [renderer.render("{{.A}}", d) for d in data]
    assert isinstance(results[2], TemplateExecError)


@pytest.mark.parametrize(
    "payload",
    [b"", b"\0\0\2", b"\0\0\0\0", b"\0\0\0\3", b"\0\0\0\1"],
    ids=["empty", "short", "itself", "before-the-batch", "an-error"],
)
def test_a_reference_to_no_earlier_output_is_a_protocol_error(payload: bytes) -> None:
    results: list[bytes | TemplateError] = [b"ok", TemplateExecError("e", name="n")]
    assert same_output(results, b"\0\0\0\2") == b"ok"
    with pytest.raises(EngineError, match="referred to no earlier output"):
        same_output(results, payload)


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
