"""README's "Adopting in an existing templates repository", followed to the letter.

The commands are read from the README's marked ``sh`` block and run, in
order, with bash at the root of a templates repository laid out as Wendy's
own (``<language>/<name>/`` at the root, ``common/``, ``docs/``), after
writing the README's ``wendy-llm.toml`` example there;
then the copied workflow's steps run as GitHub runs them. So the README
cannot drift from what works.  Two repositories: a small one, and the
realistic one of ``tests/_realrepo`` (issue 13's fixture), which passes
once issue 13 item 5 has landed.
"""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from _cli_helpers import REPO, cli_env
from _golden_helpers import commit_all, init_repo, template_files, write_files
from _realrepo import RepoFixture, build_repository
from test_gate_e2e import run_workflow

README = REPO / "README.md"
SECTION = "## Adopting in an existing templates repository"
INSTALL = re.compile(r"^python -m pip install wendy-llm\b")


def fenced_after(marker: str, language: str) -> str:
    """The ``language`` block that follows ``<!-- adoption: marker`` in the section."""
    section = README.read_text(encoding="utf-8").split(SECTION, 1)[1].split("\n## ", 1)[0]
    after = section.split(f"<!-- adoption: {marker}", 1)[1]
    found = re.search(rf"```{language}\n(.*?)```", after, re.S)
    assert found is not None, f"no ```{language} block after the {marker} marker"
    return found.group(1)


def commands() -> list[str]:
    lines = [
        line.split("  #", 1)[0].strip() for line in fenced_after("commands", "sh").splitlines()
    ]
    return [line for line in lines if line]


def small_repository(root: Path) -> dict[str, dict[str, str]]:
    """Two templates and one needing the README's sample value; returns what it needs."""
    init_repo(root)
    rules = "picker: {option_fields: [label]}\n"
    key = {"name": "OPENAI_API_KEY", "type": "string", "validate": {"pattern": "^sk-"}}
    chat = template_files(["gpt-4o:1"], extra={".env": "OPENAI_API_KEY={{.OPENAI_API_KEY}}\n"})
    manifest = json.loads(chat["template.json"])
    manifest["variables"].append(key)
    chat["template.json"] = json.dumps(manifest)
    write_files(root / "python/openai-chat", chat)
    write_files(root / "node/mini", template_files(["a:1", "b:2"]))
    write_files(
        root,
        {
            "common/web/index.html": "<p>shared</p>\n",
            "docs/guide.md": "# guide\n",
            "golden/python/openai-chat.rules.yaml": rules,
            "golden/node/mini.rules.yaml": rules,
        },
    )
    commit_all(root, "templates")
    return {"python/openai-chat": {"OPENAI_API_KEY": "..."}}


def realistic_repository(root: Path) -> dict[str, dict[str, str]]:
    fixture: RepoFixture = build_repository(root)
    return {tid: dict(values) for tid, values in fixture.sample_values.items()}


REPOSITORIES = [
    pytest.param(small_repository, id="small"),
    pytest.param(realistic_repository, id="realistic"),
]


def test_the_readme_block_is_what_a_user_types() -> None:
    typed = commands()
    assert INSTALL.match(typed[0]), typed[0]
    assert [c.split()[:3] for c in typed[1:]] == [
        ["wendy-llm", "golden", "--update"],
        ["git", "add", "golden"],
        ["wendy-llm", "check"],
    ]
    settings = tomllib.loads(fenced_after("settings", "toml"))
    assert set(settings) == {"sample-values"}


@pytest.mark.parametrize("build", REPOSITORIES)
def test_the_readme_adoption_commands_work(
    build: Callable[[Path], dict[str, dict[str, str]]], tmp_path: Path
) -> None:
    root = tmp_path / "templates-repo"
    needed = build(root)
    settings_text = fenced_after("settings", "toml")
    # The README's example gives exactly the values this repository needs.
    given = tomllib.loads(settings_text)["sample-values"]
    assert {t: set(v) for t, v in given.items()} == {t: set(v) for t, v in needed.items()}
    (root / "wendy-llm.toml").write_text(settings_text, encoding="utf-8")
    # A user's git has an identity; a clean CI machine's may not.
    identity = {
        f"GIT_{who}_{what}": value
        for who in ("AUTHOR", "COMMITTER")
        for what, value in (("NAME", "Wendy Adopter"), ("EMAIL", "adopter@example.invalid"))
    }
    env = cli_env(identity, drop=("CI",))
    for command in commands():
        if INSTALL.match(command):
            continue  # wendy-llm is installed in this virtualenv already
        run = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", command],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert run.returncode == 0, (command, run.stdout[-4000:], run.stderr[-4000:])
    fixtures = sorted(p.parent.relative_to(root).as_posix() for p in root.rglob("golden.json"))
    templates = sorted(
        p.parent.relative_to(root).as_posix() for p in root.glob("*/*/template.json")
    )
    assert fixtures == [f"golden/{t}" for t in templates if not t.startswith(("common", "docs"))]
    assert [p.name for p in tmp_path.iterdir()] == [root.name]  # nothing written beside it
    # The CI gate, copied unchanged: its check and its diff against the previous commit.
    before = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD~1"], capture_output=True, text=True, check=True
    ).stdout.strip()
    check, diff, summary = run_workflow(root, EVENT="push", BASE_REF="", BEFORE=before)
    assert (check, diff) == (0, 0), summary
    assert "### wendy-llm check: passed" in summary
    for template_id in needed:
        assert f"### wendy-llm diff {template_id}: report only" in summary
