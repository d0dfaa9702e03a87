"""The pytest plugin is quiet and cheap (issue 31): importing it loads no part
of the library but its errors, a run that uses none of its fixtures imports
nothing more, and a template that does not render fails each test with one
short line naming the template, the file and the line, as ``golden --check``
leads with it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _golden_helpers import run_cli

import wendy_llm.pytest_plugin
from wendy_llm import load_template
from wendy_llm.engine.toolchain import cache_dir

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "test_template_example.py"
#: What the plugin's module may add to what pytest imports: its own modules and errors.
LIGHT = {
    "wendy_llm",
    "wendy_llm.errors",
    wendy_llm.pytest_plugin.__name__,
    "wendy_llm.pytest_plugin.state",
}
HEAVY = ("wendy_llm.engine.client", "wendy_llm.render.template", "wendy_llm.golden", "yaml")
CAUSE = "template python/llm: parsing wendy.json: template: wendy.json:9: "


def imported_after(code: str) -> set[str]:
    listing = "import json, sys; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\n{listing}"], capture_output=True, text=True, check=True
    ).stdout
    return set(json.loads(out))


def test_importing_the_plugin_adds_only_its_own_light_modules() -> None:
    added = imported_after("import pytest, wendy_llm.pytest_plugin") - imported_after(
        "import pytest"
    )
    assert added <= LIGHT | {"json", "json.decoder", "json.scanner", "json.encoder", "_json"}, (
        sorted(added - LIGHT)
    )


@pytest.fixture(autouse=True)
def _developer_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("WENDY_LLM_CACHE", str(cache_dir()))


def test_a_run_that_uses_no_fixture_imports_nothing_heavy(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_plain=f"""
        import sys

        def test_plain():
            assert sys.modules.get("wendy_llm.pytest_plugin") is not None  # the plugin is on
            assert [m for m in {HEAVY!r} if m in sys.modules] == []
        """
    )
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1)
    assert "wendy-llm:" not in result.stdout.str()  # no header outside a templates repository


@pytest.fixture
def broken(pytester: pytest.Pytester) -> pytest.Pytester:
    """The bundled template with its fixtures, then one typo in wendy.json."""
    template = pytester.path / "templates/python/llm"
    shutil.copytree(REPO / "templates/python/llm", template)
    (pytester.path / "wendy-llm.toml").write_text("")
    pytester.makepyfile(test_example=EXAMPLE.read_text(encoding="utf-8"))
    pytester.runpytest_subprocess("--update-golden", "-k", "golden").assert_outcomes(passed=1)
    wendy = template / "wendy.json"
    text = wendy.read_text()
    assert '"{{.APP_ID}}"' in text.splitlines()[8]
    wendy.write_text(text.replace('"{{.APP_ID}}"', '"{{.APP_ID}"', 1))
    return pytester


def test_a_broken_template_fails_each_pick_in_one_line(broken: pytest.Pytester) -> None:
    result = broken.runpytest_subprocess("-k", "structured or golden")
    picks = len(load_template(REPO / "templates/python/llm").picks())
    # wendy_tree fails in its setup (an error per pick), the golden test itself.
    result.assert_outcomes(failed=1, errors=picks)
    output = result.stdout.str()
    assert "Traceback" not in output and "pytest_plugin" not in output
    # One short failure per pick: the pick, then the cause (template, file, line).
    causes = [line for line in output.splitlines() if line.startswith("python/llm:")]
    assert len(causes) == picks and all(CAUSE in line for line in causes), causes
    # The golden test leads with the cause and counts what failed to render.
    result.stdout.fnmatch_lines(
        [
            f"golden: failed to render: {CAUSE}*",
            "golden: 1 template failed to render (python/llm); 0 picks checked.*",
        ]
    )
    assert "no templates" not in output and "--update-golden" not in output
    assert len(output.splitlines()) < 20 * picks  # not a page of traceback per pick


def test_golden_check_leads_with_the_cause(
    broken: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(broken.path)
    code, out, err = run_cli("golden", "--check")
    assert (code, err) == (2, "")  # the cause is on stdout, first, and said once
    lines = out.splitlines()
    assert lines[0].startswith(f"golden: failed to render: {CAUSE}bad character U+007D '}}'")
    assert lines[-1].startswith("golden: 1 template failed to render (python/llm); 0 picks")
    assert "no templates" not in out
