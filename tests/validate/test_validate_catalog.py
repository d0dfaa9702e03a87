"""The catalog check: meta.json against the template directories (spec: wendy-run.md section 4)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from _template_helpers import write_files

from wendy_llm.reports.check import format_details, format_table
from wendy_llm.reports.json import check_json
from wendy_llm.reports.junit import check_junit
from wendy_llm.reports.markdown import check_markdown
from wendy_llm.validate.checks.catalog import (
    CatalogFindings,
    catalog_findings,
    rendered_platform,
)
from wendy_llm.validate.findings import REPOSITORY
from wendy_llm.validate.run import run_check

IDS = ["python/simple-api", "node/simple-api", "rust/blink"]
PLATFORMS = {
    "python/simple-api": {"default": "linux"},
    "node/simple-api": {"default": ""},
    "rust/blink": {"default": "wendy-lite"},
}


def meta(*entries: Mapping[str, object], languages: list[str] | None = None) -> bytes:
    document: dict[str, object] = {"templates": [dict(e) for e in entries]}
    if languages is not None:
        document["languages"] = [{"key": key, "name": key.title()} for key in languages]
    return (json.dumps(document, indent=2) + "\n").encode()


API: dict[str, object] = {"name": "simple-api", "description": "An HTTP API."}
BLINK: dict[str, object] = {"name": "blink", "description": "Blinks.", "targets": ["wendy-lite"]}
GOOD = meta(API, BLINK, languages=["node", "python", "rust"])


def judge(
    data: bytes, ids: list[str] = IDS, platforms: Mapping[str, Mapping[str, str]] = PLATFORMS
) -> CatalogFindings:
    return catalog_findings(data, ids, platforms)


def messages(found: CatalogFindings) -> dict[str, list[tuple[str, str, int | None]]]:
    rows = {**found.templates, REPOSITORY: found.repository}
    return {k: [(f.severity, f.message, f.line) for f in v] for k, v in rows.items() if v}


def test_a_catalog_that_matches_the_directories_passes() -> None:
    found = judge(GOOD)
    assert messages(found) == {}
    assert sorted(found.templates) == sorted(IDS)


def test_a_template_directory_not_listed_fails_its_row() -> None:
    assert messages(judge(meta(API, languages=["node", "python", "rust"]))) == {
        "rust/blink": [
            (
                "error",
                "rust/blink is not listed in meta.json: `wendy init --template blink` refuses it",
                2,
            )
        ]
    }


def test_an_entry_whose_languages_leave_a_directory_out() -> None:
    data = meta({**API, "languages": ["python"]}, BLINK, languages=["node", "python", "rust"])
    assert messages(judge(data)) == {
        "node/simple-api": [
            (
                "error",
                "node/simple-api: meta.json lists simple-api for python, not node: wendy init "
                "does not offer it in node",
                6,
            )
        ]
    }


def test_a_listed_template_that_exists_nowhere_goes_on_the_repository_row() -> None:
    data = meta(
        API, BLINK, {"name": "ghost", "description": "x"}, languages=["node", "python", "rust"]
    )
    assert messages(judge(data)) == {
        REPOSITORY: [
            (
                "error",
                "meta.json lists ghost, which exists in no language (node/ghost/, python/ghost/, "
                "rust/ghost/)",
                14,
            )
        ]
    }


def test_a_listed_language_without_the_directory() -> None:
    data = meta(
        {**API, "languages": ["python", "node", "swift"]},
        BLINK,
        languages=["node", "python", "rust"],
    )
    assert messages(judge(data))[REPOSITORY] == [
        (
            "error",
            "meta.json lists simple-api for swift, but swift/simple-api/ is not a template",
            6,
        )
    ]


def test_a_wendy_lite_app_must_be_offered_to_wendy_lite() -> None:
    data = meta(API, {**BLINK, "targets": []}, languages=["node", "python", "rust"])
    assert messages(judge(data)) == {
        "rust/blink": [
            (
                "error",
                "rust/blink renders a wendy-lite app (picks: default), but its meta.json targets "
                "do not include wendy-lite (none: WendyOS devices only): wendy init offers it "
                "where it cannot run",
                10,
            )
        ]
    }


def test_only_wendy_lite_apps_are_offered_to_wendy_lite() -> None:
    platforms = {**PLATFORMS, "rust/blink": {"a": "wendy-lite", "b": "linux", "c": ""}}
    assert messages(judge(GOOD, platforms=platforms)) == {
        "rust/blink": [
            (
                "error",
                "rust/blink is offered for wendy-lite by meta.json, but renders apps that are "
                "not wendy-lite apps (picks: b (linux), c (no platform))",
                10,
            )
        ]
    }


def test_an_empty_description_fails_every_template_of_the_entry() -> None:
    data = meta({**API, "description": "  "}, BLINK, languages=["node", "python", "rust"])
    found = messages(judge(data))
    assert sorted(found) == ["node/simple-api", "python/simple-api"]
    assert found["node/simple-api"] == [
        ("error", "node/simple-api: the meta.json entry of simple-api has no description", 3)
    ]


def test_an_entry_listed_twice_warns() -> None:
    data = meta(API, BLINK, API, languages=["node", "python", "rust"])
    assert messages(judge(data))[REPOSITORY] == [
        ("warning", "simple-api is listed more than once; wendy init uses the first entry", 14)
    ]


def test_the_languages_list_matches_the_language_folders() -> None:
    found = messages(judge(meta(API, BLINK, languages=["python", "rust", "swift"])))
    assert [m for _, m, _ in found[REPOSITORY]] == [
        "the language folder node/ holds templates, but meta.json's languages do not list it",
        'meta.json\'s languages list "swift", which holds no template',
    ]
    assert messages(judge(meta(API, BLINK))) == {}  # no list: nothing to match


def test_unknown_keys_are_ignored_and_keys_match_in_any_case() -> None:
    data = meta({"Name": "simple-api", "DESCRIPTION": "x", "icon": "api.svg"}, BLINK)
    assert messages(judge(data)) == {}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{\n  "templates": [\n}\n', "JSON: Expecting value"),
        (
            b'{"templates": [{"name": 5}]}',
            "templates[0].name: json: cannot unmarshal number into Go value of type string",
        ),
    ],
)
def test_a_catalog_go_cannot_decode_fails_the_repository_row(data: bytes, message: str) -> None:
    found = judge(data)
    assert found.unreadable
    assert [f.message for f in found.repository] == [message]
    assert all(not findings for findings in found.templates.values())


def test_rendered_platform_reads_wendy_json_as_the_cli_does() -> None:
    assert rendered_platform({"wendy.json": b'{"appId": "a", "Platform": "wendy-lite"}'}) == (
        "wendy-lite"
    )
    assert rendered_platform({"wendy.json": b"{not json"}) == ""
    assert rendered_platform({}) == ""


# --- in a check run, and in every report ------------------------------------------


def template_files(name: str, platform: str) -> dict[str, str]:
    wendy = json.dumps({"appId": "{{.APP_ID}}", "platform": platform})
    return {f"{name}/template.json": "{}", f"{name}/wendy.json": wendy}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    files = {
        **template_files("python/simple-api", "linux"),
        **template_files("rust/blink", "wendy-lite"),
        "meta.json": meta(API, {"name": "ghost", "description": "Gone."}).decode(),
    }
    return write_files(tmp_path / "repo", files)


def test_check_reports_a_catalog_row_per_template_and_a_repository_row(repo: Path) -> None:
    report = run_check(repo, golden=False)
    rows = {(r.template, r.pick): r.status for r in report.results if r.check == "catalog"}
    assert rows == {
        ("python/simple-api", ""): "ok",
        ("rust/blink", ""): "fail",
        (REPOSITORY, ""): "fail",
    }
    table = format_table(report)
    assert "(repository)" in table and "catalog" in table.splitlines()[0]
    details = format_details(report)
    assert "(repository) (template) [catalog] meta.json:7: CAT011 meta.json lists ghost" in details
    assert "rust/blink (template) [catalog] meta.json:2: CAT004 rust/blink is not listed" in details
    document: Any = check_json(report)
    repository = [r for r in document["results"] if r["template"] == REPOSITORY]
    assert repository[0]["pick"] is None and repository[0]["status"] == "fail"
    junit = ET.fromstring(check_junit(report))
    suites = {s.get("name"): s for s in junit.findall("testsuite")}
    assert suites[REPOSITORY].find("testcase/failure") is not None
    assert "meta.json lists ghost" in check_markdown(report)


def test_a_subset_run_has_no_repository_row(repo: Path) -> None:
    report = run_check(repo, templates=["python/simple-api"], golden=False)
    assert {(r.template, r.check) for r in report.results if r.check == "catalog"} == {
        ("python/simple-api", "catalog")
    }


def test_a_subset_run_shows_an_unreadable_catalog_on_the_template_row(repo: Path) -> None:
    (repo / "meta.json").write_text('{"templates": {}}\n', encoding="utf-8")
    report = run_check(repo, templates=["python/simple-api"], golden=False)
    (finding,) = [f for f in report.errors if f.check == "catalog"]
    assert (finding.template, finding.file) == ("python/simple-api", "meta.json")
    assert "cannot unmarshal object" in finding.message


def test_without_meta_json_there_is_no_catalog_check(repo: Path) -> None:
    (repo / "meta.json").unlink()
    assert not [r for r in run_check(repo, golden=False).results if r.check == "catalog"]


@pytest.mark.parametrize(
    ("targets", "warned"),
    [
        (["darwin"], True),
        (["linux", "macos"], True),
        (["darwin", "wendyos"], False),
        (["wendyos"], False),
        ([], False),  # no targets: offered for WendyOS devices
    ],
)
def test_targets_the_cli_does_not_know_hide_a_template_from_the_picker(
    targets: list[str], warned: bool
) -> None:
    """wendy-run.md section 7: only wendyos and wendy-lite are targets the picker offers."""
    api = {**API, "targets": targets}
    found = judge(meta(api, BLINK, languages=["node", "python", "rust"]))
    expected = [
        (
            "warning",
            f"{language}/simple-api: its meta.json targets ({', '.join(targets)}) name neither "
            "wendyos nor wendy-lite, the only targets wendy init knows: its picker never "
            "offers simple-api, which only `wendy init --template simple-api` reaches",
            6,
        )
        for language in ("python", "node")
    ]
    assert messages(found) == (
        {t: [e] for t, e in zip(IDS[:2], expected, strict=True)} if warned else {}
    )
