"""``golden --check``: compare fresh renders with the committed fixtures.

Nothing is ever written. The selected templates and picks are rendered and
each template's fixture directory is compared with them
(:mod:`wendy_llm.golden.template_check`); on a full run, fixtures of
templates that no longer exist are stale. All the diffs of a run are capped
together, as ``wendy-llm diff`` caps its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wendy_llm import options
from wendy_llm.compare.textdiff import cap_total, counted, total_budget
from wendy_llm.errors import GoldenError
from wendy_llm.golden.layout import find_fixture_dirs, fixture_dir, list_files
from wendy_llm.golden.template_check import GoldenProblem, check_fixture
from wendy_llm.render.canonical import render_picks
from wendy_llm.repo.dirs import (
    TemplatesOrRoot,
    display_path,
    refresh_command,
    select_templates,
)

if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.template import Template
    from wendy_llm.render.tree import RenderedTree


@dataclass(frozen=True)
class CheckedTemplate:
    template_id: str
    picks: tuple[str, ...]


@dataclass(frozen=True)
class GoldenCheck:
    golden_root: Path
    checked: tuple[CheckedTemplate, ...]
    problems: tuple[GoldenProblem, ...]
    command: str  # refreshes every fixture of the run's templates directory
    omitted_diff_lines: int = 0  # cut by the run's total diff budget

    @property
    def ok(self) -> bool:
        return not self.problems


def check_golden(
    templates_or_root: TemplatesOrRoot,
    golden_root: str | Path,
    *,
    template_ids: Collection[str] | None = None,
    pick_slugs: Collection[str] | None = None,
    renderer: Renderer | None = None,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
    trees: Mapping[str, Mapping[str, RenderedTree]] | None = None,
) -> GoldenCheck:
    """Check the fixtures of the selected templates and picks (all by default).

    With ``pick_slugs``, only templates that have at least one of those picks
    are checked, and only those picks; a slug no selected template has is an
    error (a typo must not pass as "nothing to check"). ``trees`` (template
    id -> slug -> tree) are canonical renders already made by the caller;
    they are used instead of rendering those picks again. Each diff is cut
    to ``max_diff_lines`` and all of them together to
    :data:`~wendy_llm.options.DIFF_TOTAL_FACTOR` times that, each cut
    saying how much it left out (None: no limit).
    """
    root = Path(golden_root)
    selection = select_templates(templates_or_root, template_ids)
    wanted = None if pick_slugs is None else set(pick_slugs)
    plans: list[tuple[Template, list[str] | None]] = []
    known: set[str] = set()
    for template in selection.templates:
        slugs = [pick.slug for pick in template.picks()]
        known.update(slugs)
        if wanted is None:
            plans.append((template, None))
        elif wanted & set(slugs):
            plans.append((template, [s for s in slugs if s in wanted]))
    if wanted is not None and wanted - known:
        raise GoldenError(
            f"no pick {', '.join(sorted(wanted - known))} in "
            f"{', '.join(t.id for t in selection.templates) or 'the selected templates'} "
            f"(picks: {', '.join(sorted(known)) or 'none'})"
        )

    checked: list[CheckedTemplate] = []
    problems: list[GoldenProblem] = []
    for template, subset in plans:
        renders = render_picks(
            template,
            slugs=subset,
            renderer=renderer,
            trees=(trees or {}).get(template.id),
        )
        checked.append(CheckedTemplate(template.id, tuple(r.slug for r in renders)))
        command = refresh_command(selection.templates_root, root, template.id)
        problems += check_fixture(
            template.id,
            fixture_dir(root, template.id),
            renders,
            all_picks=subset is None,
            command=command,
            max_diff_lines=max_diff_lines,
        )
    if selection.complete and wanted is None:
        current = {t.id for t in selection.templates}
        command = refresh_command(selection.templates_root, root, None)
        for template_id, directory in find_fixture_dirs(root).items():
            if template_id not in current:
                count = len(list_files(directory))
                problems.append(
                    GoldenProblem(
                        kind="stale",
                        template_id=template_id,
                        summary=(
                            f"stale: fixtures of template {template_id}, which no longer "
                            f"exists: {display_path(directory)}/ "
                            f"({counted(count, 'file')})"
                        ),
                        fixture=display_path(directory) + "/",
                        command=command,
                    )
                )
    diffs, omitted = cap_total([p.diff for p in problems], total_budget(max_diff_lines))
    return GoldenCheck(
        golden_root=root,
        checked=tuple(checked),
        problems=tuple(
            dataclasses.replace(p, diff=tuple(d)) for p, d in zip(problems, diffs, strict=True)
        ),
        command=refresh_command(selection.templates_root, root, None),
        omitted_diff_lines=omitted,
    )
