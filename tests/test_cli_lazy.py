"""``render`` and ``picks`` import only what they run (the command line's speed, issue 12).

Which modules a command loads is deterministic, unlike its wall time on a
shared machine, so this is what the tests hold; ``make bench`` measures
the time. Each command runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
LLM = REPO / "templates" / "python" / "llm"

#: What checking, fixtures, diffs and reports need, never a render: the layers
#: above ``render``, and the libraries only they use.
NOT_FOR_RENDERING = (
    "wendy_llm.repo",
    "wendy_llm.wendycli",
    "wendy_llm.device",
    "wendy_llm.docker",
    "wendy_llm.compare",
    "wendy_llm.golden",
    "wendy_llm.validate",
    "wendy_llm.reports",
    "yaml",
    "jsonschema",
    "dockerfile",
    # Standard-library modules that cost more to import than a render takes.
    "importlib.metadata",
    "tempfile",
    "secrets",
    "ctypes",
    "difflib",
    "concurrent.futures",
)

PROBE = """
import contextlib, io, json, sys
from wendy_llm.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps([code, sorted(sys.modules)]))
"""


def loaded_by(*argv: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True
    ).stdout
    code, modules = json.loads(out.splitlines()[-1])
    assert code == 0
    return [str(m) for m in modules]


def unwanted(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in NOT_FOR_RENDERING)]


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["picks", str(LLM)], id="picks"),
        pytest.param(["picks", str(LLM), "--quiet"], id="picks-quiet"),
        pytest.param(
            ["render", str(LLM), "--app-id", "a", "--pick", "gemma4-e2b", "--out", "OUT"],
            id="render",
        ),
    ],
)
def test_render_and_picks_load_nothing_they_do_not_run(argv: list[str], tmp_path: Path) -> None:
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv]
    modules = loaded_by(*argv)
    assert "wendy_llm.render.template" in modules  # the probe really ran the command
    assert unwanted(modules) == []


def test_the_probe_sees_what_plan_loads() -> None:
    """The same probe on ``plan`` finds the device view: the test above can fail."""
    modules = loaded_by("plan", str(LLM), "--pick", "gemma4-e2b")
    assert {"wendy_llm.device", "wendy_llm.docker.model"} <= set(unwanted(modules))
