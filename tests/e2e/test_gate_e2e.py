"""The pull request gate, end to end, as a templates repository runs it.

A temporary git repository gets a baseline commit (the Ollama-only template,
its fixtures made with the library, the rules file), then the Laguna +
DFlash change on a clone (with refreshed fixtures, or one of three mistakes).
The gate is what CI runs, by the installed command, in the repository:
``wendy-llm check`` and ``wendy-llm diff --base <baseline> --expect-unchanged``
(the scope coming from the rules file's ``gate.files``). The good change
passes; each mistake fails with a message a reviewer can act on. The
workflow's own scripts are run too, as GitHub runs them (bash -eo pipefail).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from _action_helpers import run_workflow
from _cli_helpers import LLM, REPO, Run, cli_env, edit
from _golden_helpers import commit_all, git, init_repo
from _sarif_helpers import sarif_errors

from wendy_llm.golden import update_golden

COMPOSE = f"templates/{LLM}/docker-compose.yml"


def wendy_llm(repo: Path, *args: str) -> Run:
    """The installed command, run in the repository as a user (or CI) runs it."""
    proc = subprocess.run(
        ["wendy-llm", *args],
        cwd=repo,
        env=cli_env(drop=["CI"]),
        capture_output=True,
        text=True,
        timeout=300,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


@dataclass(frozen=True)
class Gate:
    check: Run
    diff: Run

    @property
    def passed(self) -> bool:
        return self.check.code == 0 and self.diff.code == 0


@dataclass(frozen=True)
class Baseline:
    repo: Path
    commit: str


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Baseline:
    repo = tmp_path_factory.mktemp("gate") / "origin"
    init_repo(repo)
    shutil.copytree(REPO / "golden" / "baseline" / LLM, repo / "templates" / LLM)
    (repo / "golden" / "python").mkdir(parents=True)
    shutil.copy2(REPO / "golden" / f"{LLM}.rules.yaml", repo / "golden" / f"{LLM}.rules.yaml")
    update_golden(repo / "templates", repo / "golden")
    return Baseline(repo, commit_all(repo, "llm: Ollama-only template and its fixtures"))


def make_change(
    baseline: Baseline,
    dest: Path,
    *,
    refresh: bool = True,
    mistake: Callable[[Path], None] | None = None,
) -> Path:
    """A clone of the baseline with the Laguna + DFlash change committed."""
    subprocess.run(["git", "clone", "-q", str(baseline.repo), str(dest)], check=True)
    shutil.rmtree(dest / "templates" / LLM)
    shutil.copytree(REPO / "templates" / LLM, dest / "templates" / LLM)
    # The stored baseline travels with the change, as in this repository.
    shutil.copytree(REPO / "golden" / "baseline" / LLM, dest / "golden" / "baseline" / LLM)
    if mistake is not None:
        mistake(dest)
    if refresh:
        refreshed = wendy_llm(dest, "golden", "--update", "--quiet")
        assert (refreshed.code, refreshed.err) == (0, ""), refreshed
    commit_all(dest, "llm: Laguna 2.1 picks and the DFlash vLLM mode")
    return dest


def run_gate(repo: Path, base: str) -> Gate:
    check = wendy_llm(repo, "check", "--junit", "reports/check.xml")
    diff = wendy_llm(repo, "diff", "--base", base, "--template", LLM, "--expect-unchanged")
    assert check.err == diff.err == ""  # failures are reports, not errors
    return Gate(check, diff)


def check_row(output: str, pick: str) -> dict[str, str]:
    """One row of the check table, as {check: status}."""
    table = output.split("\n\n", 1)[0].splitlines()
    header = table[0].split()
    [row] = [line.split() for line in table[1:] if line.split()[1:2] == [pick]]
    return dict(zip(header[2:], row[2:], strict=True))


def junit_failures(repo: Path) -> list[str]:
    root = ET.parse(repo / "reports" / "check.xml").getroot()
    return [str(c.get("name")) for c in root.iter("testcase") if c.find("failure") is not None]


# --- the change, and three mistakes ---------------------------------------------


@pytest.fixture(scope="module")
def good(baseline: Baseline, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_change(baseline, tmp_path_factory.mktemp("good") / "repo")


def add_blank_line(repo: Path) -> None:
    # The trim marker before the DFlash-only environment goes: every pick now
    # has an empty line after PORT, which no YAML parser objects to.
    edit(
        repo / COMPOSE,
        '      PORT: "{{.PORT}}"\n{{- if $dflash}}',
        '      PORT: "{{.PORT}}"\n{{ if $dflash}}',
    )


def keep_ollama_volume(repo: Path) -> None:
    # The models volume moves out of the else branch: Ollama picks render as
    # before, the DFlash pick keeps a volume only Ollama uses.
    edit(
        repo / COMPOSE,
        "  {{.APP_ID}}-hf:\n{{- else}}\n  {{.APP_ID}}-models:\n{{- end}}",
        "  {{.APP_ID}}-hf:\n{{- end}}\n  {{.APP_ID}}-models:",
    )


@pytest.fixture(scope="module")
def blank_line(baseline: Baseline, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_change(baseline, tmp_path_factory.mktemp("blank") / "repo", mistake=add_blank_line)


def test_the_change_passes_the_gate(baseline: Baseline, good: Path) -> None:
    gate = run_gate(good, baseline.commit)
    assert gate.passed, gate
    assert re.search(
        r"^1 template\(s\), 17 pick\(s\), \d+ checks: \d+ ok, 0 FAIL", gate.check.out, re.M
    )
    assert check_row(gate.check.out, "laguna-s-2.1-dflash")["topology"] == "ok"
    assert junit_failures(good) == []
    lines = gate.diff.out.splitlines()
    assert lines[0] == (
        f"template {LLM}: {baseline.commit} ({baseline.commit[:12]}) "
        f"-> working tree templates/{LLM}"
    )
    assert f"scope: docker-compose.yml, wendy.json (from golden/{LLM}.rules.yaml)" in lines
    assert "summary: 16 unchanged, 0 changed, 0 added, 0 removed, 1 exempt" in lines
    assert "policy: expect unchanged: holds" in lines
    # The new Ollama picks are held to the base rendered with their answers;
    # the DFlash sentinel is exempt (its rules check it).
    new = r"unchanged +\(new: compared with the base rendered with its answers\)"
    for slug in ("laguna-xs-2.1-q4_k_m", "laguna-s-2.1-q4_k_m"):
        assert re.search(rf"^  {re.escape(slug)} +{new}$", gate.diff.out, re.M)
    assert re.search(r"^  laguna-s-2.1-dflash +exempt +\(sentinel ", gate.diff.out, re.M)


def test_fixtures_not_refreshed(baseline: Baseline, tmp_path: Path) -> None:
    repo = make_change(baseline, tmp_path / "repo", refresh=False)
    gate = run_gate(repo, baseline.commit)
    assert not gate.passed
    # The renders are fine (the diff holds); the fixtures are not.
    assert gate.check.code == 1 and gate.diff.code == 0
    row = check_row(gate.check.out, "laguna-s-2.1-dflash")
    assert row["golden"] == "FAIL"
    # The device check warns (what a device ignores), never fails.
    assert row["device"] == "warn"
    assert {status for check, status in row.items() if check not in ("golden", "device")} <= {
        "ok",
        "-",
    }
    assert (
        f"  {LLM} laguna-s-2.1-dflash [golden] golden/{LLM}/golden.json:1: GLD001 missing: "
        f"template {LLM}, pick laguna-s-2.1-dflash has no fixtures "
        f"(not in golden/{LLM}/golden.json) (line 1: golden.json as a whole, which lists the "
        "fixtures)"
    ) in gate.check.out.splitlines()
    assert f"Run: wendy-llm golden --update --template {LLM}" in gate.check.out
    assert "laguna-s-2.1-dflash golden" in junit_failures(repo)


def test_an_ollama_pick_gained_a_blank_line(baseline: Baseline, blank_line: Path) -> None:
    gate = run_gate(blank_line, baseline.commit)
    assert not gate.passed
    # The fixtures were refreshed and the YAML is valid: only the baseline
    # comparisons catch it, check's `baseline` and the diff against the base.
    assert gate.check.code == 1 and gate.diff.code == 1
    ollama = check_row(gate.check.out, "gemma4-e2b")
    assert ollama["baseline"] == "FAIL"
    assert ollama["device"] == "warn"  # what a device ignores
    assert {s for check, s in ollama.items() if check not in ("baseline", "device")} == {"ok", "-"}
    assert check_row(gate.check.out, "laguna-s-2.1-dflash")["baseline"] == "-"
    assert check_row(gate.check.out, "laguna-xs-2.1-q4_k_m")["baseline"] == "FAIL"
    assert (
        f"  {LLM} picks gemma4-e2b, gemma4-e4b, gemma4-26b, gemma4-31b, gemma3-4b, llama3.2-3b "
        "and 10 more [baseline] docker-compose.yml:17: BAS002 docker-compose.yml differs from "
        f"the stored baseline golden/baseline/{LLM}, the same for 16 picks; "
        f"the diff is under {LLM} (template)"
    ) in gate.check.out.splitlines()
    assert "gemma4-e2b baseline" in junit_failures(blank_line)
    out = gate.diff.out
    assert (
        "  pick gemma4-e2b changed (docker-compose.yml) but --expect-unchanged holds it to its "
        "base render; if intended, exempt it with --allow-changed gemma4-e2b"
    ) in out.splitlines()
    assert "policy: expect unchanged: FAILS (16)" in out.splitlines()
    assert re.search(
        r"^  gemma4-e2b +changed +docker-compose.yml \(changed\)  \[FAILS the policy\]$", out, re.M
    )
    # The new Ollama picks leak it too, and fail; the sentinel is exempt.
    assert (
        "  pick laguna-xs-2.1-q4_k_m changed (docker-compose.yml) but --expect-unchanged holds "
        "it to the base rendered with its answers; if intended, exempt it with --allow-changed "
        "laguna-xs-2.1-q4_k_m"
    ) in out.splitlines()
    assert re.search(r"^  laguna-s-2.1-dflash +exempt +\(sentinel ", out, re.M)
    # The diff shows the blank line itself, between the lines around it.
    # The same change in all 16 picks is shown once, naming them.
    assert out.count("\n=== ") == 1
    block = out.split("=== every changed pick (16): docker-compose.yml (changed)\n", 1)[1]
    hunk = block.split("\n\n", 1)[0].splitlines()
    at = hunk.index("+")
    assert (
        hunk[at - 1] == '       PORT: "8080"'
        and hunk[at + 1] == '       OLLAMA_BASE_URL: "http://ollama:11434"'
    )


def test_a_dflash_render_that_still_has_the_ollama_volume(
    baseline: Baseline, tmp_path: Path
) -> None:
    repo = make_change(baseline, tmp_path / "repo", mistake=keep_ollama_volume)
    gate = run_gate(repo, baseline.commit)
    assert not gate.passed
    # Ollama picks render exactly as before, so the diff holds; check fails.
    assert gate.check.code == 1 and gate.diff.code == 0
    assert check_row(gate.check.out, "laguna-s-2.1-dflash")["topology"] == "FAIL"
    assert check_row(gate.check.out, "gemma4-e2b")["topology"] == "ok"
    assert re.search(
        rf"^  {LLM} laguna-s-2.1-dflash \[topology\] docker-compose.yml:\d+: TOP001 rule "
        r'"dflash-has-no-ollama": docker-compose\.yml contains "llm-app-models" \(must not\) '
        r"\(not even an unused declaration of the Ollama volume\)$",
        gate.check.out,
        re.M,
    )
    assert junit_failures(repo) == ["laguna-s-2.1-dflash topology"]


# --- the workflow's scripts, as GitHub runs them -----------------------------------


def test_the_workflow_passes_the_change(good: Path) -> None:
    # (Other tests of this module write reports/ in this checkout themselves.)
    existed, written = (good / "reports").exists(), sorted((good / "reports").rglob("*"))
    check, diff, summary, run = run_workflow(good, SARIF="reports/check.sarif")
    assert (check, diff) == (0, 0)
    # The reports are in the directory the action made, never the checkout's reports/.
    assert (good / "reports").exists() == existed
    assert sorted((good / "reports").rglob("*")) == written
    sarif = json.loads((run.reports / "check.sarif").read_text(encoding="utf-8"))
    assert sarif_errors(sarif) == []
    assert "### wendy-llm check: passed" in summary
    assert f"### wendy-llm diff {LLM}: policy holds" in summary  # against origin/main
    assert summary.count("policy holds") == 2  # and against the stored baseline
    assert "| `laguna-s-2.1-dflash` | exempt | sentinel OLLAMA_MODEL=laguna-s-2.1-dflash" in summary
    reports = sorted(p.name for p in run.reports.iterdir())
    assert reports == [
        "baseline-python-llm.md", "baseline-python-llm.xml", "check.md", "check.sarif",
        "check.xml", "diff.md", "diff.xml",
    ]  # fmt: skip


def test_the_workflow_fails_the_blank_line_and_the_label_lets_only_the_base_diff_pass(
    blank_line: Path,
) -> None:
    # `check` holds the Ollama picks to the stored baseline too (its
    # `baseline` check), so it fails with the diffs on every run.
    check, diff, summary, _ = run_workflow(blank_line)
    assert (check, diff) == (1, 1)
    assert summary.count(f"### wendy-llm diff {LLM}: policy FAILS") == 2
    assert (
        "| `gemma4-e2b` | changed | `docker-compose.yml` (changed) | **fails the policy** |"
        in summary
    )
    # The label reports the change against the base without failing it, but
    # the stored baseline still holds every Ollama pick to its render.
    check, diff, summary, _ = run_workflow(blank_line, PICKS_MAY_CHANGE="true")
    assert (check, diff) == (1, 1)
    assert f"### wendy-llm diff {LLM}: report only" in summary
    assert summary.count("policy FAILS") == 1
    # A push compares with the previous commit, without a policy.
    base = git(blank_line, "rev-parse", "HEAD~1")
    check, diff, summary, _ = run_workflow(blank_line, EVENT="push", BASE_REF="", BEFORE=base)
    assert (check, diff) == (1, 1)
    assert f"### wendy-llm diff {LLM}: report only" in summary
    assert summary.count("policy FAILS") == 1


def delete_rules_file(repo: Path) -> None:
    (repo / "golden" / f"{LLM}.rules.yaml").unlink()


def test_a_pull_request_is_judged_by_its_base_policy_until_the_label_accepts_it(
    baseline: Baseline, tmp_path: Path
) -> None:
    # Issue 38: deleting the rules file would make its own topology check read
    # "ok"; the action reads the rules at the pull request's base instead.
    repo = make_change(baseline, tmp_path / "repo", mistake=delete_rules_file)
    check, _, _, run = run_workflow(repo)
    judged = (run.reports / "check.md").read_text(encoding="utf-8")
    assert check == 1
    assert "POL001" in judged and f"golden/{LLM}.rules.yaml" in judged
    # A push was reviewed already: check judges by its own policy (diff,
    # report-only there, still lists the change).
    base = git(repo, "rev-parse", "HEAD~1")
    check, _, _, run = run_workflow(repo, EVENT="push", BASE_REF="", BEFORE=base)
    assert "POL00" not in (run.reports / "check.md").read_text(encoding="utf-8")
    # The maintainers' label accepts the change: a note, and the head's policy
    # judges (with no rules file, the stored baseline holds every file).
    check, _, _, run = run_workflow(repo, POLICY_MAY_CHANGE="true")
    accepted = (run.reports / "check.md").read_text(encoding="utf-8")
    assert "POL001" not in accepted and "| `POL002` | note | 1 | 1 |" in accepted
    assert check == 1 and "| `BAS001` | error |" in accepted
