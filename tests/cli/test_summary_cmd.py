"""``wendy-llm summary DIR``: the action's job summary from its own reports
directory (issue 38): regular files only, never a link, under the limit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wendy_llm import options
from wendy_llm.cli import main


def _summary(
    directory: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, str, str]:
    code = main(["summary", str(directory), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_reports_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "diff.md").write_text("### wendy-llm diff python/llm: policy holds\n")
    (tmp_path / "check.md").write_text("### wendy-llm check: FAILED\n")
    (tmp_path / "check.xml").write_text("<testsuites/>\n")  # not Markdown: not in the summary
    code, out, err = _summary(tmp_path, capsys)
    assert (code, err) == (0, "")
    assert out == "### wendy-llm check: FAILED\n\n### wendy-llm diff python/llm: policy holds\n\n"


def test_an_empty_directory_prints_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _summary(tmp_path, capsys) == (0, "", "")


def test_reports_over_a_mebibyte_together_are_cut_below_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("check.md", "diff.md", "baseline-python-llm.md"):
        (tmp_path / name).write_text(f"### {name}\n" + "| a | b |\n" * 90_000)
    code, out, _ = _summary(tmp_path, capsys)
    assert code == 0
    assert len(out.encode("utf-8")) <= options.STEP_SUMMARY_MAX_BYTES < 1 << 20
    assert "this summary is cut here" in out and "baseline-python-llm.md" in out


def test_a_line_that_would_be_a_workflow_command_is_guarded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "check.md").write_text("::error::forged\n\x1b[2Jcleared\n")
    code, out, _ = _summary(tmp_path, capsys)
    assert code == 0
    assert out == "\\x3a:error::forged\n\\x1b[2Jcleared\n\n"


@pytest.mark.parametrize("kind", ["symlink", "fifo", "directory"])
def test_anything_but_a_regular_file_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("CANARY-SECRET\n")
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "check.md").write_text("### wendy-llm check: passed\n")
    odd = reports / "x.md"
    if kind == "symlink":
        odd.symlink_to(secret)
    elif kind == "fifo":
        os.mkfifo(odd)  # opened without waiting for a writer, then refused
    else:
        odd.mkdir()
    code, out, err = _summary(reports, capsys)
    assert code == 2 and "CANARY" not in out + err
    assert err.startswith(f"wendy-llm: error: {odd}: ")


def test_a_linked_reports_directory_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "check.md").write_text("CANARY-ELSEWHERE\n")
    (tmp_path / "reports").symlink_to(elsewhere)
    code, out, err = _summary(tmp_path / "reports", capsys)
    assert code == 2 and "CANARY" not in out + err
    assert "not a directory of reports" in err and "a symlink is refused" in err


def test_a_limit_too_small_for_a_summary_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _summary(tmp_path, capsys, "--max-bytes", "100")
    assert code == 2 and f"at least {options.STEP_SUMMARY_MIN_BYTES}" in err
