"""The template's real entrypoint scripts, run with real bash and stub programs.

The scripts come from a render of the template (``harness.behaviours``
renders it as ``wendy init`` would, ``--var PORT=3000``).  Each behaviour
runs one script under a scripted scenario (stub exit codes and durations,
millisecond timing overrides) and checks its exit status, the recorded
stub calls (order and arguments) and its log lines; see
``tests/harness/behaviours/`` for the scenarios.  They run once, in parallel,
per module; each behaviour is its own test.

The harness itself is tested in ``tests/templates/test_scripttest.py``; that every
behaviour fails on the regression it exists for is the mutation check's
job (``tests/templates/test_mutants_harness.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _stubs import render_template_scripts
from harness.behaviours import BEHAVIOURS, Behaviour, BehaviourResult, run_behaviours
from harness.behaviours.base import OLLAMA_SCRIPT, VLLM_SCRIPT, WEBUI_SCRIPT
from harness.behaviours.ollama import backoff_delays_ms, ollama_waits_then_pulls


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return render_template_scripts(tmp_path_factory.mktemp("llm") / "out")


@pytest.fixture(scope="module")
def results(rendered: Path) -> dict[str, BehaviourResult]:
    return {r.behaviour.name: r for r in run_behaviours(rendered)}


@pytest.mark.parametrize("behaviour", BEHAVIOURS, ids=[b.name for b in BEHAVIOURS])
def test_behaviour(results: dict[str, BehaviourResult], behaviour: Behaviour) -> None:
    result = results[behaviour.name]
    problems = "\n  ".join(result.problems)
    assert result.passed, f"{behaviour.script}: {behaviour.claim}\n  {problems}"


def test_every_script_and_issue_bullet_has_behaviours() -> None:
    names = {b.name for b in BEHAVIOURS}
    assert {b.script for b in BEHAVIOURS} == {VLLM_SCRIPT, OLLAMA_SCRIPT, WEBUI_SCRIPT}
    # The issue's bullets, each proven by at least one behaviour.
    for required in (
        "vllm-preflight-fails",
        "vllm-dflash-on",
        "vllm-dflash-absent",
        "vllm-dflash-disabled",
        "vllm-fast-death-demotes",
        "vllm-fast-deaths-give-up",
        "vllm-slow-death-resets",
        "vllm-clean-exit",
        "vllm-serve-settings",
        "ollama-waits-then-pulls",
        "ollama-skips-present-model",
        "ollama-pull-backoff",
        "webui-rewrites-on-device",
        "webui-off-device-untouched",
        "webui-other-urls-untouched",
    ):
        assert required in names
    assert len(names) == len(BEHAVIOURS), "behaviour names must be unique"
    assert all(b.claim for b in BEHAVIOURS), "every behaviour states its claim"


def test_a_missing_script_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    (result,) = run_behaviours(tmp_path, [BEHAVIOURS[0]])
    assert result.problems == (f"{BEHAVIOURS[0].script} is not in the render",)


@pytest.mark.parametrize(
    ("failures", "start", "cap", "expected"),
    [
        (5, 10, 40, [10, 20, 40, 40, 40]),
        (4, 10_000, 60_000, [10_000, 20_000, 40_000, 60_000]),  # the spec's 10 s doubling to 60 s
        (3, 50, 50, [50, 50, 50]),
        (0, 10, 40, []),
    ],
)
def test_backoff_delays_double_up_to_the_cap(
    failures: int, start: int, cap: int, expected: list[int]
) -> None:
    assert backoff_delays_ms(failures, start, cap) == expected


def test_serving_at_once_is_judged_by_the_barrier_not_by_which_process_ran_first(
    rendered: Path, tmp_path: Path
) -> None:
    # The script starts the model work in the background, then execs `ollama
    # serve`; the scheduler may well run the background job first. Force
    # that interleaving (serve starts half a second late): the script still
    # serves at once, beside the model work, and the behaviour must say so.
    script = tmp_path / "entrypoint.sh"
    text = (rendered / OLLAMA_SCRIPT).read_text(encoding="utf-8")
    assert text.count("\nexec ollama serve\n") == 1
    script.write_text(
        text.replace("\nexec ollama serve\n", "\nsleep 0.5\nexec ollama serve\n"), encoding="utf-8"
    )
    assert ollama_waits_then_pulls(script, tmp_path / "work") == []
