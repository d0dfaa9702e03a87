"""The gate's verdict: ``check`` as the command line judges it, for the library too.

:func:`wendy_llm.validate.run.run_check` renders and checks every pick; what
a repository decides about the verdict is applied here, once, for the
library (``wendy_llm.run_check``) and the command line (``wendy-llm check``,
a thin caller of :func:`check_verdict`) alike:

1. ``wendy-llm.toml``'s ``[findings]`` selection, with ``select`` /
   ``ignore`` given by the caller (``--select`` replaces the file's select,
   ``--ignore`` adds to its ignore): each finding it ignores is marked so
   (:mod:`wendy_llm.validate.selected`);
2. the suppressions file, read before the run (an invalid file raises
   :class:`SuppressionsError` at once, which the command line reports with
   exit status 2) and matched after it (:mod:`wendy_llm.validate.suppressions`):
   recorded errors suppressed, recorded ones that no longer occur failing
   ``suppressions``.  ``suppressions=False`` leaves them out;
3. with a ``base`` revision, the policy (the rules files, ``gate.files``,
   ``wendy-llm.toml`` and the suppressions file) read at that revision, and
   what the work tree changes in it reported as a ``policy`` finding
   (:mod:`wendy_llm.validate.checks.policy`).

``--suppress-all`` / ``--prune-suppressions`` (``record``) write the file
between the run and the matching; they refuse under ``CI`` and with picks.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from wendy_llm import options
from wendy_llm.errors import CheckSelectionError, SuppressionsError
from wendy_llm.golden.guard import in_ci
from wendy_llm.repo.layout import Layout, display_path, find_layout
from wendy_llm.repo.policy import base_policy
from wendy_llm.repo.rule_selection import RuleSelection, SelectorError, parse_selectors
from wendy_llm.repo.suppressions_file import (
    Suppression,
    Suppressions,
    load_suppressions,
    parse_suppressions,
    write_suppressions,
)
from wendy_llm.validate import run
from wendy_llm.validate.checks.policy import policy_findings, policy_results
from wendy_llm.validate.findings import Report
from wendy_llm.validate.selected import mark_ignored
from wendy_llm.validate.suppressions import Scope, apply_suppressions, prune, record_all
from wendy_llm.validate.tools.cache import ResultCache
from wendy_llm.validate.tools.pool import ToolRunner

#: What ``record`` writes: every current failure (``--suppress-all``), or the
#: recorded ones lowered to what still occurs (``--prune-suppressions``).
Record = Literal["all", "prune"]
_FLAGS: dict[Record, str] = {"all": "--suppress-all", "prune": "--prune-suppressions"}


def run_check(
    templates_dir: str | Path | None = None,
    *,
    templates: Sequence[str] = (),
    picks: Sequence[str] = (),
    golden_dir: str | Path | None = None,
    golden: bool = True,
    compose_workers: int | None = options.COMPOSE_WORKERS,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
    cache: ResultCache | bool = True,
    layout: Layout | None = None,
    tool_runner: ToolRunner | None = None,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    suppressions: bool = True,
    base: str | None = None,
    accept_policy_change: bool = False,
) -> Report:
    """``wendy-llm check``'s verdict on the selected templates and picks (all by default).

    The places come from ``layout``, else from :func:`find_layout` with
    ``templates_dir`` and ``golden_dir``.  ``templates`` selects by id
    (``python/llm``) or name (``llm``); ``picks`` by slug.  ``select`` and
    ``ignore`` are ``--select`` and ``--ignore`` (codes, prefixes, check ids
    or ``ALL``); ``suppressions=False`` reads no suppressions file.  An
    unknown template, pick or selector, or no template at all, raises
    :class:`CheckSelectionError`; an invalid ``wendy-llm.toml``
    :class:`SettingsError`, an invalid suppressions file
    :class:`SuppressionsError`; every problem in the templates themselves is
    a finding in the report.  ``max_diff_lines`` cuts each golden diff (and
    all of them together to three times that; None: no limit).  ``cache``:
    where Compose and ShellCheck results are kept between runs (True: the
    per-user cache; False: nowhere).  ``tool_runner``: where the tool
    processes run (default: a pool of ``compose_workers`` threads, None: one
    per core).  ``base`` (a git revision: on a pull request, its base) reads
    the policy at that revision (the rules files, ``wendy-llm.toml``, the
    suppressions file) and reports what the work tree changes in it as a
    failing ``policy`` finding; ``accept_policy_change`` judges by the work
    tree's policy instead, the change a note (``--accept-policy-change``).
    """
    where = layout if layout is not None else find_layout(templates_dir, golden_dir)
    return check_verdict(
        where,
        templates=templates,
        picks=picks,
        golden=golden,
        compose_workers=compose_workers,
        max_diff_lines=max_diff_lines,
        cache=cache,
        tool_runner=tool_runner,
        select=select,
        ignore=ignore,
        suppressions=suppressions,
        base=base,
        accept_policy_change=accept_policy_change,
    )


def check_verdict(
    layout: Layout,
    *,
    templates: Sequence[str] = (),
    picks: Sequence[str] = (),
    golden: bool = True,
    compose_workers: int | None = options.COMPOSE_WORKERS,
    max_diff_lines: int | None = options.DIFF_MAX_LINES,
    cache: ResultCache | bool = True,
    tool_runner: ToolRunner | None = None,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    suppressions: bool = True,
    base: str | None = None,
    accept_policy_change: bool = False,
    record: Record | None = None,
    log: Callable[[str], None] | None = None,
) -> Report:
    """:func:`run_check` on ``layout``, and with ``record`` the suppressions file
    written between the run and the matching (``log`` is told what was written)."""
    policy = None if base is None else base_policy(layout, base)
    if policy is not None and record is not None:
        raise SuppressionsError(
            f"{_FLAGS[record]} writes the work tree's suppressions file, and --base judges "
            "by the base's: record the failures without --base, then commit the file",
            file=display_path(layout.suppressions_path),
        )
    judged = layout if policy is None or accept_policy_change else policy.layout
    selection = _selection(judged.settings.findings, select, ignore)
    scope = _scope(judged, templates, picks)
    recorded = _recorded(judged, record, templates, picks, log) if suppressions else None
    report = run.run_check(
        templates=templates,
        picks=picks,
        golden=golden,
        compose_workers=compose_workers,
        max_diff_lines=max_diff_lines,
        cache=cache,
        layout=judged,
        tool_runner=tool_runner,
    )
    report = mark_ignored(report, selection)
    if recorded is not None and record is not None:
        recorded = _write(layout.suppressions_path, report, recorded, scope, record, log)
    if recorded is not None:
        report = apply_suppressions(report, recorded, scope)
    if policy is None:
        return report
    # Added last: the policy they are about can neither ignore nor suppress them.
    # A rules file counts for its template when the run judges that template.
    judged_files = [f for f in policy.files if f.template is None or scope.covers(f.template)]
    found = policy_findings(
        judged_files, policy.pinned, accepted=accept_policy_change, max_diff_lines=max_diff_lines
    )
    return dataclasses.replace(report, results=report.results + policy_results(found))


def _selection(
    settings: RuleSelection, select: Sequence[str], ignore: Sequence[str]
) -> RuleSelection:
    try:
        return settings.with_command_line(parse_selectors(select), parse_selectors(ignore))
    except SelectorError as exc:
        raise CheckSelectionError(f"select/ignore: {exc}") from None


def _scope(layout: Layout, templates: Sequence[str], picks: Sequence[str]) -> Scope:
    """What this run judges: the selected templates (all by default), every pick or not."""
    chosen = [t.id for t in layout.select(templates)] if templates else None
    return Scope.of_run(chosen, picks)


def _recorded(
    layout: Layout,
    record: Record | None,
    templates: Sequence[str],
    picks: Sequence[str],
    log: Callable[[str], None] | None,
) -> Suppressions:
    """The recorded suppressions, read before the run (a bad file raises at once),
    after refusing a ``record`` that cannot be honoured here."""
    path = layout.suppressions_path
    shown = display_path(path)
    flag = None if record is None else _FLAGS[record]
    if flag is not None and in_ci(os.environ):
        raise SuppressionsError(
            f"refusing to write {shown}: CI={os.environ.get('CI')} is set. In CI the "
            f"suppressions must be checked, not rewritten: {flag} there would make any new "
            f"failure pass. Run `wendy-llm check {flag}` locally and commit the file.",
            file=shown,
        )
    if flag is not None and picks:
        raise SuppressionsError(
            f"{flag} cannot be combined with --pick: a failure is counted over every pick "
            "of its template; select whole templates with --template",
            file=shown,
        )
    try:
        return _read_suppressions(layout, path, shown)
    except SuppressionsError as exc:
        if not (record == "all" and not templates):
            raise
        # Recording every template's failures needs nothing from the old file.
        _say(log, f"wendy-llm: replacing an invalid {shown}: {exc}")
        return Suppressions(shown=shown)


def _read_suppressions(layout: Layout, path: Path, shown: str) -> Suppressions:
    """The suppressions file the run is judged by: the base's when ``layout``
    pins the policy (``--base``), else the work tree's."""
    pinned = layout.pinned
    if pinned is None or not pinned.covers(path):
        return load_suppressions(path, shown=shown)
    data = pinned.data(path)
    if data is None:
        return Suppressions(shown=shown)
    try:
        return parse_suppressions(data.decode("utf-8"), shown=shown)
    except UnicodeDecodeError as exc:
        where = f"{shown} at {pinned.describe()}"
        raise SuppressionsError(f"{where}: not valid UTF-8 (byte {exc.start})", file=shown) from exc


