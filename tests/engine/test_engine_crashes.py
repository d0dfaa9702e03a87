"""The Renderer when its helper dies: killed between or during calls,
crashing once or twice, breaking the protocol, or never starting."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
from _engine_helpers import NESTED_RANGE, calibrated_items, cpu_ticks, is_reaped, write_script

from wendy_llm import EngineError, Renderer, RenderJob
from wendy_llm.engine.toolchain import helper_path

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


def test_requests_do_not_poll_the_helper_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # A dead helper is noticed by its pipe (above), so a request costs no
    # waitpid: a profile of single renders once found one in each.
    with Renderer() as renderer:
        renderer.render("warm", {})
        helper = renderer._slot.helper
        assert helper is not None
        polls: list[int | None] = []
        poll = helper.proc.poll

        def counted() -> int | None:
            polls.append(poll())
            return polls[-1]

        monkeypatch.setattr(helper.proc, "poll", counted)
        for i in range(50):
            assert renderer.render("{{.A}}", {"A": i}) == str(i).encode()
        assert renderer.render_many([RenderJob("{{.A}}", {"A": 1})] * 100) == [b"1"] * 100
        assert polls == []


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
