"""One verdict: ``wendy_llm.run_check`` and ``wendy-llm check`` on the same adopted repository.

The repository adopted the gate as a real one does: a template whose
``wendy.json`` the Wendy CLI refuses (one WJS error per pick), a
suppressions file recording it (written by ``check --suppress-all``), and
``[findings]`` settings in ``wendy-llm.toml``.  Each case runs the command
line (``--json``, in-process through ``main``) and the library on it and
compares the verdict, every finding with its flags, and the exit meaning.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _golden_helpers import repo_with_a_refused_wendy_json, run_cli

import wendy_llm
from wendy_llm.codes.stored import SUPPRESSION_UNUSED
from wendy_llm.codes.tools import WENDY_JSON_INVALID
from wendy_llm.repo.config import SETTINGS_FILE
from wendy_llm.repo.suppressions_file import SUPPRESSIONS_FILE, write_suppressions
from wendy_llm.validate.findings import TEMPLATE_WIDE, Report

#: (template, pick, check, code, severity, file, subject, suppressed, ignored) of a finding.
Seen = tuple[str, str, str, str, str, str, str, bool, bool]


def _cli_findings(document: dict[str, object]) -> list[Seen]:
    results = document["results"]
    assert isinstance(results, list)
    return sorted(
        (
            r["template"],
            r["pick"] or TEMPLATE_WIDE,
            r["check"],
            f["code"],
            f["severity"],
            f.get("file") or "",
            f.get("subject") or "",
            bool(f.get("suppressed")),
            bool(f.get("ignored")),
        )
        for r in results
        for f in r["findings"]
    )


def _library_findings(report: Report) -> list[Seen]:
    return sorted(
        (
            f.template,
            f.pick,
            f.check,
            f.code,
            f.severity,
            f.file or "",
            f.subject,
            f.suppressed,
            f.ignored,
        )
        for f in report.findings
    )


def _both(root: Path, *flags: str, **keywords: object) -> tuple[int, list[Seen], Report]:
    """(the command line's exit status, its findings, the library's report)."""
    code, out, err = run_cli("check", "--json", "--no-cache", *flags, str(root))
    assert code in (0, 1), err
    report = wendy_llm.run_check(root, cache=False, **keywords)  # type: ignore[arg-type]
    return code, _cli_findings(json.loads(out)), report


def _same_verdict(root: Path, *flags: str, **keywords: object) -> Report:
    code, cli, report = _both(root, *flags, **keywords)
    assert cli == _library_findings(report)
    assert (code == 0) == report.passed()
    return report


@pytest.fixture
def adopted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The repository with its failures recorded by ``check --suppress-all``."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    root = repo_with_a_refused_wendy_json(tmp_path / "repo")
    code, _, err = run_cli("check", "-q", "--suppress-all", str(root))
    assert code == 0 and "recorded 2 suppressed failure(s)" in err, err
    return root


def test_suppressed_failures_pass_both(adopted: Path) -> None:
    report = _same_verdict(adopted)
    assert report.passed() and not report.errors
    assert {f.code for f in report.suppressed} == {WENDY_JSON_INVALID.code}
    assert len(report.suppressed) == 2


def test_without_suppressions_the_library_sees_the_failures(adopted: Path) -> None:
    report = wendy_llm.run_check(adopted, cache=False, suppressions=False)
    assert not report.passed() and not report.suppressed
    assert {f.code for f in report.errors} == {WENDY_JSON_INVALID.code}


def test_ignored_by_the_settings_pass_both(adopted: Path) -> None:
    (adopted / SUPPRESSIONS_FILE).unlink()
    (adopted / SETTINGS_FILE).write_text('[findings]\nignore = ["WJS"]\n', encoding="utf-8")
    report = _same_verdict(adopted)
    assert report.passed() and not report.suppressed
    assert {f.code for f in report.ignored} >= {WENDY_JSON_INVALID.code}


def test_ignored_on_the_command_line_and_by_keyword(adopted: Path) -> None:
    (adopted / SUPPRESSIONS_FILE).unlink()
    report = _same_verdict(adopted, "--ignore", "wendy-json", ignore=["wendy-json"])
    assert report.passed() and report.ignored
    report = _same_verdict(adopted)
    assert not report.passed() and not report.ignored


def test_an_unused_suppression_fails_both(adopted: Path) -> None:
    file = adopted / SUPPRESSIONS_FILE
    text = json.loads(file.read_text(encoding="utf-8"))
    text["suppressions"]["node/mini"]["wendy.json"].append(
        {"code": WENDY_JSON_INVALID.code, "subject": "gone", "count": 1, "message": "fixed"}
    )
    file.write_text(json.dumps(text, indent=2) + "\n", encoding="utf-8")
    report = _same_verdict(adopted)
    assert not report.passed()
    assert [f.code for f in report.errors] == [SUPPRESSION_UNUSED.code]
    assert len(report.suppressed) == 2


def test_an_invalid_suppressions_file_is_exit_2_and_the_same_error(adopted: Path) -> None:
    file = adopted / SUPPRESSIONS_FILE
    file.write_text(file.read_text().replace('"count": 2', '"count": 0'), encoding="utf-8")
    code, _, err = run_cli("check", "-q", "--no-cache", str(adopted))
    assert code == 2, err
    with pytest.raises(wendy_llm.SuppressionsError) as raised:
        wendy_llm.run_check(adopted, cache=False)
    assert f"{SUPPRESSIONS_FILE}:10: " in str(raised.value) and str(raised.value) in err
    # Turned off, the file is not read at all.
    assert not wendy_llm.run_check(adopted, cache=False, suppressions=False).passed()


def test_an_unknown_selector_is_a_library_error(adopted: Path) -> None:
    with pytest.raises(wendy_llm.CheckSelectionError, match="NOPE"):
        wendy_llm.run_check(adopted, cache=False, ignore=["NOPE"])


def test_a_fresh_repository_fails_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    root = repo_with_a_refused_wendy_json(tmp_path / "repo")
    write_suppressions(root / SUPPRESSIONS_FILE, [])
    report = _same_verdict(root)
    assert not report.passed() and len(report.errors) == 2
