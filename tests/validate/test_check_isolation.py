"""``check`` isolates a runaway template: one that times out or exceeds the
output cap fails its own rows, and every other template is still checked."""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from _check_helpers import write_template

from wendy_llm.cli import main
from wendy_llm.engine import client
from wendy_llm.engine.client import Renderer, RenderJob
from wendy_llm.errors import RenderTimeout, TemplateError
from wendy_llm.golden import update_golden
from wendy_llm.validate.findings import Report
from wendy_llm.validate.run import run_check

# The data map of a render is a map of three keys; ranging over it nested
# twenty-four deep never ends (3**24 steps), and twelve deep with a
# kilobyte a step writes far more than the output cap.  (Portable: no
# range over an int, which needs a recent Go.)
ENDLESS = "{{range $}}" * 24 + "{{end}}" * 24 + "never\n"
BOMB = "{{range $}}" * 12 + "0123456789" * 100 + "{{end}}" * 12


class CountingRenderer(Renderer):
    """A renderer that counts the batches that timed out."""

    timeouts = 0

    def render_many(self, jobs: Sequence[RenderJob]) -> list[bytes | TemplateError]:
        try:
            return super().render_many(jobs)
        except RenderTimeout:
            self.timeouts += 1
            raise


@pytest.fixture
def short_timeout(monkeypatch: pytest.MonkeyPatch) -> Iterator[CountingRenderer]:
    """The process-wide renderer, with a timeout a test can wait for."""
    renderer = CountingRenderer(timeout=0.5)
    monkeypatch.setattr(client, "_shared", renderer)
    try:
        yield renderer
    finally:
        renderer.close()


def two_templates(tmp_path: Path, bad_file: str) -> tuple[Path, Path]:
    """``py/mini`` (good) and ``py/bad`` (its ``wendy.json`` replaced by ``bad_file``)."""
    templates, golden = write_template(tmp_path)
    update_golden(templates, golden)
    bad = templates / "py" / "bad"
    shutil.copytree(templates / "py" / "mini", bad)
    (bad / "extra.txt").write_text(bad_file, encoding="utf-8")
    shutil.copy(golden / "py" / "mini.rules.yaml", golden / "py" / "bad.rules.yaml")
    return templates, golden


def render_failures(report: Report, template: str) -> list[tuple[str, str]]:
    return [
        (r.pick, f.message)
        for r in report.results
        if r.template == template and r.check == "render"
        for f in r.findings
        if f.severity == "error"
    ]


def test_a_template_that_times_out_fails_alone_and_is_rendered_until_its_first_timeout(
    tmp_path: Path, short_timeout: CountingRenderer
) -> None:
    templates, golden = two_templates(tmp_path, ENDLESS)
    report = run_check(templates, golden_dir=golden, golden=False, cache=False)
    # The good template is checked as ever.
    mini = [r for r in report.results if r.template == "py/mini"]
    assert mini and all(r.status != "fail" for r in mini)
    # Every pick of the bad one fails `render`: the first with the timeout
    # (naming the file), the others saying why they were not rendered.
    failed = render_failures(report, "py/bad")
    assert [pick for pick, _ in failed] == ["gemma4-e2b", "qwen2.5-3b", "big-dflash"]
    assert "rendering extra.txt took longer than 0.5s" in failed[0][1]
    assert all("not rendered: an earlier render of py/bad" in m for _, m in failed[1:])
    # One timeout, not one per pick and input (and none in the lints).
    assert short_timeout.timeouts == 1
    assert not report.passed()


def test_check_exits_1_with_a_row_naming_a_template_over_the_output_cap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    templates, golden = two_templates(tmp_path, BOMB)
    code = main(["check", str(templates), "--golden-dir", str(golden)])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert err == ""
    rows = [line.split() for line in out.splitlines()]
    slugs = {"gemma4-e2b", "qwen2.5-3b", "big-dflash"}
    table = [row for row in rows if len(row) == 12]  # template, pick and ten checks
    bad_rows = [row for row in table if row[0] == "py/bad" and row[1] in slugs]
    mini_rows = [row for row in table if row[0] == "py/mini"]
    assert len(bad_rows) == 3 and all(row[2] == "FAIL" for row in bad_rows)
    assert len(mini_rows) == 4 and all("FAIL" not in row for row in mini_rows)
    assert "extra.txt produced more than" in out
    # The message names the template by its id, never the host's path (issue 29).
    assert "template py/bad: rendering extra.txt" in out and str(tmp_path) not in out