def _write(
    path: Path,
    report: Report,
    recorded: Suppressions,
    scope: Scope,
    record: Record,
    log: Callable[[str], None] | None,
) -> Suppressions:
    """Write the file as ``record`` asks; the file as written, read back."""
    entries = (
        record_all(report, recorded, scope) if record == "all" else prune(report, recorded, scope)
    )
    shown = recorded.shown
    failures = sum(e.count for e in entries)
    templates = len({e.template for e in entries})
    if _same(entries, recorded.entries) and path.is_file():
        _say(log, f"wendy-llm: {shown} unchanged ({failures} suppressed failure(s))")
        return load_suppressions(path, shown=shown)
    try:
        write_suppressions(path, entries)
    except OSError as exc:
        raise SuppressionsError(f"{shown}: cannot write it: {exc.strerror}", file=shown) from exc
    what = "recorded" if record == "all" else "pruned to"
    _say(
        log,
        f"wendy-llm: {what} {failures} suppressed failure(s) of {len(entries)} kind(s) in "
        f"{templates} template(s) in {shown}; commit it",
    )
    return load_suppressions(path, shown=shown)


def _same(entries: Sequence[Suppression], before: Sequence[Suppression]) -> bool:
    return {(e.key, e.count) for e in entries} == {(e.key, e.count) for e in before}


def _say(log: Callable[[str], None] | None, message: str) -> None:
    if log is not None:
        log(message)
