"""`wendy-llm diff` end to end: temporary git repositories, real engine."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from _golden_helpers import (
    COMPOSE_SENTINEL,
    commit_all,
    git,
    init_repo,
    run_cli,
    template_files,
    write_files,
)

TEMPLATE = "templates/py/mini"
#: The rules file: the gate's scope, and "special" declared a sentinel (so a
#: new pick answering it is exempt from the byte comparison).
RULES = """\
sentinels:
  MODEL: {values: [special]}
gate:
  files: [docker-compose.yml]
"""


def write_template(repo: Path, files: dict[str, str | bytes]) -> None:
    target = repo / TEMPLATE
    if target.exists():
        shutil.rmtree(target)
    write_files(target, files)


def baseline_files() -> dict[str, str | bytes]:
    """The Ollama-only template: two tag picks."""
    return template_files(["a:1", "b:2"])


def dflash_like_files(*, trimmed: bool = True) -> dict[str, str | bytes]:
    """The change: a sentinel option whose branch swaps the backend, a new
    service directory in every pick's render and a README rewrite."""
    compose = COMPOSE_SENTINEL if trimmed else COMPOSE_SENTINEL.replace("{{- ", "{{ ")
    return template_files(
        ["a:1", "b:2", "special"],
        compose=compose,
        readme="# {{.APP_ID}}\n\nNow with a special mode.\n",
        extra={"special/Dockerfile": "FROM vllm\n"},
    )


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two commits: the baseline, then the DFlash-like change (HEAD)."""
    repo = init_repo(tmp_path / "repo")
    write_template(repo, baseline_files())
    write_files(repo / "golden/py", {"mini.rules.yaml": RULES})
    commit_all(repo, "baseline: Ollama only")
    write_template(repo, dflash_like_files())
    commit_all(repo, "add the special mode")
    monkeypatch.chdir(repo)
    return repo


def statuses(out: str) -> dict[str, str]:
    doc = json.loads(out)
    return {p["slug"]: p["status"] for p in doc["picks"]}


def test_dflash_like_change_keeps_tag_picks_unchanged_in_gate_scope(repo: Path) -> None:
    code, out, err = run_cli(
        "diff", "--base", "HEAD~1", "--template", "py/mini", "--expect-unchanged"
    )
    assert (code, err) == (0, "")
    assert "scope: docker-compose.yml (from golden/py/mini.rules.yaml)" in out
    assert "inputs: canonical (app id llm-app, defaults); variant app-id=my.app-2 PORT=9080" in out
    assert "  a-1      unchanged" in out
    assert "  b-2      unchanged" in out
    sentinel = "sentinel MODEL=special: checked by its rules, not byte for byte"
    assert f"  special  exempt     ({sentinel})" in out
    assert "summary: 2 unchanged, 0 changed, 0 added, 0 removed, 1 exempt" in out
    assert "policy: expect unchanged: holds" in out
    assert "README.md (changed in 2 picks)" in out
    assert "special/Dockerfile (added in 2 picks)" in out
    code, out, _ = run_cli("diff", "--base", "HEAD~1", "--template", "py/mini", "--json")
    assert statuses(out) == {"a-1": "unchanged", "b-2": "unchanged", "special": "exempt"}
    doc = json.loads(out)
    assert doc["picks"][2]["reason"] == sentinel
    assert [i["label"] for i in doc["inputs"]] == ["canonical", "app-id=my.app-2 PORT=9080"]


def test_a_new_pick_that_is_no_declared_sentinel_is_compared_and_fails(repo: Path) -> None:
    # Without the sentinel declared, "special" is an answer like any other:
    # the base renders it as wendy init --var MODEL=special would (its
    # backend service), so the swapped backend is a change.
    # The work tree's rules file judges once the change to it is accepted
    # (test_gate_policy.py: without that, the base's does).
    (repo / "golden/py/mini.rules.yaml").write_text("gate:\n  files: [docker-compose.yml]\n")
    accept = "--accept-policy-change"
    code, out, _ = run_cli("diff", "--base", "HEAD~1", "--expect-unchanged", accept)
    assert code == 1
    assert "  special  changed    docker-compose.yml (changed)  [FAILS the policy]" in out, out
    assert "=== pick special: docker-compose.yml (changed)" in out
    assert "-  backend:" in out and "+  special:" in out
    assert (
        "pick special changed (docker-compose.yml) but --expect-unchanged holds it to the base "
        "rendered with its answers; if intended, exempt it with --allow-changed special"
    ) in out


def test_templates_dir_is_positional_like_check_and_golden(repo: Path) -> None:
    # TEMPLATES_DIR positional (as for check and golden), --templates-dir kept as an alias;
    # the rules file (gate scope) is found in the golden/ next to it.
    os.chdir(repo.parent)
    for where in (["repo/templates"], ["--templates-dir", "repo/templates"]):
        code, out, err = run_cli(
            "diff", *where, "--repo", "repo", "--base", "HEAD~1", "--template", "py/mini"
        )
        assert (code, err) == (0, "")
        assert "scope: docker-compose.yml (from repo/golden/py/mini.rules.yaml)" in out
        assert "  special  exempt" in out


def test_without_a_scope_every_common_pick_changed(repo: Path) -> None:
    (repo / "golden/py/mini.rules.yaml").write_text(RULES.split("gate:")[0])
    accept = "--accept-policy-change"  # the work tree's rules file judges
    code, out, _ = run_cli("diff", "--base", "HEAD~1", "--expect-unchanged", "--json", accept)
    assert code == 1
    doc = json.loads(out)
    assert statuses(out) == {"a-1": "changed", "b-2": "changed", "special": "exempt"}
    assert doc["scope"] == {"files": [], "source": None}
    assert doc["policy"]["failing_picks"] == ["a-1", "b-2"]
    # --files narrows the scope the rules file leaves open.
    code, out, _ = run_cli(
        "diff", "--base", "HEAD~1", "--expect-unchanged", "--files", "docker-compose.yml", accept
    )
    assert code == 0


def test_untrimmed_branches_change_every_pick_and_fail_the_gate(repo: Path) -> None:
    write_template(repo, dflash_like_files(trimmed=False))
    code, out, _ = run_cli("diff", "--base", "HEAD~1", "--expect-unchanged")
    assert code == 1
    assert "  a-1      changed    docker-compose.yml (changed)  [FAILS the policy]" in out
    assert "=== pick a-1: docker-compose.yml (changed)" in out
    assert "\n+\n" in out  # the blank line the untrimmed action leaves behind
    assert "policy: expect unchanged: FAILS (2)" in out
    assert "exempt it with --allow-changed a-1" in out


def test_allow_changed_exempts_named_picks(repo: Path) -> None:
    write_template(repo, dflash_like_files(trimmed=False))
    code, out, _ = run_cli(
        "diff", "--base", "HEAD~1", "--expect-unchanged", "--allow-changed", "a-1"
    )
    assert code == 1
    assert "[allowed by --allow-changed]" in out and "pick b-2 changed" in out
    code, out, _ = run_cli(
        "diff",
        "--base",
        "HEAD~1",
        "--expect-unchanged",
        "--allow-changed",
        "a-1",
        "--allow-changed",
        "b-2",
        "--json",
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["policy"]["holds"] is True
    assert doc["policy"]["exempted"] == ["a-1", "b-2"]


def test_removed_pick(repo: Path) -> None:
    write_template(repo, template_files(["a:1", "c:3"]))
    commit_all(repo, "drop b and special, add c")
    code, out, _ = run_cli("diff", "--base", "HEAD~1", "--expect-unchanged", "--json")
    assert code == 0  # removal is not a change of a compared pick...
    assert statuses(out) == {
        "a-1": "unchanged",
        "c-3": "unchanged",  # new, and held to the base rendered with MODEL=c:3
        "b-2": "removed",
        "special": "removed",
    }
    doc = json.loads(out)
    assert [p["compared_with"] for p in doc["picks"][:2]] == ["pick", "answers"]
    code, out, _ = run_cli("diff", "--base", "HEAD~1", "--forbid-removed")
    assert code == 1  # ...unless asked
    assert "pick b-2 exists at the base but was removed" in out


def test_the_work_tree_is_compared_and_left_alone(repo: Path) -> None:
    compose = repo / TEMPLATE / "docker-compose.yml"
    compose.write_text(compose.read_text().replace("ports:", "ports: # edited"))
    status_before = git(repo, "status", "--porcelain")
    code, out, _ = run_cli("diff", "--base", "HEAD", "--json")
    assert code == 0
    assert set(statuses(out).values()) == {"changed"}
    assert git(repo, "status", "--porcelain") == status_before


def test_baseline_directory(repo: Path, tmp_path: Path) -> None:
    write_files(tmp_path / "baseline/mini", baseline_files())
    code, out, _ = run_cli(
        "diff", "--baseline", str(tmp_path / "baseline/mini"), "--expect-unchanged", "--json"
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["base"]["kind"] == "baseline"
    assert statuses(out) == {"a-1": "unchanged", "b-2": "unchanged", "special": "exempt"}


def test_unknown_revision_is_a_usage_error(repo: Path) -> None:
    code, out, err = run_cli("diff", "--base", "nope", "--template", "py/mini")
    assert (code, out) == (2, "")
    assert err.startswith('wendy-llm: error: unknown revision "nope" in ')


def test_not_a_repository_is_a_usage_error(repo: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    write_files(plain / TEMPLATE, baseline_files())
    code, _, err = run_cli(
        "diff",
        "--base",
        "HEAD",
        "--repo",
        str(plain),
        "--templates-dir",
        str(plain / "templates"),
    )
    assert code == 2
    assert f"wendy-llm: error: {plain} is not inside a git repository" in err


def test_no_template_at_revision_is_a_usage_error(repo: Path) -> None:
    write_files(repo / "templates/py/newer", template_files(["x:1"]))
    commit_all(repo, "a new template")
    code, _, err = run_cli("diff", "--base", "HEAD~1", "--template", "py/newer")
    assert code == 2
    assert "no template at HEAD~1" in err and "templates/py/newer does not exist" in err


def test_other_usage_errors(repo: Path, tmp_path: Path) -> None:
    code, _, err = run_cli("diff", "--base", "HEAD", "--allow-changed", "a-1")
    assert code == 2 and "add that too" in err
    code, _, err = run_cli("diff", "--base", "HEAD", "--template", "py/none")
    assert code == 2 and "no template py/none in the work tree" in err
    code, _, err = run_cli("diff", "--baseline", str(tmp_path))
    assert code == 2 and "not a template directory" in err
    write_files(repo / "templates/py/second", template_files(["x:1"]))
    code, _, err = run_cli("diff", "--baseline", str(repo / "templates/py/mini"))
    assert code == 2 and "--template is required" in err and "py/mini, py/second" in err
    (repo / "golden/py/mini.rules.yaml").write_text("gate: {files: docker-compose.yml}\n")
    accept = "--accept-policy-change"  # the work tree's rules file is read
    code, _, err = run_cli("diff", "--base", "HEAD", "--template", "py/mini", accept)
    assert code == 2 and "mini.rules.yaml:1: gate: files: expected an array" in err
    with pytest.raises(SystemExit):
        run_cli("diff", "--template", "py/mini")  # --base or --baseline is required


def test_a_rules_file_that_does_not_load_is_a_usage_error(repo: Path) -> None:
    # diff reads the sentinels from it: guessing without them would compare
    # the sentinel pick byte for byte and fail it for no reason.
    (repo / "golden/py/mini.rules.yaml").write_text("sentinels:\n  MODEL: {values: nope}\n")
    accept = "--accept-policy-change"  # the work tree's rules file is read
    code, out, err = run_cli("diff", "--base", "HEAD~1", "--expect-unchanged", accept)
    assert (code, out) == (2, "")
    assert err.startswith("wendy-llm: error: golden/py/mini.rules.yaml:2: sentinels")
    # Committed, the same file is the base's: read from git, the same error.
    commit_all(repo, "a broken rules file")
    code, out, err = run_cli("diff", "--base", "HEAD", "--expect-unchanged")
    assert (code, out) == (2, "")
    assert err.startswith("wendy-llm: error: golden/py/mini.rules.yaml:2: sentinels")
