"""One command, five subcommands, the same conventions: help with examples,
exit codes 0/1/2, colour only on a terminal (never with NO_COLOR), a progress
line on a terminal's stderr unless --quiet, and --quiet everywhere."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path

import pytest
from _cli_helpers import LLM, REPO, cli_env, copy_llm_project, edit, run_in_terminal, run_module

import wendy_llm
from wendy_llm import options
from wendy_llm.cli import main
from wendy_llm.cli.style import PROGRESS_DELAY_ENV, Progress, progress_delay
from wendy_llm.errors import WendyLlmError
from wendy_llm.reports.terminal import Style

COMMANDS = ("render", "picks", "golden", "check", "diff")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
LLM_DIR = f"templates/{LLM}"


def untimed(text: str) -> str:
    return re.sub(r" in \d+\.\d+ s$", "", text, flags=re.M)


# --- help -------------------------------------------------------------------------


def test_top_level_help_lists_every_subcommand() -> None:
    result = run_module("--help")
    assert result.code == 0
    for command in COMMANDS:
        assert re.search(rf"^    {command}\s+\S", result.out, re.M), command
    assert "wendy-llm COMMAND --help" in result.out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_module("--version")
    # The revision stamp (an editable install's metadata keeps the version of
    # the commit it was installed at; the stamp follows `make install`).
    assert (result.code, result.out) == (0, f"wendy-llm {wendy_llm.__version__}\n")
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out == result.out


@pytest.mark.parametrize("command", COMMANDS)
def test_help_has_examples_flags_and_exit_status(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert run_module(command, "--help").out == text  # the installed command says the same
    examples = text.split("examples:\n", 1)[1]
    assert examples.startswith(f"  wendy-llm {command} ")
    assert "--quiet, -q" in text and "--json" in text
    status = re.search(r"^Exit status: 0 .*?(?=\n\n|\Z)", text, re.M | re.S)
    assert status is not None, text
    assert "2 usage or input error" in " ".join(status.group(0).split())
    # Only the commands that judge something have a failure status.
    assert (", 1 " in status.group(0)) == (command in ("golden", "check", "diff"))
    if command in ("check", "diff"):
        assert "--junit FILE" in text and "--markdown FILE" in text


# --- exit codes --------------------------------------------------------------------


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the llm project whose Ollama picks gained a blank line."""
    root = copy_llm_project(tmp_path_factory.mktemp("broken"))
    edit(
        root / LLM_DIR / "docker-compose.yml",
        '      PORT: "{{.PORT}}"\n{{- if',
        '      PORT: "{{.PORT}}"\n{{ if',
    )
    return root


def test_exit_0_when_all_holds() -> None:
    for argv in (
        ["picks", LLM_DIR],
        ["golden", "--check", "--pick", "gemma4-e2b"],
        ["check", "--pick", "gemma4-e2b"],
        ["diff", "--baseline", f"golden/baseline/{LLM}", "--template", LLM, "--expect-unchanged"],
    ):
        assert run_module(*argv).code == 0, argv


def test_render_exit_0_and_its_outputs(tmp_path: Path) -> None:
    result = run_module("render", LLM_DIR, "--app-id", "my-app", "--out", str(tmp_path / "a"))
    written = [p for p in (tmp_path / "a").rglob("*") if p.is_file()]
    assert result.code == 0
    assert result.out.startswith(f"wrote {len(written)} files to {tmp_path / 'a'} (")
    quiet = run_module(
        "render", LLM_DIR, "--app-id", "my-app", "--out", str(tmp_path / "b"), "--quiet"
    )
    assert (quiet.code, quiet.out, quiet.err) == (0, "", "")
    assert (tmp_path / "b" / "docker-compose.yml").read_bytes() == (
        tmp_path / "a" / "docker-compose.yml"
    ).read_bytes()


def test_exit_1_when_a_check_fails(broken: Path) -> None:
    golden = run_module("golden", "--check", "--pick", "gemma4-e2b", cwd=broken)
    assert golden.code == 1 and "changed: template python/llm, pick gemma4-e2b" in golden.out
    check = run_module("check", "--pick", "gemma4-e2b", cwd=broken)
    assert check.code == 1 and "[golden]" in check.out
    diff = run_module(
        "diff", "--baseline", f"golden/baseline/{LLM}", "--expect-unchanged", cwd=broken
    )
    assert diff.code == 1 and "pick gemma4-e2b changed (docker-compose.yml)" in diff.out


