"""The vLLM entrypoint before and as it serves: the CUDA preflight, the DFlash
probe and its outcomes, the serve arguments, the first-download notice."""

from __future__ import annotations

from pathlib import Path

from harness.behaviours.base import Expect
from harness.behaviours.vllm_run import (
    DEFAULT_PREFLIGHT_ATTEMPTS,
    DRAFT_MODEL,
    SPECULATIVE_TOKENS,
    check_serve_call,
    plain_serve_flags,
    preflights,
    probes,
    run_vllm,
    vllm_rules,
)
from harness.scripttest import Outcome


def vllm_preflight_fails(script: Path, work: Path) -> list[str]:
    """CUDA never works: non-zero exit before any vllm call, with the
    JetPack/CUDA explanation and the README pointer."""
    run = run_vllm(script, work, vllm_rules(preflight=[1] * 10, serve_then=Outcome()))
    expect = Expect()
    expect.clean_run(run, status=None)
    expect.equal("vllm calls", [c.argv for c in run.calls_of("vllm")], [])
    expect.equal("CUDA preflight attempts", len(preflights(run)), DEFAULT_PREFLIGHT_ATTEMPTS)
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
    rules = vllm_rules(preflight=[1], serve=[Outcome(exit=0)])
    run = run_vllm(script, work, rules)
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.equal("CUDA preflight attempts", len(preflights(run)), 2)
    expect.equal("vllm serve calls", len(run.calls_of("vllm", "serve")), 1)
    return expect.problems


def vllm_dflash_on(script: Path, work: Path) -> list[str]:
    """The drafter module exists: the spec's serve arguments plus the
    speculative config (valid JSON, the draft model, the token count) and the
    triton MoE backend; a clean vLLM exit ends the script with 0."""
    run = run_vllm(script, work, vllm_rules(drafter=True, serve=[Outcome(exit=0)]))
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.equal("drafter probes", len(probes(run)), 1)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 1):
        check_serve_call(
            expect,
            serves[0],
            "vllm call 1",
            flags=plain_serve_flags(),
            dflash=(DRAFT_MODEL, SPECULATIVE_TOKENS),
        )
    preflight = preflights(run)
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
    run = run_vllm(script, work, vllm_rules(drafter=True, serve=[Outcome(exit=0)]), env)
    expect = Expect()
    expect.clean_run(run, status=0)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 1):
        check_serve_call(
            expect, serves[0], "vllm call 1", flags=plain_serve_flags(), dflash=("acme/draft-1B", 7)
        )
    return expect.problems


def vllm_dflash_absent(script: Path, work: Path) -> list[str]:
    """No drafter module: a WARNING line and plain serving with the spec's
    default arguments (no --trust-remote-code by default)."""
    run = run_vllm(script, work, vllm_rules(drafter=False, serve=[Outcome(exit=0)]))
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.equal("drafter probes", len(probes(run)), 1)
    expect.logged(run, r"WARNING:.*(DFlash|dflash)", "warning that DFlash is unavailable")
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 1):
        check_serve_call(expect, serves[0], "vllm call 1", flags=plain_serve_flags(), dflash=None)
    return expect.problems


def vllm_dflash_disabled(script: Path, work: Path) -> list[str]:
    """DFLASH_DISABLE=1 serves plain without even probing, though the drafter exists."""
    rules = vllm_rules(drafter=True, serve=[Outcome(exit=0)])
    run = run_vllm(script, work, rules, {"DFLASH_DISABLE": "1"})
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.equal("drafter probes", len(probes(run)), 0)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 1):
        check_serve_call(expect, serves[0], "vllm call 1", flags=plain_serve_flags(), dflash=None)
    return expect.problems


def vllm_serve_settings(script: Path, work: Path) -> list[str]:
    """The environment reaches vLLM: API key, served name, target model,
    memory share, context length, API port; TRUST_REMOTE_CODE=1 adds the flag."""
    env = {
        "API_PORT": "8123",
        "VLLM_API_KEY": "key-from-env",
        "SERVED_MODEL_NAME": "my-model",
        "VLLM_TARGET_MODEL": "acme/target",
        "GPU_MEMORY_UTILIZATION": "0.55",
        "MAX_MODEL_LEN": "4096",
        "TRUST_REMOTE_CODE": "1",
        "DFLASH_DISABLE": "1",
    }
    run = run_vllm(script, work, vllm_rules(serve=[Outcome(exit=0)]), env)
    expect = Expect()
    expect.clean_run(run, status=0)
    serves = run.calls_of("vllm")
    if expect.equal("vllm calls", len(serves), 1):
        flags = plain_serve_flags(
            key="key-from-env", name="my-model", utilisation="0.55", max_len="4096", port="8123"
        )
        flags["--trust-remote-code"] = True
        check_serve_call(
            expect, serves[0], "vllm call 1", target="acme/target", flags=flags, dflash=None
        )
    return expect.problems


def vllm_download_notice(script: Path, work: Path) -> list[str]:
    """An empty cache: the user is told about the ~72GB first download and that
    the API stays down until the model has loaded."""
    run = run_vllm(script, work, vllm_rules(serve=[Outcome(exit=0)]))
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.logged(run, r"72 ?GB", "announcing the ~72GB download")
    expect.logged(run, r"(stays|is) down|until", "saying the API is down until the model loaded")
    return expect.problems
