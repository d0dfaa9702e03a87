"""The Renderer's lifecycle: a lazy start, close and garbage collection reap
the helper, close from another thread stops a running render, a forked
child gets its own, settings are checked, and the process-wide shared
renderer reopens."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from _engine_helpers import ENDLESS, ENDLESS_DATA, cpu_ticks, is_reaped, write_script

from wendy_llm import EngineError, Renderer, options, shared_renderer
from wendy_llm.engine import toolchain

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


def test_close_lets_the_helper_exit_on_end_of_input() -> None:
    renderer = Renderer()
    renderer.render("x", {})
    helper = renderer._slot.helper
    assert helper is not None
    renderer.close()
    assert helper.proc.returncode == 0  # it exited by itself, not killed


def test_close_kills_a_helper_that_lingers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(options, "HELPER_EXIT_WAIT_S", 0.2)
    lingering = write_script(tmp_path / "helper", "exec sleep 60\n")
    renderer = Renderer(helper=lingering)
    renderer.start()
    helper = renderer._slot.helper
    assert helper is not None
    renderer.close()
    assert helper.proc.returncode == -signal.SIGKILL
    assert is_reaped(helper.proc.pid)


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


def test_start_runs_the_helper_before_the_first_request() -> None:
    with Renderer() as renderer:
        renderer.start()
        pid = renderer.pid
        assert pid is not None
        renderer.start()  # one helper: a running one is kept
        assert renderer.pid == pid
        assert renderer.render("{{.A}}", {"A": "early"}) == b"early"
        assert renderer.pid == pid


def test_start_leaves_a_build_to_the_first_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WENDY_LLM_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(toolchain, "_memo", {})
    with Renderer() as renderer:
        renderer.start()  # nothing built yet: no build here, no helper
        assert renderer.pid is None
        assert not (tmp_path / "empty-cache").exists()
        assert renderer.render("{{.A}}", {"A": "built"}) == b"built"


def test_start_leaves_a_failed_start_to_the_first_request(tmp_path: Path) -> None:
    with Renderer(helper=tmp_path / "no-such-helper") as renderer:
        renderer.start()
        assert renderer.pid is None
        with pytest.raises(EngineError, match="cannot start the Go helper"):
            renderer.render("x", {})
    renderer.start()  # closed: nothing to start, nothing raised
    assert renderer.pid is None


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


def test_close_from_another_thread_stops_a_running_render() -> None:
    # The render would run for hours (timeout=3600): close() must stop it,
    # not wait for it, and the rendering thread gets a typed error.
    renderer = Renderer(timeout=3600)
    renderer.render("warm", {})
    pid = renderer.pid
    assert pid is not None
    errors: list[Exception] = []

    def render() -> None:
        try:
            renderer.render(ENDLESS, ENDLESS_DATA, "loop.txt")
        except EngineError as exc:
            errors.append(exc)

    worker = threading.Thread(target=render, daemon=True)
    baseline = cpu_ticks(pid)
    worker.start()
    deadline = time.monotonic() + 60  # a hang guard: wait until Go renders
    while cpu_ticks(pid) < baseline + 2:
        assert time.monotonic() < deadline, "the helper never started rendering"
        time.sleep(0.01)
    closer = threading.Thread(target=renderer.close, daemon=True)
    closer.start()
    try:
        closer.join(timeout=30)  # hang guards only
        worker.join(timeout=30)
        assert not closer.is_alive(), "close() waited for the running render"
    finally:
        if not is_reaped(pid):
            os.kill(pid, signal.SIGKILL)
    assert not worker.is_alive()
    assert len(errors) == 1
    assert isinstance(errors[0], EngineError)
    assert "closed while rendering loop.txt" in str(errors[0])
    assert is_reaped(pid)
    assert renderer.closed and renderer.pid is None