def test_exit_2_on_usage_and_input_errors(tmp_path: Path) -> None:
    cases = [
        (
            ["render", LLM_DIR, "--out", str(tmp_path / "x")],
            "the following arguments are required: --app-id",
        ),
        (
            ["render", LLM_DIR, "--app-id", "a", "--out", str(tmp_path / "y"), "--pick", "nope"],
            "nope",
        ),
        (["picks", "templates/python/nope"], "templates/python/nope: not a directory"),
        (["golden", "--check", "--template", "python/nope"], 'no template "python/nope"'),
        (["check", "--pick", "nope"], "no pick nope"),
        (["diff", "--base", "no-such-rev", "--template", LLM], "no-such-rev"),
        (["diff", "--template", LLM], "one of the arguments --base --baseline is required"),
        (["check", "--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    ]
    for argv, phrase in cases:
        result = run_module(*argv)
        assert result.code == 2, (argv, result)
        assert result.out == "", argv
        assert phrase in result.err, (argv, result.err)
        assert "Traceback" not in result.err


def test_exit_codes_in_process(broken: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["picks", str(REPO / LLM_DIR), "--quiet"]) == 0
    assert main(["check", str(REPO / "templates"), "--pick", "nope"]) == 2
    monkeypatch.chdir(broken)
    assert main(["golden", "--check", "--pick", "gemma4-e2b", "--quiet"]) == 1


# --- colour ------------------------------------------------------------------------


def test_colour_only_on_a_terminal_and_never_with_no_color(broken: Path) -> None:
    argv = ("check", "--pick", "gemma4-e2b")
    coloured = run_in_terminal(*argv)
    assert coloured.code == 0
    assert "\x1b[32mok\x1b[0m" in coloured.out
    # The same text, minus colour (and the run's duration).
    assert untimed(ANSI.sub("", coloured.out)) == untimed(run_module(*argv).out)
    for env in (cli_env({"NO_COLOR": "1"}), cli_env({"NO_COLOR": "yes please"})):
        plain = run_in_terminal(*argv, env=env)
        assert plain.code == 0 and not ANSI.search(plain.out)
    # An empty NO_COLOR does not count (no-color.org).
    assert ANSI.search(run_in_terminal(*argv, env=cli_env({"NO_COLOR": ""})).out)
    assert not ANSI.search(run_module(*argv).out)  # a pipe

    golden = run_in_terminal("golden", "--check", "--pick", "gemma4-e2b", cwd=broken)
    assert golden.code == 1
    assert "\x1b[1;31mchanged:\x1b[0m template python/llm, pick gemma4-e2b" in golden.out
    assert "\x1b[32m+\n\x1b[0m" not in golden.out  # colour never swallows a newline
    assert re.search(r"^\x1b\[32m\+.*\x1b\[0m$", golden.out, re.M)
    diff = run_in_terminal(
        "diff", "--baseline", f"golden/baseline/{LLM}", "--expect-unchanged", cwd=broken
    )
    assert diff.code == 1
    assert re.search(
        r"^  gemma4-e2b +\x1b\[1;31mchanged\x1b\[0m +docker-compose.yml \(changed\)  "
        r"\[FAILS the policy\]$",
        diff.out,
        re.M,
    )
    assert re.search(
        r"^  laguna-s-2.1-dflash +\x1b\[32mexempt\x1b\[0m +\(sentinel ", diff.out, re.M
    )
    assert re.search(r"^\x1b\[1;31mpolicy: expect unchanged: FAILS \(16\)\x1b\[0m$", diff.out, re.M)
    no_colour = run_in_terminal(
        "diff",
        "--baseline",
        f"golden/baseline/{LLM}",
        "--expect-unchanged",
        cwd=broken,
        env=cli_env({"NO_COLOR": "1"}),
    )
    assert not ANSI.search(no_colour.out) and ANSI.sub("", diff.out) == no_colour.out


def test_colour_is_applied_when_formatting_and_only_adds_escapes() -> None:
    lines = ["note: x", "--- a", "+++ b", "@@ -1 +1 @@", "--- was", "+is", " same"]
    assert Style(False).diff(lines) == lines
    painted = Style(True).diff(lines)
    assert [ANSI.sub("", line) for line in painted] == lines
    assert painted[0] == "note: x" and painted[-1] == " same"
    assert painted[1] == "\x1b[1m--- a\x1b[0m" and painted[3] == "\x1b[36m@@ -1 +1 @@\x1b[0m"
    # After the first hunk, "--- was" is the removed line "-- was", not a header.
    assert painted[4:6] == ["\x1b[31m--- was\x1b[0m", "\x1b[32m+is\x1b[0m"]
    assert Style(True).fail("") == ""  # nothing to colour, no escapes


# --- progress ----------------------------------------------------------------------


def test_progress_line_on_a_terminal_only_and_not_with_quiet() -> None:
    # A delay of 0 draws the line before the work starts, so it shows however
    # quick the run is (a warm compose cache makes one pick's check quick).
    at_once = cli_env({PROGRESS_DELAY_ENV: "0"})
    args = ("check", "--template", LLM, "--pick", "gemma4-e2b")
    shown = run_in_terminal(*args, stdout_tty=False, env=at_once)
    assert shown.code == 0
    assert shown.err.startswith("\rwendy-llm check: rendering and validating every pick ... ")
    # The line is erased before the report: the last thing on stderr is blanks.
    assert shown.err.endswith("\r") and shown.err.rsplit("\r", 2)[1].strip() == ""
    assert "wendy-llm check" not in shown.out

    quiet = run_in_terminal(*args, "--quiet", stdout_tty=False, env=at_once)
    assert (quiet.code, quiet.out, quiet.err) == (0, "", "")
    piped = run_module(*args, env=at_once)
    assert piped.code == 0 and piped.err == ""


def test_a_bad_progress_delay_is_a_usage_error_naming_the_variable() -> None:
    result = run_module("check", "--pick", "gemma4-e2b", env=cli_env({PROGRESS_DELAY_ENV: "soon"}))
    assert result.code == 2
    assert result.err == (
        f"wendy-llm: error: {PROGRESS_DELAY_ENV} must be a number of seconds, "
        '0 or more (e.g. 0.5), got "soon"\n'
    )


@pytest.mark.parametrize(
    ("raw", "expected"), [(None, 0.5), ("", 0.5), ("0", 0.0), (" 2.5 ", 2.5), ("1e-3", 0.001)]
)
def test_the_progress_delay_comes_from_the_environment(raw: str | None, expected: float) -> None:
    environ = {} if raw is None else {PROGRESS_DELAY_ENV: raw}
    assert progress_delay(environ) == expected
    assert options.PROGRESS_DELAY_S == 0.5  # what users get


@pytest.mark.parametrize("raw", ["-1", "nan", "inf", "half a second", "0,5"])
def test_a_progress_delay_must_be_a_finite_number_of_seconds(raw: str) -> None:
    with pytest.raises(WendyLlmError, match=re.escape(f"{PROGRESS_DELAY_ENV} must be a number")):
        progress_delay({PROGRESS_DELAY_ENV: raw})


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class FakeClock:
    """A clock the test controls: it moves by ``step`` after each read (and
    when the test moves ``now``); ``read`` is set after ``notify_after`` reads."""

    def __init__(self, *, step: float = 0.0, notify_after: int = 0) -> None:
        self.now = 100.0
        self.step = step
        self.reads = 0
        self.notify_after = notify_after
        self.read = threading.Event()

    def __call__(self) -> float:
        value = self.now
        self.now += self.step
        self.reads += 1
        if self.notify_after and self.reads >= self.notify_after:
            self.read.set()
        return value


def test_progress_draws_at_once_updates_in_place_and_erases_itself() -> None:
    stream, clock = FakeTerminal(), FakeClock()
    # interval: an hour, so only the drawing on entry and on set() can show.
    with Progress("diff", "rendering", stream=stream, delay=0, interval=3600, clock=clock) as bar:
        clock.now += 2.34
        bar.set("diffing")
    first = "wendy-llm diff: rendering ... 0.0 s"
    second = "wendy-llm diff: diffing ... 2.3 s"
    pad = " " * (len(first) - len(second))
    assert stream.getvalue() == f"\r{first}\r{second}{pad}\r{' ' * len(first)}\r"


def test_progress_ticks_with_the_elapsed_time() -> None:
    # The ticking thread reads the clock once per frame: wait (at most a
    # minute, a guard against a hang) until it has drawn a frame of its own.
    # Reads: the start, the frame drawn on entry, the thread's first frame.
    stream, clock = FakeTerminal(), FakeClock(step=1.5, notify_after=3)
    with Progress("check", "x", stream=stream, delay=0, interval=0.001, clock=clock):
        assert clock.read.wait(60), "the progress thread never drew a frame"
    frames = stream.getvalue().split("\r")
    assert frames[:3] == ["", "wendy-llm check: x ... 1.5 s", "wendy-llm check: x ... 3.0 s"]


def test_progress_shows_after_its_delay() -> None:
    # Reads: the start, then the first frame, drawn by the thread after the delay.
    stream, clock = FakeTerminal(), FakeClock(step=0.5, notify_after=2)
    with Progress("golden", "x", stream=stream, delay=0.001, clock=clock):
        assert clock.read.wait(60), "the progress line never showed"
    assert stream.getvalue().startswith("\rwendy-llm golden: x ... 0.5 s")


def test_progress_is_silent_when_quick_disabled_or_piped() -> None:
    quick = FakeTerminal()
    with Progress("check", "x", stream=quick, delay=3600):  # ends long before its delay
        pass
    disabled = FakeTerminal()
    with Progress("check", "x", stream=disabled, enabled=False, delay=0) as progress:
        progress.set("y")
    piped = io.StringIO()
    with Progress("check", "x", stream=piped, delay=0) as progress:
        progress.set("y")
    assert quick.getvalue() == disabled.getvalue() == piped.getvalue() == ""


# --- quiet -------------------------------------------------------------------------


def test_quiet_prints_nothing_on_success() -> None:
    for argv in (
        ["golden", "--check", "--pick", "gemma4-e2b", "--quiet"],
        ["check", "--pick", "gemma4-e2b", "-q"],
        [
            "diff",
            "--baseline",
            f"golden/baseline/{LLM}",
            "--template",
            LLM,
            "-q",
            "--expect-unchanged",
        ],
    ):
        result = run_module(*argv)
        assert (result.code, result.out, result.err) == (0, "", ""), argv
    slugs = run_module("picks", LLM_DIR, "-q")
    assert slugs.out.splitlines()[:2] == ["gemma4-e2b", "gemma4-e4b"]
    assert all(" " not in line for line in slugs.out.splitlines())


def test_quiet_prints_only_the_failures(broken: Path) -> None:
    golden = run_module("golden", "--check", "--pick", "gemma4-e2b", "-q", cwd=broken)
    assert golden.code == 1
    assert golden.out.startswith(
        "changed: template python/llm, pick gemma4-e2b: docker-compose.yml"
    )
    check = run_module("check", "--pick", "gemma4-e2b", "-q", cwd=broken)
    assert check.code == 1
    # The fixtures and the stored baseline both see the blank line.
    assert check.out.startswith("Failures (2):\n  python/llm gemma4-e2b [golden] ")
    # At the render's first changed line (issue 37).
    assert "\n  python/llm gemma4-e2b [baseline] docker-compose.yml:17: " in check.out
    assert "template  pick" not in check.out  # no table
    diff = run_module(
        "diff", "--baseline", f"golden/baseline/{LLM}", "--expect-unchanged", "-q", cwd=broken
    )
    assert diff.code == 1
    lines = diff.out.splitlines()
    assert lines[0].startswith("template python/llm: baseline golden/baseline/python/llm")
    assert "=== every failing pick (16): docker-compose.yml (changed)" in lines
    assert "+" in lines  # the blank line the change added
    assert "policy: expect unchanged: FAILS (16)" in lines
    assert "  PICK" not in diff.out and "summary:" not in diff.out  # no table, no summary
    assert "laguna-s-2.1-dflash" not in diff.out  # an exempt sentinel does not fail the policy
