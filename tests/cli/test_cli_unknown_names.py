"""An unknown ``--var`` name on the command line (issue 31): an error naming
the nearest known name by default, a warning in the command's own words
with ``--no-strict`` (where ``wendy init``'s rendering is reproduced)."""

from __future__ import annotations

from pathlib import Path

from _cli_helpers import REPO, run_module

from wendy_llm.cli.parser import EXIT_USAGE

TEMPLATE = str(REPO / "templates" / "python" / "llm")
KNOWN = "(known: APP_ID, PORT, OLLAMA_MODEL)"
UNKNOWN = "unknown variable PROT (did you mean PORT?): the template has no variable or picker"


def test_an_unknown_var_is_an_error_with_the_clis_advice(tmp_path: Path) -> None:
    argv = ["render", TEMPLATE, "--app-id", "my-app", "--var", "PROT=3000"]
    run = run_module(*argv, "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert (run.code, run.out) == (EXIT_USAGE, "")
    assert run.err == (
        f"wendy-llm: error: template llm: {UNKNOWN} question of that name {KNOWN}; "
        "--no-strict renders anyway, ignoring it as wendy init does\n"
    )


def test_without_strict_it_is_a_warning_in_the_commands_words(tmp_path: Path) -> None:
    argv = ["render", TEMPLATE, "--app-id", "my-app", "--var", "PROT=3000", "--no-strict"]
    run = run_module(*argv, "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.code == 0
    assert run.err == f"wendy-llm: warning: {UNKNOWN} question of that name {KNOWN}\n"
    assert b"8080" in (tmp_path / "out" / "docker-compose.yml").read_bytes()  # the default
