"""The vLLM entrypoint (``vllm/entrypoint.sh``): CUDA preflight, DFlash probe,
serve arguments, the serve loop."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from harness.behaviours.base import (
    RUN_TIMEOUT_S,
    STUBBED_COMMANDS,
    VLLM_SCRIPT,
    Behaviour,
    Expect,
)
from harness.scripttest import Call, Outcome, Rule, ScriptRun, run_script

# --- the spec's vLLM facts ----------------------------------------------------

TARGET_MODEL: Final = "poolside/Laguna-S-2.1-NVFP4"
DRAFT_MODEL: Final = "poolside/Laguna-S-2.1-DFlash"
SERVED_NAME: Final = "laguna-s-2.1"
API_KEY: Final = "wendy-local-dflash"
GPU_UTILISATION: Final = "0.70"
MAX_MODEL_LEN: Final = "131072"
SPECULATIVE_TOKENS: Final = 15
DRAFTER_MODULE: Final = "vllm.model_executor.models.laguna_dflash"
DEFAULT_MAX_FAST_EXITS: Final = 5
DEFAULT_PREFLIGHT_ATTEMPTS: Final = 3

# Whether a death is "fast" must never depend on how long a stub takes to
# start on a loaded machine. So: by default every death is fast (a threshold
# no run can reach: runs are cut at RUN_TIMEOUT_S); a slow death on the real
# clock is a stub that sleeps past a short threshold (a sleep is never
# shorter than asked); a run needing fast *and* slow deaths scripts the
# clock the script reads (see scripted_clock).
ALWAYS_FAST_S: Final = "3600"
REAL_SLOW_THRESHOLD_S: Final = "0.5"
REAL_SLOW_RUN_MS: Final = 600
RETRY_DELAY_MS: Final = 300

_VLLM_TIMING: Final[Mapping[str, str]] = {
    "VLLM_PREFLIGHT_PAUSE_S": "0.01",
    "VLLM_RETRY_DELAY_S": "0.01",
    "VLLM_FAST_EXIT_S": ALWAYS_FAST_S,
}


def _flags(args: Sequence[str]) -> dict[str, str | bool]:
    """``--flag value`` / ``--switch`` arguments as a dict (a repeated flag
    maps to a list-like marker so it shows up as a difference)."""
    flags: dict[str, str | bool] = {}
    index = 0
    while index < len(args):
        flag = args[index]
        has_value = index + 1 < len(args) and not args[index + 1].startswith("--")
        value: str | bool = args[index + 1] if has_value else True
        flags[flag if flag not in flags else f"{flag} (repeated)"] = value
        index += 2 if has_value else 1
    return flags


def _flag_differences(
    actual: Mapping[str, str | bool], expected: Mapping[str, str | bool]
) -> list[str]:
    """Readable differences between two flag dicts (order is irrelevant to vLLM)."""

    def shown(value: str | bool) -> str:
        return "(a switch)" if value is True else repr(value)

    problems = [
        f"unexpected {flag} {shown(actual[flag])}" for flag in actual if flag not in expected
    ]
    problems += [
        f"missing {flag} {shown(expected[flag])}" for flag in expected if flag not in actual
    ]
    problems += [
        f"{flag}: expected {shown(expected[flag])}, got {shown(actual[flag])}"
        for flag in expected
        if flag in actual and actual[flag] != expected[flag]
    ]
    return problems


def plain_serve_flags(
    *,
    key: str = API_KEY,
    name: str = SERVED_NAME,
    utilisation: str = GPU_UTILISATION,
    max_len: str = MAX_MODEL_LEN,
) -> dict[str, str | bool]:
    """The spec's serve flags without DFlash (quantisation never passed)."""
    return {
        "--host": "0.0.0.0",
        "--port": "8000",
        "--api-key": key,
        "--served-model-name": name,
        "--gpu-memory-utilization": utilisation,
        "--max-model-len": max_len,
        "--max-num-batched-tokens": "32768",
        "--enable-auto-tool-choice": True,
        "--tool-call-parser": "poolside_v1",
        "--reasoning-parser": "poolside_v1",
    }


