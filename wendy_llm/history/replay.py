"""``replay``: what ``check`` would have said of each commit of a range, as changes.

The base commit is checked whole; then each commit of ``A..B`` in turn,
judging only what it touched:

- a template is judged again only when the object ids of what its verdict
  reads changed: its folder (the tree id), its rules file, its stored
  baseline, ``meta.json``, the settings and the suppressions file
  (:func:`verdict_key`); every other template keeps its verdict;
- the repository row (``meta.json`` entries no template answers, template
  folders without ``template.json``) is judged again only when ``meta.json``
  or the folders at template depth changed.

Each commit's report is the findings it introduced and the ones it fixed
(errors and warnings; notes never fail anything), per check.  A finding is
the same across commits when its template, pick, check, severity, file and
message are: a line that moved because of an edit above it is not news.
Golden fixtures are not compared (a repository adopting the gate has none
yet); Compose and ShellCheck results are kept for the whole replay.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from wendy_llm.history.gitwalk import Commit, Scratch, commits_in_range, tree_ids
from wendy_llm.repo.config import SETTINGS_FILE
from wendy_llm.repo.gitsource import repo_root
from wendy_llm.repo.layout import Layout, find_layout
from wendy_llm.repo.unseen import unseen_template_dirs
from wendy_llm.validate.checks.catalog import read_catalog, unseen_folder_findings
from wendy_llm.validate.findings import REPOSITORY, Finding
from wendy_llm.validate.run import run_check
from wendy_llm.validate.tools.cache import ResultCache

#: Called after each commit: (commits done, commits in all, the commit).
Progress = Callable[[int, int, Commit], None]
_Key = tuple[str | None, ...]


@dataclass(frozen=True)
class CommitReport:
    """One commit: what it changed in the gate's verdict."""

    commit: Commit
    judged: tuple[str, ...]  # templates checked again ((repository) for the repository row)
    reused: int  # templates whose verdict was kept
    introduced: tuple[Finding, ...]
    fixed: tuple[Finding, ...]
    removed: tuple[str, ...] = ()  # templates gone at this commit (not counted as fixes)


@dataclass(frozen=True)
class ReplayReport:
    """The whole range: its ends, the base's findings and each commit's report."""

    base: str
    head: str
    base_findings: tuple[Finding, ...]
    commits: tuple[CommitReport, ...]
    seconds: float  # the whole replay
    base_seconds: float = 0.0  # of which the base commit's full check

    @property
    def introduced(self) -> int:
        return sum(len(c.introduced) for c in self.commits)

    @property
    def fixed(self) -> int:
        return sum(len(c.fixed) for c in self.commits)


def replay(
    revision_range: str,
    repo: str | Path = ".",
    *,
    templates_dir: str | Path | None = None,
    golden_dir: str | Path | None = None,
    progress: Progress | None = None,
    cache: ResultCache | bool = True,
) -> ReplayReport:
    """Replay ``A..B`` of the repository at ``repo`` (see the module's docstring).

    ``cache``: where Compose and ShellCheck results are kept (True: the
    per-user cache ``check`` uses; False: nowhere; or a cache of one's own).
    """
    started = time.perf_counter()
    root = repo_root(repo)
    # Given directories are kept at every commit; else each commit's own layout decides.
    templates_rel = _relative(Path(templates_dir), root) if templates_dir is not None else None
    golden_rel = _relative(Path(golden_dir), root) if golden_dir is not None else None
    base, head, commits = commits_in_range(root, revision_range)
    reports: list[CommitReport] = []
    with Scratch(root) as scratch:
        state = _State(scratch, templates_rel, golden_rel, cache)
        state.move_to(base.commit)
        base_findings = state.findings()
        base_seconds = time.perf_counter() - started
        for done, commit in enumerate(commits, start=1):
            before = state.verdicts()
            judged, reused, removed = state.move_to(commit.id)
            after = state.verdicts()
            introduced, fixed = _changes(before, after, removed)
            reports.append(CommitReport(commit, judged, reused, introduced, fixed, removed))
            if progress is not None:
                progress(done, len(commits), commit)
    elapsed = time.perf_counter() - started
    return ReplayReport(
        base.commit, head.commit, base_findings, tuple(reports), elapsed, base_seconds
    )


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return "."


