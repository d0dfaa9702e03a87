"""The tool stage of ``check``: what Compose and ShellCheck said, by render key.

Every render of a run (a pick with one input, or the stored baseline
rendered for it) has a :data:`RenderKey`; the tools are handed the renders
under those keys and answer under the same keys
(:meth:`ComposeValidator.run_keyed`, :meth:`ShellValidator.validate_keyed`).
The stage's result, :class:`ToolVerdicts`, is a frozen value that the rule
stage receives; nothing is matched by position, so the order in which tool
runs finish (or are handed back) cannot attach one pick's verdict to another.

Both tools run in the background (one thread each) while the pure-Python
checks run, and share one :class:`ToolRunner`, so that together they never
run more processes than the machine gives this process cores.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from wendy_llm.codes import TOOL_FAILED, Check
from wendy_llm.errors import WendyLlmError
from wendy_llm.validate.checks.compose import ComposeValidator
from wendy_llm.validate.checks.shell import ShellValidator
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.pickrun import StageResult, Timer
from wendy_llm.validate.tools.cache import ResultCache
from wendy_llm.validate.tools.compose_run import ComposeResult
from wendy_llm.validate.tools.pool import ToolRunner

#: A render of a run: (template id, pick slug, input label).
RenderKey = tuple[str, str, str]

_Result = TypeVar("_Result")


@dataclass(frozen=True)
class ToolVerdicts:
    """What the tools said of each render (and each baseline render), by key.

    ``failed`` names the checks whose tool could not run at all (missing):
    the reason then fails that check for every render.
    """

    compose: Mapping[RenderKey, ComposeResult]
    baseline_compose: Mapping[RenderKey, ComposeResult]
    shell: Mapping[RenderKey, tuple[Finding, ...]]
    failed: Mapping[str, str]

    def stage(self, key: RenderKey, *, rendered: bool) -> StageResult:
        """The tool stage of the render ``key`` (nothing for a render that failed)."""
        if not rendered:
            return StageResult()
        checks = (Check.COMPOSE, Check.SHELL)
        return StageResult.of({check: self.findings(check, key) for check in checks})

    def rows(self, rendered: Iterable[RenderKey]) -> Mapping[RenderKey, StageResult]:
        """The tool stage of every render that rendered (``rendered``: their keys)."""
        return MappingProxyType({key: self.stage(key, rendered=True) for key in rendered})

    def findings(self, check: str, key: RenderKey) -> list[Finding]:
        """The ``compose`` or ``shell`` findings of the render ``key``."""
        if check in self.failed:
            return [error(TOOL_FAILED[check], self.failed[check])]
        if check == Check.COMPOSE:
            found = self.compose.get(key)
            return [] if found is None else list(found.findings)
        return list(self.shell.get(key, ()))


class ToolStage:
    """The tool runs of one ``check``, started at once, awaited by :meth:`verdicts`."""

    def __init__(
        self,
        renders: Mapping[RenderKey, Mapping[str, bytes]],
        baselines: Mapping[RenderKey, Mapping[str, bytes]],
        *,
        timer: Timer,
        results: ResultCache | None,
        runner: ToolRunner,
    ) -> None:
        self._compose = ComposeValidator(results=results, runner=runner)
        self._shell = ShellValidator(results=results, runner=runner)
        self._pool = ThreadPoolExecutor(max_workers=2)
        tagged = {("render", key): tree for key, tree in renders.items()}
        tagged.update({("baseline", key): tree for key, tree in baselines.items()})
        self._compose_future = self._pool.submit(
            timer.run, "compose", lambda: self._compose.run_keyed(tagged)
        )
        self._shell_future = self._pool.submit(
            timer.run, "shell", lambda: self._shell.validate_keyed(renders)
        )

    def cancel(self) -> None:
        """Interrupted (Ctrl-C, SIGTERM): kill the tools, drop the queued jobs."""
        self._compose.cancel()
        self._shell.cancel()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def verdicts(self) -> ToolVerdicts:
        """Wait for both tools; their answers, by render key."""
        failed: dict[str, str] = {}
        compose = _outcome("compose", self._compose_future, failed) or {}
        shell = _outcome("shell", self._shell_future, failed) or {}
        self._pool.shutdown()
        return ToolVerdicts(
            compose=MappingProxyType(
                {k: v for (role, k), v in compose.items() if role == "render"}
            ),
            baseline_compose=MappingProxyType(
                {k: v for (role, k), v in compose.items() if role == "baseline"}
            ),
            shell=MappingProxyType({k: tuple(v) for k, v in shell.items()}),
            failed=MappingProxyType(failed),
        )


def _outcome(check: str, future: Future[_Result], failed: dict[str, str]) -> _Result | None:
    try:
        return future.result()
    except WendyLlmError as exc:
        # A missing tool fails the check for every pick, with the reason.
        failed[check] = str(exc)
        return None
