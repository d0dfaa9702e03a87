"""Policy from the trusted side: with ``--base`` the rules files, ``gate.files``,
``wendy-llm.toml`` and the suppressions file are the base's, and a change to them
is a finding of its own (POL001), accepted only by ``--accept-policy-change``.

Each case is a hostile pull request of issue 38 on a small real repository
(git, the Go engine, Compose): its base holds a rule the pull request's
template change breaks, and the pull request also changes the policy so that,
judged by its own head, it would pass.  The verdict stays red under the base's
policy, and goes green when the change is accepted only where the head's
policy passes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from _golden_helpers import commit_all, git, init_repo, run_cli, template_files, write_files

import wendy_llm
from wendy_llm.codes.builds import TOP_RULE_FAILED
from wendy_llm.codes.stored import (
    POLICY_CHANGE_ACCEPTED,
    POLICY_CHANGED,
    SUPPRESSION_UNUSED,
)
from wendy_llm.repo.config import SETTINGS_FILE
from wendy_llm.repo.suppressions_file import SUPPRESSIONS_FILE
from wendy_llm.validate.findings import REPOSITORY

RULES = "golden/node/mini.rules.yaml"
RULES_TEXT = """\
version: 1
gate:
  files: [docker-compose.yml]
rules:
  - name: readme-names-the-app
    assert:
      - {file: README.md, contains: "# ${APP_ID}"}
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A repository whose base (branch ``main``) passes under its rules file,
    and a work tree whose template breaks the rule (fixtures updated)."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    root = init_repo(tmp_path / "repo")
    write_files(root / "node/mini", template_files(["a:1", "b:2"]))
    write_files(root, {RULES: RULES_TEXT})
    assert run_cli("golden", "--update", "-q", str(root))[0] == 0
    commit_all(root, "base")
    git(root, "checkout", "-q", "-b", "pull-request")
    write_files(root / "node/mini", {"README.md": "# hello\n"})
    assert run_cli("golden", "--update", "-q", str(root))[0] == 0
    yield root


def _check(root: Path, *flags: str) -> tuple[int, dict[str, object]]:
    code, out, err = run_cli("check", "--json", "--no-cache", *flags, str(root))
    assert code in (0, 1), err
    document = json.loads(out)
    assert isinstance(document, dict)
    return code, document


def _codes(document: dict[str, object]) -> list[str]:
    """The codes of the errors that fail the run."""
    results = document["results"]
    assert isinstance(results, list)
    return sorted(
        f["code"]
        for r in results
        for f in r["findings"]
        if f["severity"] == "error" and not f.get("ignored") and not f.get("suppressed")
    )


def _verdicts(root: Path) -> tuple[int, int, int]:
    """Exit statuses without a base, with one, and with the change accepted."""
    without, _ = _check(root)
    judged, _ = _check(root, "--base", "main")
    accepted, _ = _check(root, "--base", "main", "--accept-policy-change")
    return without, judged, accepted


def test_the_rule_fails_the_change_while_the_policy_is_untouched(repo: Path) -> None:
    code, document = _check(repo, "--base", "main")
    assert code == 1 and _codes(document) == [TOP_RULE_FAILED.code] * 2
    assert _check(repo)[1]["results"] == document["results"]


@pytest.mark.parametrize(
    "hostile",
    [
        pytest.param(lambda root: (root / RULES).unlink(), id="rules-file-deleted"),
        pytest.param(lambda root: (root / RULES).write_text("version: 1\n"), id="rules-emptied"),
    ],
)
def test_a_removed_rule_does_not_exempt_the_change(repo: Path, hostile: object) -> None:
    assert callable(hostile)
    hostile(repo)
    assert _verdicts(repo) == (0, 1, 0)
    _, document = _check(repo, "--base", "main")
    assert _codes(document) == sorted([TOP_RULE_FAILED.code] * 2 + [POLICY_CHANGED.code])
    message = _policy_message(document)
    assert f"--- {RULES} at main" in message or "-      - {file: README.md" in message
    assert "-      - {file: README.md" in message  # the diff of the policy file


