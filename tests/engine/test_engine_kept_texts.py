"""A template's text crosses the pipe once: the helper keeps it by id, a new
helper is sent it again, the bounds hold, and a request that fails to encode
leaves Python's record of the kept texts as the helper has it."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from wendy_llm import DataTypeError, Renderer, RenderJob, options
from wendy_llm.engine.kept import KeptTexts

BIG = "x{{.A}}" + "-" * 100_000


def bytes_read(pid: int) -> int:
    """What the process has read so far (Linux ``/proc/PID/io``)."""
    for line in Path(f"/proc/{pid}/io").read_text(encoding="ascii").splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError(f"no rchar for {pid}")


def test_a_template_text_crosses_the_pipe_once() -> None:
    with Renderer() as renderer:
        renderer.render(BIG, {"A": 0})
        pid = renderer.pid
        assert pid is not None
        before = bytes_read(pid)
        for i in range(20):
            assert renderer.render(BIG, {"A": i}).startswith(b"x%d-" % i)
        read = bytes_read(pid) - before
        assert renderer.pid == pid
    # 20 renders sending the text would read 2 MB.
    assert read < 20 * 1000, f"the helper read {read} bytes for 20 renders"


def test_a_new_helper_is_sent_the_text_again() -> None:
    with Renderer() as renderer:
        assert renderer.render(BIG, {"A": 1}).startswith(b"x1-")
        pid = renderer.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        assert renderer.render(BIG, {"A": 2}).startswith(b"x2-")
        assert renderer.pid not in (None, pid)


def test_texts_beyond_the_bounds_are_forgotten_and_sent_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(options, "HELPER_KEPT_TEXTS", 3)
    monkeypatch.setattr(options, "HELPER_KEPT_TEXT_BYTES", 1000)
    # Seven texts, one larger than the whole budget, in turns and in batches.
    texts = [f"{i}:{{{{.A}}}}" + "." * (i * 150) for i in range(7)]
    with Renderer() as renderer:
        renderer.render("warm", {})
        pid = renderer.pid
        for round_ in range(3):
            for i, text in enumerate(texts):
                out = renderer.render(text, {"A": round_})
                assert out == f"{i}:{round_}".encode() + b"." * (i * 150)
            jobs = [RenderJob(text, {"A": round_}) for text in reversed(texts)]
            outs = renderer.render_many(jobs)
            assert outs == [f"{6 - i}:{round_}".encode() + b"." * ((6 - i) * 150) for i in range(7)]
        assert renderer.pid == pid  # the helper never rejected a request


def test_a_request_failing_to_encode_keeps_nothing() -> None:
    with Renderer() as renderer:
        # Whole requests are sent before the last one fails to encode.
        first = [RenderJob("a{{.A}}", {"A": 1})] * options.RENDER_BATCH_JOBS
        broken = RenderJob("b{{.A}}", {"A": object()})
        with pytest.raises(DataTypeError):
            renderer.render_many([*first, broken])
        pid = renderer.pid
        # "b{{.A}}" was never sent: it must be sent now, not referred to.
        assert renderer.render("b{{.A}}", {"A": 2}) == b"b2"
        assert renderer.render("a{{.A}}", {"A": 3}) == b"a3"
        assert renderer.pid == pid


def test_kept_text_ids_stay_distinct_across_forgetting() -> None:
    kept = KeptTexts(max_texts=3, max_bytes=10)
    seen: dict[int, str | bytes] = {}
    for i in range(20):
        text = f"t{i % 5}"
        raws: dict[str | bytes, bytes] = {} if text in kept.ids else {text: text.encode()}
        keep = kept.plan(raws)
        forget = keep is None
        if keep is None:
            keep = kept.plan_afresh(raws)
            seen.clear()
        kept.commit(forget, keep, raws)
        for kept_text, text_id in keep.items():
            assert text_id not in seen, f"id {text_id} reused while {seen[text_id]!r} holds it"
            seen[text_id] = kept_text
        assert len(kept.ids) <= 3 and kept.size <= 10
        assert sorted(kept.ids.values()) == list(range(len(kept.ids)))
