"""Render templates through the real Go ``text/template`` engine.

A :class:`Renderer` owns one long-lived Go helper (:mod:`.toolchain`), talking
over a framed binary protocol on its stdin/stdout; it renders as ``wendy
init`` does (``missingkey=error``, default delimiters, no extra functions).
Data reaches Go with the types the Wendy CLI holds (``8080`` an ``int``,
``8080.0`` a ``float64``: docs/wendy-init-semantics.md, section 4); any
other type raises :class:`DataTypeError` naming the key path. Templates are
``str`` or ``bytes`` (anything else: :class:`TemplateParseError`, when the
:class:`RenderJob` is made); output is ``bytes``; other arguments and the
settings are checked (argument errors: :mod:`wendy_llm.arguments`).
Timeouts: ``timeout`` applies to each render on its own: results stream back
as they finish, and a batch fails with :class:`RenderTimeout` only when no
render finished (and no request bytes moved) for ``timeout`` seconds; the
helper is then killed and the next call starts a new one.
Crashes: if the helper dies (or the pipe breaks) during a call, it is restarted
and the request retried once; a second failure raises :class:`EngineError`.
Output caps: a render producing more than ``max_output_bytes`` is stopped
inside the helper, and a ``render_many`` whose outputs pass
``max_batch_output_bytes`` (a repeated output counts once) stops the helper
as the output arrives: both raise :class:`OutputTooLarge` for the whole
batch, naming the template.  ``close()`` from another thread stops a render.
The helper is POSIX-only (it relies on ``poll`` over pipes).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

from wendy_llm import options
from wendy_llm.arguments import checked, value_error
from wendy_llm.engine.answers import bench_ns_per_render, same_output, template_error
from wendy_llm.engine.exchange import HelperDied, HelperTimeout, OutputOverBudget
from wendy_llm.engine.job import check_batch, odd_job_error
from wendy_llm.engine.process import Helper, HelperSlot
from wendy_llm.engine.toolchain import helper_path, remembered_helper
from wendy_llm.engine.wire import (
    KIND_BAD_REQUEST,
    KIND_BENCH,
    KIND_EXEC_ERROR,
    KIND_OK,
    KIND_PARSE_ERROR,
    KIND_SAME,
    KIND_TOO_LARGE,
    MAX_OUTPUT_LIMIT,
    Record,
    RenderJob,
    encode_calls,
    encode_request,
)
from wendy_llm.errors import (
    EngineError,
    OutputTooLarge,
    RenderTimeout,
    TemplateError,
    WendyLlmError,
)

__all__ = ["RenderJob", "Renderer", "shared_renderer"]


class Renderer:
    """Renders Go templates through one long-lived helper process.

    Thread-safe: calls from many threads are serialised over the one
    helper.  The helper starts on first use.  Use it as a context manager,
    or call :meth:`close`; it is also closed when garbage collected and at
    interpreter exit.

    ``timeout`` is the time each render may take, in seconds (see the module
    docstring); ``max_output_bytes`` caps each render's output, and
    ``max_batch_output_bytes`` the output of one call (a tree, or a lint's
    every pick), which bounds the memory a call holds.  ``helper``
    overrides the helper binary (default: built by
    :func:`wendy_llm.engine.toolchain.helper_path`).
    """

    @checked
    def __init__(
        self,
        *,
        timeout: float = options.RENDER_TIMEOUT_S,
        max_output_bytes: int = options.RENDER_MAX_OUTPUT_BYTES,
        max_batch_output_bytes: int = options.RENDER_MAX_BATCH_OUTPUT_BYTES,
        helper: str | os.PathLike[str] | None = None,
    ) -> None:
        if not timeout > 0:  # NaN included
            raise value_error("Renderer()", "timeout", f"must be positive, got {timeout!r}")
        if not 0 < max_output_bytes <= MAX_OUTPUT_LIMIT:
            problem = f"must be between 1 and {MAX_OUTPUT_LIMIT}, got {max_output_bytes}"
            raise value_error("Renderer()", "max_output_bytes", problem)
        if not max_batch_output_bytes > 0:
            problem = f"must be positive, got {max_batch_output_bytes}"
            raise value_error("Renderer()", "max_batch_output_bytes", problem)
        self.timeout = float(timeout)
        self.max_output_bytes = max_output_bytes
        self.max_batch_output_bytes = max_batch_output_bytes
        self._binary = Path(helper) if helper is not None else None
        self._lock = threading.Lock()
        self._slot = HelperSlot()
        self._closed = False
        self._finalizer = weakref.finalize(self, HelperSlot.close, self._slot)
        _live_renderers.add(self)

    # -- public API --

    def render(
        self, text: str | bytes, data: Mapping[str, object], name: str = "template"
    ) -> bytes:
        """Render one template; raise its :class:`TemplateError` on failure."""
        jobs = (RenderJob(text, data, name),)  # which checks the text and the name
        max_output = self.max_output_bytes
        records = self._request(
            lambda helper: iter(((encode_request(jobs, max_output, helper.kept), 1),)),
            lambda _: f"rendering {name}",
        )
        if records[0][0] == KIND_OK:
            return records[0][1]
        result = self._results(jobs, records)[0]
        if isinstance(result, TemplateError):
            raise result
        return result

    def render_many(self, jobs: Sequence[RenderJob]) -> list[bytes | TemplateError]:
        """Render a batch in one round trip; template errors are returned in place."""
        # Hot path: jobs were checked when made; a non-job is named if encoding fails.
        check_batch("Renderer.render_many()", jobs)
        if not jobs:
            return []
        max_output = self.max_output_bytes

        def requests(helper: Helper) -> Iterator[tuple[bytearray, int]]:
            # Chunks let the helper start rendering while Python encodes the
            # rest; a small first one starts it sooner.
            start, size = 0, options.RENDER_FIRST_BATCH_JOBS
            while start < len(jobs):
                chunk = jobs[start : start + size]
                yield encode_request(chunk, max_output, helper.kept), len(chunk)
                start, size = start + size, options.RENDER_BATCH_JOBS

        try:
            records = self._request(
                requests, lambda done: f"rendering {jobs[min(done, len(jobs) - 1)].name}"
            )
        except (AttributeError, TypeError) as exc:
            raise odd_job_error("Renderer.render_many()", jobs, exc) from None
        return self._results(jobs, records)

    def _results(
        self, jobs: Sequence[RenderJob], records: Sequence[Record]
    ) -> list[bytes | TemplateError]:
        """Each job's output or template error, from its record."""
        results: list[bytes | TemplateError] = []
        for job, (kind, payload) in zip(jobs, records, strict=True):
            if kind == KIND_OK:
                results.append(payload)
            elif kind == KIND_SAME:
                results.append(same_output(results, payload))
            elif kind in (KIND_PARSE_ERROR, KIND_EXEC_ERROR):
                results.append(template_error(kind, payload.decode("utf-8", "replace"), job.name))
            elif kind == KIND_TOO_LARGE:
                raise OutputTooLarge(
                    f"rendering {job.name} produced more than {self.max_output_bytes} bytes"
                    " (the renderer's max_output_bytes); the render was stopped"
                )
            else:
                raise EngineError(f"the Go helper answered with an unknown record kind {kind}")
        return results

    @checked
    def benchmark_in_go(self, job: RenderJob, iterations: int) -> float:
        """Execute ``job`` ``iterations`` times inside the helper; return ns per render.

        The in-process floor that the per-render cost of :meth:`render_many`
        is measured against (``make bench``).
        """
        if not 0 < iterations < 1 << 32:
            problem = f"must be between 1 and 2**32-1, got {iterations}"
            raise value_error("Renderer.benchmark_in_go()", "iterations", problem)
        max_output = self.max_output_bytes

        def request(helper: Helper) -> Iterator[tuple[bytearray, int]]:
            yield encode_request([job], max_output, helper.kept, bench_iterations=iterations), 1

        # The timeout is per render, and this request renders `iterations` times.
        ((kind, payload),) = self._request(
            request,
            lambda _: f"rendering {job.name}",
            timeout=self.timeout * iterations,
        )
        if kind == KIND_BENCH:
            return bench_ns_per_render(payload)
        if kind in (KIND_PARSE_ERROR, KIND_EXEC_ERROR):
            raise template_error(kind, payload.decode("utf-8", "replace"), job.name)
        if kind == KIND_TOO_LARGE:
            raise OutputTooLarge(
                f"rendering {job.name} produced more than {self.max_output_bytes} bytes"
            )
        raise EngineError(f"the Go helper answered with an unknown record kind {kind}")

    @checked
    def evaluate(self, calls: Sequence[bytes]) -> list[tuple[int, bytes]]:
        """Answer Go function calls (``wire.encode_call``) in one round trip.

        Each answer is a ``(kind, payload)`` record (``wire.Record``): ``KIND_OK`` and the
        result, or ``KIND_CALL_ERROR`` and Go's error text.  Callers use
        :mod:`wendy_llm.engine.gofuncs`, which decodes and caches them.
        """
        if not calls:
            return []
        request = encode_calls(calls)
        return self._request(
            lambda _: iter(((request, len(calls)),)), lambda _: "evaluating Go calls"
        )

    def start(self) -> None:
        """Start the helper now, if none is running, without waiting for it.

        Go gets ready while the caller does other work (imports, loads a
        template), so the first request does not wait for the start.
        Optional: every request starts the helper anyway.  Only a helper
        already built is started: a build, and any error (no Go, a binary
        that cannot run), are left to the first request, where the caller
        expects the delay or the error.
        """
        with self._lock:
            if self._closed:
                return
            binary = self._binary if self._binary is not None else remembered_helper()
            if binary is not None:
                with contextlib.suppress(WendyLlmError):
                    self._helper(binary)

    @property
    def pid(self) -> int | None:
        """The helper's process id, or None when no helper is running."""
        helper = self._slot.helper
        return helper.proc.pid if helper is not None and helper.alive() else None

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Stop the helper (and reap it). Further renders raise EngineError.

        A render running in another thread is stopped, not waited for: its
        helper is killed and that thread's call raises :class:`EngineError`
        ("the Renderer was closed").  (Called while this thread itself is
        rendering, e.g. from a signal handler, it would wait forever.)
        """
        self._closed = True
        # Kill whatever helper the rendering thread uses until it lets go
        # (it may be starting a replacement right now: kill that one too).
        while not self._lock.acquire(timeout=options.RENDER_CLOSE_POLL_S):
            helper = self._slot.helper
            if helper is not None:
                helper.interrupt()
        try:
            self._finalizer()
        finally:
            self._lock.release()

    def __enter__(self) -> Renderer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- internals --

    def _discard(self, helper: Helper) -> str:
        """Forget ``helper`` (the next request starts another) and kill it; its stderr tail."""
        self._slot.helper = None
        return helper.kill()

    def _helper(self, binary: Path | None = None) -> Helper:
        helper = self._slot.helper
        if helper is not None:
            # One that died between calls is noticed by its pipe (and replaced).
            if helper.owner_pid == os.getpid():
                return helper
            # Inherited through fork: replace silently.
            self._discard(helper)
        if binary is None:
            binary = self._binary if self._binary is not None else helper_path()
        helper = Helper(binary)
        self._slot.helper = helper
        return helper

    def _request(
        self,
        requests: Callable[[Helper], Iterator[tuple[bytearray, int]]],
        doing: Callable[[int], str],
        timeout: float | None = None,
    ) -> list[Record]:
        """Exchange requests with the helper; ``doing(i)`` describes answer ``i``
        in errors (``rendering NAME``).  ``requests(helper)`` encodes them for
        that helper (it knows which texts the helper keeps)."""
        with self._lock:
            limit = self.timeout if timeout is None else timeout
            failures: list[str] = []
            while True:
                if self._closed:
                    raise EngineError("this Renderer is closed")
                helper = self._helper()
                try:
                    records, failure = helper.exchange(
                        requests(helper), limit, self.max_batch_output_bytes
                    )
                except OutputOverBudget as exc:
                    self._discard(helper)  # mid-batch: its later records must not be read
                    raise OutputTooLarge(
                        f"{doing(exc.done - 1)} brought the output of one batch of renders"
                        f" past {self.max_batch_output_bytes} bytes (the renderer's"
                        " max_batch_output_bytes); the renders were stopped"
                    ) from None
                except HelperTimeout as exc:
                    self._discard(helper)
                    raise RenderTimeout(
                        f"{doing(exc.done)} took longer than {limit:g}s; the Go helper"
                        " was stopped (pass a larger Renderer(timeout=...) if the template"
                        " is merely slow)"
                    ) from None
                except HelperDied as exc:
                    tail = self._discard(helper)
                    if self._closed:
                        raise EngineError(
                            f"the Renderer was closed while {doing(0)}; the Go helper was stopped"
                        ) from None
                    failures.append(
                        f"attempt {len(failures) + 1}: {helper.exit_description()} ({exc})"
                        + (f"; stderr: {tail}" if tail else "; no stderr output")
                    )
                    if len(failures) == 2:
                        raise EngineError(
                            f"the Go helper {helper.binary} failed twice in a row while"
                            f" {doing(0)}:\n  " + "\n  ".join(failures)
                        ) from None
                    continue
                except BaseException:
                    # Interrupted or out of sync (KeyboardInterrupt, protocol
                    # error): stale records must never answer the next request.
                    self._discard(helper)
                    raise
                if records and records[-1][0] == KIND_BAD_REQUEST:
                    # Requests sent after the bad one would answer the next call.
                    self._discard(helper)
                    raise EngineError(
                        "the Go helper rejected a request: "
                        + records[-1][1].decode("utf-8", "replace")
                    )
                if failure is not None:
                    # Raised only now: the helper answered what it was sent.
                    raise failure
                return records


_shared_lock = threading.Lock()
_shared: Renderer | None = None
_live_renderers: weakref.WeakSet[Renderer] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    # A lock held by another thread at fork time would stay held forever in
    # the child.  The child must not talk to the parent's helper, nor keep
    # its pipes open: the parent's close() signals the helper by closing its
    # input, which a child holding a copy would delay until the child exits.
    global _shared_lock
    _shared_lock = threading.Lock()
    for renderer in list(_live_renderers):
        renderer._lock = threading.Lock()
        renderer._slot.release_inherited()


os.register_at_fork(after_in_child=_after_fork_in_child)


def shared_renderer() -> Renderer:
    """The process-wide renderer, created on first use and closed at exit."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.closed:
            _shared = Renderer()
        return _shared


def _close_shared() -> None:
    with _shared_lock:
        if _shared is not None:
            _shared.close()


atexit.register(_close_shared)
