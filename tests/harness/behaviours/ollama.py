"""The Ollama entrypoint (``ollama/entrypoint.sh``): serve at once, wait for
the API, pull unless present, retry with a capped doubling delay."""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from harness.behaviours.base import (
    MARKER,
    OLLAMA_SCRIPT,
    RUN_TIMEOUT_S,
    STUBBED_COMMANDS,
    Behaviour,
    Expect,
)
from harness.scripttest import Outcome, Rule, ScriptRun, run_script

_OLLAMA_TIMING: Final[Mapping[str, str]] = {
    "OLLAMA_API_POLL_S": "0.01",
    "OLLAMA_API_WAIT_S": "3600",  # only a hang guard: runs end at RUN_TIMEOUT_S
    "OLLAMA_PULL_BACKOFF_START_S": "0.01",
    "OLLAMA_PULL_BACKOFF_MAX_S": "0.04",
}
BACKOFF_START_MS: Final = 10
BACKOFF_MAX_MS: Final = 40
OLLAMA_MODEL: Final = "laguna-xs-2.1:q4_K_M"
SERVE_ENDS: Final = MARKER + "ollama serve ends"
#: The event ``ollama serve`` signals as it starts; every other ``ollama``
#: call talks to the API, so it answers only once serving has started.
SERVING: Final = "serving"


def _ollama_rules(
    *,
    list_failures: int = 0,
    api_up: bool = True,
    present: bool = False,
    pull: Sequence[int] = (),
    serve_exit: int = 0,
    barrier: bool = True,
) -> list[Rule]:
    """``barrier``: API calls wait until ``ollama serve`` has started (off where a
    behaviour is not about that order, so a script that breaks it costs no waits)."""
    serve = Outcome(exit=serve_exit, outlive_group=True, exit_message=SERVE_ENDS)
    waits = SERVING if barrier else ""
    return [
        Rule("ollama", prefix=("serve",), outcomes=(serve,), then=None, signals=SERVING),
        Rule(
            "ollama",
            prefix=("list",),
            outcomes=(Outcome(exit=1),) * list_failures,
            then=Outcome(exit=0 if api_up else 1),
            waits_for=waits,
        ),
        Rule("ollama", prefix=("show",), then=Outcome(exit=0 if present else 1), waits_for=waits),
        Rule(
            "ollama",
            prefix=("pull",),
            outcomes=tuple(Outcome(exit=c) for c in pull),
            waits_for=waits,
        ),
    ]


def _run_ollama(
    script: Path,
    work: Path,
    rules: Sequence[Rule],
    env: Mapping[str, str] | None = None,
    record_env: Sequence[str] = (),
) -> ScriptRun:
    full = {**_OLLAMA_TIMING, "OLLAMA_MODEL": OLLAMA_MODEL, **(env or {})}
    return run_script(
        script,
        rules=rules,
        stubs=STUBBED_COMMANDS,
        env=full,
        record_env=record_env,
        timeout=RUN_TIMEOUT_S,
        workdir=work,
    )


def _check_serving_throughout(expect: Expect, run: ScriptRun, last_step: str) -> None:
    """``ollama serve`` ran once, as the script's own process (its status is
    the script's), started at once, and was still serving when the pull work
    finished."""
    serves = run.calls_of("ollama", "serve")
    expect.equal("ollama serve calls", [c.argv for c in serves], [("ollama", "serve")])
    # Serving starts at once, beside the model work: every API call waits for
    # `ollama serve` to start (a barrier, see _ollama_rules), so a script that
    # does the model work first leaves its calls waiting in vain. What is
    # read is whether serve had started, never which process the scheduler
    # happened to run first.
    api_calls = [c for c in run.calls if c.command == "ollama" and c.args[:1] != ("serve",)]
    early = [c for c in api_calls if not c.waited.get(SERVING)]
    if early:
        expect.problems.append(
            f"`{shlex.join(early[0].argv)}` found ollama serve not started: "
            "the model work ran before serving (serve must start at once)"
        )
    done = expect.logged(run, last_step, "ending the pull work")
    end = next((i for i, line in enumerate(run.log_lines) if line == SERVE_ENDS), None)
    if (
        expect.that(end is not None, "ollama serve never ended (or was killed)")
        and done is not None
    ):
        expect.that(end is not None and done < end, "ollama serve ended before the pull work did")


