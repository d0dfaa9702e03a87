"""The dispatcher: every subcommand registered, errors mapped to exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wendy_llm.cli import SUBCOMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parent.parent
LLM = ROOT / "templates" / "python" / "llm"


def test_every_subcommand_is_registered() -> None:
    help_text = build_parser().format_help()
    for name in SUBCOMMANDS:
        assert name in help_text


def test_a_library_error_is_exit_2_with_its_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["picks", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wendy-llm: error: ")
    assert "nope" in err


def test_a_reader_that_leaves_early_gets_no_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "wendy_llm", "picks", str(LLM), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # like `| head` exiting before the output is written
    stderr = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 1
    assert "Traceback" not in stderr
