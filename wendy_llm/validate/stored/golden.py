"""The ``golden`` check: the committed fixtures match fresh renders.

A thin wrapper: :func:`wendy_llm.golden.check_golden` does the work and
this module turns its problems into findings (``grouped.py``, as for the
baseline check): a problem about one pick goes to that pick's row; one
about several picks or the whole template goes to the template-wide row,
and each pick it names also fails with a pointer to it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from wendy_llm import options
from wendy_llm.codes import Check
from wendy_llm.codes.stored import GOLDEN_DIFFERS, GOLDEN_SAME_CHANGE
from wendy_llm.golden.check import check_golden
from wendy_llm.golden.fixture_files import PICK_PLACEHOLDER
from wendy_llm.golden.layout import MANIFEST_NAME
from wendy_llm.golden.template_check import GoldenProblem
from wendy_llm.render.manifest.load import MANIFEST_FILE
from wendy_llm.repo.layout import display_path
from wendy_llm.validate.findings import Finding
from wendy_llm.validate.stored.grouped import GroupedChange, first_line, grouped_findings

if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.files.tree import RenderedTree
    from wendy_llm.render.template import Template

CHECK = Check.GOLDEN


def golden_findings(
    templates: Sequence[Template],
    golden_dir: Path,
    *,
    pick_slugs: Collection[str] | None,
    existing: Collection[str],
    complete: bool,
    trees: Mapping[str, Mapping[str, RenderedTree]] | None = None,
    renderer: Renderer | None = None,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
    sample_values: Mapping[str, Mapping[str, str]] | None = None,
    full: bool = False,
) -> list[Finding]:
    """Findings attributed to (template, pick); pick ``""`` for template-wide ones.

    ``templates`` are the templates the run checks; ``pick_slugs`` narrows
    the picks, as ``golden --check --pick`` does.  Fixtures of a template
    that is not checked are called stale only when the run covers every
    template (``complete``) and no such template exists (``existing`` is
    every template id found on disk, loadable or not).  ``trees`` (template
    id -> pick slug -> render) are renders the caller already made, with
    ``sample_values`` (template id -> values), which the fixtures record;
    ``full``: the fixtures copy every rendered file (the repository's
    ``golden-fixtures`` setting; else lean).
    """
    result = check_golden(
        templates,
        golden_dir,
        pick_slugs=pick_slugs,
        renderer=renderer,
        trees=trees,
        max_diff_lines=max_diff_lines,
        sample_values=sample_values,
        full=full,
    )
    checked = {t.id for t in templates}
    shown = [
        p
        for p in result.problems
        if p.template_id in checked or (complete and p.template_id not in existing)
    ]
    grouped = []
    for p in shown:
        file, line, whole = problem_place(p, golden_dir)
        summary = p.summary + (f" ({whole})" if whole else "")
        gist = f"{p.kind}: {p.path or p.fixture}"
        message = "\n".join([summary, *p.diff])
        grouped.append(GroupedChange(p.template_id, p.picks, message, p.fix, file, gist, line))
    return grouped_findings(
        (GOLDEN_DIFFERS, GOLDEN_SAME_CHANGE), grouped, result.omitted_diff_lines
    )


def problem_place(problem: GoldenProblem, golden_dir: Path) -> tuple[str, int, str]:
    """Where a golden problem is, as (file, line, words saying it is a whole file or ""):
    the fixture as named (``<pick>`` for every pick's copy) at its diff's first changed
    line, else line 1 of it as a whole; a fixture that does not exist at line 1 of the
    template's ``golden.json`` (a pick it lacks), else of its ``template.json`` (the
    template has no fixtures yet)."""
    hunk = first_line(problem.diff, side="old")  # the fixture is the old side
    copies = [problem.fixture.replace(PICK_PLACEHOLDER, pick) for pick in problem.picks]
    existing = next((Path(c) for c in [problem.fixture, *copies] if Path(c).is_file()), None)
    if existing is not None:
        if hunk is not None:
            return problem.fixture, hunk, ""
        return problem.fixture, 1, f"line 1: {existing.name} as a whole"
    manifest = golden_dir / problem.template_id / MANIFEST_NAME
    if manifest.is_file():
        shown = display_path(manifest)
        return shown, 1, f"line 1: {MANIFEST_NAME} as a whole, which lists the fixtures"
    return MANIFEST_FILE, 1, "line 1: the template as a whole, which has no fixtures yet"
