"""Helpers for the entrypoint tests: the package's stub harness, the rendered
scripts, and small scripts for testing the harness itself.

The harness lives in the package (``harness.scripttest``) because the
mutation check (``python -m harness.mutants``) runs the same behaviours
(``harness.behaviours``) against mutated templates; the tests reuse it
rather than keep a second copy.
"""

from __future__ import annotations

from pathlib import Path

from harness.behaviours import render_scripts
from harness.scripttest import Call, Outcome, Rule, ScriptRun, run_script

from wendy_llm.render.template import load_template

__all__ = [
    "TEMPLATE_DIR",
    "Call",
    "Outcome",
    "Rule",
    "ScriptRun",
    "render_template_scripts",
    "run_script",
    "write_script",
]

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE_DIR = ROOT / "templates" / "python" / "llm"


def render_template_scripts(out_dir: Path) -> Path:
    """The python/llm template rendered as the behaviours expect, in ``out_dir``."""
    return render_scripts(load_template(TEMPLATE_DIR, id="python/llm"), out_dir)


def write_script(directory: Path, body: str, name: str = "script.sh") -> Path:
    """A bash script (not executable: the harness runs ``bash <script>``, as
    `wendy init` drops execute bits)."""
    path = directory / name
    path.write_text("#!/usr/bin/env bash\nset -euo pipefail\n" + body, encoding="utf-8")
    return path