def _check_serve_call(
    expect: Expect,
    call: Call,
    label: str,
    *,
    target: str = TARGET_MODEL,
    flags: Mapping[str, str | bool],
    dflash: tuple[str, int] | None,
) -> None:
    """``vllm serve <target>`` with exactly ``flags`` (+ DFlash's when given)."""
    expect.equal(f"{label}: vllm subcommand and model", list(call.args[:2]), ["serve", target])
    actual = _flags(call.args[2:])
    spec_text = actual.pop("--speculative-config", None)
    moe = actual.pop("--moe-backend", None)
    for problem in _flag_differences(actual, flags):
        expect.problems.append(f"{label}: {problem}")
    if dflash is None:
        expect.that(
            spec_text is None and moe is None,
            f"{label}: expected plain serving, got --speculative-config {spec_text!r} "
            f"--moe-backend {moe!r}",
        )
        return
    draft, tokens = dflash
    expect.equal(f"{label}: --moe-backend", moe, "triton")
    if not expect.that(isinstance(spec_text, str), f"{label}: no --speculative-config value"):
        return
    try:
        config = json.loads(str(spec_text))
    except json.JSONDecodeError as exc:
        expect.problems.append(f"{label}: --speculative-config is not JSON ({exc}): {spec_text}")
        return
    expected = {"method": "dflash", "model": draft, "num_speculative_tokens": tokens}
    expect.equal(f"{label}: --speculative-config", config, expected)


def _vllm_rules(
    *,
    preflight: Sequence[int] = (),
    drafter: bool = False,
    serve: Sequence[Outcome] = (),
    serve_then: Outcome | None = None,
) -> list[Rule]:
    """Stubs for the vLLM script: ``preflight`` exit codes (then success),
    the drafter probe's answer, ``vllm serve`` outcomes (then ``serve_then``;
    None: a further call is a problem)."""
    return [
        Rule("python3", contains="torch", outcomes=tuple(Outcome(exit=c) for c in preflight)),
        Rule("python3", contains=DRAFTER_MODULE, then=Outcome(exit=0 if drafter else 1)),
        Rule("vllm", prefix=("serve",), outcomes=tuple(serve), then=serve_then),
    ]


def _run_vllm(
    script: Path, work: Path, rules: Sequence[Rule], env: Mapping[str, str] | None = None
) -> ScriptRun:
    full = {**_VLLM_TIMING, "HF_HOME": str(work / "hf"), **(env or {})}
    return run_script(
        script, rules=rules, stubs=STUBBED_COMMANDS, env=full, timeout=RUN_TIMEOUT_S, workdir=work
    )


def scripted_clock(work: Path, run_seconds: Sequence[int]) -> tuple[Rule, dict[str, str]]:
    """The script's clock, scripted: vLLM start ``i`` lasts ``run_seconds[i]``.

    The script reads the time through ``now_ms``: bash's ``EPOCHREALTIME``,
    or ``date +%s`` where bash has none (the script's own fallback). A
    ``BASH_ENV`` file unsets ``EPOCHREALTIME`` before the script runs, and a
    ``date`` stub answers the two readings around each vLLM run (before,
    after) from this list. Returns the rule and the environment to add.
    """
    readings, now = [], 1_000_000
    for seconds in run_seconds:
        readings += [now, now + seconds]
        now += seconds + 1
    startup = work / "no-epochrealtime.sh"
    startup.write_text("unset EPOCHREALTIME\n", encoding="utf-8")
    rule = Rule(
        "date",
        prefix=("+%s",),
        outcomes=tuple(Outcome(stdout=f"{t}\n") for t in readings),
        then=None,
    )
    return rule, {"BASH_ENV": str(startup)}


def _preflights(run: ScriptRun) -> list[Call]:
    return run.calls_of("python3", contains="torch")


def _probes(run: ScriptRun) -> list[Call]:
    return run.calls_of("python3", contains=DRAFTER_MODULE)


def vllm_preflight_fails(script: Path, work: Path) -> list[str]:
    """CUDA never works: non-zero exit before any vllm call, with the
    JetPack/CUDA explanation and the README pointer."""
    run = _run_vllm(script, work, _vllm_rules(preflight=[1] * 10, serve_then=Outcome()))
    expect = Expect()
    expect.clean_run(run, status=None)
    expect.equal("vllm calls", [c.argv for c in run.calls_of("vllm")], [])
    expect.equal("CUDA preflight attempts", len(_preflights(run)), DEFAULT_PREFLIGHT_ATTEMPTS)
    expect.that(
        bool(run.calls) and "torch" in " ".join(run.calls[0].args),
        "the CUDA preflight is not the first thing the script runs",
    )
    expect.logged(run, r"JetPack", "naming JetPack")
    expect.logged(run, r"CUDA 13\.3", "naming the CUDA 13.3 requirement")
    expect.logged(run, r"README", "pointing to the README")
    expect.not_logged(run, r"downloading", "a download announced although CUDA is broken")
    return expect.problems