def test_ignore_all_in_the_settings_does_not_exempt_the_change(repo: Path) -> None:
    write_files(repo, {SETTINGS_FILE: '[findings]\nignore = ["ALL"]\n'})
    assert _verdicts(repo) == (0, 1, 0)
    _, document = _check(repo, "--base", "main")
    assert POLICY_CHANGED.code in _codes(document)
    assert '+ignore = ["ALL"]' in _policy_message(document)
    assert "is new since main" in _policy_message(document)


def test_a_committed_suppress_all_does_not_exempt_the_change(repo: Path) -> None:
    code, _, err = run_cli("check", "-q", "--suppress-all", str(repo))
    assert code == 0 and (repo / SUPPRESSIONS_FILE).is_file(), err
    commit_all(repo, "record every failure")
    assert _verdicts(repo) == (0, 1, 0)
    report = wendy_llm.run_check(repo, cache=False, base="main")
    assert not report.passed() and not report.suppressed
    assert {f.code for f in report.errors} == {TOP_RULE_FAILED.code, POLICY_CHANGED.code}
    accepted = wendy_llm.run_check(repo, cache=False, base="main", accept_policy_change=True)
    assert accepted.passed() and len(accepted.suppressed) == 2
    assert [(f.code, f.template) for f in accepted.notes] == [
        (POLICY_CHANGE_ACCEPTED.code, REPOSITORY)
    ]


def test_pruning_after_a_fix_is_no_policy_change(repo: Path) -> None:
    assert run_cli("check", "-q", "--suppress-all", str(repo))[0] == 0
    adopted = commit_all(repo, "adopted: the failures recorded")
    write_files(repo / "node/mini", {"README.md": "# {{.APP_ID}}\n"})  # the fix
    assert run_cli("golden", "--update", "-q", str(repo))[0] == 0
    code, document = _check(repo, "--base", adopted)
    assert code == 1 and _codes(document) == [SUPPRESSION_UNUSED.code]  # prune it
    assert run_cli("check", "-q", "--prune-suppressions", str(repo))[0] == 0
    code, document = _check(repo, "--base", adopted)
    assert code == 0 and "policy" not in str(document["checks"]), _codes(document)
    # Accepting more than the base does is a change.
    write_files(repo / "node/mini", {"README.md": "# hello\n"})
    assert run_cli("golden", "--update", "-q", str(repo))[0] == 0
    assert run_cli("check", "-q", "--suppress-all", str(repo))[0] == 0
    text = (repo / SUPPRESSIONS_FILE).read_text(encoding="utf-8")
    (repo / SUPPRESSIONS_FILE).write_text(text.replace('"count": 2', '"count": 3'))
    code, document = _check(repo, "--base", adopted)
    assert code == 1 and POLICY_CHANGED.code in _codes(document)


def test_a_symlinked_policy_file_is_never_quoted(repo: Path, tmp_path: Path) -> None:
    secret = tmp_path / "host-secret.txt"
    secret.write_text("token-that-must-not-leak\n", encoding="utf-8")
    (repo / RULES).unlink()
    (repo / RULES).symlink_to(secret)
    code, out, err = run_cli("check", "--base", "main", "--no-cache", str(repo))
    assert code == 1 and "POL001" in out, out + err
    assert "token-that-must-not-leak" not in out + err


def test_recording_suppressions_against_a_base_is_refused(repo: Path) -> None:
    code, _, err = run_cli("check", "-q", "--suppress-all", "--base", "main", str(repo))
    assert code == 2 and "--base judges by the base's" in err, err
    assert not (repo / SUPPRESSIONS_FILE).exists()


