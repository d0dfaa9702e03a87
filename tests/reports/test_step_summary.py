"""The action's job summary (issue 38): every report whole while it fits, the
whole under GitHub's 1 MiB per step, a cut said with a marker."""

from __future__ import annotations

import pytest

from wendy_llm import options
from wendy_llm.reports.github.summary import NamedReport, report_order, step_summary

MIB = 1 << 20


def _report(name: str, size: int, line: str = "| a | b |") -> NamedReport:
    lines = [f"### {name}"] + [line] * (size // (len(line) + 1))
    return NamedReport(name, "\n".join(lines) + "\n")


def test_the_check_comes_first_then_the_base_then_the_baselines() -> None:
    names = ["baseline-python-llm.md", "zz.md", "diff.md", "check.md", "baseline-go-x.md"]
    assert sorted(names, key=report_order) == [
        "check.md", "diff.md", "baseline-go-x.md", "baseline-python-llm.md", "zz.md",
    ]  # fmt: skip


def test_reports_that_fit_are_whole_and_in_order() -> None:
    reports = [NamedReport("diff.md", "### diff\n"), NamedReport("check.md", "### check")]
    assert step_summary(reports, options.STEP_SUMMARY_MAX_BYTES, "the artifact") == (
        "### check\n\n### diff\n\n"
    )


def test_several_capped_reports_together_stay_under_the_limit() -> None:
    # Each report is under the Markdown writer's own cap; together (what a
    # shell `cat reports/*.md` appended) they are over 1 MiB.
    reports = [_report(f"baseline-t{i}.md", 900_000) for i in range(3)]
    reports.append(_report("check.md", 900_000))
    assert sum(len(r.text.encode()) for r in reports) > MIB
    text = step_summary(reports, options.STEP_SUMMARY_MAX_BYTES, "the artifact")
    assert len(text.encode("utf-8")) <= options.STEP_SUMMARY_MAX_BYTES < MIB
    assert text.startswith("### check.md\n")
    assert text.count("### ") == 2  # the check whole, the first baseline's head
    marker = text.rstrip("\n").rsplit("\n", 1)[1]
    assert marker.startswith("**wendy-llm: this summary is cut here")
    assert "the rest of baseline-t0.md" in marker
    assert "2 more report(s) (baseline-t1.md, baseline-t2.md)" in marker
    assert "every report is whole in the artifact" in marker


def test_a_cut_closes_the_block_it_falls_in() -> None:
    body = "<details><summary>diffs</summary>\n\n```diff\n" + "+ line\n" * 40_000
    text = step_summary([NamedReport("diff.md", body)], 100_000, "the artifact")
    assert len(text.encode("utf-8")) <= 100_000
    head, marker = text.rsplit("\n\n**wendy-llm:", 1)
    assert head.endswith("+ line\n```\n</details>")
    assert "the rest of diff.md" in marker


def test_a_cut_is_at_a_whole_line_of_multibyte_text() -> None:
    text = step_summary([_report("check.md", 300_000, "| é€ |")], 50_000, "x")
    assert len(text.encode("utf-8")) <= 50_000
    assert all(line in ("### check.md", "| é€ |", "") or line.startswith("**wendy-llm")
               for line in text.split("\n"))  # fmt: skip


def test_many_reports_left_out_are_counted_within_the_limit() -> None:
    reports = [_report("check.md", 60_000)]
    reports += [NamedReport(f"baseline-{'x' * 200}-{i}.md", "y\n") for i in range(500)]
    text = step_summary(reports, 20_000, "the artifact")
    assert len(text.encode("utf-8")) <= 20_000
    assert "and 500 more report(s)" in text and "and 490 more)" in text


def test_a_limit_without_room_for_the_marker_is_refused() -> None:
    with pytest.raises(ValueError, match="max_bytes must be over"):
        step_summary([], 100, "x")
