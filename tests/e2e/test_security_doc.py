"""docs/security.md (issue 29): every workflow shown on it and on docs/ci.md passes
actionlint, and the recommended one is hardened as GitHub's guide says."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from _action_helpers import actionlint
from _cli_helpers import REPO

CI_DOC = REPO / "docs" / "ci.md"


SECURITY_DOC = REPO / "docs" / "security.md"
WORKFLOWS = REPO / ".github" / "workflows"


def shown_workflows(text: str) -> list[str]:
    """Every ```yaml block of a page that is a workflow (it has ``jobs:``)."""
    blocks = re.findall(r"^```yaml\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)
    return [block for block in blocks if "\njobs:" in block]


@pytest.mark.parametrize("page", [SECURITY_DOC, CI_DOC], ids=lambda p: p.name)
def test_every_workflow_shown_passes_actionlint(page: Path, tmp_path: Path) -> None:
    workflows = shown_workflows(page.read_text(encoding="utf-8"))
    assert workflows, f"{page.name} shows no workflow"
    for index, text in enumerate(workflows):
        path = tmp_path / f"shown-{index}.yml"
        path.write_text(text.replace("<owner>/wendy-llm@<tag or commit>", "o/wendy-llm@v1"))
        result = actionlint(path)
        assert result.returncode == 0, f"{page.name} workflow {index}:\n{result.stdout}"


def test_the_security_page_recommends_the_hardened_workflow() -> None:
    text = SECURITY_DOC.read_text(encoding="utf-8")
    for block in shown_workflows(text):
        loaded = yaml.safe_load(block)
        triggers = loaded[True]  # YAML 1.1 reads `on` as true
        assert "pull_request_target" not in triggers
        assert loaded["permissions"] == {"contents": "read"}
        for name, job in loaded["jobs"].items():
            writes = job.get("permissions", {}).get("security-events") == "write"
            # Only a job that runs no checked-out code may write security events.
            assert not writes or all("run" not in s for s in job["steps"]), name
    for page in (REPO / "README.md", CI_DOC):
        assert "security.md" in page.read_text(encoding="utf-8")


def _checkouts(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        step
        for job in workflow["jobs"].values()
        for step in job.get("steps", [])
        if str(step.get("uses", "")).startswith("actions/checkout@")
    ]


def test_every_workflow_we_show_keeps_no_token_in_the_checkout() -> None:
    """persist-credentials: false on every actions/checkout (issue 38): else the
    token stays in .git/config, for any step that reads the checkout to publish."""
    shown = [
        (page.name, block)
        for page in (SECURITY_DOC, CI_DOC, REPO / "README.md")
        for block in shown_workflows(page.read_text(encoding="utf-8"))
    ]
    shown += [(p.name, p.read_text(encoding="utf-8")) for p in WORKFLOWS.glob("*.y*ml")]
    shown += [(p.name, p.read_text(encoding="utf-8")) for p in (REPO / "examples").rglob("*.y*ml")]
    checkouts = [(name, step) for name, text in shown for step in _checkouts(yaml.safe_load(text))]
    assert len(checkouts) >= 6  # the pages' workflows and this repository's own
    for name, step in checkouts:
        assert step.get("with", {}).get("persist-credentials") is False, name


def test_a_checkout_that_keeps_its_token_is_seen() -> None:
    workflow = yaml.safe_load(
        "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n"
    )
    [step] = _checkouts(workflow)
    assert step.get("with", {}).get("persist-credentials") is not False