class _State:
    """The scratch checkout and every template's verdict at its current commit."""

    def __init__(
        self,
        scratch: Scratch,
        templates_rel: str | None,
        golden_rel: str | None,
        cache: ResultCache | bool,
    ) -> None:
        self.scratch = scratch
        self.templates_rel = templates_rel
        self.golden_rel = golden_rel
        self.cache = cache
        self.by_key: dict[_Key, frozenset[Finding]] = {}
        self.current: dict[str, frozenset[Finding]] = {}

    def layout(self) -> Layout:
        root = self.scratch.root
        templates = root / self.templates_rel if self.templates_rel is not None else None
        golden = root / self.golden_rel if self.golden_rel is not None else None
        return find_layout(templates, golden, start=root)

    def move_to(self, commit: str) -> tuple[tuple[str, ...], int, tuple[str, ...]]:
        """Check out ``commit`` and judge what changed: (judged, reused, removed)."""
        self.scratch.checkout(commit)
        ids = tree_ids(self.scratch.root, commit)
        layout = self.layout()
        found = [t.id for t in layout.find_templates()] if layout.templates_root.is_dir() else []
        keys = {t: self._key(layout, ids, t) for t in found}
        keys[REPOSITORY] = self._repository_key(layout, ids)
        stale = sorted(t for t, key in keys.items() if key not in self.by_key)
        templates = [t for t in stale if t != REPOSITORY]
        if templates:
            self._judge(layout, templates, keys)
        if REPOSITORY in stale:
            self.by_key[keys[REPOSITORY]] = frozenset(_repository_findings(layout, found))
        removed = tuple(sorted(t for t in self.current if t not in keys))
        self.current = {t: self.by_key[key] for t, key in keys.items()}
        return tuple(stale), len(found) - len(templates), removed

    def _judge(self, layout: Layout, templates: Sequence[str], keys: Mapping[str, _Key]) -> None:
        report = run_check(templates=templates, golden=False, cache=self.cache, layout=layout)
        per_template: dict[str, list[Finding]] = {t: [] for t in templates}
        for finding in report.findings:
            if finding.template in per_template and finding.severity != "note":
                per_template[finding.template].append(finding)
        for template, findings in per_template.items():
            self.by_key[keys[template]] = frozenset(_scrubbed(findings, self.scratch.root))

    def _key(self, layout: Layout, ids: Mapping[str, str], template: str) -> _Key:
        paths = [
            layout.templates_root / template,
            layout.rules_path(template),
            layout.baseline_dir(template),
            *self._shared(layout),
        ]
        return (template, *(ids.get(_relative(p, self.scratch.root)) for p in paths))

    def _shared(self, layout: Layout) -> list[Path]:
        meta = layout.meta_json()
        shared = [layout.root / SETTINGS_FILE, layout.suppressions_path]
        return [meta, *shared] if meta is not None else shared

    def _repository_key(self, layout: Layout, ids: Mapping[str, str]) -> _Key:
        """``meta.json`` and every folder at template depth (with its tree id)."""
        templates_rel = _relative(layout.templates_root, self.scratch.root)
        prefix = "" if templates_rel == "." else templates_rel + "/"
        folders = sorted(
            # A template's own edits are its row's business; a folder without a
            # template.json is the repository's, content and all.
            path if f"{path}/template.json" in ids else f"{path}={oid}"
            for path, oid in ids.items()
            if path.startswith(prefix) and path[len(prefix) :].count("/") == 1
        )
        meta = layout.meta_json()
        meta_id = ids.get(_relative(meta, self.scratch.root)) if meta is not None else None
        settings = ids.get(_relative(layout.root / SETTINGS_FILE, self.scratch.root))
        return (REPOSITORY, meta_id, settings, *folders)

    def verdicts(self) -> dict[str, frozenset[Finding]]:
        return dict(self.current)

    def findings(self) -> tuple[Finding, ...]:
        return tuple(sorted((f for found in self.current.values() for f in found), key=_order))


def _repository_findings(layout: Layout, template_ids: Sequence[str]) -> list[Finding]:
    meta = layout.meta_json()
    found: list[Finding] = []
    if meta is not None:
        found += read_catalog(meta, template_ids, {}).repository
    unseen = unseen_template_dirs(
        layout.templates_root, settings=layout.settings, golden_dir=layout.golden_dir
    )
    found += unseen_folder_findings(unseen)
    return [f.at(REPOSITORY, "") for f in found if f.severity != "note"]


def _scrubbed(findings: Iterable[Finding], scratch: Path) -> list[Finding]:
    """Findings without the scratch checkout's path in them (it is not the user's)."""
    prefix = f"{scratch}/"
    out = []
    for f in findings:
        file = f.file.removeprefix(prefix) if f.file else f.file
        message = f.message.replace(prefix, "")
        out.append(dataclasses.replace(f, file=file, message=message))
    return out


def identity(finding: Finding) -> tuple[object, ...]:
    """What makes two commits' findings the same one (not the line: edits above move it)."""
    return (
        finding.template,
        finding.pick,
        finding.check,
        finding.severity,
        finding.file,
        finding.message,
    )


def _changes(
    before: Mapping[str, frozenset[Finding]],
    after: Mapping[str, frozenset[Finding]],
    removed: Sequence[str],
) -> tuple[tuple[Finding, ...], tuple[Finding, ...]]:
    old = {identity(f): f for t, found in before.items() if t not in removed for f in found}
    new = {identity(f): f for found in after.values() for f in found}
    introduced = sorted((f for key, f in new.items() if key not in old), key=_order)
    fixed = sorted((f for key, f in old.items() if key not in new), key=_order)
    return tuple(introduced), tuple(fixed)


def _order(finding: Finding) -> tuple[str, str, str, str, int, str]:
    return (
        finding.template,
        finding.pick,
        finding.check,
        finding.file or "",
        finding.line or 0,
        finding.message,
    )
