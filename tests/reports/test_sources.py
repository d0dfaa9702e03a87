"""Findings mapped to their template source in the repository (reports/github/sources.py),
on the bundled template: rendered, copied and template-wide files, canonical and variant."""

from __future__ import annotations

from pathlib import Path

from _cli_helpers import REPO

from wendy_llm.render.variants import variant_inputs
from wendy_llm.repo.layout import find_layout
from wendy_llm.reports.github.sources import SourceLocation, SourceLocator
from wendy_llm.validate.findings import TEMPLATE_WIDE, Finding

LLM = "templates/python/llm"


def at(file: str | None, line: int | None, pick: str = "gemma4-e2b", **more: object) -> Finding:
    return Finding(
        check="device",
        severity="warning",
        message="x: y",
        file=file,
        line=line,
        template="python/llm",
        pick=pick,
        **more,  # type: ignore[arg-type]
    )


def source_line(location: SourceLocation | None) -> str:
    assert location is not None and location.line is not None
    return (REPO / location.path).read_text(encoding="utf-8").split("\n")[location.line - 1]


def test_rendered_copied_and_template_files_map_to_the_repository() -> None:
    locator = SourceLocator(find_layout(start=REPO))
    assert locator.root == REPO
    # Rendered: the Ollama service's volume line, written by text and an action.
    found = locator.locate(at("docker-compose.yml", 12))
    assert found == SourceLocation(f"{LLM}/docker-compose.yml", 49)
    assert source_line(found) == '      - "{{.APP_ID}}-models:/models"'
    # The same rendered line number is another source line in the DFlash pick.
    dflash = locator.locate(at("docker-compose.yml", 20, pick="laguna-s-2.1-dflash"))
    assert source_line(dflash) == "    healthcheck:"
    # A file without an action maps line for line; one of the template, as it is.
    assert locator.locate(at("vllm/Dockerfile", 3)) == SourceLocation(f"{LLM}/vllm/Dockerfile", 3)
    wide = locator.locate(at("template.schema.json", 10, pick=TEMPLATE_WIDE))
    assert wide == SourceLocation(f"{LLM}/template.schema.json", 10)
    # A file the repository does not hold is shown at the template's manifest, saying so.
    ghost = locator.locate(at("golden/python/llm/<pick>/x.yml", 1, pick=TEMPLATE_WIDE))
    assert ghost is not None and ghost.path == f"{LLM}/template.json" and not ghost.exact
    assert "no file of the repository" in ghost.note


def test_a_variant_finding_is_mapped_with_the_variant_render() -> None:
    locator = SourceLocator(find_layout(start=REPO))
    template = locator.template("python/llm")
    assert template is not None
    label = variant_inputs(template).label
    assert "app-id=" in label
    found = locator.locate(at("wendy.json", 2, variant=label))
    assert source_line(found) == '  "appId": "{{.APP_ID}}",'
    assert (
        locator.locate(at("wendy.json", 2, variant="app-id=unknown")) is not None
    )  # no map: the file


def test_a_line_past_the_render_is_named_not_guessed(tmp_path: Path) -> None:
    locator = SourceLocator(find_layout(start=REPO))
    found = locator.locate(at("docker-compose.yml", 999))
    assert found is not None and found.line is None and not found.exact
    assert "docker-compose.yml:999 could not be traced" in found.note
