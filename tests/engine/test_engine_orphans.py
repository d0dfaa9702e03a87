"""The helper never outlives its use: parent death, forked children, memory."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from _engine_helpers import ENDLESS, ENDLESS_DATA, cpu_ticks

from wendy_llm import EngineError, Renderer

MiB = 1 << 20


def is_running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie (a dead helper whose
    new parent has not reaped it yet is gone for our purpose)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while is_running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def wait_until_rendering(helper: int) -> None:
    """Return once the helper is provably rendering: it has burnt CPU since
    the request went out, and it burns CPU on nothing else."""
    baseline = cpu_ticks(helper)
    deadline = time.monotonic() + 60
    while cpu_ticks(helper) < baseline + 2:
        assert time.monotonic() < deadline, "the helper never started rendering"
        time.sleep(0.01)


def vm_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


# The parent: a Python process rendering forever.  It prints its helper's
# pid (and, with HOLD, the pid of a process it gave a copy of the helper's
# input, so that no end of input can reach the helper) before the render.
# It sets SIGHUP's disposition itself, whatever the test run inherited
# (under nohup, ignored): "default", or "ignored" and blocked, which the
# helper then inherits.
PARENT = textwrap.dedent(
    """
    import os, signal, subprocess, sys
    from wendy_llm import EngineError, Renderer
    if sys.argv[4] == "ignored":
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    else:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    renderer = Renderer(timeout=3600)
    renderer.render("warm", {})
    holder = 0
    if sys.argv[1] == "HOLD":
        leaked = os.dup(renderer._slot.helper.stdin_fd)
        holder = subprocess.Popen(["sleep", "600"], pass_fds=[leaked]).pid
    print(renderer.pid, holder, flush=True)
    renderer.render(sys.argv[2], {"L": list(range(int(sys.argv[3])))})
    """
)


@pytest.fixture
def reap() -> Iterator[list[int]]:
    """Pids to SIGKILL at the end of the test if they still run."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        if is_running(pid):
            os.kill(pid, signal.SIGKILL)


def start_parent(
    mode: str, reap: list[int], hangup: str = "default"
) -> tuple[subprocess.Popen[str], int, int]:
    items = len(ENDLESS_DATA["L"])  # type: ignore[arg-type]
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, mode, ENDLESS, str(items), hangup],
        stdout=subprocess.PIPE,
        text=True,
    )
    reap.append(parent.pid)
    assert parent.stdout is not None
    helper, holder = map(int, parent.stdout.readline().split())
    reap += [helper, holder] if holder else [helper]
    return parent, helper, holder


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGHUP])
def test_the_helper_dies_with_its_parent_even_mid_render(
    sig: signal.Signals, reap: list[int]
) -> None:
    parent, helper, _ = start_parent("PLAIN", reap)
    wait_until_rendering(helper)
    parent.send_signal(sig)
    assert parent.wait(timeout=60) == -sig
    assert gone_within(helper, 1.0), "the helper kept rendering after its parent died"


def test_a_hangup_stops_parent_and_helper_even_when_the_test_run_ignores_it(
    reap: list[int],
) -> None:
    # As under `nohup pytest`: the parent must not inherit the ignored SIGHUP.
    inherited = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        parent, helper, _ = start_parent("PLAIN", reap)
    finally:
        signal.signal(signal.SIGHUP, inherited)
    wait_until_rendering(helper)
    parent.send_signal(signal.SIGHUP)
    assert parent.wait(timeout=60) == -signal.SIGHUP
    assert gone_within(helper, 1.0), "the helper kept rendering after its parent died"


@pytest.mark.parametrize("hangup", ["default", "ignored"])
def test_the_parent_death_signal_stops_the_helper_when_input_stays_open(
    hangup: str, reap: list[int]
) -> None:
    # A process the parent started holds the helper's input open, so only
    # the kernel's parent-death signal can tell the helper (Linux), whatever
    # SIGHUP disposition and mask the helper inherited.
    parent, helper, holder = start_parent("HOLD", reap, hangup)
    wait_until_rendering(helper)
    parent.kill()
    parent.wait(timeout=60)
    assert is_running(holder)
    assert gone_within(helper, 1.0), "the helper kept rendering after its parent died"


def test_closing_the_input_stops_a_running_render() -> None:
    # A parent that closes the helper's input and lives on (no parent-death
    # signal): the running request notices within its watch interval.
    errors: list[Exception] = []
    with Renderer(timeout=3600) as renderer:
        renderer.render("warm", {})
        helper = renderer._slot.helper
        assert helper is not None and helper.proc.stdin is not None
        pid = helper.proc.pid

        def render() -> None:
            try:
                renderer.render(ENDLESS, ENDLESS_DATA)
            except EngineError as exc:
                errors.append(exc)

        worker = threading.Thread(target=render)
        worker.start()
        try:
            wait_until_rendering(pid)
            helper.proc.stdin.close()
            stopped = gone_within(pid, 1.0)
        finally:
            # The call retries once with a new helper that renders forever
            # too (and the first one, should it still run): stop them.
            while worker.is_alive():
                for proc in (helper.proc, getattr(renderer._slot.helper, "proc", None)):
                    if proc is not None and proc.poll() is None:
                        proc.kill()
                worker.join(timeout=0.05)
    assert stopped, "the helper kept rendering after its input closed"
    assert "failed twice" in str(errors[0])


def test_the_helper_outlives_the_thread_that_started_it() -> None:
    # Linux sends the parent-death signal when the starting *thread* ends;
    # the helper must stay while the process that owns it lives.
    with Renderer() as renderer:
        starter = threading.Thread(target=lambda: renderer.render("x", {}))
        starter.start()
        starter.join()
        pid = renderer.pid
        for i in range(50):
            assert renderer.render("{{.A}}", {"A": i}) == str(i).encode()
        assert renderer.pid == pid


def test_close_is_prompt_while_a_forked_child_lives() -> None:
    renderer = Renderer()
    renderer.render("x", {})
    helper = renderer._slot.helper
    assert helper is not None
    release_r, release_w = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        os.close(release_w)
        os.read(release_r, 1)  # lives until the parent is done
        os._exit(0)
    os.close(release_r)
    try:
        renderer.close()
        # Ended by the end of its input, not killed after close()'s grace
        # period: the child no longer holds a copy of the helper's input.
        assert helper.proc.returncode == 0
    finally:
        os.close(release_w)
        os.waitpid(child, 0)


def test_many_large_distinct_templates_keep_the_helper_small() -> None:
    # Each template's parse tree takes about 11 MB; the parse cache keeps
    # at most 64 MiB of them, and memory is returned after large requests.
    # (Before that bound: 366 MiB; with it, about 90 MiB.)
    big = "key: {{.A}}\n" * (1 << 15)
    with Renderer() as renderer:
        for i in range(24):
            assert renderer.render(big + " " * i, {"A": 1}).startswith(b"key: 1\n")
        pid = renderer.pid
        assert pid is not None
        rss = vm_rss(pid)
        assert rss < 160 * MiB, f"the helper holds {rss / MiB:.0f} MiB"
