"""``golden --check``: compare fresh renders with the committed fixtures.

Nothing is ever written. The selected templates and picks are rendered and
each template's fixture directory is compared with them
(:mod:`wendy_llm.golden.template_check`); on a full run, fixtures of
templates that no longer exist are stale. All the diffs of a run are capped
together, as ``wendy-llm diff`` caps its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wendy_llm import options
from wendy_llm.atomic import find_work_dirs
from wendy_llm.compare.textdiff import cap_total, counted, total_budget
from wendy_llm.errors import GoldenError, WendyLlmError
from wendy_llm.golden.layout import find_fixture_dirs, fixture_dir, list_files
from wendy_llm.golden.template_check import GoldenProblem, check_fixture
from wendy_llm.render.canonical import render_picks
from wendy_llm.repo.layout import display_path
from wendy_llm.repo.selection import (
    TemplateFailure,
    TemplatesOrRoot,
    refresh_commands,
    select_templates,
)

if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.files.tree import RenderedTree
    from wendy_llm.render.template import Template


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
    failed: tuple[TemplateFailure, ...] = ()  # templates that could not be rendered

    @property
    def ok(self) -> bool:
        return not self.problems and not self.failed


def leftover_problems(
    root: Path, refresh: Callable[[str | None], str], known: Collection[str]
) -> list[GoldenProblem]:
    """The work directories an interrupted writer left under ``root``: stale,
    since ``git add`` would commit them; the next ``--update`` removes them
    (``known``: the template ids the refresh command may name)."""
    problems = []
    for work, target in find_work_dirs(root):
        template_id = target.relative_to(root).as_posix()
        shown = display_path(work) + "/"
        problems.append(
            GoldenProblem(
                kind="stale",
                template_id=template_id,
                summary=(
                    f"stale: {shown} is what an interrupted update left "
                    f"(`git add` would commit it); the next --update removes it"
                ),
                fixture=shown,
                command=refresh(template_id if template_id in known else None),
            )
        )
    return problems


def check_golden(
    templates_or_root: TemplatesOrRoot,
    golden_root: str | Path,
    *,
    template_ids: Collection[str] | None = None,
    pick_slugs: Collection[str] | None = None,
    renderer: Renderer | None = None,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
    trees: Mapping[str, Mapping[str, RenderedTree]] | None = None,
    sample_values: Mapping[str, Mapping[str, str]] | None = None,
    full: bool | None = None,
) -> GoldenCheck:
    """Check the fixtures of the selected templates and picks (all by default).

    With ``pick_slugs``, only templates that have at least one of those picks
    are checked, and only those picks; a slug no selected template has is an
    error (a typo must not pass as "nothing to check"). ``trees`` (template
    id -> slug -> tree) are canonical renders already made by the caller;
    they are used instead of rendering those picks again. Each diff is cut
    to ``max_diff_lines`` and all of them together to
    :data:`~wendy_llm.options.DIFF_TOTAL_FACTOR` times that, each cut
    saying how much it left out (None: no limit). A template that fails to
    load or render is listed in ``failed`` (never reported as stale);
    ``sample_values`` default to a :class:`~wendy_llm.repo.layout.Layout`'s settings,
    and ``full`` (the fixtures copy every rendered file; else lean) to its
    ``golden-fixtures`` setting.
    """
    root = Path(golden_root)
    selection = select_templates(templates_or_root, template_ids)
    full_copies = selection.full_fixtures(full)
    sample_values = selection.sample_values(sample_values)
    refresh = refresh_commands(selection.templates_root, root)
    failed = list(selection.failed)
    wanted = None if pick_slugs is None else set(pick_slugs)
    plans: list[tuple[Template, list[str] | None]] = []
    known: set[str] = set()
    for template in selection.templates:
        try:
            slugs = [pick.slug for pick in template.picks()]
        except WendyLlmError as exc:
            failed.append(selection.failure(template.id, exc))
            continue
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
        try:
            renders = render_picks(
                template,
                slugs=subset,
                renderer=renderer,
                trees=(trees or {}).get(template.id),
                sample_values=sample_values.get(template.id),
            )
        except WendyLlmError as exc:
            failed.append(selection.failure(template.id, exc))
            continue
        checked.append(CheckedTemplate(template.id, tuple(r.slug for r in renders)))
        command = refresh(template.id)
        problems += check_fixture(
            template.id,
            fixture_dir(root, template.id),
            renders,
            all_picks=subset is None,
            command=command,
            max_diff_lines=max_diff_lines,
            full=full_copies,
            template_dir=display_path(template.root) if template.root is not None else None,
            golden_root=root,
        )
    if selection.complete and wanted is None:
        current = {t.id for t in selection.templates} | selection.existing
        command = refresh(None)
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
    checked_ids = {t.id for t, _ in plans}
    complete = selection.complete and wanted is None
    problems += [
        p
        for p in leftover_problems(root, refresh, checked_ids)
        if complete or p.template_id in checked_ids
    ]
    diffs, omitted = cap_total([p.diff for p in problems], total_budget(max_diff_lines))
    return GoldenCheck(
        golden_root=root,
        checked=tuple(checked),
        problems=tuple(
            dataclasses.replace(p, diff=tuple(d)) for p, d in zip(problems, diffs, strict=True)
        ),
        command=refresh(None),
        omitted_diff_lines=omitted,
        failed=tuple(failed),
    )
