"""Suppressions that survive rewording (version 2), and version 1 files still read.

A version 2 entry is a fingerprint: template, file, code and the finding's
subject, never its message nor its line, so rewording a message in a release
keeps every recorded failure suppressed.  A version 1 file (keyed by the
message) is matched as it always was, and ``--prune-suppressions`` rewrites it
as version 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _golden_helpers import (
    repo_with_a_refused_wendy_json,
    run_cli,
)

from wendy_llm.codes.tools import WENDY_JSON_INVALID
from wendy_llm.errors import SuppressionsError
from wendy_llm.repo.suppressions_file import (
    SUPPRESSIONS_FILE,
    dump_suppressions,
    load_suppressions,
    parse_suppressions,
)
from wendy_llm.validate.findings import CheckResult, Finding, Report, error
from wendy_llm.validate.suppressions import Scope, apply_suppressions, prune
from wendy_llm.wendycli import wendy_json as cli_wendy_json

CAMERA = "cpp/opencv-camera"
LIDAR = 'entitlements[1].type: unknown entitlement type "lidar"'


def v1_text(count: int, check: str = "wendy-json", message: str = LIDAR) -> str:
    """A version 1 file, as wendy-llm wrote them before codes (by hand: it writes version 2)."""
    failures = [{"message": message, "count": count}]
    document = {"version": 1, "suppressions": {CAMERA: {check: {"wendy.json": failures}}}}
    return json.dumps(document, indent=2) + "\n"


def lidar(pick: str, message: str = LIDAR) -> Finding:
    subject = "entitlements[1].type"
    return error(WENDY_JSON_INVALID, message, "wendy.json", 9, subject=subject).at(CAMERA, pick)


def report(*findings: Finding) -> Report:
    return Report(tuple(CheckResult(f.template, f.pick, f.check, (f,)) for f in findings))


def test_a_version_1_file_is_read_and_matched_by_message() -> None:
    recorded = parse_suppressions(v1_text(2))
    assert recorded.version == 1
    applied = apply_suppressions(report(lidar("a"), lidar("b")), recorded, Scope())
    assert applied.passed() and len(applied.suppressed) == 2
    # Matched by its words, as before: a reworded message is a new failure there.
    reworded = report(lidar("a", "entitlements[1].type: no such type"), lidar("b"))
    assert not apply_suppressions(reworded, recorded, Scope()).passed()


def test_an_unknown_check_in_a_version_1_file_names_its_line_and_the_known_ids() -> None:
    with pytest.raises(SuppressionsError) as caught:
        parse_suppressions(v1_text(2, check="wendyjson"), shown="s.json")
    message = str(caught.value)
    assert message.startswith("s.json:5: ") and 'unknown check "wendyjson"' in message
    assert "(known: render, compose, wendy-json, shell," in message


def test_pruning_a_version_1_file_rewrites_it_as_version_2() -> None:
    recorded = parse_suppressions(v1_text(3))
    entries = prune(report(lidar("a"), lidar("b")), recorded, Scope())
    rewritten = parse_suppressions(dump_suppressions(entries))
    assert rewritten.version == 2
    [entry] = rewritten.entries
    assert (entry.code, entry.subject, entry.count) == ("WJS003", "entitlements[1].type", 2)
    reworded = report(lidar("a", "entitlements[1].type: no such type"), lidar("b"))
    assert apply_suppressions(reworded, rewritten, Scope()).passed()
    # Only the whole repository can be rewritten at once.
    with pytest.raises(SuppressionsError, match=r"version 1 file.*without --template"):
        prune(report(lidar("a")), recorded, Scope.of_run(["other/template"], []))


def test_a_reworded_message_keeps_a_recorded_suppression(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    root = repo_with_a_refused_wendy_json(tmp_path / "repo")
    code, _, err = run_cli("check", "-q", "--suppress-all", str(root))
    assert code == 0, err
    [entry] = load_suppressions(root / SUPPRESSIONS_FILE).entries
    assert (entry.code, entry.subject) == ("WJS003", "entitlements[0].type")
    # A release rewords what the wendy-json check says of the failure ...
    original = cli_wendy_json.Problem.__str__
    monkeypatch.setattr(
        cli_wendy_json.Problem, "__str__", lambda self: "reworded: " + original(self).upper()
    )
    code, out, _ = run_cli("check", str(root))
    assert "REWORDED" not in out  # suppressed findings are counted, not listed
    # ... and the recorded failure is still the same failure: suppressed, passing.
    assert code == 0 and "Suppressed (2)" in out, out
    code, out, _ = run_cli("check", "--json", str(root))
    document = json.loads(out)
    messages = [f["message"] for r in document["results"] for f in r["findings"]]
    assert any(m.startswith("reworded: ") for m in messages)


def test_the_command_prunes_a_version_1_file_into_version_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    root = repo_with_a_refused_wendy_json(tmp_path / "repo")
    message = 'entitlements[0].type: unknown entitlement type "lidar" (known: '
    code, out, _ = run_cli("check", "-q", str(root))
    first = next(line for line in out.splitlines() if message in line)
    recorded = first[first.index(message) :]
    failures = [{"message": recorded, "count": 3}]  # one more than occurs: pruned to 2
    document = {
        "version": 1,
        "suppressions": {"node/mini": {"wendy-json": {"wendy.json": failures}}},
    }
    (root / SUPPRESSIONS_FILE).write_text(json.dumps(document), encoding="utf-8")
    code, out, _ = run_cli("check", "-q", str(root))
    assert code == 1 and "no longer occurs" not in out and "occurs 2 time(s), not 3" in out
    code, _, err = run_cli("check", "-q", "--prune-suppressions", str(root))
    assert code == 0, err
    data = json.loads((root / SUPPRESSIONS_FILE).read_text(encoding="utf-8"))
    assert data["version"] == 2
    assert data["suppressions"] == {
        "node/mini": {
            "wendy.json": [
                {
                    "code": "WJS003",
                    "subject": "entitlements[0].type",
                    "count": 2,
                    "message": recorded,
                }
            ]
        }
    }
    assert run_cli("check", "-q", str(root))[0] == 0
