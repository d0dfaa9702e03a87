"""The Go helper's own tests (``gohelper/main_test.go``), run with the project's Go."""

from __future__ import annotations

from wendy_llm.engine.toolchain import run_go_tool


def test_the_helpers_go_tests_pass() -> None:
    proc = run_go_tool("test")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("ok"), proc.stdout
