"""Odd command lines: every one is a clear usage error with the one prefix, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from _cli_helpers import cli_env

from wendy_llm.cli import main

REPO = Path(__file__).resolve().parents[2]
LLM = REPO / "templates" / "python" / "llm"
WENDY_LLM = Path(sys.executable).parent / "wendy-llm"


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``main(argv)``, expect exit status 2, return stderr."""
    try:
        code = main(argv)
    except SystemExit as exited:
        code = exited.code  # type: ignore[assignment]
    err = capsys.readouterr().err
    assert code == 2, err
    return err


def last_line(err: str) -> str:
    return err.rstrip("\n").rsplit("\n", 1)[-1]


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        (["--var="], 'argument --var: expected KEY=VALUE, got ""'),
        (["--var", "=x"], 'argument --var: expected KEY=VALUE, got "=x"'),
        (["--var", "K"], 'argument --var: expected KEY=VALUE, got "K"'),
        # argparse (before 3.12.?) dropped a `--` attached to an option.
        (["--var=--"], 'argument --var: expected KEY=VALUE, got "--"'),
        (
            ["--app-id", "-x"],
            "argument --app-id: expected one argument (write --app-id=VALUE for a value that "
            "starts with a dash)",
        ),
    ],
)
def test_odd_render_argv_shapes_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: list[str], message: str
) -> None:
    argv = ["render", str(LLM), "--app-id", "a", "--out", str(tmp_path / "o"), *shape]
    err = usage_error(argv, capsys)
    assert last_line(err) == f"wendy-llm: error: {message}"
    assert "Traceback" not in err and not (tmp_path / "o").exists()


def test_an_app_id_of_two_dashes_is_the_literal_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--app-id=--`` means the app id ``--`` (as the Go CLI reads it), not an empty list."""
    out = tmp_path / "o"
    err = usage_error(["render", str(LLM), "--app-id=--", "--out", str(out)], capsys)
    assert err.startswith('wendy-llm: error: template llm: invalid app id "--": ')
    assert main(["render", str(LLM), "--app-id=--", "--no-strict", "--out", str(out)]) == 0
    assert "--models" in (out / "docker-compose.yml").read_text()


@pytest.mark.parametrize("option", ["--pick", "--out"])
def test_two_dashes_attached_to_any_option_are_a_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    argv = ["render", str(LLM), "--app-id", "a", "--out", str(tmp_path / "o"), f"{option}=--"]
    if option == "--pick":
        err = usage_error(argv, capsys)
        assert err.startswith('wendy-llm: error: template llm has no pick "--"; its picks: ')
    else:
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(tmp_path)
            assert main(argv) == 0
        assert (tmp_path / "--" / "wendy.json").is_file()


def test_an_empty_app_id_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = usage_error(["render", str(LLM), "--app-id", "", "--out", str(tmp_path / "o")], capsys)
    assert err == "wendy-llm: error: template llm: app id (APP_ID) must not be empty\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rendr"], 'argument COMMAND: invalid choice "rendr" (choose from render, picks, '),
        (["render"], "the following arguments are required: TEMPLATE_DIR, --app-id, --out"),
        (["picks", "x", "--bogus"], "unrecognized arguments: --bogus"),
        (["check", "--max-diff-lines", "x"], "argument --max-diff-lines: expected a whole number"),
    ],
)
def test_parser_errors_carry_the_one_prefix(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    err = usage_error(argv, capsys)
    assert err.startswith("usage: wendy-llm")
    assert last_line(err).startswith(f"wendy-llm: error: {message}")
    assert "wendy-llm render: error" not in err


def test_odd_argv_through_a_real_process(tmp_path: Path) -> None:
    """argv as the kernel hands it over, including bytes that are not UTF-8."""
    bad_var = "wendy-llm: error: argument --var: expected KEY=VALUE, got "
    for shape, expected in [
        (["--app-id=--"], 'wendy-llm: error: template llm: invalid app id "--": '),
        (["--app-id", "a", "--var=--"], f'{bad_var}"--"'),
        (["--app-id", "a", "--var", "K"], f'{bad_var}"K"'),
        (["--app-id", "a", "--var", "=\udcff"], f'{bad_var}"=\\udcff"'),
    ]:
        proc = subprocess.run(
            [WENDY_LLM, "render", LLM, "--out", tmp_path / "o", *shape],
            env=cli_env(),
            capture_output=True,
        )
        err = proc.stderr.decode("utf-8")
        assert proc.returncode == 2, err
        assert "Traceback" not in err
        assert expected in err, err
