"""What every entrypoint behaviour shares: the catalogue entry, the stub
set, and the problem collector that checks a run."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from harness.scripttest import ScriptRun
from wendy_llm.render.picks import CANONICAL_APP_ID

VLLM_SCRIPT: Final = "vllm/entrypoint.sh"
OLLAMA_SCRIPT: Final = "ollama/entrypoint.sh"
WEBUI_SCRIPT: Final = "open-webui/entrypoint.sh"

#: The inputs the scripts are rendered with: PORT as ``--var`` gives it (int).
RENDER_APP_ID: Final = CANONICAL_APP_ID
RENDER_OVERRIDES: Final[Mapping[str, str]] = {"PORT": "3000"}
RENDERED_PORT: Final = "3000"

#: Every program the scripts might reach for; a call without a rule fails.
STUBBED_COMMANDS: Final = (
    "curl",
    "wget",
    "python",
    "python3",
    "pip",
    "vllm",
    "ollama",
    "open-webui",
    "nvidia-smi",
    "huggingface-cli",
    "hf",
    "getent",
)

RUN_TIMEOUT_S: Final = 90.0

#: The prefix of a stub's own marker lines (its ``exit_message``), which are
#: not problems, unlike the harness's ``[stub] unexpected call`` lines.
MARKER: Final = "[stub-marker] "


@dataclass(frozen=True)
class Behaviour:
    """One claim about one script, and the check that proves it."""

    name: str
    script: str
    check: Callable[[Path, Path], list[str]]

    @property
    def claim(self) -> str:
        """The first paragraph of the check's docstring, on one line."""
        return " ".join((self.check.__doc__ or "").split("\n\n")[0].split())


class Expect:
    """Collects the problems of one behaviour; each message says what was
    expected and what happened."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def that(self, condition: bool, message: str) -> bool:
        if not condition:
            self.problems.append(message)
        return condition

    def equal(self, what: str, actual: object, expected: object) -> bool:
        return self.that(actual == expected, f"{what}: expected {expected!r}, got {actual!r}")

    def clean_run(self, run: ScriptRun, *, status: int | None) -> None:
        """The run ended in time, with ``status`` (None: any non-zero), and
        every stub call was scripted."""
        if run.timed_out:
            self.problems.append(f"did not finish within {RUN_TIMEOUT_S:g}s (an endless loop?)")
            return
        if status is None:
            self.that(
                run.exit_code not in (0, None),
                f"exit status: expected non-zero, got {run.exit_code}",
            )
        else:
            self.equal("exit status", run.exit_code, status)
        for line in run.log_lines:
            if line.startswith("[stub] "):
                self.problems.append(f"unscripted call: {line}")

    def logged(self, run: ScriptRun, pattern: str, what: str) -> int | None:
        """Index of the first log line matching ``pattern`` (a regexp)."""
        regex = re.compile(pattern)
        for index, line in enumerate(run.log_lines):
            if regex.search(line):
                return index
        self.problems.append(f"no log line {what} (/{pattern}/)")
        return None

    def not_logged(self, run: ScriptRun, pattern: str, what: str) -> None:
        regex = re.compile(pattern)
        for line in run.log_lines:
            if regex.search(line):
                self.problems.append(f"unexpected log line ({what}): {line}")
                return