def test_a_new_policy_file_is_a_change_and_accepted_only_where_it_passes(repo: Path) -> None:
    git(repo, "checkout", "-q", "main")
    (repo / RULES).unlink()
    commit_all(repo, "no rules at the base")
    git(repo, "checkout", "-q", "-b", "adds-rules")
    write_files(repo, {RULES: RULES_TEXT.replace("# ${APP_ID}", "# ")})
    # The new rules pass; the change is still the maintainers' to accept.
    assert _verdicts(repo) == (0, 1, 0)
    # New rules the work tree breaks: accepting them judges by them, and fails.
    write_files(repo, {RULES: RULES_TEXT})
    assert _verdicts(repo) == (1, 1, 1)
    _, document = _check(repo, "--base", "main", "--accept-policy-change")
    assert _codes(document) == [TOP_RULE_FAILED.code] * 2


def test_the_library_gives_the_command_line_verdict_with_a_base(repo: Path) -> None:
    (repo / RULES).unlink()
    code, document = _check(repo, "--base", "main")
    report = wendy_llm.run_check(repo, cache=False, base="main")
    assert (code == 0) == report.passed()
    assert _codes(document) == sorted(f.code for f in report.errors)


def test_accepting_needs_a_base(repo: Path) -> None:
    for command in (["check"], ["diff", "--baseline", str(repo / "node/mini")]):
        code, _, err = run_cli(*command, "--accept-policy-change", str(repo))
        assert code == 2 and "add --base" in err, err


def test_an_unknown_base_is_a_usage_error(repo: Path) -> None:
    code, _, err = run_cli("check", "-q", "--base", "no-such-branch", str(repo))
    assert code == 2 and "no-such-branch" in err, err
    with pytest.raises(wendy_llm.UnknownRevision):
        wendy_llm.run_check(repo, cache=False, base="no-such-branch")


def test_gate_files_of_the_head_do_not_narrow_diff(repo: Path) -> None:
    compose = (repo / "node/mini/docker-compose.yml").read_text(encoding="utf-8")
    write_files(repo / "node/mini", {"docker-compose.yml": compose + "x-changed: true\n"})
    write_files(repo, {RULES: RULES_TEXT.replace("[docker-compose.yml]", "[nothing-here]")})
    flags = ("diff", "--base", "main", "--expect-unchanged", "--quiet", str(repo))
    code, out, err = run_cli(*flags)
    assert code == 1, err
    assert "POL001" in out and "+  files: [nothing-here]" in out
    assert "docker-compose.yml" in out  # the changed pick, compared under the base's gate
    code, out, err = run_cli(*flags, "--accept-policy-change")
    assert code == 0, out + err
    # Report only, diff judges nothing a policy could steer: the change is shown.
    code, out, err = run_cli("diff", "--base", "main", str(repo))
    assert code == 0 and "POL001" in out, out + err


def _policy_message(document: dict[str, object]) -> str:
    results = document["results"]
    assert isinstance(results, list)
    found = [f["message"] for r in results if r["check"] == "policy" for f in r["findings"]]
    assert len(found) == 1, found
    return str(found[0])


def test_sample_values_are_inputs_not_policy(repo: Path) -> None:
    """A new template's sample value alone is no policy change (as the adoption's
    wendy-llm.toml), and the run renders with it; [findings] beside it is one."""
    write_files(repo, {RULES: RULES_TEXT.replace("# ${APP_ID}", "# ")})
    commit_all(repo, "the rule holds")
    files = template_files(["a:1"], readme="# {{.TOKEN}}\n")
    manifest = json.loads(str(files["template.json"]))
    manifest["variables"].append({"name": "TOKEN", "type": "string"})  # no default
    files["template.json"] = json.dumps(manifest)
    write_files(repo / "node/other", files)
    samples = '[sample-values."node/other"]\nTOKEN = "t"\n'
    write_files(repo, {SETTINGS_FILE: samples})
    assert run_cli("golden", "--update", "-q", str(repo))[0] == 0
    code, document = _check(repo, "--base", "HEAD")
    assert code == 0 and "policy" not in str(document["checks"]), _codes(document)
    write_files(repo, {SETTINGS_FILE: samples + "[findings]\n"})
    code, document = _check(repo, "--base", "HEAD")
    assert code == 1 and _codes(document) == [POLICY_CHANGED.code]
