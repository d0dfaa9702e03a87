"""The stub harness (``harness.scripttest``) the entrypoint tests rely on:
stubs record exactly what they were called with, play their scripted
outcomes in order, and a run never hangs or leaks processes."""

from __future__ import annotations

import os
import time
from pathlib import Path

from _stubs import Outcome, Rule, run_script, write_script
from harness.scriptstub import NO_OUTCOME_LEFT, UNEXPECTED_CALL


def test_stubs_record_argv_exactly_and_in_order(tmp_path: Path) -> None:
    script = write_script(
        tmp_path,
        """tool one 'two words' '' "quote'd" $'new\\nline' 'ü ☃'
other --flag=1
tool last
""",
    )
    run = run_script(script, rules=[Rule("tool"), Rule("other")])
    assert run.exit_code == 0
    assert [c.argv for c in run.calls] == [
        ("tool", "one", "two words", "", "quote'd", "new\nline", "ü ☃"),
        ("other", "--flag=1"),
        ("tool", "last"),
    ]
    assert run.calls[0].started <= run.calls[1].started <= run.calls[2].started


def test_outcomes_play_in_order_then_the_fallback(tmp_path: Path) -> None:
    script = write_script(
        tmp_path,
        """for i in 1 2 3 4; do
  status=0
  tool go || status=$?
  echo "call $i: $status"
done
""",
    )
    rules = [
        Rule(
            "tool",
            outcomes=(Outcome(exit=3, stdout="out\n"), Outcome(exit=0, stderr="err\n")),
            then=Outcome(exit=9),
        )
    ]
    run = run_script(script, rules=rules)
    assert run.stdout.splitlines() == ["out", "call 1: 3", "call 2: 0", "call 3: 9", "call 4: 9"]
    assert run.log_lines == ["err"]


def test_rules_match_by_prefix_and_substring_first_match_wins(tmp_path: Path) -> None:
    script = write_script(
        tmp_path,
        """tool serve x || echo "serve: $?"
tool -c 'import torch' || echo "torch: $?"
tool other || echo "other: $?"
""",
    )
    rules = [
        Rule("tool", prefix=("serve",), then=Outcome(exit=4)),
        Rule("tool", contains="torch", then=Outcome(exit=5)),
        Rule("tool", then=Outcome(exit=6)),
    ]
    run = run_script(script, rules=rules)
    assert run.stdout.splitlines() == ["serve: 4", "torch: 5", "other: 6"]


def test_unscripted_calls_fail_visibly_and_are_recorded(tmp_path: Path) -> None:
    script = write_script(
        tmp_path,
        """curl https://example.com || echo "curl: $?"
tool a || echo "tool: $?"
tool b || echo "tool: $?"
""",
    )
    rules = [Rule("tool", outcomes=(Outcome(),), then=None)]
    run = run_script(script, rules=rules, stubs=["curl"])
    assert run.stdout.splitlines() == [f"curl: {UNEXPECTED_CALL}", f"tool: {NO_OUTCOME_LEFT}"]
    assert [c.argv for c in run.calls] == [
        ("curl", "https://example.com"),
        ("tool", "a"),
        ("tool", "b"),
    ]
    assert any(line.startswith("[stub] unexpected call") for line in run.log_lines)
    assert any("has no scripted outcome" in line for line in run.log_lines)


def test_stubs_shadow_real_programs_and_the_environment_is_fixed(tmp_path: Path) -> None:
    os.environ["WENDY_SCRIPTTEST_LEAK"] = "leaked"
    try:
        script = write_script(
            tmp_path,
            """command -v python3
echo "leak=${WENDY_SCRIPTTEST_LEAK:-none} given=$GIVEN"
python3 -c 'print(1)'
""",
        )
        run = run_script(script, rules=[Rule("python3")], env={"GIVEN": "yes"})
    finally:
        del os.environ["WENDY_SCRIPTTEST_LEAK"]
    stub_path, variables = run.stdout.splitlines()
    assert stub_path.endswith("/stubs/python3")
    assert variables == "leak=none given=yes"
    assert [c.argv for c in run.calls] == [("python3", "-c", "print(1)")]


def test_stubs_record_the_variables_asked_for(tmp_path: Path) -> None:
    script = write_script(tmp_path, "export A=1\nB=2 tool\nunset A\ntool\n")
    run = run_script(script, rules=[Rule("tool")], record_env=["A", "B", "C"])
    assert [dict(c.env) for c in run.calls] == [{"A": "1", "B": "2"}, {}]


def test_a_stub_sleeps_as_scripted(tmp_path: Path) -> None:
    script = write_script(tmp_path, "tool\ntool\n")
    run = run_script(script, rules=[Rule("tool", outcomes=(Outcome(sleep_ms=300),))])
    first, second = run.calls
    assert second.started - first.started >= 0.3


def test_an_execed_stub_outlives_the_background_jobs(tmp_path: Path) -> None:
    script = write_script(
        tmp_path,
        """( sleep 0.3; echo "background done" >&2 ) &
exec server
""",
    )
    marker = "[stub-marker] server ends"
    rules = [Rule("server", then=Outcome(exit=5, outlive_group=True, exit_message=marker))]
    run = run_script(script, rules=rules)
    assert run.exit_code == 5
    assert run.log_lines == ["background done", marker]


def test_a_hanging_script_is_killed_with_everything_it_started(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    script = write_script(
        tmp_path,
        f"""sleep 600 &
echo $! > {pid_file}
wait
""",
    )
    started = time.monotonic()
    run = run_script(script, timeout=1.0)
    assert run.timed_out
    assert time.monotonic() - started < 30
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 60  # a hang guard: SIGKILL takes effect at once
    while time.monotonic() < deadline and _alive(child):
        time.sleep(0.05)
    assert not _alive(child), "the script's background sleep survived the run"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_the_work_directory_is_removed_unless_given(tmp_path: Path) -> None:
    script = write_script(tmp_path, 'echo "$HOME"\n')
    run = run_script(script)
    assert not Path(run.stdout.strip()).exists()
    kept = tmp_path / "work"
    kept.mkdir()
    run = run_script(script, workdir=kept)
    assert run.stdout.strip() == str(kept)
    assert (kept / "stubs").is_dir()


def test_a_call_waiting_for_an_event_goes_on_once_it_is_signalled(tmp_path: Path) -> None:
    # The client starts first and must wait for the server, whatever the
    # scheduler does: it is logged after the server, having seen the event.
    script = write_script(tmp_path, "client &\nsleep 0.2\nserver\nwait\n")
    rules = [Rule("server", signals="up"), Rule("client", waits_for="up")]
    run = run_script(script, rules=rules)
    assert run.exit_code == 0 and not run.timed_out
    assert [(c.command, dict(c.waited)) for c in run.calls] == [
        ("server", {}),
        ("client", {"up": True}),
    ]


def test_a_wait_that_runs_out_is_recorded_and_gives_up_for_the_whole_run(tmp_path: Path) -> None:
    # The second rule would wait an hour: it goes on at once because the
    # first wait gave up on the event (a script that never signals costs one
    # bounded wait, not one per call).
    script = write_script(tmp_path, "quick\npatient\n")
    rules = [
        Rule("quick", waits_for="never", wait_max_ms=50),
        Rule("patient", waits_for="never", wait_max_ms=3_600_000),
    ]
    run = run_script(script, rules=rules, timeout=60)
    assert run.exit_code == 0 and not run.timed_out
    assert [(c.command, dict(c.waited)) for c in run.calls] == [
        ("quick", {"never": False}),
        ("patient", {"never": False}),
    ]
