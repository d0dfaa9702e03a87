"""Every command the README and docs/ show runs, so the documentation cannot drift.

Each fenced ``sh`` block of ``README.md`` and ``docs/*.md`` runs with bash in
a scratch copy of this repository (its files as they are in the work tree,
committed to a fresh git repository whose ``origin/main`` is that commit),
with the venv's ``wendy-llm`` first on ``PATH`` and no ``CI`` set (the docs
speak to a developer's machine). A command must exit 0 unless its comment
says ``# exit N``. Each ``python`` block runs too, in the same place.

Each block runs in a copy of its own. A block that cannot run here says why, on the
line before it:
``<!-- docs: not run: REASON -->`` (e.g. ``make test``: it is this run), or
it carries another test's marker (``<!-- adoption: ... -->``: the adoption
test runs those blocks, in order, on a repository of its own). The reasons
are listed by :func:`test_every_block_runs_or_says_why`, so an exemption is
never silent. Links between the pages are checked too: every relative link
names a file that exists, and every ``#anchor`` a heading of that file.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(sh|python)\n(.*?)^```", re.S | re.M)
NOT_RUN = re.compile(r"<!-- docs: not run: ([^>]*\S)\s*-->\s*$")
#: Markers of blocks another test runs, and that test.
OTHER_TESTS = {
    "adoption": "tests/e2e/test_adoption.py",
    "install-line": "tests/e2e/test_workflow.py",
}
OTHER_TEST = re.compile(r"<!-- (" + "|".join(OTHER_TESTS) + r")\b[^>]*-->\s*$")
EXPECTED_EXIT = re.compile(r"#\s*exit (\d+)")
#: The paths a scratch copy needs: what the documented commands read.
COPIED = ("templates", "golden", "examples", "docs", "README.md", "wendy-llm.toml")


@dataclass(frozen=True)
class Block:
    file: Path
    line: int
    language: str
    text: str
    skip_reason: str | None

    @property
    def where(self) -> str:
        return f"{self.file.relative_to(REPO)}:{self.line}"


def blocks() -> list[Block]:
    found: list[Block] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            reason = NOT_RUN.search(before)
            other = OTHER_TEST.search(before)
            skip = reason[1] if reason else (f"run by {OTHER_TESTS[other[1]]}" if other else None)
            found.append(Block(doc, line, match[1], match[2], skip))
    return found


def commands(block: Block) -> list[tuple[int, str, int]]:
    """(line, command, expected exit status) of each command of an sh block."""
    result: list[tuple[int, str, int]] = []
    pending = ""
    for offset, raw in enumerate(block.text.splitlines(), start=1):
        if not pending and (not raw.strip() or raw.lstrip().startswith("#")):
            continue
        pending += raw.rstrip()
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        expected = EXPECTED_EXIT.search(pending)
        command = re.sub(r"\s+#.*$", "", pending).strip()
        result.append((block.line + offset, command, int(expected[1]) if expected else 0))
        pending = ""
    return result


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository as a fresh git repository, origin/main its commit."""
    root = tmp_path_factory.mktemp("docs") / "repo"
    root.mkdir()
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name)
        elif source.is_file():
            shutil.copy2(source, root / name)
    git = ["git", "-c", "user.name=docs", "-c", "user.email=docs@example.invalid"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "docs"], cwd=root, check=True)
    subprocess.run(["git", "update-ref", "refs/remotes/origin/main", "HEAD"], cwd=root, check=True)
    return root


@pytest.fixture
def scratch(pristine: Path, tmp_path: Path) -> Path:
    """The pristine copy again for each block, so no block sees another's outputs."""
    root = tmp_path / "repo"
    shutil.copytree(pristine, root, symlinks=True)
    return root


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"CI", "GITHUB_ACTIONS"}}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["NO_COLOR"] = "1"
    return env


RUNNABLE = [b for b in blocks() if b.skip_reason is None]


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.where for b in RUNNABLE])
def test_documented_block_runs(block: Block, scratch: Path) -> None:
    if block.language == "python":
        done = subprocess.run(
            [sys.executable, "-c", block.text],
            cwd=scratch,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, f"{block.where}: the python block failed:\n{done.stderr}"
        return
    for line, command, expected in commands(block):
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=scratch,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == expected, (
            f"{block.file.relative_to(REPO)}:{line}: `{command}` exited {done.returncode}, "
            f"the docs say {expected}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )


def test_every_block_runs_or_says_why() -> None:
    skipped = [b for b in blocks() if b.skip_reason is not None]
    # Every exemption has a reason of its own words, and most blocks run.
    assert all(len(b.skip_reason or "") >= 10 for b in skipped), [b.where for b in skipped]
    assert len(RUNNABLE) > len(skipped), [f"{b.where}: {b.skip_reason}" for b in skipped]


def test_commands_are_read_as_written() -> None:
    block = Block(
        REPO / "README.md", 10, "sh", "# a comment\nwendy-llm a \\\n  --b  # exit 1\nc\n", None
    )
    assert commands(block) == [(13, "wendy-llm a    --b", 1), (14, "c", 0)]


LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(markdown: str) -> set[str]:
    """GitHub's anchors for a page's headings."""
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", markdown, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(REPO)) for d in DOCS])
def test_links_resolve(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        missing_anchor = (
            file.exists()
            and bool(anchor)
            and file.suffix == ".md"
            and anchor not in anchors(file.read_text("utf-8"))
        )
        if not file.exists() or missing_anchor:
            broken.append(target)
    assert not broken, f"{doc.relative_to(REPO)}: links to nothing: {broken}"
