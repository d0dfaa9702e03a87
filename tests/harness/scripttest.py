"""Run a real shell script with stub commands first on its PATH.

An entrypoint script is exercised as it runs in its container: real bash,
real coreutils (``sleep`` included: scripts take fractional-second timing
overrides), and stubs for the programs it drives (``vllm``, ``ollama``,
``python3``, ``curl``, ...).  Each stub records its call and plays the next
of a scripted list of outcomes (exit status, duration, output); see
:mod:`harness.scriptstub` for the stub itself.

For example, a CUDA preflight that always fails, and no ``vllm`` call::

    run = run_script(
        Path("out/vllm/entrypoint.sh"),
        rules=[Rule("python3", contains="torch", then=Outcome(exit=1))],
        stubs=["vllm"],
        env={"VLLM_PREFLIGHT_PAUSE_S": "0.01"},
    )
    assert run.exit_code == 3 and run.calls_of("vllm") == []

The script runs in a new session with a small, fixed environment (``PATH``
= the stub directory, then the system directories; ``HOME`` and ``TMPDIR``
= a fresh work directory; ``LC_ALL=C``) plus ``env``.  ``run_script`` waits
until the script *and everything it started* have finished writing (a
background job of a script that ``exec``\\ s its server keeps the output
open), up to ``timeout`` seconds; then it kills the whole process group
and reports ``timed_out``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from wendy_llm.validate.tools.programs import find_tool

SYSTEM_PATH: Final = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_STUB_PROGRAM: Final = Path(__file__).with_name("scriptstub.py")
# After a kill, how long the pipes may take to close before we stop reading.
_DRAIN_AFTER_KILL_S: Final = 5.0


@dataclass(frozen=True)
class Outcome:
    """What one stub call does: print, wait, exit.

    ``outlive_group``: before sleeping, wait until every other process the
    script started has ended (at most ``outlive_max_ms``), so a stub standing
    in for a server the script ``exec``\\ s keeps "serving" while the
    script's background jobs run, then ends on its own.  ``exit_message`` is
    printed to stderr just before exiting (a marker for the log order).
    """

    exit: int = 0
    sleep_ms: int = 0
    stdout: str = ""
    stderr: str = ""
    outlive_group: bool = False
    outlive_max_ms: int = 60_000
    exit_message: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "exit": self.exit,
            "sleep_ms": self.sleep_ms,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "outlive_group": self.outlive_group,
            "outlive_max_ms": self.outlive_max_ms,
            "exit_message": self.exit_message,
        }


#: How long a call waits for an event before giving up on it. Only a script
#: that never signals (a regression) waits that long; the outcome is read
#: from :attr:`Call.waited`, never from the time.
WAIT_MAX_MS: Final = 30_000


@dataclass(frozen=True)
class Rule:
    """Which calls of ``command`` a rule answers, and how.

    A call matches when its arguments start with ``prefix`` and one of them
    contains ``contains`` (empty: any).  The first matching rule answers:
    its n-th matching call plays ``outcomes[n]``, later calls ``then``
    (``None``: such a call fails with status 126, visibly).

    Events order calls across processes without timing: a call of a rule
    that ``signals`` an event signals it as it starts; a call of a rule that
    ``waits_for`` an event goes on only once it has been signalled (at most
    ``wait_max_ms``: a wait that runs out gives up on the event for the rest
    of the run) and records in :attr:`Call.waited` whether it had been.  For
    example, an API client that answers only once the server was started::

        Rule("ollama", prefix=("serve",), signals="serving")
        Rule("ollama", prefix=("list",), waits_for="serving")
    """

    command: str
    prefix: tuple[str, ...] = ()
    contains: str = ""
    outcomes: tuple[Outcome, ...] = ()
    then: Outcome | None = field(default_factory=Outcome)
    signals: str = ""
    waits_for: str = ""
    wait_max_ms: int = WAIT_MAX_MS

    def to_json(self) -> dict[str, object]:
        return {
            "command": self.command,
            "prefix": list(self.prefix),
            "contains": self.contains,
            "outcomes": [o.to_json() for o in self.outcomes],
            "then": None if self.then is None else self.then.to_json(),
            "signals": self.signals,
            "waits_for": self.waits_for,
            "wait_max_ms": self.wait_max_ms,
        }


@dataclass(frozen=True)
class Call:
    """One recorded stub call: ``argv[0]`` is the command's name, ``started``
    the time the stub started (``time.monotonic()``, a clock all processes
    share on Linux: differences between calls are lower bounds on the
    script's pauses), ``waited`` the event its rule waits for (if any) and
    whether it had been signalled when the call went on."""

    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    started: float = 0.0
    waited: Mapping[str, bool] = field(default_factory=dict)

    @property
    def command(self) -> str:
        return self.argv[0]

    @property
    def args(self) -> tuple[str, ...]:
        return self.argv[1:]


@dataclass(frozen=True)
class ScriptRun:
    """The outcome of one script run.

    ``exit_code`` is the script's status (negative: killed by that signal;
    ``None`` if it never ended); ``calls`` are the stub calls in the order
    they went on (a call that waited for an event comes after the call that
    signalled it).
    """

    script: Path
    exit_code: int | None
    stdout: str
    stderr: str
    calls: tuple[Call, ...]
    elapsed: float
    timed_out: bool

    def calls_of(self, command: str, *prefix: str, contains: str = "") -> list[Call]:
        """The calls of ``command`` whose arguments start with ``prefix``."""
        return [
            c
            for c in self.calls
            if c.command == command
            and c.args[: len(prefix)] == prefix
            and (not contains or any(contains in a for a in c.args))
        ]

    @property
    def log_lines(self) -> list[str]:
        """The script's stderr (where entrypoints log), line by line."""
        return self.stderr.splitlines()

    def describe(self, *, tail: int = 40) -> str:
        """A readable summary for failure messages: status, calls, log tail."""
        status = "timed out" if self.timed_out else f"exit status {self.exit_code}"
        calls = "\n".join(f"    {shlex.join(c.argv)}" for c in self.calls) or "    (none)"
        lines = self.log_lines[-tail:]
        log = "\n".join(f"    {line}" for line in lines) or "    (empty)"
        return (
            f"{self.script}: {status} after {self.elapsed:.2f}s\n  calls:\n{calls}\n  log:\n{log}"
        )


