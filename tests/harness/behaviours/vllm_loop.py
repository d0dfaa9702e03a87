"""The vLLM entrypoint's serve loop: a fast death demotes DFlash, a streak of
fast deaths gives up, a slow death resets the streak (on a scripted and on
the real clock), a clean exit ends the script after the retry delay."""

from __future__ import annotations

import re
from pathlib import Path

from harness.behaviours.base import Expect
from harness.behaviours.vllm_run import (
    DEFAULT_MAX_FAST_EXITS,
    DRAFT_MODEL,
    REAL_SLOW_RUN_MS,
    REAL_SLOW_THRESHOLD_S,
    RETRY_DELAY_MS,
    SPECULATIVE_TOKENS,
    check_serve_call,
    plain_serve_flags,
    run_vllm,
    scripted_clock,
    vllm_rules,
)
from harness.scripttest import Outcome, ScriptRun


def vllm_fast_death_demotes(script: Path, work: Path) -> list[str]:
    """A fast death with DFlash on is blamed on DFlash (WARNING) and retried
    plain; the retry's clean exit ends the script with 0."""
    rules = vllm_rules(drafter=True, serve=[Outcome(exit=1), Outcome(exit=0)])
    run = run_vllm(script, work, rules)
    expect = Expect()
    expect.clean_run(run, status=0)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 2):
        flags = plain_serve_flags()
        check_serve_call(
            expect, serves[0], "vllm call 1", flags=flags, dflash=(DRAFT_MODEL, SPECULATIVE_TOKENS)
        )
        check_serve_call(
            expect, serves[1], "vllm call 2 (after the fast death)", flags=flags, dflash=None
        )
    expect.logged(run, r"WARNING:.*DFlash", "blaming DFlash for the fast death")
    return expect.problems


def vllm_fast_deaths_give_up(script: Path, work: Path) -> list[str]:
    """Without DFlash, five fast deaths in a row (the default limit) end the
    script with vLLM's non-zero status; there is no sixth start."""
    status = 7
    rules = vllm_rules(
        serve=[Outcome(exit=status)] * (DEFAULT_MAX_FAST_EXITS + 3), serve_then=Outcome(exit=0)
    )
    run = run_vllm(script, work, rules)
    expect = Expect()
    expect.clean_run(run, status=status)
    expect.equal("vllm calls", len(run.calls_of("vllm")), DEFAULT_MAX_FAST_EXITS)
    expect.logged(run, r"giving up|ERROR", "saying why it stopped")
    return expect.problems


def vllm_fast_deaths_after_dflash(script: Path, work: Path) -> list[str]:
    """With DFlash: the first fast death only demotes; five more plain ones
    give up (six starts in all)."""
    status = 9
    rules = vllm_rules(
        drafter=True,
        serve=[Outcome(exit=status)] * (DEFAULT_MAX_FAST_EXITS + 3),
        serve_then=Outcome(exit=0),
    )
    run = run_vllm(script, work, rules)
    expect = Expect()
    expect.clean_run(run, status=status)
    serves = run.calls_of("vllm")
    expect.equal("vllm calls", len(serves), DEFAULT_MAX_FAST_EXITS + 1)
    with_dflash = [i + 1 for i, c in enumerate(serves) if "--speculative-config" in c.args]
    expect.equal("vllm calls with DFlash", with_dflash, [1])
    return expect.problems


def _fast_exit_counts(run: ScriptRun) -> list[int]:
    """The script's own count of fast exits in a row, from each "fast exit N/M" line."""
    pattern = re.compile(r"fast exit (\d+)/\d+ in a row")
    return [int(m.group(1)) for m in map(pattern.search, run.log_lines) if m]


def vllm_slow_death_resets(script: Path, work: Path) -> list[str]:
    """Four fast deaths, one slow one (the count resets), then five fast ones:
    ten starts before giving up (the default 90 s threshold, on a scripted clock)."""
    durations = [1] * 4 + [600] + [1] * DEFAULT_MAX_FAST_EXITS
    clock, env = scripted_clock(work, durations)
    fast = Outcome(exit=7)
    serve = [fast] * 4 + [Outcome(exit=8)] + [fast] * 6
    rules = [*vllm_rules(serve=serve, serve_then=Outcome(exit=0)), clock]
    run = run_vllm(script, work, rules, {**env, "VLLM_FAST_EXIT_S": "90"})
    expect = Expect()
    expect.clean_run(run, status=7)
    expect.equal("vllm calls", len(run.calls_of("vllm")), len(durations))
    counts = _fast_exit_counts(run)
    expect.equal("fast exits in a row, as logged", counts, [1, 2, 3, 4, 1, 2, 3, 4, 5])
    expect.logged(run, r"died after 600\.000 s \(status 8\); restarting", "the slow death")
    return expect.problems


def vllm_slow_death_on_the_real_clock(script: Path, work: Path) -> list[str]:
    """A vLLM run that lasts longer than VLLM_FAST_EXIT_S, timed by bash's own
    clock, is a slow death: no fast exit counted, a restart."""
    serve = [Outcome(exit=8, sleep_ms=REAL_SLOW_RUN_MS), Outcome(exit=0)]
    env = {"VLLM_FAST_EXIT_S": REAL_SLOW_THRESHOLD_S}
    run = run_vllm(script, work, vllm_rules(serve=serve), env)
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.equal("vllm calls", len(run.calls_of("vllm")), 2)
    expect.equal("fast exits counted", _fast_exit_counts(run), [])
    # A lower bound only: the run slept at least this long, however loaded the machine.
    index = expect.logged(run, r"died after [0-9.]+ s \(status 8\); restarting", "the slow death")
    if index is not None:
        measured = float(run.log_lines[index].split("died after ", 1)[1].split(" s ")[0])
        expect.that(
            measured >= REAL_SLOW_RUN_MS / 1000,
            f"the script measured {measured} s for a run of at least {REAL_SLOW_RUN_MS} ms",
        )
    return expect.problems


def vllm_clean_exit(script: Path, work: Path) -> list[str]:
    """A clean vLLM exit, even after a failed start, ends the script with 0;
    the restart waits VLLM_RETRY_DELAY_S first."""
    rules = vllm_rules(serve=[Outcome(exit=3), Outcome(exit=0)])
    run = run_vllm(script, work, rules, {"VLLM_RETRY_DELAY_S": str(RETRY_DELAY_MS / 1000)})
    expect = Expect()
    expect.clean_run(run, status=0)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 2):
        # A lower bound only: a pause is never shorter than asked.
        gap_ms = (serves[1].started - serves[0].started) * 1000
        expect.that(
            gap_ms >= RETRY_DELAY_MS,
            f"vLLM restarted {gap_ms:.0f} ms after the failed start, "
            f"before the {RETRY_DELAY_MS} ms retry delay was over",
        )
    return expect.problems
