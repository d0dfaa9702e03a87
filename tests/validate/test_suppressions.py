"""Suppressions: the file (validated, located errors, deterministic writes), the
matching (by what a failure is: its fingerprint, counted, scoped to the run) and the
reports.  Version 1 files (keyed by message) are ``test_suppressions_v1.py``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _cli_helpers import validate_report
from _golden_helpers import (
    repo_with_a_refused_wendy_json,
    run_cli,
)

from wendy_llm.codes.tools import COMPOSE_REFUSED, WENDY_JSON_INVALID
from wendy_llm.errors import SuppressionsError
from wendy_llm.repo.suppressions_file import (
    SUPPRESSIONS_FILE,
    Suppression,
    Suppressions,
    dump_suppressions,
    load_suppressions,
    parse_suppressions,
    write_suppressions,
)
from wendy_llm.reports.check import format_details, format_table
from wendy_llm.reports.json import check_json, dumps
from wendy_llm.reports.junit import check_junit
from wendy_llm.reports.markdown import check_markdown
from wendy_llm.validate.findings import CheckResult, Finding, Report, error
from wendy_llm.validate.suppressions import (
    CHECK,
    Scope,
    apply_suppressions,
    finding_key,
    message_key,
    prune,
    record_all,
)

CAMERA, API = "cpp/opencv-camera", "rust/simple-api"
LIDAR = 'entitlements[1].type: unknown entitlement type "lidar"'
RELATIVE = 'entitlements[1].path: persist path "data" must be absolute'


def found(template: str, pick: str, message: str, line: int = 10) -> Finding:
    subject = message.split(":")[0]  # the JSON path, as the wendy-json check names it
    return error(WENDY_JSON_INVALID, message, "wendy.json", line, subject=subject).at(
        template, pick
    )


def report(*findings: Finding) -> Report:
    return Report(tuple(CheckResult(f.template, f.pick, f.check, (f,)) for f in findings))


REPORT = report(
    found(CAMERA, "none", LIDAR),
    found(CAMERA, "motion", LIDAR),
    found(API, "info", RELATIVE, 12),
)


def recorded(*entries: Suppression) -> Suppressions:
    return parse_suppressions(dump_suppressions(entries))


def entry(template: str, message: str, count: int) -> Suppression:
    subject = message.split(":")[0]
    code = WENDY_JSON_INVALID.code
    return Suppression(
        template, "wendy-json", "wendy.json", message, count, code=code, subject=subject
    )


EVERYTHING = Scope()


# --- the file ---------------------------------------------------------------------


def test_a_written_file_reads_back_the_same_and_rewrites_byte_for_byte(tmp_path: Path) -> None:
    entries = record_all(REPORT, Suppressions(), EVERYTHING)
    path = tmp_path / SUPPRESSIONS_FILE
    write_suppressions(path, entries)
    text = path.read_text(encoding="utf-8")
    loaded = load_suppressions(path)
    assert sorted(loaded.entries, key=lambda e: e.key) == sorted(entries, key=lambda e: e.key)
    assert dump_suppressions(reversed(loaded.entries)) == text
    assert {(e.template, e.count) for e in loaded.entries} == {(CAMERA, 2), (API, 1)}
    data = json.loads(text)
    assert data["version"] == 2
    assert data["suppressions"][CAMERA]["wendy.json"] == [
        {"code": "WJS003", "subject": "entitlements[1].type", "count": 2, "message": LIDAR}
    ]
    # Each entry knows the line of its code, for the messages that point at it.
    lines = text.splitlines()
    assert all(e.line is not None and e.code in lines[e.line - 1] for e in loaded.entries)
    assert [p.name for p in tmp_path.iterdir()] == [SUPPRESSIONS_FILE]  # no temporary left


def test_no_file_is_no_suppressions(tmp_path: Path) -> None:
    assert load_suppressions(tmp_path / SUPPRESSIONS_FILE).entries == ()


GOOD = dump_suppressions([entry(CAMERA, LIDAR, 2)])


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        pytest.param(GOOD.replace('"count": 2', '"count": 0'), 10, '["count"]: ', id="count"),
        pytest.param(GOOD.replace('"count": 2', '"count": "2"'), 10, '["count"]', id="type"),
        pytest.param(GOOD.replace('"version": 2', '"version": 3'), 2, "version: 3", id="version"),
        pytest.param(
            GOOD.replace('"count": 2', '"count": 2, "line": 4'), 7, 'unknown key "line"', id="key"
        ),
        pytest.param(GOOD.replace('lidar\\""\n', 'lidar\\"",\n'), 12, "not valid JSON", id="json"),
        pytest.param(GOOD.replace('"WJS003"', '"WJS903"'), 8, 'unknown code "WJS903"', id="code"),
        pytest.param(GOOD.replace('"WJS003"', '"wjs3"'), 8, '["code"]', id="code-shape"),
    ],
)
def test_a_bad_file_is_named_with_its_line(text: str, line: int, says: str) -> None:
    with pytest.raises(SuppressionsError) as caught:
        parse_suppressions(text, shown="repo/wendy-llm-suppressions.json")
    message = str(caught.value)
    assert message.startswith(f"repo/wendy-llm-suppressions.json:{line}: "), message
    assert says in message
    assert caught.value.line == line


def test_the_same_failure_listed_twice_names_both_lines() -> None:
    twice = json.loads(GOOD)
    failures = twice["suppressions"][CAMERA]["wendy.json"]
    failures.append(dict(failures[0]))
    with pytest.raises(SuppressionsError, match=r":14: .*listed twice \(first at line 8\)"):
        parse_suppressions(json.dumps(twice, indent=2))


# --- what a failure is ------------------------------------------------------------


def test_the_key_strips_line_numbers_but_not_ports() -> None:
    said = (
        'services.sim.environment.MODEL is "a", but the image (simulator/Dockerfile:4) sets '
        "MODEL=b at line 12; see wendy.json:3:7 and mqtt://broker:1883 or 127.0.0.1:8080: "
        "not sent at the Wendy CLI f919a252 (2026-05-21) to deadbeef or 12345678"
    )
    assert message_key(found(CAMERA, "x", said + "\nmore detail")) == (
        'services.sim.environment.MODEL is "a", but the image (simulator/Dockerfile) sets '
        "MODEL=b at line N; see wendy.json and mqtt://broker:1883 or 127.0.0.1:8080: "
        "not sent at the Wendy CLI <revision> to deadbeef or 12345678"
    )


def test_a_variant_finding_is_keyed_as_the_canonical_one() -> None:
    canonical = error(COMPOSE_REFUSED, "volume llm-app-data is not declared", "llm-app/x.yml")
    variant = error(COMPOSE_REFUSED, "volume my.app-2-data is not declared", "my.app-2/x.yml")
    variant = variant.with_variant("app-id=my.app-2 PORT=9080").at(CAMERA, "x")
    assert finding_key(variant) == finding_key(canonical.at(CAMERA, "x"))


def test_an_edit_above_a_failure_keeps_it_suppressed() -> None:
    moved = report(found(CAMERA, "none", LIDAR, 14), found(CAMERA, "motion", LIDAR, 14))
    applied = apply_suppressions(moved, recorded(entry(CAMERA, LIDAR, 2)), EVERYTHING)
    assert applied.passed() and len(applied.suppressed) == 2
    assert [r.status for r in applied.results] == ["suppressed", "suppressed"]


# --- matching ---------------------------------------------------------------------


def test_recorded_failures_pass_and_new_ones_fail() -> None:
    applied = apply_suppressions(REPORT, recorded(entry(CAMERA, LIDAR, 2)), EVERYTHING)
    assert [f.template for f in applied.errors] == [API]
    assert not applied.passed()
    assert applied.errors[0].message == RELATIVE  # a new failure reads as before


def test_a_failure_occurring_more_often_than_recorded_fails_once_more() -> None:
    applied = apply_suppressions(
        REPORT, recorded(entry(CAMERA, LIDAR, 1), entry(API, RELATIVE, 1)), EVERYTHING
    )
    [extra] = applied.errors
    assert extra.pick == "motion"
    assert "one more than the 1 wendy-llm-suppressions.json accepts" in extra.message


def test_a_recorded_failure_that_no_longer_occurs_fails_until_pruned() -> None:
    file = recorded(entry(CAMERA, LIDAR, 2), entry(API, RELATIVE, 1), entry(API, "gone", 1))
    fewer = report(found(CAMERA, "none", LIDAR), found(API, "info", RELATIVE))
    applied = apply_suppressions(fewer, file, EVERYTHING)
    stale = applied.errors
    assert [(f.template, f.check, f.pick) for f in stale] == [(CAMERA, CHECK, ""), (API, CHECK, "")]
    assert "occurs 1 time(s), not 2" in stale[0].message
    assert "no longer occurs" in stale[1].message and "gone" in stale[1].message
    assert all("--prune-suppressions" in f.message for f in stale)
    assert stale[1].file == SUPPRESSIONS_FILE and stale[1].line == file.entries[2].line
    pruned = recorded(*prune(fewer, file, EVERYTHING))
    assert {(e.template, e.message, e.count) for e in pruned.entries} == {
        (CAMERA, LIDAR, 1),
        (API, RELATIVE, 1),
    }
    assert apply_suppressions(fewer, pruned, EVERYTHING).passed()


def test_a_subset_never_judges_nor_prunes_nor_records_other_templates() -> None:
    file = recorded(entry(CAMERA, LIDAR, 2), entry(API, RELATIVE, 1))
    only_api = report(found(API, "info", RELATIVE))  # what `--template rust/simple-api` sees
    scope = Scope.of_run([API], [])
    assert apply_suppressions(only_api, file, scope).passed()
    assert prune(only_api, file, scope) == list(file.entries)
    assert sorted(e.key for e in record_all(only_api, file, scope)) == sorted(
        e.key for e in file.entries
    )
    # With --pick nothing is judged unused, though the counts fall short.
    one_pick = report(found(CAMERA, "none", LIDAR))
    assert apply_suppressions(one_pick, file, Scope.of_run(None, ["none"])).passed()
    assert not apply_suppressions(one_pick, file, EVERYTHING).passed()


def test_suppress_all_replaces_what_the_templates_checked_recorded() -> None:
    file = recorded(entry(CAMERA, LIDAR, 5), entry(API, "old", 1))
    now = record_all(REPORT, file, EVERYTHING)
    assert {(e.template, e.message, e.count) for e in now} == {
        (CAMERA, LIDAR, 2),
        (API, RELATIVE, 1),
    }


# --- the reports ------------------------------------------------------------------


def test_every_report_shows_the_suppressed_counts_per_template() -> None:
    applied = apply_suppressions(REPORT, recorded(entry(CAMERA, LIDAR, 2)), EVERYTHING)
    table = format_table(applied)
    assert "supp" in table and "FAIL" in table and "2 failure(s) suppressed" in table
    details = format_details(applied)
    assert f"Suppressed (2) by {SUPPRESSIONS_FILE}: {CAMERA} 2" in details
    assert LIDAR not in details  # counted, not listed
    document = validate_report(dumps(check_json(applied)), "check")
    assert document["summary"]["suppressed_per_template"] == {CAMERA: 2}
    assert document["summary"]["errors"] == 1 and document["summary"]["suppressed"] == 2
    statuses = [r["status"] for r in document["results"]]
    assert statuses == ["suppressed", "suppressed", "fail"]
    assert document["results"][0]["findings"][0]["suppressed"] is True
    junit = ET.fromstring(check_junit(applied))
    camera = junit.find(f"testsuite[@name='{CAMERA}']")
    assert camera is not None and camera.get("failures") == "0"
    assert camera.findtext("system-out") == f"2 failure(s) suppressed by {SUPPRESSIONS_FILE}"
    assert (camera.findtext("testcase/system-out") or "").startswith("suppressed: ")
    markdown = check_markdown(applied)
    assert f"| {CAMERA} | 2 |" in markdown and "### wendy-llm check: FAILED" in markdown


# --- the command ------------------------------------------------------------------


def test_the_command_records_reads_and_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    root = repo_with_a_refused_wendy_json(tmp_path / "repo")
    code, out, _ = run_cli("check", "-q", str(root))
    assert code == 1 and "lidar" in out
    file = root / SUPPRESSIONS_FILE
    monkeypatch.setenv("CI", "true")
    for flag in ("--suppress-all", "--prune-suppressions"):
        code, _, err = run_cli("check", "-q", flag, str(root))
        assert code == 2 and "refusing to write" in err and "CI=true" in err, err
    assert not file.exists()
    monkeypatch.delenv("CI")
    code, _, err = run_cli("check", "-q", "--suppress-all", "--pick", "a", str(root))
    assert code == 2 and "--pick" in err and not file.exists()
    code, _, err = run_cli("check", "-q", "--suppress-all", str(root))
    assert code == 0, err
    assert "recorded 2 suppressed failure(s) of 1 kind(s) in 1 template(s)" in err
    code, out, _ = run_cli("check", str(root))
    assert code == 0 and "supp" in out and "Suppressed (2)" in out
    file.write_text(file.read_text().replace('"count": 2', '"count": 0'), encoding="utf-8")
    code, _, err = run_cli("check", "-q", str(root))
    assert code == 2 and f"{SUPPRESSIONS_FILE}:10: " in err, err
    code, _, err = run_cli("check", "-q", "--prune-suppressions", str(root))
    assert code == 2 and f"{SUPPRESSIONS_FILE}:10: " in err, err
    # A damaged file is regenerated by recording every template's failures again.
    code, _, err = run_cli("check", "-q", "--suppress-all", str(root))
    assert code == 0 and "replacing an invalid" in err, err
    assert load_suppressions(file).entries[0].count == 2


def test_a_template_gone_from_the_repository_leaves_its_entries_unused() -> None:
    file = recorded(entry(CAMERA, LIDAR, 2), entry("python/removed", RELATIVE, 1))
    only_camera = report(found(CAMERA, "none", LIDAR), found(CAMERA, "motion", LIDAR))
    applied = apply_suppressions(only_camera, file, EVERYTHING)
    [stale] = applied.errors
    assert (stale.template, stale.check) == ("python/removed", CHECK)
    assert applied.results[-1].template == "python/removed"
    assert [e.template for e in recorded(*prune(only_camera, file, EVERYTHING)).entries] == [CAMERA]
    # A run of other templates says nothing about it.
    assert apply_suppressions(only_camera, file, Scope.of_run([CAMERA], [])).passed()
