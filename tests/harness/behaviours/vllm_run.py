"""How the vLLM behaviours run ``vllm/entrypoint.sh``: the spec's facts, the
stub rules and timing overrides, a scripted clock, and the check of a
``vllm serve`` call's arguments."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from harness.behaviours.base import RUN_TIMEOUT_S, STUBBED_COMMANDS, Expect
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


def parse_flags(args: Sequence[str]) -> dict[str, str | bool]:
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


def flag_differences(
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
    port: str = "8000",
) -> dict[str, str | bool]:
    """The spec's serve flags without DFlash (quantisation never passed)."""
    return {
        "--host": "0.0.0.0",
        "--port": port,
        "--api-key": key,
        "--served-model-name": name,
        "--gpu-memory-utilization": utilisation,
        "--max-model-len": max_len,
        "--max-num-batched-tokens": "32768",
        "--enable-auto-tool-choice": True,
        "--tool-call-parser": "poolside_v1",
        "--reasoning-parser": "poolside_v1",
    }


def check_serve_call(
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
    actual = parse_flags(call.args[2:])
    spec_text = actual.pop("--speculative-config", None)
    moe = actual.pop("--moe-backend", None)
    for problem in flag_differences(actual, flags):
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


def vllm_rules(
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


def run_vllm(
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


def preflights(run: ScriptRun) -> list[Call]:
    return run.calls_of("python3", contains="torch")


def probes(run: ScriptRun) -> list[Call]:
    return run.calls_of("python3", contains=DRAFTER_MODULE)
