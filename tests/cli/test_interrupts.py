"""Ctrl-C and SIGTERM: honoured at once, and nothing left behind.

Every signal is sent at a point of the run the program itself announces
(the ``WENDY_LLM_TEST_PAUSE`` hook of :mod:`wendy_llm.phases`, or a marker
file a fake tool writes), never after a guessed delay; the timeouts below
are hang guards only.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _check_helpers import write_template
from _cli_helpers import cli_env
from _engine_helpers import write_script

from wendy_llm import phases
from wendy_llm.golden import update_golden
from wendy_llm.validate.checks import compose, shell
from wendy_llm.validate.run import run_check
from wendy_llm.validate.tools.cache import ResultCache

HANG_GUARD_S = 120.0
MESSAGE = "wendy-llm: interrupted\n"


def wait_for(condition: object, what: str) -> None:
    """Wait until ``condition()`` holds (a hang guard, not a delay)."""
    guard = time.monotonic() + HANG_GUARD_S
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < guard, f"never happened: {what}"
        time.sleep(0.02)


def gone(pid: int) -> bool:
    """Neither running nor a zombie (reaped)."""
    return not Path(f"/proc/{pid}").exists()


def ours(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("wendy-llm-"))


def default_signals() -> None:
    """In a child, before exec: SIGINT and SIGTERM as a terminal gives them,
    whatever this process inherited (``nohup``, ``trap '' INT``, a background
    job of a non-interactive shell ignores SIGINT)."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_DFL)


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """Python's own SIGINT handler in this process, even if SIGINT was ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# --- check: queued tool jobs are cancelled, running tools killed ------------


@pytest.fixture
def temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private system temp dir, to see what a run leaves in it."""
    directory = tmp_path / "tmp"
    directory.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    return directory


@pytest.fixture
def slow_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """docker-compose, bash and shellcheck that announce themselves (a file
    named after their pid in the returned directory) and then run for far
    longer than any test (a hang guard: ``exec sleep``); asked their
    version (the result cache's salt), they answer at once."""
    started = tmp_path / "started"
    started.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tools = {
        name: write_script(
            bin_dir / name,
            'case "$1" in version|--version) echo 0.0-slow; exit 0;; esac\n'
            f'touch "{started}/{name}-$$"\nexec sleep 30\n',
        )
        for name in ("docker-compose", "bash", "shellcheck")
    }
    monkeypatch.setattr(compose, "find_tool", tools.__getitem__)
    monkeypatch.setattr(shell, "find_tool", tools.__getitem__)
    return started


def started_pids(started: Path) -> set[int]:
    return {int(p.name.rsplit("-", 1)[1]) for p in started.iterdir()}


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_in_check_kills_the_running_tools_and_starts_no_queued_one(
    tmp_path: Path, temp_dir: Path, slow_tools: Path
) -> None:
    templates, golden = write_template(tmp_path / "repo")
    main_thread = threading.main_thread().ident
    assert main_thread is not None
    seen: set[int] = set()

    def interrupt_once_both_tools_run() -> None:
        # Compose and the shell checks share the three workers: three tools.
        wait_for(lambda: len(list(slow_tools.iterdir())) >= 3, "three tools running")
        seen.update(started_pids(slow_tools))
        signal.pthread_kill(main_thread, signal.SIGINT)

    sender = threading.Thread(target=interrupt_once_both_tools_run)
    sender.start()
    results = ResultCache(tmp_path / "results")
    try:
        with pytest.raises(KeyboardInterrupt):
            run_check(templates, golden_dir=golden, golden=False, cache=results, compose_workers=3)
    finally:
        sender.join(HANG_GUARD_S)
    # What a killed tool said is no result: nothing is kept for a later run.
    assert not results.directory.exists() or list(results.directory.iterdir()) == []
    # No queued job started after the interrupt (each would have run for 30 s).
    assert started_pids(slow_tools) == seen
    # Never more tool processes at a time than workers, whichever tools they are.
    assert len(seen) == 3
    assert {p.name.split("-")[0] for p in slow_tools.iterdir()} <= {"docker", "bash", "shellcheck"}
    # Every tool that ran is dead and reaped, and the temp dirs are gone.
    assert all(gone(pid) for pid in seen)
    assert ours(temp_dir) == []


