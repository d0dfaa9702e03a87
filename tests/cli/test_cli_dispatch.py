"""The dispatcher: every subcommand registered, errors mapped to exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from wendy_llm.cli import SUBCOMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parents[2]
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
    # Like `| head` exiting before the output is written: the pipe's read end
    # is closed before the command even starts, so its first write fails
    # whatever the scheduler does (closing it after the start would race the
    # command's output into the pipe buffer).
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "wendy_llm", "picks", str(LLM), "--json"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            timeout=300,
        )
    finally:
        os.close(write_end)
    assert proc.returncode == 1
    assert proc.stderr.decode() == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["check"],
        ["golden", "--check"],
        ["diff", "--baseline", "golden/baseline/python/llm", "--template", "python/llm"],
    ],
    ids=["check", "golden", "diff"],
)
@pytest.mark.parametrize("limit", ["-1", "many"])
def test_every_diff_printing_command_rejects_a_bad_line_limit(
    argv: list[str], limit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--max-diff-lines", limit])
    assert exited.value.code == 2
    assert "argument --max-diff-lines: " in capsys.readouterr().err


def test_a_defect_of_wendy_llm_is_exit_2_with_every_report_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 38: a crash must not leave the job's summary empty. The check
    # itself is made to crash, with text that acts on a terminal or a runner.
    from wendy_llm.cli import check_cmd

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom\n::error::forged\x1b[31m")

    monkeypatch.setattr(check_cmd, "check_verdict", crash)
    reports = {name: tmp_path / name for name in ("check.md", "check.xml", "check.sarif")}
    argv = ["check", str(LLM.parent.parent), "--markdown", str(reports["check.md"])]
    argv += ["--junit", str(reports["check.xml"]), "--sarif", str(reports["check.sarif"])]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback (most recent call last):" in err and "in crash" in err
    assert "wendy-llm: error: internal error: RuntimeError: boom" in err
    assert "\n::error::" not in err and "\x1b" not in err
    for path in reports.values():
        assert "internal error: RuntimeError: boom" in path.read_text(encoding="utf-8"), path
    json.loads(reports["check.sarif"].read_text(encoding="utf-8"))
    ET.parse(reports["check.xml"])
