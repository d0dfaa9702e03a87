"""What the python/llm template's entrypoint scripts must do, run for real.

Each :class:`Behaviour` renders nothing itself: it gets the path of one
rendered script (``vllm/entrypoint.sh``, ``ollama/entrypoint.sh`` or
``open-webui/entrypoint.sh``), runs it with real bash and stubs
(:mod:`harness.scripttest`) under a scripted scenario, with the timing
overrides the scripts document set to milliseconds, and returns the
problems it saw: wrong exit status, missing, extra or misordered calls,
wrong arguments, missing log lines.  An empty list means the behaviour holds.

:func:`render_scripts` renders the template (the scripts are the same for
every pick; ``PORT`` is given as ``--var PORT=3000`` because the Open WebUI
script embeds it) and :func:`run_behaviours` runs behaviours against that
tree in parallel.  The
tests (``tests/templates/test_entrypoints.py``) and the mutation check
(``python -m harness.mutants``) both run exactly these behaviours.

Expected values are the spec's (``spec/llm-template.md``): serve arguments,
image defaults, the backoff rule.  Nothing depends on how fast the machine
is: timing assertions are lower bounds only (a pause is never shorter than
asked); the order of two processes is read from a barrier (an API call waits
until ``ollama serve`` has started, see :class:`harness.scripttest.Rule`),
never from which one the scheduler ran first; a "fast" vLLM death is one
under a threshold no run can reach, and a run that needs fast and slow
deaths gets a scripted clock.  The only time limits guard against hangs.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from harness.behaviours import ollama, open_webui, vllm
from harness.behaviours.base import RENDER_APP_ID, RENDER_OVERRIDES, Behaviour
from wendy_llm.render.template import Template

__all__ = [
    "BEHAVIOURS",
    "Behaviour",
    "BehaviourResult",
    "render_scripts",
    "run_behaviour",
    "run_behaviours",
]

BEHAVIOURS: Final[tuple[Behaviour, ...]] = (
    vllm.BEHAVIOURS + ollama.BEHAVIOURS + open_webui.BEHAVIOURS
)


@dataclass(frozen=True)
class BehaviourResult:
    behaviour: Behaviour
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems


def render_scripts(template: Template, out_dir: Path) -> Path:
    """Write the template's render for the behaviours into ``out_dir`` (new)."""
    tree = template.render(RENDER_APP_ID, RENDER_OVERRIDES)
    return tree.write(out_dir)


def run_behaviour(behaviour: Behaviour, scripts_root: Path, work: Path) -> BehaviourResult:
    """Run one behaviour against the script under ``scripts_root`` (a rendered tree)."""
    script = scripts_root / behaviour.script
    if not script.is_file():
        return BehaviourResult(behaviour, (f"{behaviour.script} is not in the render",))
    work.mkdir(parents=True, exist_ok=True)
    return BehaviourResult(behaviour, tuple(behaviour.check(script, work)))


def run_behaviours(
    scripts_root: Path, behaviours: Sequence[Behaviour] | None = None, *, workers: int = 4
) -> list[BehaviourResult]:
    """Run behaviours (all by default) against a rendered tree, in parallel
    (the runs mostly wait on sleeps and stub start-up); results in order."""
    chosen = list(BEHAVIOURS if behaviours is None else behaviours)
    root = Path(tempfile.mkdtemp(prefix="wendy-behaviours-"))
    try:
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            futures = [
                pool.submit(run_behaviour, b, scripts_root, root / f"{i:02d}-{b.name}")
                for i, b in enumerate(chosen)
            ]
            return [f.result() for f in futures]
    finally:
        shutil.rmtree(root, ignore_errors=True)