def _write_stubs(stub_dir: Path, commands: Iterable[str]) -> None:
    bash = find_tool("bash")
    program = stub_dir / "_stub.py"
    shutil.copyfile(_STUB_PROGRAM, program)
    python = shlex.quote(sys.executable)
    for command in sorted(set(commands)):
        wrapper = stub_dir / command
        wrapper.write_text(
            f"#!{bash}\n"
            f'exec {python} -I -S {shlex.quote(str(program))} {shlex.quote(command)} "$@"\n',
            encoding="utf-8",
        )
        wrapper.chmod(0o755)


def _read_calls(log: Path) -> tuple[Call, ...]:
    if not log.exists():
        return ()
    calls = []
    for line in log.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        argv, env, started = tuple(record["argv"]), dict(record["env"]), float(record["t"])
        calls.append(Call(argv, env, started, dict(record["waited"])))
    return tuple(calls)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(proc.pid, signal.SIGKILL)


def run_script(
    script: Path,
    *,
    rules: Sequence[Rule] = (),
    stubs: Iterable[str] = (),
    env: Mapping[str, str] | None = None,
    record_env: Sequence[str] = (),
    timeout: float = 60.0,
    workdir: Path | None = None,
) -> ScriptRun:
    """Run ``bash script`` with stubs for the rules' commands and ``stubs``.

    ``stubs`` names commands to stub without rules: any call to them is
    recorded and fails (status 127).  ``record_env`` names variables every
    stub call records.  ``workdir`` (default: a temporary directory, removed
    afterwards) holds the stubs, the call log and the script's ``HOME``;
    pass one when ``env`` must name paths inside it, or to keep it.
    """
    bash = find_tool("bash")
    owned = workdir is None
    root = Path(tempfile.mkdtemp(prefix="wendy-scripttest-")) if workdir is None else workdir
    try:
        stub_dir = root / "stubs"
        state = root / "stub-state"
        stub_dir.mkdir(parents=True, exist_ok=True)
        state.mkdir(exist_ok=True)
        _write_stubs(stub_dir, [r.command for r in rules] + list(stubs))
        log = root / "calls.jsonl"
        log.unlink(missing_ok=True)
        spec = root / "stub-spec.json"
        spec.write_text(
            json.dumps(
                {
                    "state": str(state),
                    "record_env": list(record_env),
                    "rules": [r.to_json() for r in rules],
                }
            ),
            encoding="utf-8",
        )
        full_env = {
            "PATH": f"{stub_dir}:{SYSTEM_PATH}",
            "HOME": str(root),
            "TMPDIR": str(root),
            "LC_ALL": "C",
            "WENDY_STUB_SPEC": str(spec),
            "WENDY_STUB_LOG": str(log),
            **(env or {}),
        }
        started = time.monotonic()
        proc = subprocess.Popen(
            [str(bash), str(script)],
            cwd=root,
            env=full_env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        timed_out = False
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc)
            try:
                out, err = proc.communicate(timeout=_DRAIN_AFTER_KILL_S)
            except subprocess.TimeoutExpired:
                # Something left the group and holds the pipes: stop reading.
                proc.kill()
                out, err = b"", b""
        else:
            # The script may have ended while a process it started lives on
            # without output; it must not outlive the run.
            _kill_group(proc)
        elapsed = time.monotonic() - started
        try:
            exit_code: int | None = proc.wait(timeout=_DRAIN_AFTER_KILL_S)
        except subprocess.TimeoutExpired:
            exit_code = None
        return ScriptRun(
            script=script,
            exit_code=exit_code,
            stdout=out.decode("utf-8", "replace"),
            stderr=err.decode("utf-8", "replace"),
            calls=_read_calls(log),
            elapsed=elapsed,
            timed_out=timed_out,
        )
    finally:
        if owned:
            shutil.rmtree(root, ignore_errors=True)
