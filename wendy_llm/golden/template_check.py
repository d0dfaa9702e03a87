"""One template's fixtures compared with its renders; nothing is ever written.

Content goes through the comparison engine of ``wendy-llm diff``
(:mod:`wendy_llm.compare.changes`): each pick's files are compared one by
one with their fixtures, and a change identical in several picks (a shared
file, or the same edit in every pick's own copy) is one problem naming them.
Each problem names the template, the pick(s), the file and the fixture, and
ends with the command that refreshes the fixtures. When every pick is
checked, the layout and the manifest are compared too, so a fixture
directory that passes is byte for byte what ``--update`` would write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wendy_llm import options
from wendy_llm.compare.changes import Group, file_diff, group_changes, name_group
from wendy_llm.compare.textdiff import counted
from wendy_llm.errors import GoldenManifestError
from wendy_llm.golden.fixture_files import FixtureChange, FixtureDir, ProblemKind, in_pick
from wendy_llm.golden.layout import MANIFEST_NAME, SHARED_DIR, list_files
from wendy_llm.golden.manifest import Digests, Fixture, GoldenManifest, build_fixture
from wendy_llm.render.canonical import PickRender
from wendy_llm.repo.config import SETTINGS_FILE
from wendy_llm.repo.layout import display_path
from wendy_llm.safe_read import ReadRefused, read_bytes, resolve_inside


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

    @property
    def fix(self) -> str:
        return f"Run: {self.command}"

    def message(self) -> str:
        """The full text for a person: summary, diff, then the fix."""
        return "\n".join([self.summary, *self.diff, self.fix])


def check_fixture(
    template_id: str,
    directory: Path,
    renders: Sequence[PickRender],
    *,
    all_picks: bool,
    command: str,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
    full: bool = False,
    template_dir: str | None = None,
    golden_root: Path | None = None,
) -> list[GoldenProblem]:
    """Compare one template's renders with its fixture directory.

    ``all_picks`` says that ``renders`` holds every pick of the template:
    only then are other picks' fixtures stale and the layout checked. Each
    diff is cut to ``max_diff_lines``; the caller caps them all together.
    ``full``: the fixtures hold a copy of every rendered file (else lean:
    a file that is its template file is recorded by hash); ``template_dir``
    (the template as the user types it) names the template file of a change;
    a ``directory`` linked out of ``golden_root`` is invalid, and not read.
    """
    return _FixtureCheck(
        template_id,
        directory,
        renders,
        all_picks,
        command,
        max_diff_lines,
        full,
        template_dir,
        golden_root,
    ).run()


class _FixtureCheck:
    def __init__(
        self,
        template_id: str,
        directory: Path,
        renders: Sequence[PickRender],
        all_picks: bool,
        command: str,
        max_diff_lines: int | None,
        full: bool,
        template_dir: str | None,
        golden_root: Path | None = None,
    ) -> None:
        self.template_id = template_id
        self.directory = directory
        self.golden_root = golden_root
        self.digests = Digests()  # shared by the comparisons and the expected layout
        self.full = full
        self.fixtures = FixtureDir(directory, template_dir, self.digests)
        self.shown = self.fixtures.shown
        self.renders = renders
        self.all_picks = all_picks
        self.command = command
        self.max_diff_lines = max_diff_lines
        self.reported: set[str] = set()  # fixture-relative paths already named

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

    def run(self) -> list[GoldenProblem]:
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
            if self.golden_root is not None:  # a fixture folder linked out is never read
                resolve_inside(self.directory, self.golden_root, shown=display_path(self.directory))
            stored = read_bytes(manifest_file, self.directory, shown=display_path(manifest_file))
            manifest = GoldenManifest.from_json(stored, source=display_path(manifest_file))
        except (GoldenManifestError, ReadRefused) as exc:
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
            return self.compare_picks(manifest, None) + self.stale_in_pick_dirs(manifest)
        expected = build_fixture(
            self.template_id, self.renders, full=self.full, digests=self.digests
        )
        problems = self.compare_picks(manifest, expected.manifest)
        problems += self.stale_picks(manifest)
        return problems + self.compare_layout(manifest, expected, problems)

    # --- content, per pick and file ------------------------------------------

    def compare_picks(
        self, manifest: GoldenManifest, layout: GoldenManifest | None
    ) -> list[GoldenProblem]:
        """Content, per pick and file; ``layout`` is where --update would store it."""
        problems: list[GoldenProblem] = []
        per_pick: list[tuple[str, list[FixtureChange]]] = []
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
            planned = layout.files.get(render.slug, {}) if layout is not None else {}
            changes = [
                self.fixtures.compare_file(
                    render.slug,
                    path,
                    render.files.get(path),
                    stored.get(path),
                    where=planned[path].stored if path in planned else None,
                    max_diff_lines=self.max_diff_lines,
                    lean=path in planned and planned[path].lean,
                )
                for path in sorted(set(render.files) | set(stored))
            ]
            per_pick.append((render.slug, [c for c in changes if c is not None]))
        checked = [r.slug for r in self.renders]
        problems += [self.group_problem(g, checked) for g in group_changes(per_pick)]
        return problems

    def group_problem(self, group: Group[FixtureChange], checked: Sequence[str]) -> GoldenProblem:
        """One problem for a change and every pick that shows it."""
        change, picks = group.change, group.picks
        if len(picks) == 1:
            stored, text, diff = self.fixtures.for_one_pick(change, picks[0])
        else:
            stored, text, diff = change.stored, change.merged_text or change.text, change.diff
        self.reported.update(in_pick(change.stored, slug) for slug in picks)
        who = name_group(picks, checked, "" if self.all_picks else "checked")
        return self.problem(
            change.kind,
            f"template {self.template_id}, {who}: {text}",
            stored,
            picks=picks,
            path=change.path,
            diff=diff,
        )

    # --- stale picks and files -------------------------------------------------

    def stale_picks(self, manifest: GoldenManifest) -> list[GoldenProblem]:
        current = {r.slug for r in self.renders}
        on_disk = {rel.split("/", 1)[0] for rel in list_files(self.directory) if "/" in rel}
        gone = [s for s in manifest.slugs() if s not in current]
        gone += sorted(d for d in on_disk if d not in current and d != SHARED_DIR and d not in gone)
        problems = []
        for slug in gone:
            count = len(list_files(self.directory / slug))
            where = (
                f"{self.shown(slug)}/ ({counted(count, 'file')})" if count else "its manifest entry"
            )
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
        fixture: Fixture,
        so_far: Sequence[GoldenProblem],
    ) -> list[GoldenProblem]:
        """Full runs: the directory must hold exactly what --update would write.

        Files nothing refers to are always stale. Where the manifest and the
        layout --update would write disagree (a file moving between
        ``_shared/`` and pick directories), the disagreement is reported only
        when the content checks found nothing: otherwise it is a consequence
        of the problems already named, and would only add noise.
        """
        expected = fixture.files
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
        now_lean, was_lean = _lean_paths(fixture.manifest), _lean_paths(manifest)
        for relpath in on_disk:
            if relpath in expected or relpath in self.reported:
                continue
            if relpath in referenced and _output_path(relpath) in now_lean:
                problems.append(
                    self.problem(
                        "stale",
                        f"template {self.template_id}: {self.shown(relpath)} is a copy of a "
                        "file that is its template file, which lean fixtures record by hash "
                        f'only (golden-fixtures = "full" in {SETTINGS_FILE} keeps copies)',
                        relpath,
                    )
                )
            else:
                problems.append(self._stale_file(relpath))
        for relpath in expected:
            if relpath not in on_disk and relpath not in self.reported:
                why = ""
                if _output_path(relpath) in was_lean:
                    why = (
                        " (the fixtures record that file by hash; full fixtures, "
                        f'golden-fixtures = "full" in {SETTINGS_FILE}, hold a copy)'
                    )
                problems.append(
                    self.problem(
                        "missing",
                        f"template {self.template_id}: fixture file {self.shown(relpath)} "
                        f"does not exist{why}",
                        relpath,
                    )
                )
        if problems:
            return problems  # the manifest's diff would only repeat them
        current = self.fixtures.read(MANIFEST_NAME) or b""
        wanted = expected[MANIFEST_NAME]
        if current == wanted:
            return []
        old_label = f"{self.shown(MANIFEST_NAME)} (fixture)"
        diff = file_diff(
            current,
            wanted,
            old_label=old_label,
            new_label=f"{MANIFEST_NAME} (from the renders)",
            max_lines=self.max_diff_lines,
        )
        return [
            self.problem(
                "changed",
                f"template {self.template_id}: {self.shown(MANIFEST_NAME)} differs from "
                "the manifest the renders produce",
                MANIFEST_NAME,
                diff=diff.lines,
            )
        ]


def _lean_paths(manifest: GoldenManifest) -> set[str]:
    """Output paths recorded by hash only, in some pick (lean fixtures)."""
    return {path for per_pick in manifest.files.values() for path, r in per_pick.items() if r.lean}


def _output_path(relpath: str) -> str:
    """The output path a stored fixture file holds (``_shared/x`` or ``<slug>/x``)."""
    return relpath.split("/", 1)[-1]