def vllm_preflight_retries(script: Path, work: Path) -> list[str]:
    """A preflight that fails once, then works: the script goes on to serve."""
    rules = _vllm_rules(preflight=[1], serve=[Outcome(exit=0)])
    run = _run_vllm(script, work, rules)
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.equal("CUDA preflight attempts", len(_preflights(run)), 2)
    expect.equal("vllm serve calls", len(run.calls_of("vllm", "serve")), 1)
    return expect.problems


def vllm_dflash_on(script: Path, work: Path) -> list[str]:
    """The drafter module exists: the spec's serve arguments plus the
    speculative config (valid JSON, the draft model, the token count) and the
    triton MoE backend; a clean vLLM exit ends the script with 0."""
    run = _run_vllm(script, work, _vllm_rules(drafter=True, serve=[Outcome(exit=0)]))
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.equal("drafter probes", len(_probes(run)), 1)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 1):
        _check_serve_call(
            expect,
            serves[0],
            "vllm call 1",
            flags=plain_serve_flags(),
            dflash=(DRAFT_MODEL, SPECULATIVE_TOKENS),
        )
    preflight = _preflights(run)
    # The log's order: calls of a script's foreground are logged as they run.
    expect.that(
        bool(preflight)
        and bool(serves)
        and run.calls.index(preflight[0]) < run.calls.index(serves[0]),
        "the CUDA preflight did not run before vllm",
    )
    return expect.problems


def vllm_dflash_custom(script: Path, work: Path) -> list[str]:
    """DFLASH_DRAFT_MODEL and NUM_SPECULATIVE_TOKENS reach the speculative config."""
    env = {"DFLASH_DRAFT_MODEL": "acme/draft-1B", "NUM_SPECULATIVE_TOKENS": "7"}
    run = _run_vllm(script, work, _vllm_rules(drafter=True, serve=[Outcome(exit=0)]), env)
    expect = Expect()
    expect.clean_run(run, status=0)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 1):
        _check_serve_call(
            expect, serves[0], "vllm call 1", flags=plain_serve_flags(), dflash=("acme/draft-1B", 7)
        )
    return expect.problems


def vllm_dflash_absent(script: Path, work: Path) -> list[str]:
    """No drafter module: a WARNING line and plain serving with the spec's
    default arguments (no --trust-remote-code by default)."""
    run = _run_vllm(script, work, _vllm_rules(drafter=False, serve=[Outcome(exit=0)]))
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.equal("drafter probes", len(_probes(run)), 1)
    expect.logged(run, r"WARNING:.*(DFlash|dflash)", "warning that DFlash is unavailable")
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 1):
        _check_serve_call(expect, serves[0], "vllm call 1", flags=plain_serve_flags(), dflash=None)
    return expect.problems


def vllm_dflash_disabled(script: Path, work: Path) -> list[str]:
    """DFLASH_DISABLE=1 serves plain without even probing, though the drafter exists."""
    rules = _vllm_rules(drafter=True, serve=[Outcome(exit=0)])
    run = _run_vllm(script, work, rules, {"DFLASH_DISABLE": "1"})
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.equal("drafter probes", len(_probes(run)), 0)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 1):
        _check_serve_call(expect, serves[0], "vllm call 1", flags=plain_serve_flags(), dflash=None)
    return expect.problems


def vllm_fast_death_demotes(script: Path, work: Path) -> list[str]:
    """A fast death with DFlash on is blamed on DFlash (WARNING) and retried
    plain; the retry's clean exit ends the script with 0."""
    rules = _vllm_rules(drafter=True, serve=[Outcome(exit=1), Outcome(exit=0)])
    run = _run_vllm(script, work, rules)
    expect = Expect()
    expect.clean_run(run, status=0)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 2):
        flags = plain_serve_flags()
        _check_serve_call(
            expect, serves[0], "vllm call 1", flags=flags, dflash=(DRAFT_MODEL, SPECULATIVE_TOKENS)
        )
        _check_serve_call(
            expect, serves[1], "vllm call 2 (after the fast death)", flags=flags, dflash=None
        )
    expect.logged(run, r"WARNING:.*DFlash", "blaming DFlash for the fast death")
    return expect.problems


def vllm_fast_deaths_give_up(script: Path, work: Path) -> list[str]:
    """Without DFlash, five fast deaths in a row (the default limit) end the
    script with vLLM's non-zero status; there is no sixth start."""
    status = 7
    rules = _vllm_rules(
        serve=[Outcome(exit=status)] * (DEFAULT_MAX_FAST_EXITS + 3), serve_then=Outcome(exit=0)
    )
    run = _run_vllm(script, work, rules)
    expect = Expect()
    expect.clean_run(run, status=status)
    expect.equal("vllm calls", len(run.calls_of("vllm")), DEFAULT_MAX_FAST_EXITS)
    expect.logged(run, r"giving up|ERROR", "saying why it stopped")
    return expect.problems


