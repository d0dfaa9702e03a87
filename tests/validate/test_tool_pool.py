"""The tool runner of ``check``: one thread per core by default, never more
jobs at a time than its workers, every result under its own job."""

from __future__ import annotations

import os
import threading
import time

from wendy_llm.validate.tools.pool import ToolRunner, available_cores

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
