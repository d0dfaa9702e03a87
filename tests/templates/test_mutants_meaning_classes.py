"""Issue 14's meaning classes (item 6), through ``wendy-llm check``.

Each catalogue mutant of them (``tests/_meaning_cases.py``), applied to a
copy of the template, fails ``wendy-llm check`` (exit 1), run in-process on
the pick it concerns, with a failure line a reviewer understands: the pick,
the check it names, the file, and the service, volume, key or rule at
fault.  The unmutated copy passes for the same picks.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from _cli_helpers import copy_llm_project
from _golden_helpers import run_cli
from _meaning_cases import MEANING_CASES, Line
from harness.catalogue import MUTANTS, TEMPLATE_ID
from harness.mutants import select
from harness.mutation import ENTRYPOINT, Mutant, apply_edits


def _mutant(name: str) -> Mutant:
    (mutant,) = select([name])
    return mutant


# `  python/llm PICK [CHECK] FILE[:LINE]: MESSAGE` (the location is absent for some).
_FAILURE = re.compile(r"^  (?P<template>\S+) (?P<pick>\S+) \[(?P<check>[^\]]+)\] (?P<rest>.*)$")


@dataclass(frozen=True)
class Printed:
    pick: str
    check: str
    text: str  # location and message

    def matches(self, want: Line) -> bool:
        return (
            self.check == want.check
            and re.match(rf"{re.escape(want.file)}(:\d+)?: ", self.text) is not None
            and all(word in self.text for word in want.words)
        )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_llm_project(tmp_path_factory.mktemp("llm"))


def check_output(root: Path, picks: Sequence[str]) -> tuple[int, list[Printed]]:
    """``wendy-llm check --quiet`` of python/llm in ``root``, in-process: the exit
    status and the failure lines (paths in messages relative to ``root``)."""
    argv = ["check", "templates", "--template", TEMPLATE_ID, "--quiet"]
    for pick in picks:
        argv += ["--pick", pick]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        status, out, err = run_cli(*argv)
    assert err == "", err
    printed = []
    for text in out.splitlines():
        match = _FAILURE.match(text)
        if match and match["template"] == TEMPLATE_ID:
            printed.append(Printed(match["pick"], match["check"], match["rest"]))
    return status, printed


def test_the_unmutated_template_passes_check_for_every_pick_the_cases_use(
    project: Path,
) -> None:
    picks = sorted({case.pick for case in MEANING_CASES.values()} - {"phi4-14b"})
    assert check_output(project, picks) == (0, [])


def test_every_meaning_class_of_issue_14_is_in_the_catalogue() -> None:
    names = {m.name for m in MUTANTS}
    assert set(MEANING_CASES) <= names


@pytest.mark.parametrize("name", sorted(MEANING_CASES))
def test_each_meaning_class_fails_check_with_a_message_a_reviewer_understands(
    project: Path, tmp_path: Path, name: str
) -> None:
    mutant, case = _mutant(name), MEANING_CASES[name]
    root = tmp_path / "project"
    shutil.copytree(project, root)
    apply_edits(root / "templates" / TEMPLATE_ID, mutant)
    status, printed = check_output(root, [case.pick])
    shown = "\n".join(f"{p.pick} [{p.check}] {p.text}" for p in printed)
    assert status == 1, shown
    assert {p.pick for p in printed} == {case.pick}, shown
    # Each check the catalogue names fails (the entrypoint behaviours are not `check`'s).
    named = [c for c in mutant.killed_by if not c.startswith(f"{ENTRYPOINT}:")]
    assert set(named) <= {p.check for p in printed}, shown
    for want in case.lines:
        assert any(p.matches(want) for p in printed), f"no {want} in:\n{shown}"
