"""``golden --check``: compare fresh renders with the committed fixtures.

Nothing is ever written. Each problem names the template, the pick(s), the
file and the fixture path, carries a unified diff when there is something
to show, and ends with the exact command that refreshes the fixtures.

Content is compared per pick and per output path (so a check of a subset
of picks needs only those renders); a problem that is identical for several
picks (typically a shared file) is reported once, naming them all. When
every pick of a template is checked, the directory's layout and the
manifest itself are compared too, so a fixture directory that passes is
byte for byte what ``--update`` would write.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from wendy_llm.compare.textdiff import (
    DEFAULT_MAX_LINES,
    cap_total,
    name_picks,
    sha256_hex,
    total_budget,
    unified_diff,
)
from wendy_llm.errors import GoldenError, GoldenManifestError
from wendy_llm.golden.layout import (
    MANIFEST_NAME,
    SHARED_DIR,
    find_fixture_dirs,
    fixture_dir,
    list_files,
)
from wendy_llm.golden.manifest import FileRecord, GoldenManifest, build_fixture
from wendy_llm.render.canonical import OutputFile, PickRender, render_picks
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

ProblemKind = Literal["changed", "missing", "stale", "invalid"]

PICK_PLACEHOLDER = "<pick>"


@dataclass(frozen=True)
class GoldenProblem:
    """One disagreement between the renders and the fixtures.

    ``picks`` is empty when the problem concerns a whole template; ``path``
    is the output path in the render when a single file is concerned;
    ``fixture`` is the fixture file or directory as the user would type it.
    """

    kind: ProblemKind
    template_id: str
    summary: str
    fixture: str
    command: str
    picks: tuple[str, ...] = ()
    path: str | None = None
    diff: tuple[str, ...] = ()

    def message(self) -> str:
        """The full text for a person: summary, diff, then the fix."""
        return "\n".join([self.summary, *self.diff, f"Run: {self.command}"])


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
    max_diff_lines: int | None = DEFAULT_MAX_LINES,
    trees: Mapping[str, Mapping[str, RenderedTree]] | None = None,
) -> GoldenCheck:
    """Check the fixtures of the selected templates and picks (all by default).

    With ``pick_slugs``, only templates that have at least one of those picks
    are checked, and only those picks; a slug no selected template has is an
    error (a typo must not pass as "nothing to check"). ``trees`` (template
    id -> slug -> tree) are canonical renders already made by the caller;
    they are used instead of rendering those picks again. Each diff is cut
    to ``max_diff_lines`` and all of them together to
    :data:`~wendy_llm.compare.textdiff.TOTAL_LINES_FACTOR` times that, each cut
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
                            f"exists: {display_path(directory)}/ ({_files(count)})"
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


def check_fixture(
    template_id: str,
    directory: Path,
    renders: Sequence[PickRender],
    *,
    all_picks: bool,
    command: str,
    max_diff_lines: int | None = DEFAULT_MAX_LINES,
) -> list[GoldenProblem]:
    """Compare one template's renders with its fixture directory.

    ``all_picks`` says that ``renders`` holds every pick of the template:
    only then are other picks' fixtures stale and the layout checked.
    """
    checker = _TemplateChecker(template_id, directory, renders, all_picks, command)
    return checker.run(max_diff_lines)


def _files(count: int) -> str:
    return f"{count} file" if count == 1 else f"{count} files"


@dataclass
class _Finding:
    """A per-pick, per-file finding before identical ones are merged."""

    kind: ProblemKind
    path: str
    fixture: str  # fixture-relative path
    text: str  # what is wrong, without the template/pick prefix
    diff: tuple[str, ...] = ()
    picks: list[str] = field(default_factory=list)
    # The same finding with the pick's slug replaced by PICK_PLACEHOLDER
    # (fixture, text, diff), for files stored per pick: when several picks
    # show the very same change, it is reported once, naming them all.
    generic: tuple[str, str, tuple[str, ...]] | None = None
    # Digest of the whole (uncut) generic diff: two changes that agree up to
    # the --max-diff-lines cut but differ after it must not be merged.
    whole_change: str = ""

    def key(self) -> tuple[object, ...]:
        if self.generic is not None:
            return (self.kind, self.path, self.generic, self.whole_change)
        return (self.kind, self.path, self.fixture, self.text, self.diff)


