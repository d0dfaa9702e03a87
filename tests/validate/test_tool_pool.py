"""The tool runner of ``check``: one thread per core by default, never more
jobs at a time than its workers, every result under its own job."""

from __future__ import annotations

import os
import threading
import time

from wendy_llm.validate.tools.pool import ToolRunner, available_cores
from wendy_llm.validate.tools.programs import (
    find_tool,
    memory_limit_text,
    out_of_memory,
    run_tool,
)

HANG_GUARD_S = 30.0


def test_by_default_one_worker_per_core_the_process_may_use() -> None:
    assert available_cores() == len(os.sched_getaffinity(0))
    with ToolRunner() as runner:
        assert runner.workers == available_cores()
    with ToolRunner(0) as runner:
        assert runner.workers == 1


def test_never_more_jobs_at_a_time_than_workers() -> None:
    gate = threading.Event()
    lock = threading.Lock()
    started: list[int] = []

    def job(n: int) -> int:
        with lock:
            started.append(n)
        assert gate.wait(HANG_GUARD_S)
        return n * n

    runner = ToolRunner(2)
    out: list[tuple[int, int]] = []
    caller = threading.Thread(target=lambda: out.extend(runner.run_all(job, range(5))))
    caller.start()
    guard = time.monotonic() + HANG_GUARD_S
    while len(started) < 2:  # a hang guard, not a delay
        assert time.monotonic() < guard, "the first two jobs never started"
        time.sleep(0.01)
    # Both workers are held by the gate: no third job can have started.
    assert len(started) == 2
    gate.set()
    caller.join(HANG_GUARD_S)
    runner.close()
    assert sorted(out) == [(n, n * n) for n in range(5)] and runner.jobs_run == 5


def test_a_tool_past_its_memory_limit_fails_and_says_so() -> None:
    # bash building a 100 MB string under a 32 MiB address-space limit
    # (RLIMIT_AS, set in the child): the allocation fails, the run ends.
    grow = "x=$(head -c 100000000 /dev/zero | tr '\\0' a); echo ${#x}"
    result = run_tool([find_tool("bash"), "-c", grow], memory_bytes=32 << 20)
    assert result.returncode != 0
    assert out_of_memory(result), result.stderr
    assert memory_limit_text("bash", 32 << 20) == "bash ran out of its 32 MiB memory limit"


def test_a_tool_within_its_memory_limit_runs_as_before() -> None:
    result = run_tool([find_tool("bash"), "-c", "echo fine"], memory_bytes=32 << 20)
    assert (result.returncode, result.stdout) == (0, "fine\n")
    assert not out_of_memory(result)