def ollama_waits_then_pulls(script: Path, work: Path) -> list[str]:
    """Waits until ``ollama list`` answers, then pulls the absent model, while serving."""
    run = _run_ollama(script, work, _ollama_rules(list_failures=3, present=False))
    expect = Expect()
    expect.clean_run(run, status=0)
    work_calls = [c.argv for c in run.calls if c.command == "ollama" and c.args[:1] != ("serve",)]
    expected = [("ollama", "list")] * 4 + [
        ("ollama", "show", OLLAMA_MODEL),
        ("ollama", "pull", OLLAMA_MODEL),
    ]
    expect.equal("ollama calls besides serve", work_calls, expected)
    _check_serving_throughout(expect, run, rf"{re.escape(OLLAMA_MODEL)} is ready")
    return expect.problems


def ollama_skips_present_model(script: Path, work: Path) -> list[str]:
    """A model already present is not pulled; the script's status is serve's."""
    run = _run_ollama(script, work, _ollama_rules(present=True, serve_exit=42))
    expect = Expect()
    expect.clean_run(run, status=42)
    expect.equal("ollama pull calls", [c.argv for c in run.calls_of("ollama", "pull")], [])
    expect.equal("ollama show calls", len(run.calls_of("ollama", "show")), 1)
    _check_serving_throughout(expect, run, r"already present")
    return expect.problems


def backoff_delays_ms(failures: int, start_ms: int, cap_ms: int) -> list[int]:
    """The pauses after each failed pull: doubling from ``start_ms``, capped."""
    delays, delay = [], start_ms
    for _ in range(failures):
        delays.append(delay)
        delay = min(delay * 2, cap_ms)
    return delays


def ollama_pull_backoff(script: Path, work: Path) -> list[str]:
    """Failed pulls are retried after a doubling delay capped at the maximum
    (logged, and really waited), until one succeeds; serving goes on."""
    failures = 5
    run = _run_ollama(script, work, _ollama_rules(pull=[1] * failures))
    expect = Expect()
    expect.clean_run(run, status=0)
    pulls = run.calls_of("ollama", "pull")
    expect.equal("ollama pull calls", len(pulls), failures + 1)
    delays = backoff_delays_ms(failures, BACKOFF_START_MS, BACKOFF_MAX_MS)
    logged = [
        m.group(1) for m in map(re.compile(r"retrying in ([0-9.]+) s").search, run.log_lines) if m
    ]
    expect.equal("logged retry delays (s)", logged, [f"{d / 1000:.3f}" for d in delays])
    # Lower bounds only: a pause is never shorter than asked, however loaded the machine.
    for index, (before, after) in enumerate(itertools.pairwise(pulls[: len(delays) + 1])):
        gap_ms = (after.started - before.started) * 1000
        expect.that(
            gap_ms >= delays[index] - 1,
            f"pull {index + 2} came {gap_ms:.0f} ms after pull {index + 1}, "
            f"before the {delays[index]} ms backoff was over",
        )
    _check_serving_throughout(expect, run, rf"{re.escape(OLLAMA_MODEL)} is ready")
    return expect.problems


def ollama_api_never_up(script: Path, work: Path) -> list[str]:
    """An API that never answers: no pull, an ERROR line, and serving goes on."""
    rules = _ollama_rules(api_up=False)
    run = _run_ollama(script, work, rules, {"OLLAMA_API_WAIT_S": "0.3"})
    expect = Expect()
    expect.clean_run(run, status=0)
    expect.equal(
        "ollama show/pull calls",
        len(run.calls_of("ollama", "show")) + len(run.calls_of("ollama", "pull")),
        0,
    )
    _check_serving_throughout(expect, run, r"ERROR")
    return expect.problems