class _TemplateChecker:
    def __init__(
        self,
        template_id: str,
        directory: Path,
        renders: Sequence[PickRender],
        all_picks: bool,
        command: str,
    ) -> None:
        self.template_id = template_id
        self.directory = directory
        self.renders = renders
        self.all_picks = all_picks
        self.command = command
        self._cache: dict[str, bytes | None] = {}
        self.reported: set[str] = set()  # fixture-relative paths already named

    def shown(self, relpath: str) -> str:
        return display_path(self.directory / relpath) if relpath else display_path(self.directory)

    def problem(
        self,
        kind: ProblemKind,
        summary: str,
        fixture: str,
        *,
        picks: Sequence[str] = (),
        path: str | None = None,
        diff: Sequence[str] = (),
    ) -> GoldenProblem:
        self.reported.add(fixture)
        return GoldenProblem(
            kind=kind,
            template_id=self.template_id,
            summary=f"{kind}: {summary}",
            fixture=self.shown(fixture),
            command=self.command,
            picks=tuple(picks),
            path=path,
            diff=tuple(diff),
        )

    def read(self, relpath: str) -> bytes | None:
        if relpath not in self._cache:
            target = self.directory / relpath
            ok = target.is_file() and not target.is_symlink()
            self._cache[relpath] = target.read_bytes() if ok else None
        return self._cache[relpath]

    def run(self, max_diff_lines: int | None) -> list[GoldenProblem]:
        manifest_file = self.directory / MANIFEST_NAME
        if not manifest_file.is_file():
            return [
                self.problem(
                    "missing",
                    f"template {self.template_id} has no fixtures "
                    f"({display_path(manifest_file)} does not exist)",
                    "",
                )
            ]
        try:
            manifest = GoldenManifest.from_json(
                manifest_file.read_bytes(), source=display_path(manifest_file)
            )
        except GoldenManifestError as exc:
            return [self.problem("invalid", str(exc), MANIFEST_NAME)]
        if manifest.template_id != self.template_id:
            return [
                self.problem(
                    "invalid",
                    f"{display_path(manifest_file)} holds the fixtures of template "
                    f"{manifest.template_id}, not {self.template_id}",
                    MANIFEST_NAME,
                )
            ]
        if not self.all_picks:
            problems = self.compare_picks(manifest, None, max_diff_lines)
            return problems + self.stale_in_pick_dirs(manifest)
        expected = build_fixture(self.template_id, self.renders)
        problems = self.compare_picks(manifest, expected.manifest, max_diff_lines)
        problems += self.stale_picks(manifest)
        return problems + self.compare_layout(manifest, expected.files, max_diff_lines, problems)

    # --- content, per pick and file ------------------------------------------

    def compare_picks(
        self,
        manifest: GoldenManifest,
        layout: GoldenManifest | None,
        max_diff_lines: int | None,
    ) -> list[GoldenProblem]:
        """Content, per pick and file; ``layout`` is where --update would store it."""
        problems: list[GoldenProblem] = []
        findings: dict[tuple[object, ...], _Finding] = {}
        for render in self.renders:
            record = manifest.pick(render.slug)
            if record is None:
                problems.append(
                    self.problem(
                        "missing",
                        f"template {self.template_id}, pick {render.slug} has no fixtures "
                        f"(not in {display_path(self.directory / MANIFEST_NAME)})",
                        render.slug,
                        picks=[render.slug],
                    )
                )
                if layout is not None:
                    self.reported.update(
                        rec.stored
                        for rec in layout.files.get(render.slug, {}).values()
                        if rec.stored is not None and rec.stored.startswith(render.slug + "/")
                    )
                continue
            if dict(record.answers) != dict(render.answers):
                problems.append(
                    self.problem(
                        "changed",
                        f"template {self.template_id}, pick {render.slug}: answers are now "
                        f"{dict(render.answers)}, fixtures were made with {dict(record.answers)}",
                        MANIFEST_NAME,
                        picks=[render.slug],
                    )
                )
            stored = manifest.files.get(render.slug, {})
            for path in sorted(set(render.files) | set(stored)):
                where = None
                if layout is not None and path in layout.files.get(render.slug, {}):
                    where = layout.files[render.slug][path].stored
                finding = self.compare_file(
                    render.slug,
                    path,
                    render.files.get(path),
                    stored.get(path),
                    where,
                    max_diff_lines,
                )
                if finding is None:
                    continue
                findings.setdefault(finding.key(), finding).picks.append(render.slug)
        checked = [r.slug for r in self.renders]
        for finding in findings.values():
            fixture, text, diff = finding.fixture, finding.text, finding.diff
            if len(finding.picks) > 1 and finding.generic is not None:
                fixture, text, diff = finding.generic
                self.reported.update(
                    fixture.replace(PICK_PLACEHOLDER, slug, 1) for slug in finding.picks
                )
            problems.append(
                self.problem(
                    finding.kind,
                    f"template {self.template_id}, {self.name_picks(finding.picks, checked)}: "
                    f"{text}",
                    fixture,
                    picks=finding.picks,
                    path=finding.path,
                    diff=diff,
                )
            )
        return problems

    def compare_file(
        self,
        slug: str,
        path: str,
        new: OutputFile | None,
        old: FileRecord | None,
        where: str | None,
        max_diff_lines: int | None,
    ) -> _Finding | None:
        if old is None:
            assert new is not None
            location = where or f"{slug}/{path}"
            kind = "rendered" if new.rendered else "copied"
            # Show what the fixture would hold, so the new file can be reviewed.
            shown = (
                unified_diff(
                    b"",
                    new.data,
                    old_label="/dev/null",
                    new_label=f"{path} (render)",
                    max_lines=max_diff_lines,
                )
                if new.rendered
                else []
            )
            return _Finding(
                "missing", path, location, f"{path} ({kind}) has no fixture", tuple(shown)
            )
        if new is None:
            location = old.stored or MANIFEST_NAME
            return _Finding(
                "stale",
                path,
                location,
                f"{path} is no longer rendered; its fixture is stale ({self.shown(location)})",
            )
        new_kind = "rendered" if new.rendered else "copied"
        if new_kind != old.kind:
            return _Finding(
                "changed",
                path,
                old.stored or MANIFEST_NAME,
                f"{path} is now {new_kind} (its fixture records it as {old.kind})",
            )
        if old.stored is None:
            new_sha = sha256_hex(new.data)
            if new_sha == old.sha256:
                return None
            return _Finding(
                "changed",
                path,
                MANIFEST_NAME,
                f"copied file {path} changed: sha256 {old.sha256[:12]} in "
                f"{self.shown(MANIFEST_NAME)}, {new_sha[:12]} now ({len(new.data)} bytes)",
            )
        data = self.read(old.stored)
        if data is None:
            return _Finding(
                "missing",
                path,
                old.stored,
                f"fixture file {self.shown(old.stored)} of {path} is listed in "
                f"{MANIFEST_NAME} but does not exist",
            )
        if data == new.data:
            return None
        per_pick = old.stored.startswith(slug + "/")
        old_label = f"{self.shown(old.stored)} (fixture)"
        new_label = f"{path} (render of pick {slug})" if per_pick else f"{path} (render)"
        diff = unified_diff(
            data, new.data, old_label=old_label, new_label=new_label, max_lines=max_diff_lines
        )
        finding = _Finding(
            "changed",
            path,
            old.stored,
            f"{path} differs from its fixture {self.shown(old.stored)}",
            tuple(diff),
        )
        if per_pick:
            pattern = PICK_PLACEHOLDER + old.stored[len(slug) :]
            generic = list(diff)
            # Only the two file headers name the pick (the first lines that
            # are not notes); content lines start with " ", "-" or "+" + text.
            for header, label, shared in (
                ("---", old_label, f"{self.shown(pattern)} (fixture)"),
                ("+++", new_label, f"{path} (render of each pick)"),
            ):
                generic[generic.index(f"{header} {label}")] = f"{header} {shared}"
            whole = unified_diff(data, new.data, old_label="", new_label="", max_lines=None)
            finding.whole_change = hashlib.sha256("\n".join(whole).encode()).hexdigest()
            finding.generic = (
                pattern,
                f"{path} differs from its fixture {self.shown(pattern)} in the same way",
                tuple(generic),
            )
        return finding

    # --- stale picks and files -------------------------------------------------

    def stale_picks(self, manifest: GoldenManifest) -> list[GoldenProblem]:
        if not self.all_picks:
            return []
        current = {r.slug for r in self.renders}
        on_disk = {rel.split("/", 1)[0] for rel in list_files(self.directory) if "/" in rel}
        gone = [s for s in manifest.slugs() if s not in current]
        gone += sorted(d for d in on_disk if d not in current and d != SHARED_DIR and d not in gone)
        problems = []
        for slug in gone:
            count = len(list_files(self.directory / slug))
            where = f"{self.shown(slug)}/ ({_files(count)})" if count else "its manifest entry"
            problems.append(
                self.problem(
                    "stale",
                    f"template {self.template_id}, pick {slug} no longer exists; "
                    f"its fixtures are stale: {where}",
                    slug,
                    picks=[slug],
                )
            )
            self.reported.update(f"{slug}/{rel}" for rel in list_files(self.directory / slug))
        return problems

    def stale_in_pick_dirs(self, manifest: GoldenManifest) -> list[GoldenProblem]:
        """Subset runs: files under a checked pick's directory nobody refers to."""
        referenced = manifest.referenced()
        problems = []
        for render in self.renders:
            for rel in list_files(self.directory / render.slug):
                relpath = f"{render.slug}/{rel}"
                if relpath not in referenced and relpath not in self.reported:
                    problems.append(self._stale_file(relpath))
        return problems

    def _stale_file(self, relpath: str) -> GoldenProblem:
        return self.problem(
            "stale",
            f"template {self.template_id}: {self.shown(relpath)} is not part of the "
            "fixtures (no pick renders it)",
            relpath,
        )

    def compare_layout(
        self,
        manifest: GoldenManifest,
        expected: Mapping[str, bytes],
        max_diff_lines: int | None,
        so_far: Sequence[GoldenProblem],
    ) -> list[GoldenProblem]:
        """Full runs: the directory must hold exactly what --update would write.

        Files nothing refers to are always stale. Where the manifest and the
        layout --update would write disagree (a file moving between
        ``_shared/`` and pick directories), the disagreement is reported only
        when the content checks found nothing: otherwise it is a consequence
        of the problems already named, and would only add noise.
        """
        on_disk = list_files(self.directory)
        referenced = manifest.referenced() | {MANIFEST_NAME}
        problems = [
            self._stale_file(relpath)
            for relpath in on_disk
            if relpath not in expected
            and relpath not in referenced
            and relpath not in self.reported
        ]
        if so_far or problems:
            return problems
        for relpath in on_disk:
            if relpath not in expected and relpath not in self.reported:
                problems.append(self._stale_file(relpath))
        for relpath in expected:
            if relpath not in on_disk and relpath not in self.reported:
                problems.append(
                    self.problem(
                        "missing",
                        f"template {self.template_id}: fixture file {self.shown(relpath)} "
                        "does not exist",
                        relpath,
                    )
                )
        if problems:
            return problems  # the manifest's diff would only repeat them
        current = self.read(MANIFEST_NAME) or b""
        wanted = expected[MANIFEST_NAME]
        if current != wanted:
            problems.append(
                self.problem(
                    "changed",
                    f"template {self.template_id}: {self.shown(MANIFEST_NAME)} differs from "
                    "the manifest the renders produce",
                    MANIFEST_NAME,
                    diff=unified_diff(
                        current,
                        wanted,
                        old_label=f"{self.shown(MANIFEST_NAME)} (fixture)",
                        new_label=f"{MANIFEST_NAME} (from the renders)",
                        max_lines=max_diff_lines,
                    ),
                )
            )
        return problems

    def name_picks(self, picks: Sequence[str], checked: Sequence[str]) -> str:
        if len(picks) > 1 and len(picks) == len(checked):
            return f"every {'' if self.all_picks else 'checked '}pick ({len(picks)})"
        return name_picks(picks)
