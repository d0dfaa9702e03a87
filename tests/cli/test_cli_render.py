"""`wendy-llm render` and `wendy-llm picks`."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from _template_helpers import checkbox, make_template, phase, radio

import wendy_llm
from wendy_llm.cli import main

REPO = Path(__file__).resolve().parents[2]
LLM = REPO / "templates" / "python" / "llm"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_render_writes_the_llm_template(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "app"
    code, stdout, stderr = run(
        ["render", str(LLM), "--app-id", "my-app", "--var", "PORT=3000", "--out", str(out)], capsys
    )
    assert code == 0, stderr
    assert stderr == ""
    assert stdout.startswith(f"wrote 10 files to {out} (")
    compose = (out / "docker-compose.yml").read_text()
    assert "3000:3000" in compose and "my-app-models" in compose
    assert 'OLLAMA_MODEL: "gemma4:e2b"' in compose
    assert stat.S_IMODE((out / "ollama" / "entrypoint.sh").stat().st_mode) == 0o644


def test_render_a_pick_and_let_var_override_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dflash"
    code, _, stderr = run(
        ["render", str(LLM), "--app-id", "a", "--pick", "laguna-s-2.1-dflash", "--out", str(out)],
        capsys,
    )
    assert code == 0, stderr
    compose = (out / "docker-compose.yml").read_text()
    assert "vllm" in compose and "a-models" not in compose
    out2 = tmp_path / "override"
    code, _, stderr = run(
        [
            "render", str(LLM), "--app-id", "a", "--pick", "laguna-s-2.1-dflash",
            "--var", "OLLAMA_MODEL=gemma4:e4b", "--out", str(out2),
        ],
        capsys,
    )  # fmt: skip
    assert code == 0, stderr
    assert 'OLLAMA_MODEL: "gemma4:e4b"' in (out2 / "docker-compose.yml").read_text()


def test_render_refuses_a_non_empty_out_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "app"
    out.mkdir()
    (out / "old.txt").write_text("x")
    args = ["render", str(LLM), "--app-id", "my-app", "--out", str(out)]
    code, _, stderr = run(args, capsys)
    assert code == 2
    assert (
        stderr == f"wendy-llm: error: {out}: directory is not empty; pass --force to replace it\n"
    )
    code, _, stderr = run([*args, "--force"], capsys)
    assert code == 0, stderr
    assert not (out / "old.txt").exists() and (out / "wendy.json").is_file()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--var", "PORT=x"], 'template llm: invalid value for PORT: expected integer, got "x"'),
        (["--var", "PORT=0"], "template llm: PORT must be at least 1"),
        (
            ["--var", "OLLAMA_MODEL=nope"],
            'template llm: invalid value for OLLAMA_MODEL: "nope" is not an option',
        ),
        (["--pick", "nope"], 'template llm has no pick "nope"; its picks: gemma4-e2b, '),
    ],
)
def test_render_input_errors_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    out = tmp_path / "app"
    code, stdout, stderr = run(
        ["render", str(LLM), "--app-id", "my-app", "--out", str(out), *extra], capsys
    )
    assert code == 2
    assert stderr.startswith(f"wendy-llm: error: {message}")
    assert stdout == "" and not out.exists()


def test_strictness_of_the_app_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["render", str(LLM), "--app-id", "yes", "--out", str(tmp_path / "a")]
    code, _, stderr = run(args, capsys)
    assert code == 2 and 'app id "yes" reads as a boolean in YAML' in stderr
    code, _, stderr = run([*args, "--no-strict"], capsys)
    assert code == 0, stderr
    assert "yes-models" in (tmp_path / "a" / "docker-compose.yml").read_text()


def test_bad_var_syntax_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["render", str(LLM), "--app-id", "a", "--var", "NOEQUALS", "--out", str(tmp_path)])
    assert info.value.code == 2
    assert 'expected KEY=VALUE, got "NOEQUALS"' in capsys.readouterr().err


def test_render_errors_and_lint_warnings_go_to_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = make_template(
        tmp_path,
        variables=[{"name": "PORT", "type": "integer", "default": 8080}],
        files={"cmp.txt": "{{if eq .PORT 8080}}yes{{end}}", "Dockerfile.cuda": "{{.APP_ID}}"},
    )
    assert t.root is not None
    out = tmp_path / "out"
    code, _, stderr = run(["render", str(t.root), "--app-id", "a", "--out", str(out)], capsys)
    assert code == 2
    assert stderr.startswith(
        "wendy-llm: error: template demo: rendering cmp.txt: template: cmp.txt:1:5: executing "
        '"cmp.txt" at <eq .PORT 8080>: error calling eq: incompatible types for comparison'
    )
    code, stdout, stderr = run(
        ["render", str(t.root), "--app-id", "a", "--var", "PORT=8080", "--out", str(out)], capsys
    )
    assert code == 0
    assert "wrote 2 files" in stdout and "(1 rendered, 1 copied)" in stdout
    lines = stderr.splitlines()
    assert "wendy-llm: warning: Dockerfile.cuda:1: copied-template: " in lines[0]
    assert any(line.startswith("wendy-llm: warning: cmp.txt:1: number-typing: ") for line in lines)
    assert (out / "cmp.txt").read_text() == "yes"


def test_a_value_given_for_a_variable_without_default_reaches_the_lints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Census: `render --var OPENAI_API_KEY=...` warned that every pick misses it.
    t = make_template(
        tmp_path,
        variables=[
            {"name": "KEY", "type": "string"},
            {"name": "PORT", "type": "integer", "default": 8080},
        ],
        files={"cmp.txt": "{{.KEY}} {{if eq .PORT 8080}}yes{{end}}"},
    )
    assert t.root is not None
    argv = ["render", str(t.root), "--app-id", "a", "--var", "KEY=k", "--var", "PORT=8080"]
    code, _, stderr = run([*argv, "--out", str(tmp_path / "out")], capsys)
    assert code == 0
    assert "values-error" not in stderr
    # The lints still judge the template's own defaults: PORT's typing is reported.
    assert "wendy-llm: warning: cmp.txt:1: number-typing: " in stderr


def test_picks_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t = make_template(
        tmp_path,
        phases=[phase(radio("MODEL", ["a:1", "b"]), checkbox("F", ["x"], default="x"))],
    )
    assert t.root is not None
    code, stdout, _ = run(["picks", str(t.root)], capsys)
    assert code == 0
    assert stdout.splitlines() == [
        "a-1__none  MODEL=a:1 F=",
        "a-1__x     MODEL=a:1",
        "b__none    MODEL=b F=",
        "b__x       MODEL=b",
    ]
    code, stdout, _ = run(["picks", str(t.root), "--json"], capsys)
    assert code == 0
    assert json.loads(stdout) == {
        "version": 1,
        "wendy_llm_version": wendy_llm.__version__,
        "template": "demo",
        "picks": [
            {"slug": "a-1__none", "answers": {"MODEL": "a:1", "F": ""}},
            {"slug": "a-1__x", "answers": {"MODEL": "a:1"}},
            {"slug": "b__none", "answers": {"MODEL": "b", "F": ""}},
            {"slug": "b__x", "answers": {"MODEL": "b"}},
        ],
    }


def test_picks_of_a_template_without_picker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = make_template(tmp_path)
    assert t.root is not None
    code, stdout, _ = run(["picks", str(t.root)], capsys)
    assert (code, stdout) == (0, "default  (picker defaults)\n")


def test_picks_of_a_missing_template(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, stderr = run(["picks", str(tmp_path / "nope")], capsys)
    assert code == 2
    assert stderr == f"wendy-llm: error: {tmp_path / 'nope'}: not a directory\n"


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("render", "picks"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "examples:" in capsys.readouterr().out


def test_a_template_error_comes_before_a_helper_that_cannot_start(tmp_path: Path) -> None:
    """render starts the helper early, while the template loads; a helper that
    cannot start is still reported only when it is needed, after the template."""
    env = {**os.environ, "WENDY_LLM_GO": str(tmp_path / "no-go"), "WENDY_LLM_CACHE": str(tmp_path)}
    args = ["render", "--app-id", "a", "--out", str(tmp_path / "out")]
    missing = subprocess.run(
        [sys.executable, "-m", "wendy_llm", *args, str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == f"wendy-llm: error: {tmp_path / 'nope'}: not a directory\n"
    no_go = subprocess.run(
        [sys.executable, "-m", "wendy_llm", *args, str(LLM)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert (no_go.returncode, no_go.stdout) == (2, "")
    assert no_go.stderr.startswith(f"wendy-llm: error: WENDY_LLM_GO={tmp_path / 'no-go'}: ")
