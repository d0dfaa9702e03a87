"""Every located finding at a line of its file (issue 37): the bundled template,
``tests/_realrepo`` and failing variants of the template (one harness mutant for
each check that kills one, and the variants ``test_codes_everywhere`` breaks it
with), each walked by :func:`_finding_lines.misplaced`: a finding naming a file
names a line, the line exists in that file (the pick's rendered file, or the
template's or repository's), and so does its template source line (the source map,
as annotations and SARIF read it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _cli_helpers import copy_llm_project, edit
from _finding_lines import misplaced
from _realrepo import build_repository
from harness.catalogue import TEMPLATE_ID
from harness.mutants import select
from harness.mutation import apply_edits

LLM_DIR = f"templates/{TEMPLATE_ID}"
#: One mutant for each check the catalogue's mutants are killed by.
MUTANTS = (
    "drop-trim-marker",  # baseline (and golden: the fixtures differ)
    "dflash-keeps-ollama-volume",  # topology
    "dockerfile-without-chmod",  # dockerfile
    "open-webui-not-on-the-device-path",  # device
    "sentinel-with-colon",  # picker
    "hard-coded-app-id",  # compose
    "dflash-off-in-entrypoint",  # an entrypoint behaviour (and topology: a text rule)
)
DEPENDS = "    depends_on:\n"
#: (file, old, new): the variants the codes test breaks the template with, and a
#: script that ends inside an ``if`` (bash -n names the line after the last one).
EDITS = {
    "compose-yaml": ("docker-compose.yml", "services:", "services: ["),
    "wendy-json": ("wendy.json", '"appId"', '"appId": 7, "x"'),
    "port": ("docker-compose.yml", '"{{.PORT}}:{{.PORT}}"', '"8080:80"'),
    "compose-refusal": ("docker-compose.yml", DEPENDS, "    bogus: 1\n" + DEPENDS),
}


def test_the_bundled_template(tmp_path: Path) -> None:
    assert misplaced(copy_llm_project(tmp_path)) == []


def test_the_realistic_repository(tmp_path: Path) -> None:
    assert misplaced(build_repository(tmp_path / "repo").root) == []


@pytest.mark.parametrize("name", MUTANTS)
def test_a_mutant(tmp_path: Path, name: str) -> None:
    root = copy_llm_project(tmp_path)
    apply_edits(root / LLM_DIR, *select([name]))
    assert misplaced(root, templates=[TEMPLATE_ID]) == []


@pytest.mark.parametrize("name", EDITS)
def test_a_broken_variant(tmp_path: Path, name: str) -> None:
    root = copy_llm_project(tmp_path)
    file, old, new = EDITS[name]
    edit(root / LLM_DIR / file, old, new)
    assert misplaced(root, templates=[TEMPLATE_ID]) == []


def test_a_script_ending_inside_an_if(tmp_path: Path) -> None:
    root = copy_llm_project(tmp_path)
    script = sorted((root / LLM_DIR).rglob("entrypoint.sh"))[0]
    text = script.read_text(encoding="utf-8")
    script.write_text(text.rstrip("\n").rsplit("\n", 1)[0] + "\nif true; then\n", encoding="utf-8")
    assert misplaced(root, templates=[TEMPLATE_ID]) == []
