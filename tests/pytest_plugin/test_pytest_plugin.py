"""The pytest plugin, run as a templates repository runs it (pytester), and the
documented example ``examples/test_template_example.py`` against a small
template written here and against the real ``templates/python/llm``."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import yaml

import wendy_llm.engine.client
import wendy_llm.golden
import wendy_llm.pytest_plugin
import wendy_llm.render.picks
import wendy_llm.render.template
import wendy_llm.repo.layout
import wendy_llm.reports.golden
from wendy_llm.cli import main
from wendy_llm.engine.toolchain import cache_dir

# The plugin imports these in its fixtures (issue 31). pytester's in-process
# runs unload the modules a run imported; loaded here, before any run, they
# are imported once, as in a real run, so ``wendy_llm.Renderer`` (cached by
# the package on first use) stays the class the fixtures use, and PyYAML's C
# loader (never unloaded) keeps making the events of the one ``yaml`` module.
_FIXTURE_MODULES = (
    yaml,
    wendy_llm.engine.client,
    wendy_llm.golden,
    wendy_llm.render.picks,
    wendy_llm.render.template,
    wendy_llm.repo.layout,
    wendy_llm.reports.golden,
)

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "test_template_example.py"

TEMPLATE_JSON = {
    "name": "hello",
    "variables": [
        {"name": "APP_ID", "type": "string", "required": True},
        {"name": "PORT", "type": "integer", "default": 8080},
    ],
}
PICKER_JSON = {
    "phases": [
        {
            "id": "model",
            "questions": [
                {
                    "id": "MODEL",
                    "label": "Model",
                    "type": "radio",
                    "required": True,
                    "default": "small:1b",
                    "options": [
                        {"value": "small:1b", "label": "small"},
                        {"value": "big:70b", "label": "big"},
                    ],
                }
            ],
        }
    ]
}
COMPOSE = """\
services:
  backend:
    build: ./backend
    environment:
      MODEL: "{{.MODEL}}"
    ports:
      - "{{.PORT}}:{{.PORT}}"
