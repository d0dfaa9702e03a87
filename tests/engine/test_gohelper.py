"""The Go helper's own tests (``gohelper/main_test.go``), run with the project's Go."""

from __future__ import annotations

import subprocess

from wendy_llm import options
from wendy_llm.engine.process import Helper
from wendy_llm.engine.toolchain import helper_path, run_go_tool


def test_the_helpers_go_tests_pass() -> None:
    proc = run_go_tool("test")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("ok"), proc.stdout


def test_the_helper_takes_its_cache_bounds_from_the_options_module() -> None:
    """One place for the bounds (wendy_llm/options.py): the helper has no default
    of its own and refuses to start without them."""
    bare = subprocess.run(
        [str(helper_path())], input=b"", capture_output=True, timeout=60, check=False
    )
    assert bare.returncode == 2
    assert (
        b"usage: wendyhelper -parse-cache-templates N -parse-cache-bytes N"
        b" -kept-texts N -kept-text-bytes N"
    ) in bare.stderr
    helper = Helper(helper_path())
    try:
        args = helper.proc.args
        assert isinstance(args, list) and args[1:] == [
            f"-parse-cache-templates={options.PARSE_CACHE_TEMPLATES}",
            f"-parse-cache-bytes={options.PARSE_CACHE_BYTES}",
            f"-kept-texts={options.HELPER_KEPT_TEXTS}",
            f"-kept-text-bytes={options.HELPER_KEPT_TEXT_BYTES}",
            f"-request-spin-us={options.HELPER_REQUEST_SPIN_US}",
        ]
        assert helper.alive()
    finally:
        helper.kill()
