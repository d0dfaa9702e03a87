"""The on-disk tool results can never answer with a stale verdict.

Each test runs a real ``check`` twice over one on-disk cache, changing one
thing in between that Compose reads but that is not the compose file
itself (an ``include:``, an ``extends.file``, an ``env_file``, ``.env``)
or the package's code (a copy of the package directory, whose digest is
the cache's code salt), or the version a tool shim runs.  The second run
must judge afresh: its verdict follows the change, and the tool really ran
again (counted by the runner the test injects, never timed).
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from _check_helpers import write_template

from wendy_llm.validate.checks import compose as compose_module
from wendy_llm.validate.checks.shell import ShellValidator
from wendy_llm.validate.run import run_check
from wendy_llm.validate.tools import cache as cache_module
from wendy_llm.validate.tools.cache import PACKAGE_DIR, ResultCache, directory_digest
from wendy_llm.validate.tools.pool import ToolRunner
from wendy_llm.validate.tools.programs import find_tool

_Job = TypeVar("_Job")
_Out = TypeVar("_Out")

COMPOSE = """\
include:
  - extra.yml
services:
  web:
    extends:
      file: base.yml
      service: base
    build: ./web
    env_file: web.env
    ports:
      - "${WEB_PORT}:8080"
"""

GOOD = {
    "docker-compose.yml": COMPOSE,
    "extra.yml": "services:\n  extra:\n    image: busybox\n",
    "base.yml": "services:\n  base:\n    image: debian:12\n",
    "web.env": "A=1\n",
    ".env": "WEB_PORT=8080\n",
}


class CountingRunner(ToolRunner):
    """Counts the tool jobs it runs, by the program they run."""

    def __init__(self) -> None:
        super().__init__(workers=2)
        self.compose_runs = 0

    def run_all(self, fn: Any, jobs: Sequence[_Job]) -> list[tuple[_Job, _Out]]:
        self.compose_runs += sum(1 for job in jobs if hasattr(job, "compose_path"))
        return super().run_all(fn, jobs)


def judge(
    base: Path, files: Mapping[str, str], cache: ResultCache
) -> tuple[list[tuple[str, str, tuple[str, ...]]], int]:
    """The compose verdict of every pick, and how many Compose runs it took."""
    templates, golden = write_template(base, files=files, rules=None)
    runner = CountingRunner()
    with runner:
        report = run_check(
            templates, golden_dir=golden, golden=False, cache=cache, tool_runner=runner
        )
    rows: list[tuple[str, str, tuple[str, ...]]] = [
        (r.pick, r.status, tuple(f.message for f in r.findings))
        for r in report.results
        if r.check == "compose"
    ]
    return rows, runner.compose_runs


@pytest.mark.parametrize(
    ("changed", "text", "said"),
    [
        ("extra.yml", "services:\n  extra:\n    image: busybox\n    bogus: 1\n", "bogus"),
        ("base.yml", "services:\n  base:\n    image: debian:12\n    bogus: 1\n", "bogus"),
        ("web.env", "A B=1\n", "key cannot contain a space"),
        (".env", "WEB_PORT=x\n", "invalid hostPort: x"),
    ],
    ids=["include", "extends-file", "env-file", "dot-env"],
)
def test_a_change_to_a_file_compose_reads_is_judged_again(
    tmp_path: Path, changed: str, text: str, said: str
) -> None:
    cache = ResultCache(tmp_path / "results", code_salt="fixed")
    first, runs = judge(tmp_path / "repo", GOOD, cache)
    assert runs > 0 and {status for _, status, _ in first} == {"ok"}
    # The same files again: answered from disk, Compose does not run.
    again, runs = judge(tmp_path / "repo", GOOD, cache)
    assert (again, runs) == (first, 0)
    # Only the file Compose reads through the compose file changes.
    second, runs = judge(tmp_path / "repo", {**GOOD, changed: text}, cache)
    assert runs > 0
    assert {status for _, status, _ in second} == {"fail"}
    assert all(any(said in m for m in messages) for _, _, messages in second)


def test_a_change_to_the_package_code_is_judged_again(tmp_path: Path) -> None:
    package = tmp_path / "wendy_llm"
    shutil.copytree(PACKAGE_DIR, package, ignore=shutil.ignore_patterns("__pycache__"))
    results = tmp_path / "results"
    first, runs = judge(
        tmp_path / "repo", GOOD, ResultCache(results, code_salt=directory_digest(package))
    )
    assert runs > 0
    same = ResultCache(results, code_salt=directory_digest(package))
    assert judge(tmp_path / "repo", GOOD, same) == (first, 0) and same.hits > 0
    # One byte of one module of the copy (a new release, an edited checkout).
    module = package / "validate" / "checks" / "compose.py"
    module.write_bytes(module.read_bytes() + b"\n")
    upgraded = ResultCache(results, code_salt=directory_digest(package))
    second, runs = judge(tmp_path / "repo", GOOD, upgraded)
    assert runs > 0 and upgraded.hits == 0 and second == first
    # A data file (a schema, the Go helper's source) counts as code too.
    schema = package / "schemas" / "rules.schema.json"
    schema.write_bytes(schema.read_bytes() + b"\n")
    assert directory_digest(package) != upgraded.code_salt


def test_the_default_code_salt_is_the_installed_package(tmp_path: Path) -> None:
    assert ResultCache(tmp_path).code_salt == directory_digest(PACKAGE_DIR)


def test_a_tool_shim_that_now_runs_another_version_is_judged_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A shim (pyenv, asdf) keeps its path, size and mtime when the version
    # it runs changes: the version the tool reports is in the salt.
    real = find_tool("docker-compose")
    chosen = tmp_path / "chosen-version"
    shim = tmp_path / "bin" / "docker-compose"
    shim.parent.mkdir()
    shim.write_text(
        f'#!/bin/sh\nif [ "$1" = version ]; then cat "{chosen}"; exit 0; fi\nexec "{real}" "$@"\n'
    )
    shim.chmod(0o755)
    monkeypatch.setattr(compose_module, "find_tool", lambda name: shim)
    cache = ResultCache(tmp_path / "results", code_salt="fixed")
    chosen.write_text("Docker Compose version v2.1\n")
    first, runs = judge(tmp_path / "repo", GOOD, cache)
    assert runs > 0
    assert judge(tmp_path / "repo", GOOD, cache) == (first, 0)
    chosen.write_text("Docker Compose version v2.2\n")
    monkeypatch.setattr(cache_module, "_VERSIONS", {})  # a new process
    second, runs = judge(tmp_path / "repo", GOOD, cache)
    assert runs > 0 and second == first


def test_the_callers_shellcheck_opts_change_no_verdict_and_the_locale_is_in_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = {"run.sh": b"#!/bin/sh\ncd /app\nexec sleep 1\n"}
    cache = ResultCache(tmp_path / "results", code_salt="fixed")
    first = ShellValidator(results=cache)
    said = [f.message for f in first.validate(script)]
    assert any("SC2164" in m for m in said) and first.scripts_checked == 1
    # ShellCheck reads SHELLCHECK_OPTS from its environment; it never gets it.
    monkeypatch.setenv("SHELLCHECK_OPTS", "--exclude=SC2164")
    fresh = ShellValidator()
    assert [f.message for f in fresh.validate(script)] == said
    # Another locale is another question (it words bash's messages).
    monkeypatch.setenv("LC_ALL", "C")
    other = ShellValidator(results=cache)
    assert [f.message for f in other.validate(script)] == said
    assert other.scripts_checked == 1 and cache.hits == 0