"""
WENDY_JSON = '{\n  "appId": "{{.APP_ID}}",\n  "version": "0.1.0"\n}\n'


@pytest.fixture(autouse=True)
def _developer_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    # The suite itself runs with CI=true; these runs play a developer's machine
    # unless a test sets CI again.
    monkeypatch.delenv("CI", raising=False)
    # pytester points HOME at a temporary directory; keep the Go helper's
    # cache where it is, or every inner run would build the helper again.
    monkeypatch.setenv("WENDY_LLM_CACHE", str(cache_dir()))


def write_small_template(root: Path, where: str = "templates/demo/hello") -> Path:
    template = root / where
    (template / "backend").mkdir(parents=True)
    (template / "template.json").write_text(json.dumps(TEMPLATE_JSON, indent=2))
    (template / "template.schema.json").write_text(json.dumps(PICKER_JSON, indent=2))
    (template / "docker-compose.yml").write_text(COMPOSE)
    (template / "wendy.json").write_text(WENDY_JSON)
    (template / "backend" / "Dockerfile").write_text("FROM alpine:3.20\n")
    return template


@pytest.fixture
def small(pytester: pytest.Pytester) -> pytest.Pytester:
    write_small_template(pytester.path)
    pytester.makepyfile(test_example=EXAMPLE.read_text(encoding="utf-8"))
    return pytester


def test_example_against_the_real_llm_template(pytester: pytest.Pytester) -> None:
    pytester.makeini(
        f"[pytest]\nwendy_templates_dir = {REPO / 'templates'}\n"
        f"wendy_golden_dir = {REPO / 'golden'}\n"
    )
    pytester.makepyfile(test_example=EXAMPLE.read_text(encoding="utf-8"))
    picks = len(
        json.loads(_cli_stdout(["picks", str(REPO / "templates/python/llm"), "--json"]))["picks"]
    )
    result = pytester.runpytest("-v")
    # 1 golden test, 2 property tests per pick, 1 app-id test.
    result.assert_outcomes(passed=2 + 2 * picks)
    result.stdout.fnmatch_lines(
        [
            f"wendy-llm: templates {REPO / 'templates'}, golden {REPO / 'golden'} (check)",
            "*test_structured_files_parse?python/llm:laguna-s-2.1-dflash? PASSED*",
        ]
    )


def _cli_stdout(argv: list[str]) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(argv) == 0
    return buffer.getvalue()


def test_golden_cycle_on_a_small_template(
    small: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # No fixtures yet: the golden test fails and says how to make them.
    result = small.runpytest()
    result.assert_outcomes(passed=5, failed=1)
    result.stdout.fnmatch_lines(
        [
            "missing: template demo/hello has no fixtures (golden/demo/hello/golden.json does "
            "not exist)",
            "Run: wendy-llm golden --update --template demo/hello",
            "(or, from pytest: pytest --update-golden)",
        ]
    )

    # --update-golden writes them (as `wendy-llm golden --update` would) and says so
    # (lean: backend/Dockerfile, which has no action, is recorded by hash).
    result = small.runpytest("--update-golden")
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(
        [
            "*wendy-llm golden*",
            "golden: demo/hello: 4 added, 0 changed, 0 removed (golden/demo/hello/)",
        ]
    )
    fixtures = small.path / "golden" / "demo" / "hello"
    assert (fixtures / "golden.json").is_file()
    assert (fixtures / "big-70b" / "docker-compose.yml").read_text() == COMPOSE.replace(
        "{{.MODEL}}", "big:70b"
    ).replace("{{.PORT}}", "8080")
    monkeypatch.chdir(small.path)
    assert main(["golden", "--check"]) == 0  # the CLI agrees with what pytest wrote
    capsys.readouterr()
    small.runpytest().assert_outcomes(passed=6)

    # A template change fails with the same text the CLI prints.
    compose = small.path / "templates/demo/hello/docker-compose.yml"
    compose.write_text(COMPOSE.replace("build: ./backend", "build: ./backend\n    restart: always"))
    capsys.readouterr()
    assert main(["golden", "--check"]) == 1
    cli_text = capsys.readouterr().out
    result = small.runpytest()
    result.assert_outcomes(passed=5, failed=1)
    output = result.stdout.str()
    assert cli_text.rstrip("\n") in output
    assert "changed: template demo/hello, pick big-70b: docker-compose.yml differs" in cli_text
    assert "+    restart: always" in cli_text

    # An update run refreshes only what changed.
    result = small.runpytest("--update-golden")
    result.stdout.fnmatch_lines(["golden: demo/hello: 0 added, 3 changed, 0 removed *"])
    small.runpytest().assert_outcomes(passed=6)


def test_update_golden_is_refused_in_ci_unless_forced(
    small: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "true")
    result = small.runpytest("--update-golden")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: refusing to write fixtures: CI=true is set. In CI the fixtures must be "
            "checked, not regenerated: an update there would make any template change pass. "
            "Run `pytest --update-golden` locally and commit the result, use `pytest` in CI, "
            "or pass --force-golden if you really mean to write here."
        ]
    )
    assert not (small.path / "golden").exists()
    result = small.runpytest("--update-golden", "--force-golden")
    result.assert_outcomes(passed=6)
    assert (small.path / "golden/demo/hello/golden.json").is_file()


def test_a_property_failure_names_the_pick(small: pytest.Pytester) -> None:
    compose = small.path / "templates/demo/hello/docker-compose.yml"
    leak = '{{if eq .MODEL "big:70b"}}\n      NOTE: "{{index . "NOPE"}}"{{end}}\n'
    compose.write_text(COMPOSE.replace('MODEL: "{{.MODEL}}"\n', 'MODEL: "{{.MODEL}}"\n' + leak))
    result = small.runpytest("-k", "leak")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "E       AssertionError: pick big-70b: <no value> in ['docker-compose.yml']",
            "FAILED test_example.py::test_no_missing_values_leak[[]demo/hello:big-70b[]]*",
        ]
    )


def test_fixtures_directly(pytester: pytest.Pytester) -> None:
    write_small_template(pytester.path)
    pytester.makepyfile(
        test_direct="""
        import pytest
        from wendy_llm import Renderer, Template

        def test_template_is_loaded_once_and_named_like_the_cli(wendy_template):
            by_path = wendy_template("templates/demo/hello")
            assert isinstance(by_path, Template)
            assert by_path.id == "demo/hello" and by_path.name == "hello"
            assert wendy_template("demo/hello") is by_path
            assert [p.slug for p in by_path.picks()] == ["small-1b", "big-70b"]

        def test_render_by_slug_with_overrides(wendy_template, wendy_render, wendy_renderer):
            assert isinstance(wendy_renderer, Renderer)
            template = wendy_template("templates/demo/hello")
            port = {"PORT": "9000"}
            tree = wendy_render(template, "big-70b", app_id="my-app", overrides=port)
            assert b'MODEL: "big:70b"' in tree["docker-compose.yml"]
            assert b'"9000:9000"' in tree["docker-compose.yml"]
            assert wendy_render(template, "big-70b", app_id="my-app", overrides=port) is tree

        def test_every_template(wendy_templates):
            assert [t.id for t in wendy_templates] == ["demo/hello"]

        @pytest.mark.wendy_picks("templates/demo/hello")
        def test_marker_with_a_path(wendy_pick, wendy_tree):
            assert wendy_pick.template.id == "demo/hello"
            assert wendy_tree["wendy.json"].startswith(b'{\\n  "appId": "llm-app"')

        def test_golden_for_one_pick(wendy_template, wendy_golden):
            wendy_golden(wendy_template("demo/hello"), picks=["small-1b"])
        """
    )
    result = pytester.runpytest("-v", "--update-golden")
    result.assert_outcomes(passed=6)
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(
        [
            "*test_marker_with_a_path?demo/hello:small-1b? PASSED*",
            "*test_marker_with_a_path?demo/hello:big-70b? PASSED*",
        ]
    )


def test_a_root_layout_repository_with_sample_values(pytester: pytest.Pytester) -> None:
    # Templates at <language>/<name>/ at the root, one needing a value its
    # settings give: the plugin finds them and renders as `wendy-llm` does.
    template = write_small_template(pytester.path, "demo/hello")
    variables = [*TEMPLATE_JSON["variables"], {"name": "TOKEN"}]
    (template / "template.json").write_text(json.dumps(dict(TEMPLATE_JSON, variables=variables)))
    (template / ".env").write_text("TOKEN={{.TOKEN}}\n")
    (pytester.path / "wendy-llm.toml").write_text('[sample-values."demo/hello"]\nTOKEN = "t0k"\n')
    pytester.makepyfile(test_example=EXAMPLE.read_text(encoding="utf-8"))
    pytester.makepyfile(
        test_token="""
        import pytest

        @pytest.mark.wendy_picks()
        def test_the_sample_value_is_rendered(wendy_tree):
            assert wendy_tree[".env"] == b"TOKEN=t0k\\n"
        """
    )
    result = pytester.runpytest("--update-golden")
    result.assert_outcomes(passed=8)
    result.stdout.fnmatch_lines(["wendy-llm: templates ., golden golden (update: --update-golden)"])
    golden = json.loads((pytester.path / "golden/demo/hello/golden.json").read_text())
    assert golden["canonical_inputs"]["sample_values"] == {"TOKEN": "t0k"}
    pytester.runpytest().assert_outcomes(passed=8)


def test_usage_errors_are_reported_at_collection(pytester: pytest.Pytester) -> None:
    write_small_template(pytester.path)
    pytester.makepyfile(
        test_bad="""
        import pytest

        def test_without_marker(wendy_pick):
            pass
        """
    )
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.INTERRUPTED  # a collection error
    result.stdout.fnmatch_lines(
        [
            "test_bad.py::test_without_marker: the wendy_pick fixture needs the marker "
            '@pytest.mark.wendy_picks() (every template) or @pytest.mark.wendy_picks("<path>")'
        ]
    )
    assert "Traceback" not in result.stdout.str() and "pytest_plugin.py" not in result.stdout.str()
    pytester.makepyfile(
        test_bad="""
        import pytest

        @pytest.mark.wendy_picks("templates/demo/nope")
        def test_missing(wendy_pick):
            pass
        """
    )
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    missing = pytester.path / "templates/demo/nope"
    result.stdout.fnmatch_lines(
        [f"test_bad.py::test_missing: wendy_picks: {missing}: not a directory"]
    )


def test_plugin_is_registered_by_the_entry_point() -> None:
    [entry] = [e for e in entry_points(group="pytest11") if e.name == "wendy_llm"]
    assert entry.value == wendy_llm.pytest_plugin.__name__
    assert sys.modules[entry.value] is wendy_llm.pytest_plugin  # loaded into this very run
