"""``make bench``'s command-line benchmark runs end to end (its figures are not
asserted: timing belongs in the benchmark, not in a test on a shared machine)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_cli

import wendy_llm
from wendy_llm.render.template import load_template

MS = r"\d+\.\d ms"


def test_the_cli_line_sets_python_wendy_llm_and_go_side_by_side(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench_cli.main(["--rounds", "1"]) == 0
    out = capsys.readouterr().out
    render = next(line for line in out.splitlines() if line.startswith("render: "))
    assert re.search(
        rf"python -c pass {MS} \| wendy-llm render \(gemma4-e2b\) {MS} \(\d+\.\dx python\) "
        rf"\| Go render of the same tree {MS} \(\d+\.\dx Go\)",
        render,
    ), render
    picks = next(line for line in out.splitlines() if line.startswith("picks: "))
    assert re.search(rf"wendy-llm picks {MS} \(\d+\.\dx python\)", picks), picks
    # Each line says what it measured: this venv, and wendy-llm as installed in it.
    venv = Path(sys.prefix).name
    kind = (
        "installed package"
        if Path(wendy_llm.__file__).is_relative_to(sys.prefix)
        else "editable install"
    )
    for measured in (render, picks):
        assert f" [{venv}: {kind}; median of 1 interleaved rounds;" in measured


def test_the_go_program_renders_what_wendy_llm_renders(tmp_path: Path) -> None:
    """The comparison is fair: the same tree, byte for byte, from one definition
    of the file rules and one data map (a typed one: PORT stays a float64)."""
    config = bench_cli.go_config()
    data = config["data"]
    assert isinstance(data, dict) and isinstance(data["PORT"], float)
    (tmp_path / "config.json").write_text(json.dumps(config), encoding="utf-8")
    gorender = bench_cli.build_go(tmp_path)
    out = tmp_path / "go"
    subprocess.run(
        [str(gorender), str(tmp_path / "config.json"), str(bench_cli.TEMPLATE_DIR), str(out)],
        check=True,
    )
    template = load_template(bench_cli.TEMPLATE_DIR)
    tree = template.render(bench_cli.APP_ID, template.pick(bench_cli.PICK).answers)
    assert bench_cli.read_tree(out) == {path: item.data for path, item in tree.files.items()}