def test_a_dead_runs_temp_dirs_are_removed_and_a_live_ones_kept(
    tmp_path: Path, temp_dir: Path
) -> None:
    import fcntl

    dead = temp_dir / "wendy-llm-compose-deadbeef"
    (dead / "home").mkdir(parents=True)
    (dead / "home" / "file").write_bytes(b"x" * 100)
    (temp_dir / "wendy-llm-shell-deadbeef").mkdir()
    live = temp_dir / "wendy-llm-shell-alive123"
    live.mkdir()
    other = temp_dir / "someone-elses"
    other.mkdir()
    fd = os.open(live, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as its (live) owner holds it
        templates, golden = write_template(tmp_path / "repo")
        run_check(templates, golden_dir=golden, golden=False, cache=False)
    finally:
        os.close(fd)
    assert ours(temp_dir) == ["wendy-llm-shell-alive123"]
    assert other.is_dir()


# --- the command line: SIGINT and SIGTERM at named phases --------------------


class Paused:
    """A ``wendy-llm`` process held at a phase (see :mod:`wendy_llm.phases`)."""

    def __init__(self, tmp_path: Path, phase: str, args: list[str], env: dict[str, str]) -> None:
        self.hook = tmp_path / "hook"
        self.hook.mkdir()
        os.mkfifo(self.hook / f"{phase}.go")
        self.marker = self.hook / f"{phase}.reached"
        env = {**env, phases.ENV: f"{phase}:{self.hook}"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "wendy_llm", *args],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=default_signals,
            start_new_session=True,  # a process group of its own, as a terminal's job
        )

    def wait_for_phase(self) -> None:
        wait_for(lambda: self.marker.exists() or self.proc.poll() is not None, "the phase")
        if not self.marker.exists():
            out, err = self.proc.communicate()
            pytest.fail(f"the run ended before the phase ({self.proc.returncode}): {out}{err}")

    def stop(self, signum: int, *, group: bool = False) -> tuple[int, str, str]:
        """Send ``signum`` to the Python process only (``kill PID``), or to its
        whole process group (``group``: a terminal's Ctrl-C)."""
        if group:
            os.killpg(self.proc.pid, signum)
        else:
            self.proc.send_signal(signum)
        out, err = self.proc.communicate(timeout=HANG_GUARD_S)
        return self.proc.returncode, out, err

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()


@pytest.fixture
def paused() -> Iterator[list[Paused]]:
    made: list[Paused] = []
    yield made
    for run in made:
        run.close()


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        found.update(int(p) for p in text.split())
    return found


