"""``render`` and ``picks`` import only what they run (the command line's speed, issue 12).

Which modules a command loads is deterministic, unlike its wall time on a
shared machine, so this is what the tests hold; ``make bench`` measures
the time. Each command runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
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
    # Standard-library modules that cost more to import than a render takes
    # (dataclasses brings inspect, ast, dis and tokenize, and each dataclass
    # compiles its methods when created).
    "dataclasses",
    "inspect",
    # typing: annotations are strings (PEP 563), so the modules of render and
    # picks import it for mypy only (``TYPE_CHECKING = False``).
    "typing",
    # hashlib loads OpenSSL: a warm helper cache remembers the binary without
    # hashing its sources; shutil loads bz2 and lzma: only replacing a tree
    # (or removing a dead writer's work) needs its rmtree.
    "hashlib",
    "shutil",
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


@pytest.fixture(scope="module", autouse=True)
def warm_helper_cache() -> None:
    """The helper cache as ``make install`` leaves it (built, and remembered)."""
    subprocess.run(
        [sys.executable, "-m", "wendy_llm.engine.toolchain"], capture_output=True, check=True
    )


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


@pytest.mark.parametrize("quiet", [[], ["--quiet"]], ids=["picks", "picks-quiet"])
def test_picks_of_a_template_asking_go_nothing_loads_no_engine(quiet: list[str]) -> None:
    """Listing the llm template's picks makes no Go call, so neither the helper's
    process handling (subprocess, threads) nor the toolchain is imported."""
    modules = loaded_by("picks", str(LLM), *quiet)
    engine = ["subprocess", "wendy_llm.engine.client", "wendy_llm.engine.process"]
    engine.append("wendy_llm.engine.toolchain")
    assert "wendy_llm.engine.gofuncs" in modules  # it could have asked Go
    assert [m for m in engine if m in modules] == []


def test_the_probe_sees_what_plan_loads() -> None:
    """The same probe on ``plan`` finds the device view: the test above can fail."""
    modules = loaded_by("plan", str(LLM), "--pick", "gemma4-e2b")
    assert {"wendy_llm.device", "wendy_llm.docker.model"} <= set(unwanted(modules))


FREEZE_PROBE = """
import contextlib, gc, io, sys
from wendy_llm.cli import main, program
entry = program if sys.argv[1] == "program" else main
sys.argv = ["wendy-llm", *sys.argv[2:]]
with contextlib.redirect_stdout(io.StringIO()):
    code = entry()
print(code, gc.get_freeze_count() > 0, gc.isenabled())
"""


@pytest.mark.parametrize(("entry", "frozen"), [("program", True), ("main", False)])
def test_the_program_leaves_its_objects_to_the_exit(entry: str, frozen: bool) -> None:
    """``wendy-llm`` (``program``) freezes what it made, so the interpreter's last
    collections skip it; ``main``, which a longer-lived process may call, leaves
    the collector alone."""
    out = subprocess.run(
        [sys.executable, "-c", FREEZE_PROBE, entry, "picks", str(LLM)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["0", str(frozen), "True"]


COLLECTIONS_PROBE = """
import contextlib, gc, io, sys
from wendy_llm.cli import program
during_import = []
def seen(phase, info):
    module = sys.modules.get("wendy_llm.cli.picks_cmd")
    if phase == "start" and module is not None and not hasattr(module, "run"):
        during_import.append(info["generation"])
gc.callbacks.append(seen)
sys.argv = ["wendy-llm", *sys.argv[1:]]
with contextlib.redirect_stdout(io.StringIO()):
    code = program()
print(code, len(during_import))
"""


def test_the_program_imports_a_command_without_collecting() -> None:
    """Importing a command's modules makes no garbage: the collector is off meanwhile."""
    out = subprocess.run(
        [sys.executable, "-c", COLLECTIONS_PROBE, "picks", str(LLM)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["0", "0"]


HELP_PROBE = """
import argparse, sys
from wendy_llm.cli import SUBCOMMANDS, build_parser
ours = build_parser()
theirs = build_parser()
theirs.formatter_class = argparse.HelpFormatter
for action in theirs._subparsers._group_actions:
    for sub in action.choices.values():
        sub.formatter_class = argparse.RawDescriptionHelpFormatter
pairs = [(ours, theirs)] + [
    (a.choices[name], b.choices[name])
    for a, b in zip(ours._subparsers._group_actions, theirs._subparsers._group_actions)
    for name in a.choices
]
print(sum(1 for a, b in pairs if a.format_help() != b.format_help()), len(pairs) - len(SUBCOMMANDS))
"""


@pytest.mark.parametrize("columns", [None, "40", "100", "0", "wide"])
def test_help_is_as_wide_as_argparse_makes_it(columns: str | None) -> None:
    """The parser finds the terminal's width without importing shutil, and
    lays help out exactly as argparse's own formatter does."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = columns
    out = subprocess.run(
        [sys.executable, "-c", HELP_PROBE], capture_output=True, text=True, check=True, env=env
    ).stdout
    assert out.split() == ["0", "1"]  # the program and every one of its subcommands


SPAWN_PROBE = """
import contextlib, io, sys
from wendy_llm.engine import process
spawned = []
real = process.Helper.__init__
def spy(self, binary):
    spawned.append("wendy_llm.render.template" in sys.modules)
    real(self, binary)
process.Helper.__init__ = spy
from wendy_llm.cli import program
sys.argv = ["wendy-llm", *sys.argv[1:]]
with contextlib.redirect_stdout(io.StringIO()):
    code = program()
print(code, spawned)
"""


@pytest.mark.parametrize(
    ("argv", "spawns"),
    [
        pytest.param(
            ["render", str(LLM), "--app-id", "a", "--pick", "gemma4-e2b", "--out", "OUT"],
            "[False]",
            id="render",
        ),
        pytest.param(["picks", str(LLM)], "[]", id="picks"),
    ],
)
def test_a_render_starts_the_helper_before_importing_the_renderer(
    argv: list[str], spawns: str, tmp_path: Path
) -> None:
    """Go gets ready while Python imports the command: one helper, spawned
    before the render modules load; ``picks`` renders nothing and starts none."""
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv]
    out = subprocess.run(
        [sys.executable, "-c", SPAWN_PROBE, *argv], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == f"0 {spawns}"


def test_replacing_an_output_loads_no_shutil(tmp_path: Path) -> None:
    """``--force`` over an earlier render removes the old tree without shutil
    (only ctypes, for the atomic exchange, joins what a render loads)."""
    out = tmp_path / "out"
    argv = ["render", str(LLM), "--app-id", "a", "--pick", "gemma4-e2b", "--out", str(out)]
    loaded_by(*argv)
    modules = loaded_by(*argv, "--force")
    assert "ctypes" in modules  # the probe really replaced the tree
    assert [m for m in unwanted(modules) if not m.startswith("ctypes")] == []
    assert "shutil" not in modules
