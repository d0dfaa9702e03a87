"""Where the validators' tool processes run: one pool per ``check``, one thread per core.

Every external tool run of a ``check`` (each ``docker-compose config``, each
``bash -n``, each ShellCheck batch) is a job handed to one
:class:`ToolRunner`, so that Compose and the shell checks together never
run more processes at a time than the machine gives this process cores
(``os.sched_getaffinity``): each tool is one CPU-bound process, so more
would only add switching, and fewer would leave a core idle.

Results come back as ``(job, result)`` pairs in the order the jobs finish,
not the order they were given: every caller joins a result to what asked
for it by the job (a key), never by position.  A test runner that shuffles
that order (:meth:`ToolRunner.completed`) proves it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed, wait
from typing import TypeVar

from wendy_llm.arguments import checked

JobT = TypeVar("JobT")  # a tool job, whatever the tool
OutT = TypeVar("OutT")


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity; at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


class ToolRunner:
    """Runs tool jobs on at most ``workers`` threads (default: one per core).

    Thread-safe; jobs from several callers share the same threads.  Close
    it (or use it as a context manager) to release them.
    """

    @checked
    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers if workers is not None else available_cores())
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self.jobs_run = 0  # jobs started (for tests and the bench)

    def __enter__(self) -> ToolRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(cancel=exc[0] is not None)

    def close(self, *, cancel: bool = False) -> None:
        """Stop the threads (``cancel``: dropping the jobs not started yet)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=cancel)

    def run_all(self, fn: Callable[[JobT], OutT], jobs: Sequence[JobT]) -> list[tuple[JobT, OutT]]:
        """``(job, fn(job))`` for every job, in the order they finish.

        The first job that raises stops the rest: the jobs not started are
        dropped, the running ones are waited for, and its exception
        propagates.
        """
        if len(jobs) == 1:  # no thread for a single job
            self._count(1)
            return [(jobs[0], fn(jobs[0]))]
        pool = self._executor()
        futures = {pool.submit(self._counted, fn, job): job for job in jobs}
        done: list[tuple[JobT, OutT]] = []
        try:
            for future in as_completed(futures):
                done.append((futures[future], future.result()))
        finally:
            for future in futures:
                future.cancel()
            # The jobs already running end before the caller goes on (and,
            # say, removes the directory they work in); a cancelled
            # validator's jobs end at once.
            wait(futures)
        return self.completed(done)

    def completed(self, done: list[tuple[JobT, OutT]]) -> list[tuple[JobT, OutT]]:
        """The finished jobs in the order they are handed back (a test hook)."""
        return done

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=self.workers, thread_name_prefix="wendy-llm-tool"
                )
            return self._pool

    def _counted(self, fn: Callable[[JobT], OutT], job: JobT) -> OutT:
        self._count(1)
        return fn(job)

    def _count(self, n: int) -> None:
        with self._lock:
            self.jobs_run += n
