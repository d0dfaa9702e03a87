"""The on-disk results of docker-compose and ShellCheck can never change a verdict.

Every test counts what the tools actually ran (``ComposeValidator.runs``,
``ShellValidator.scripts_checked``) and what the cache answered
(``ResultCache.hits``), in a cache directory of its own: no clock, no timing.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from _check_helpers import COMPOSE, good_tree, with_files, write_template

from wendy_llm.errors import ValidatorToolError
from wendy_llm.validate.checks import compose as compose_module
from wendy_llm.validate.checks import shell as shell_module
from wendy_llm.validate.checks.compose import ComposeValidator
from wendy_llm.validate.checks.shell import ShellValidator
from wendy_llm.validate.findings import Finding
from wendy_llm.validate.run import run_check
from wendy_llm.validate.tools.cache import ResultCache, tool_salt
from wendy_llm.validate.tools.programs import find_tool

BROKEN_COMPOSE = COMPOSE.replace("      - ollama\n", "      - nope\n")
BROKEN_SCRIPT = b"#!/bin/bash\nfi\n"


def entries(cache: ResultCache, namespace: str) -> list[Path]:
    return sorted(cache.directory.glob(f"{namespace}-*.json"))


def verdict(findings: list[Finding]) -> list[tuple[str, str | None, str]]:
    return [(f.severity, f.file, f.message) for f in findings]


@pytest.fixture
def cache(tmp_path: Path) -> ResultCache:
    return ResultCache(tmp_path / "results")


def test_a_result_is_kept_and_reused_only_for_the_same_input(cache: ResultCache) -> None:
    first = ComposeValidator(results=cache)
    assert first.validate(good_tree()) == [] and first.runs == 1
    assert len(entries(cache, "compose")) == 1
    # A new process (a new validator) reads it back instead of running Compose.
    again = ComposeValidator(results=cache)
    assert again.validate(good_tree()) == [] and (again.runs, cache.hits) == (0, 1)
    # Other bytes are another question: Compose runs, and says what is wrong.
    broken = ComposeValidator(results=cache)
    findings = broken.validate(with_files(good_tree(), **{"docker-compose.yml": BROKEN_COMPOSE}))
    assert broken.runs == 1 and cache.hits == 1
    assert [f.severity for f in findings] == ["error"] and "nope" in findings[0].message
    assert len(entries(cache, "compose")) == 2


def test_a_forged_entry_answers_only_its_own_key(cache: ResultCache) -> None:
    # Whatever an entry claims, it is only ever read for its own input.
    ComposeValidator(results=cache).validate(good_tree())
    [entry] = entries(cache, "compose")
    forged = json.loads(entry.read_text())
    forged["value"] = [{"severity": "error", "message": "forged", "line": 1}]
    entry.write_text(json.dumps(forged))
    other = with_files(good_tree(), **{"docker-compose.yml": COMPOSE.replace("e2b", "e4b")})
    validator = ComposeValidator(results=cache)
    assert validator.validate(other) == [] and validator.runs == 1
    # An entry copied under another key's name is not that key's answer either.
    [new] = [p for p in entries(cache, "compose") if p != entry]
    new.write_text(entry.read_text())
    validator = ComposeValidator(results=cache)
    assert validator.validate(other) == [] and validator.runs == 1


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{not json",
        b'{"format": 1, "key": "',
        b"\xff\xfe garbage",
        b"[]",
        b'{"format": 99, "key": "KEY", "value": []}',
        b'{"format": 1, "key": "KEY", "value": {"not": "a list"}}',
        b'{"format": 1, "key": "KEY", "value": [{"severity": "fatal", "message": "x", "line": 1}]}',
        b'{"format": 1, "key": "KEY", "value": [{"severity": "error", "message": 3, "line": 1}]}',
        b'{"format": 1, "key": "KEY", "value": [{"severity": "error"}]}',
    ],
)
def test_a_corrupt_entry_is_ignored_and_rewritten(cache: ResultCache, content: bytes) -> None:
    broken = with_files(good_tree(), **{"docker-compose.yml": BROKEN_COMPOSE})
    expected = verdict(ComposeValidator(results=cache).validate(broken))
    assert expected and expected[0][0] == "error"
    [entry] = entries(cache, "compose")
    key = entry.name.removeprefix("compose-").removesuffix(".json")
    entry.write_bytes(content.replace(b"KEY", key.encode()))
    validator = ComposeValidator(results=cache)
    assert verdict(validator.validate(broken)) == expected
    assert (validator.runs, cache.hits) == (1, 0)
    # Rewritten: the next reader is answered from it.
    assert json.loads(entry.read_text())["key"] == key
    assert verdict(ComposeValidator(results=cache).validate(broken)) == expected
    assert cache.hits == 1


def test_another_compose_binary_is_another_question(cache: ResultCache, tmp_path: Path) -> None:
    ComposeValidator(results=cache).validate(good_tree())
    wrapper = tmp_path / "bin" / "docker-compose"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nexec "{find_tool("docker-compose")}" "$@"\n')
    os.chmod(wrapper, 0o755)
    validator = ComposeValidator(binary=wrapper, results=cache)
    assert validator.validate(good_tree()) == [] and validator.runs == 1
    assert cache.hits == 0


def test_a_binary_restored_from_an_archive_is_the_same_question(
    cache: ResultCache, tmp_path: Path
) -> None:
    """The action restores the gate from actions/cache (a tar archive): the
    same binary at the same path, with its mtime, but a new inode; its
    verdicts are reused.  A reinstall (a new mtime) is another question."""
    wrapper = tmp_path / "bin" / "docker-compose"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nexec "{find_tool("docker-compose")}" "$@"\n')
    os.chmod(wrapper, 0o755)
    ComposeValidator(binary=wrapper, results=cache).validate(good_tree())
    inode = wrapper.stat().st_ino
    restored = tmp_path / "restored"
    shutil.copy2(wrapper, restored)  # the archive's copy: bytes, mode and mtime
    os.replace(restored, wrapper)
    assert wrapper.stat().st_ino != inode
    validator = ComposeValidator(binary=wrapper, results=cache)
    assert validator.validate(good_tree()) == [] and validator.runs == 0
    assert cache.hits == 1
    os.utime(wrapper, ns=(0, wrapper.stat().st_mtime_ns + 10**9))
    validator = ComposeValidator(binary=wrapper, results=cache)
    assert validator.validate(good_tree()) == [] and validator.runs == 1


def test_shellcheck_results_are_kept_by_script_and_name(cache: ResultCache) -> None:
    first = ShellValidator(results=cache)
    found = first.validate({"a/run.sh": BROKEN_SCRIPT})
    assert [(f.file, f.line) for f in found] == [("a/run.sh", 2)] and first.scripts_checked == 1
    again = ShellValidator(results=cache)
    # The same script elsewhere in a render: answered from disk, with its own path.
    assert [(f.file, f.line) for f in again.validate({"b/run.sh": BROKEN_SCRIPT})] == [
        ("b/run.sh", 2)
    ]
    assert (again.scripts_checked, cache.hits) == (0, 1)
    # Fixed bytes are another question.
    fixed = ShellValidator(results=cache)
    assert fixed.validate({"a/run.sh": b"#!/bin/bash\necho ok\n"}) == []
    assert fixed.scripts_checked == 1


def test_a_corrupt_shellcheck_entry_is_ignored(cache: ResultCache) -> None:
    expected = verdict(ShellValidator(results=cache).validate({"run.sh": BROKEN_SCRIPT}))
    [entry] = entries(cache, "shell")
    entry.write_bytes(b'{"format": 1, "key": "x", "value": []}')  # claims "clean", wrong key
    validator = ShellValidator(results=cache)
    assert verdict(validator.validate({"run.sh": BROKEN_SCRIPT})) == expected
    assert (validator.scripts_checked, cache.hits) == (1, 0)


def test_an_unwritable_cache_is_simply_not_used(tmp_path: Path) -> None:
    blocker = tmp_path / "results"
    blocker.write_text("a file where the directory should be")
    cache = ResultCache(blocker)
    validator = ComposeValidator(results=cache)
    assert validator.validate(good_tree()) == [] and validator.runs == 1
    assert ComposeValidator(results=cache).validate(good_tree()) == []
    assert cache.hits == 0


def test_check_gives_the_same_report_from_a_cold_and_a_warm_cache(tmp_path: Path) -> None:
    templates, golden = write_template(tmp_path / "repo")
    cache = ResultCache(tmp_path / "results")

    def rows(use: ResultCache | bool) -> list[tuple[str, str, str, tuple[str, ...]]]:
        report = run_check(templates, golden_dir=golden, golden=False, cache=use)
        return [
            (r.pick, r.check, r.status, tuple(f.message for f in r.findings))
            for r in report.results
        ]

    uncached = rows(False)
    assert rows(cache) == uncached  # cold: the tools run, the entries are written
    assert cache.hits == 0 and entries(cache, "compose") and entries(cache, "shell")
    assert rows(cache) == uncached  # warm: answered from disk
    assert cache.hits > 0


def test_the_tools_are_looked_up_and_identified_once_per_validator(
    cache: ResultCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every distinct input asks the disk, and every fresh result is written
    # back: the tools' salt (identity, version) in those keys is worked out
    # once, not per input.
    looked_up: list[str] = []
    identified: list[Path] = []

    def counted_find(name: str) -> Path:
        looked_up.append(name)
        return find_tool(name)

    def counted_salt(binary: Path, *args: Any) -> str:
        identified.append(binary)
        return tool_salt(binary, *args)

    for module in (compose_module, shell_module):
        monkeypatch.setattr(module, "find_tool", counted_find)
        monkeypatch.setattr(module, "tool_salt", counted_salt)
    trees = [
        with_files(good_tree(), **{"docker-compose.yml": COMPOSE.replace("11434", port)})
        for port in ("11434", "11435", "11436")
    ]
    compose = ComposeValidator(results=cache)
    compose.run_many(trees)
    compose.run_many(trees)
    assert compose.runs == 3 and looked_up == ["docker-compose"] and len(identified) == 1
    shell = ShellValidator(results=cache)
    scripts = [{f"s{i}.sh": f"#!/bin/bash\necho {i}\n".encode()} for i in range(3)]
    shell.validate_many(scripts)
    shell.validate_many(scripts)
    assert shell.scripts_checked == 3
    assert sorted(looked_up) == ["bash", "docker-compose", "shellcheck"]
    assert len(identified) == 3


def test_a_missing_tool_fails_its_check_for_every_pick_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(name: str) -> Path:
        raise ValidatorToolError(f"{name} not found; install it")

    monkeypatch.setattr(compose_module, "find_tool", missing)
    monkeypatch.setattr(shell_module, "find_tool", missing)
    templates, golden = write_template(tmp_path)
    report = run_check(templates, golden_dir=golden, golden=False, cache=False)
    said = {
        check: {(r.pick, f.message) for r in report.results if r.check == check for f in r.findings}
        for check in ("compose", "shell")
    }
    picks = {r.pick for r in report.results if r.check == "render"}
    assert len(picks) > 1
    assert said["compose"] == {(p, "docker-compose not found; install it") for p in picks}
    assert said["shell"] == {(p, "shellcheck not found; install it") for p in picks}
    assert {r.status for r in report.results if r.check in said} == {"fail"}