def processes_in(directory: Path) -> list[int]:
    """Processes whose working directory is under ``directory``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cwd = os.readlink(entry / "cwd")
            except OSError:
                continue
            if cwd.startswith(str(directory)):
                found.append(int(entry.name))
    return found


def test_sigterm_in_check_exits_143_and_leaves_no_temp_dir_tool_or_helper(
    tmp_path: Path, paused: list[Paused]
) -> None:
    templates, golden = write_template(tmp_path / "repo")
    update_golden(templates, golden)
    temp = tmp_path / "tmp"
    temp.mkdir()
    args = ["check", str(templates), "--golden-dir", str(golden), "--no-cache"]
    run = Paused(tmp_path, "check-tools", args, cli_env({"TMPDIR": str(temp)}))
    paused.append(run)
    run.wait_for_phase()
    helpers = children(run.proc.pid)
    assert helpers, "the Go helper and the tools' threads run meanwhile"
    code, _, err = run.stop(signal.SIGTERM)
    assert (code, err) == (143, MESSAGE)
    assert ours(temp) == []
    wait_for(lambda: all(gone(pid) for pid in helpers), "the helper and the tools exit")
    assert processes_in(temp) == []


def test_ctrl_c_in_a_terminal_during_check_says_only_interrupted(
    tmp_path: Path, paused: list[Paused]
) -> None:
    # The whole process group gets SIGINT: the helper and the tools die of
    # it too, and what they then say must not show.
    templates, golden = write_template(tmp_path / "repo")
    update_golden(templates, golden)
    temp = tmp_path / "tmp"
    temp.mkdir()
    args = ["check", str(templates), "--golden-dir", str(golden), "--no-cache"]
    run = Paused(tmp_path, "check-tools", args, cli_env({"TMPDIR": str(temp)}))
    paused.append(run)
    run.wait_for_phase()
    code, _, err = run.stop(signal.SIGINT, group=True)
    assert (code, err) == (130, MESSAGE)
    assert ours(temp) == []


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupt_while_a_command_imports_says_only_interrupted(
    tmp_path: Path, paused: list[Paused], signum: int
) -> None:
    templates, golden = write_template(tmp_path / "repo")
    args = ["check", str(templates), "--golden-dir", str(golden)]
    run = Paused(tmp_path, "cli-import", args, cli_env())
    paused.append(run)
    run.wait_for_phase()
    code, out, err = run.stop(signum)
    assert (code, out, err) == (128 + signum, "", MESSAGE)


@pytest.mark.parametrize("command", ["render", "golden"])
def test_sigterm_while_a_tree_is_staged_removes_the_staging_directory(
    tmp_path: Path, paused: list[Paused], command: str
) -> None:
    templates, golden = write_template(tmp_path / "repo")
    if command == "render":
        (tmp_path / "out").mkdir()
        out = tmp_path / "out" / "app"
        args = ["render", str(templates / "py" / "mini"), "--app-id", "app", "--out", str(out)]
        args += ["--pick", "gemma4-e2b"]
        beside = out.parent
    else:
        args = ["golden", "--update", str(templates), "--golden-dir", str(golden)]
        beside = golden / "py"
    env = cli_env(drop=["CI", "GITHUB_ACTIONS"])
    run = Paused(tmp_path, "staged", args, env)
    paused.append(run)
    run.wait_for_phase()
    staged = [p.name for p in beside.iterdir() if ".tmp-" in p.name]
    assert len(staged) == 1, "the tree is staged when the signal comes"
    code, _, err = run.stop(signal.SIGTERM)
    assert (code, err) == (143, MESSAGE)
    assert [p.name for p in beside.iterdir() if p.name.startswith(".")] == []
    if command == "render":
        assert not out.exists()


SWALLOWED = """
import os, signal, sys
from wendy_llm.cli import interrupts

class Finalized:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)  # raised here, in the finalizer
        for _ in range(100_000):
            pass

with interrupts.signals_raise():
    try:
        del_me = Finalized()
        del del_me
        print("swallowed", interrupts.received)
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(100_000_000):  # a hang guard: the interrupt comes first
            pass
        print("not interrupted")
    except KeyboardInterrupt as exc:
        print("interrupted", interrupts.report(exc))
"""


def test_an_interrupt_a_finalizer_swallows_is_silent_and_the_next_one_raises() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SWALLOWED],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        env=cli_env(),
        preexec_fn=default_signals,
    )
    assert (done.stdout, done.stderr) == ("swallowed 2\ninterrupted 130\n", MESSAGE)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_while_the_dockerfile_parser_builds_its_result_is_a_keyboard_interrupt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The parser extension calls Python to build each instruction; a signal
    # handled there once ended `check` in a SystemError chained to the
    # KeyboardInterrupt.  The interrupt is made pending in the first call.
    import _thread

    import dockerfile

    from wendy_llm.docker.syntax import parse

    original: Callable[..., object] = dockerfile.Command.__new__
    calls: list[int] = []

    def interrupting(cls: type, *args: object, **kwargs: object) -> object:
        if not calls:
            calls.append(1)
            _thread.interrupt_main()  # as a Ctrl-C arriving just now
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(dockerfile.Command, "__new__", staticmethod(interrupting))
    with pytest.raises(KeyboardInterrupt) as caught:
        parse("FROM alpine\nRUN true\n")
    assert caught.type is KeyboardInterrupt
    assert calls == [1]


def test_a_tool_killed_by_a_signal_gives_an_error_not_a_result(tmp_path: Path) -> None:
    # A terminal's Ctrl-C reaches the tools too, often before Python's
    # handler runs: what a killed tool printed must not become a finding
    # (nor be kept in the result cache).
    from wendy_llm.errors import ValidatorToolError
    from wendy_llm.validate.tools.programs import run_tool

    killed = write_script(tmp_path / "tool", "echo half\nkill -KILL $$\nsleep 30\n")
    with pytest.raises(ValidatorToolError, match="tool was killed by signal 9"):
        run_tool([killed])
