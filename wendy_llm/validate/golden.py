"""The ``golden`` check: the committed fixtures match fresh renders.

A thin wrapper: :func:`wendy_llm.golden.check_golden` does the work and
this module turns its problems into findings.  A problem about one pick
goes to that pick's row; one about several picks (a shared file, or the
same change in every pick's copy) or the whole template (layout, stale
fixtures) goes to the template-wide row with its diff, so the diff is shown
once, and each pick it names also fails with a one-line pointer to it (a
JUnit case per pick x check must fail when that pick's fixtures are off).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from wendy_llm.compare.textdiff import DEFAULT_MAX_LINES
from wendy_llm.validate.findings import TEMPLATE_WIDE, Finding, error

if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.template import Template
    from wendy_llm.render.tree import RenderedTree

CHECK = "golden"


def golden_findings(
    templates: Sequence[Template],
    golden_dir: Path,
    *,
    pick_slugs: Collection[str] | None,
    existing: Collection[str],
    complete: bool,
    trees: Mapping[str, Mapping[str, RenderedTree]] | None = None,
    renderer: Renderer | None = None,
    max_diff_lines: int | None = DEFAULT_MAX_LINES,
) -> list[Finding]:
    """Findings attributed to (template, pick); pick ``""`` for template-wide ones.

    ``templates`` are the templates the run checks; ``pick_slugs`` narrows
    the picks, as ``golden --check --pick`` does.  Fixtures of a template
    that is not checked are called stale only when the run covers every
    template (``complete``) and no such template exists (``existing`` is
    every template id found on disk, loadable or not).  ``trees`` (template
    id -> pick slug -> render) are renders the caller already made.
    """
    from wendy_llm.golden import check_golden

    result = check_golden(
        templates,
        golden_dir,
        pick_slugs=pick_slugs,
        renderer=renderer,
        trees=trees,
        max_diff_lines=max_diff_lines,
    )
    checked = {t.id for t in templates}
    findings = []
    for problem in result.problems:
        unchecked = problem.template_id not in checked
        if unchecked and (not complete or problem.template_id in existing):
            continue
        pick = problem.picks[0] if len(problem.picks) == 1 else TEMPLATE_WIDE
        finding = error(CHECK, problem.message(), problem.fixture)
        findings.append(finding.at(problem.template_id, pick))
        if len(problem.picks) > 1:
            what = problem.path or problem.fixture
            pointer = (
                f"{problem.kind}: {what}, the same for {len(problem.picks)} picks; "
                f"the diff is under {problem.template_id} (template)"
            )
            findings += [
                error(CHECK, pointer, problem.fixture).at(problem.template_id, slug)
                for slug in problem.picks
            ]
    return findings