#: (WENDY_JETPACK_VERSION, JETSON_JETPACK already set, what `ollama serve` gets);
#: None: not in the environment.
JETPACK_CASES: Final[tuple[tuple[str | None, str | None, str | None], ...]] = (
    ("6.2", None, "6"),
    ("6", None, "6"),
    ("36.4.3", None, "6"),  # an L4T release: R36 is JetPack 6
    ("r36.4", None, "6"),
    ("7.2", None, None),  # Thor: Ollama's standard runners
    ("38.2", None, None),  # L4T R38 is JetPack 7
    ("", None, None),  # a plain `docker compose build`: not a Jetson
    (None, None, None),
    ("6.2", "5", "5"),  # set by the user: kept
    ("sixish", None, None),  # not a release: warned about, nothing forced
    # Every string the Wendy CLI passes (wendy-run.md section 6), understood
    # without a warning: its table values, and "L4T <release>" beyond it.
    ("6.1", None, "6"),
    ("6.0", None, "6"),
    *((v, None, None) for v in ("5.1.3", "5.1.2", "5.1.1", "5.1", "5.0.2", "5.0.1")),
    *((v, None, None) for v in ("4.6", "4.5", "4.4", "4.3", "4.2", "4.1")),
    ("L4T 36.5.0", None, "6"),  # a JetPack 6 newer than the CLI's table
    ("L4T 38.2.1", None, None),  # a Thor: JetPack 7
    ("L4T 35.6.0", None, None),  # JetPack 5
)
#: Versions that are no JetPack string: the entrypoint warns about them.
UNREADABLE_JETPACK: Final = frozenset({"sixish"})


def ollama_jetpack_runners(script: Path, work: Path) -> list[str]:
    """JetPack 6 (WENDY_JETPACK_VERSION 6.x, or the L4T release 36.x) starts
    ``ollama serve`` with JETSON_JETPACK=6; JetPack 7, no release and an
    unreadable one force nothing; a JETSON_JETPACK already set is kept."""
    problems = []
    for index, (version, preset, expected) in enumerate(JETPACK_CASES):
        case = work / f"case-{index}"
        case.mkdir()
        env = {} if version is None else {"WENDY_JETPACK_VERSION": version}
        if preset is not None:
            env["JETSON_JETPACK"] = preset
        rules = _ollama_rules(present=True, barrier=False)
        run = _run_ollama(script, case, rules, env, record_env=("JETSON_JETPACK",))
        expect = Expect()
        expect.clean_run(run, status=0)
        serves = run.calls_of("ollama", "serve")
        if expect.equal("ollama serve calls", len(serves), 1):
            got = serves[0].env.get("JETSON_JETPACK")
            expect.equal("JETSON_JETPACK of ollama serve", got, expected)
        if version in UNREADABLE_JETPACK:
            expect.logged(run, r"WARNING: .*'sixish'", "warning about the unreadable release")
        elif version:
            expect.not_logged(run, r"WARNING", "a warning about a release the CLI passes")
        if expected == "6" and preset is None:
            expect.logged(run, r"JETSON_JETPACK=6", "saying it chose the JetPack 6 runners")
        where = f"WENDY_JETPACK_VERSION={version!r}, JETSON_JETPACK={preset!r}"
        problems += [f"{where}: {p}" for p in expect.problems]
    return problems


BEHAVIOURS: Final[tuple[Behaviour, ...]] = (
    Behaviour("ollama-waits-then-pulls", OLLAMA_SCRIPT, ollama_waits_then_pulls),
    Behaviour("ollama-jetpack-runners", OLLAMA_SCRIPT, ollama_jetpack_runners),
    Behaviour("ollama-skips-present-model", OLLAMA_SCRIPT, ollama_skips_present_model),
    Behaviour("ollama-pull-backoff", OLLAMA_SCRIPT, ollama_pull_backoff),
    Behaviour("ollama-api-never-up", OLLAMA_SCRIPT, ollama_api_never_up),
)