def vllm_fast_deaths_after_dflash(script: Path, work: Path) -> list[str]:
    """With DFlash: the first fast death only demotes; five more plain ones
    give up (six starts in all)."""
    status = 9
    rules = _vllm_rules(
        drafter=True,
        serve=[Outcome(exit=status)] * (DEFAULT_MAX_FAST_EXITS + 3),
        serve_then=Outcome(exit=0),
    )
    run = _run_vllm(script, work, rules)
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
    rules = [*_vllm_rules(serve=serve, serve_then=Outcome(exit=0)), clock]
    run = _run_vllm(script, work, rules, {**env, "VLLM_FAST_EXIT_S": "90"})
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
    run = _run_vllm(script, work, _vllm_rules(serve=serve), env)
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
    rules = _vllm_rules(serve=[Outcome(exit=3), Outcome(exit=0)])
    run = _run_vllm(script, work, rules, {"VLLM_RETRY_DELAY_S": str(RETRY_DELAY_MS / 1000)})
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


def vllm_serve_settings(script: Path, work: Path) -> list[str]:
    """The environment reaches vLLM: API key, served name, target model,
    memory share, context length; TRUST_REMOTE_CODE=1 adds the flag."""
    env = {
        "VLLM_API_KEY": "key-from-env",
        "SERVED_MODEL_NAME": "my-model",
        "VLLM_TARGET_MODEL": "acme/target",
        "GPU_MEMORY_UTILIZATION": "0.55",
        "MAX_MODEL_LEN": "4096",
        "TRUST_REMOTE_CODE": "1",
        "DFLASH_DISABLE": "1",
    }
    run = _run_vllm(script, work, _vllm_rules(serve=[Outcome(exit=0)]), env)
    expect = Expect()
    expect.clean_run(run, status=0)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 1):
        flags = plain_serve_flags(
            key="key-from-env", name="my-model", utilisation="0.55", max_len="4096"
        )
        flags["--trust-remote-code"] = True
        _check_serve_call(
            expect, serves[0], "vllm call 1", target="acme/target", flags=flags, dflash=None
        )
    return expect.problems


def vllm_download_notice(script: Path, work: Path) -> list[str]:
    """An empty cache: the user is told about the ~72GB first download and that
    the API stays down until the model has loaded."""
    run = _run_vllm(script, work, _vllm_rules(serve=[Outcome(exit=0)]))
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.logged(run, r"72 ?GB", "announcing the ~72GB download")
    expect.logged(run, r"(stays|is) down|until", "saying the API is down until the model loaded")
    return expect.problems


BEHAVIOURS: Final[tuple[Behaviour, ...]] = (
    Behaviour("vllm-preflight-fails", VLLM_SCRIPT, vllm_preflight_fails),
    Behaviour("vllm-preflight-retries", VLLM_SCRIPT, vllm_preflight_retries),
    Behaviour("vllm-dflash-on", VLLM_SCRIPT, vllm_dflash_on),
    Behaviour("vllm-dflash-custom", VLLM_SCRIPT, vllm_dflash_custom),
    Behaviour("vllm-dflash-absent", VLLM_SCRIPT, vllm_dflash_absent),
    Behaviour("vllm-dflash-disabled", VLLM_SCRIPT, vllm_dflash_disabled),
    Behaviour("vllm-fast-death-demotes", VLLM_SCRIPT, vllm_fast_death_demotes),
    Behaviour("vllm-fast-deaths-give-up", VLLM_SCRIPT, vllm_fast_deaths_give_up),
    Behaviour("vllm-fast-deaths-after-dflash", VLLM_SCRIPT, vllm_fast_deaths_after_dflash),
    Behaviour("vllm-slow-death-resets", VLLM_SCRIPT, vllm_slow_death_resets),
    Behaviour("vllm-slow-death-on-the-real-clock", VLLM_SCRIPT, vllm_slow_death_on_the_real_clock),
    Behaviour("vllm-clean-exit", VLLM_SCRIPT, vllm_clean_exit),
    Behaviour("vllm-serve-settings", VLLM_SCRIPT, vllm_serve_settings),
    Behaviour("vllm-download-notice", VLLM_SCRIPT, vllm_download_notice),
)
