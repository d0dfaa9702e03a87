"""The Renderer's limits: the per-render timeout (on renders calibrated on the
machine at hand) and the output cap, each leaving the next call working."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from _engine_helpers import (
    ENDLESS,
    ENDLESS_DATA,
    NESTED_RANGE,
    calibrated_items,
    is_reaped,
    write_script,
)

from wendy_llm import OutputTooLarge, Renderer, RenderJob, RenderTimeout

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


def test_a_batch_is_stopped_once_its_output_passes_the_batch_budget() -> None:
    # Each output is far under the per-render cap; together they pass the
    # batch's budget, which bounds what one call holds (eight 60 MB files
    # took 1 GB of memory under the per-render cap alone).
    mib = "{{range 1048576}}x{{end}}"
    with Renderer(max_batch_output_bytes=3_500_000) as renderer:
        renderer.render("warm", {})
        pid = renderer.pid
        jobs = [RenderJob(f"{mib}{i}", {}, f"f{i}.txt") for i in range(8)]
        with pytest.raises(
            OutputTooLarge,
            match=r"^rendering f3\.txt brought the output of one batch of renders past"
            r" 3500000 bytes \(the renderer's max_batch_output_bytes\)",
        ):
            renderer.render_many(jobs)
        assert pid is not None and is_reaped(pid)  # stopped mid-batch, not drained
        # An output repeated in a batch is held once, and counted once.
        assert renderer.render_many([RenderJob(mib, {}, "same")] * 8) == [b"x" * (1 << 20)] * 8


def test_a_timeout_longer_than_poll_can_wait_is_accepted() -> None:
    # poll() takes a C int of milliseconds (24 days); a longer timeout once
    # raised OverflowError from every render.
    with Renderer(timeout=1e9) as renderer:
        assert renderer.render("x", {}) == b"x"
        assert renderer.render_many([RenderJob("y", {})] * 100) == [b"y"] * 100
