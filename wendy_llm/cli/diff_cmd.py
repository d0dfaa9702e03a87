"""``wendy-llm diff``: which picks did a change touch, template by template?

With ``--base REV`` and no ``--template``, every template that exists at REV
and in the work tree is compared; templates new since REV or removed since
are listed (a removed one fails ``--forbid-removed``).  ``--baseline DIR``
compares one template, named by ``--template`` when there are several.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wendy_llm.cli import output
from wendy_llm.cli.args import (
    POLICY_EPILOG,
    add_directories,
    add_format,
    add_json,
    add_max_diff_lines,
    add_policy_base,
    add_quiet,
    add_report_files,
    layout,
    refuse_accept_without_base,
)
from wendy_llm.cli.output import name_failures
from wendy_llm.cli.style import Progress, write_report
from wendy_llm.compare.diff import (
    Policy,
    PolicyResult,
    Side,
    TemplateDiff,
    diff_template,
    evaluate_policy,
)
from wendy_llm.compare.scope import scope_from_args
from wendy_llm.errors import DiffError
from wendy_llm.escape import markdown_cell
from wendy_llm.escape import text as safe
from wendy_llm.render.manifest.load import MANIFEST_FILE
from wendy_llm.render.template import Template, load_template
from wendy_llm.render.variants import gate_inputs, missing_values
from wendy_llm.repo.gitsource import paths_at_revision, template_at_revision
from wendy_llm.repo.layout import DIRECTORY_RULE, Layout, confined, display_path
from wendy_llm.repo.policy import BasePolicy, base_policy
from wendy_llm.repo.selection import TemplateFailure
from wendy_llm.reports.diff import diff_failures_text, diff_text
from wendy_llm.reports.json import diff_json, dumps
from wendy_llm.reports.junit import diff_junit
from wendy_llm.reports.markdown import diff_summary
from wendy_llm.reports.workflow import on_github
from wendy_llm.validate.checks.policy import policy_findings
from wendy_llm.validate.findings import Finding
from wendy_llm.validate.stored.baseline import declared_sentinels, gate_of, rules_in

HELP = "compare every pick with a git revision or a baseline directory"
DESCRIPTION = (
    "Render every pick of a template at a git revision (read through git, the "
    "work tree untouched) or in a baseline directory, and in the work tree; "
    "classify each pick unchanged, changed, added, exempt or removed."
)
EPILOG = f"""\
examples:
  wendy-llm diff --base origin/main                    # what does this branch change?
  wendy-llm diff --base HEAD~1 --template python/llm --json
  wendy-llm diff --baseline golden/baseline/python/llm --template python/llm \\
      --expect-unchanged                               # the llm template's gate
  wendy-llm diff path/to/templates --base main --template python/llm
  wendy-llm diff --base v1.2 --files 'docker-compose.yml' --files '**/Dockerfile'
  wendy-llm diff --base main --expect-unchanged --allow-changed gemma4-e2b
  wendy-llm diff --base "origin/$GITHUB_BASE_REF" --expect-unchanged --quiet \\
      --junit reports/diff.xml --markdown reports/diff.md  # a pull request gate
  wendy-llm diff --base main --expect-unchanged --accept-policy-change  # a rules change, accepted

Every pick is rendered on both sides with the canonical inputs (app id
llm-app, defaults, sample values, the pick's answers) and with the template's
variant (app id my.app-2, other numbers typed as --var types them: PORT=9080
for a PORT of 8080), and classified: unchanged or changed (compared with the
base pick of the same slug, or, for a new pick, with the base rendered with the
same answers, as wendy init --var would), added (a new pick the base cannot
render: the reason is shown), exempt (a new pick answering a sentinel of the
rules file: its rules check it) or removed. Without --template, --base
compares every template that exists at REV; one new since REV is listed, one
removed since is listed and fails --forbid-removed. --baseline and --json need
one template (name it with --template when there are several). Without
--files, the scope is gate.files of the template's rules file
(<golden-dir>/<language>/<name>.rules.yaml) when present, else every file.
{POLICY_EPILOG}
{DIRECTORY_RULE}
A change that is the same in several picks is shown once, naming them.
--quiet prints only what breaks the policy (nothing when it holds) and no
progress line; --json, --junit and --markdown shapes: docs/json-reports.md.
Exit status: 0 the policy holds (always, without a policy), 1 it does not
(or, with a policy, a policy file changed since --base, not accepted), 2
usage or input error (unknown revision, not a git repository, no template).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    base = p.add_mutually_exclusive_group(required=True)
    base.add_argument("--base", metavar="REV", help="git revision to compare with")
    base.add_argument("--baseline", metavar="DIR", help="baseline template directory")
    p.add_argument(
        "--template", metavar="ID", help="template id, e.g. python/llm (default: every template)"
    )
    add_directories(p, "where <language>/<name>.rules.yaml lives")
    p.add_argument(
        "--repo",
        default=None,
        metavar="DIR",
        help="git repository (default: the repository wendy-llm found, see below)",
    )
    p.add_argument(
        "--files",
        action="append",
        metavar="GLOB",
        help="compare only output files matching GLOB (repeatable; ** spans directories)",
    )
    p.add_argument(
        "--expect-unchanged",
        action="store_true",
        help="fail when a compared pick changed (on both sides, or new and compared with "
        "the base rendered with its answers)",
    )
    p.add_argument(
        "--allow-changed",
        action="append",
        default=[],
        metavar="SLUG",
        help="with --expect-unchanged: this pick may change (repeatable)",
    )
    p.add_argument(
        "--forbid-removed", action="store_true", help="fail when a base pick no longer exists"
    )
    add_json(p, "print a JSON document (version 1)")
    add_quiet(p, "print only what breaks the policy (nothing when it holds)")
    add_report_files(p, "also write a JUnit XML report (one case a pick)")
    add_max_diff_lines(p, "each file's diff")
    add_format(p, "one per file of a pick that breaks the policy, at its first change")
    add_policy_base(p, base=False)


@dataclass(frozen=True)
class _Pair:
    """One template on both sides."""

    template_id: str
    base: Template
    head: Template
    base_side: Side
    head_side: Side


@dataclass
class _Plan:
    pairs: list[_Pair] = field(default_factory=list)
    new: list[str] = field(default_factory=list)  # in the work tree only
    removed: list[str] = field(default_factory=list)  # at the base only


def _head(where: Layout, template_id: str) -> tuple[Template, Side]:
    head_dir = where.templates_root / template_id
    if not (head_dir / MANIFEST_FILE).is_file():
        raise DiffError(f"no template {template_id} in the work tree ({head_dir}/{MANIFEST_FILE})")
    shown = display_path(head_dir)
    return load_template(head_dir, id=template_id), Side("working-tree", shown, shown)


def _revision_plan(args: argparse.Namespace, where: Layout) -> _Plan:
    repo = args.repo if args.repo is not None else where.root
    plan = _Plan()
    if args.template:
        ids = [str(args.template).strip("/")]
    else:
        # Absolute: a relative path is read from the repository, and ours are the cwd's.
        names, _ = paths_at_revision(repo, args.base, where.templates_root.absolute())
        at_base = where.template_ids_in(names)
        here = [t.id for t in where.select()]
        ids = [i for i in at_base if i in here]
        plan.new = [i for i in here if i not in at_base]
        plan.removed = [i for i in at_base if i not in here]
    if args.json and len(ids) != 1:
        raise DiffError(
            f"--json describes one template; {len(ids)} would be compared "
            f"({', '.join(ids) or 'none'}): add --template ID"
        )
    for template_id in ids:
        head, head_side = _head(where, template_id)
        head_dir = (where.templates_root / template_id).absolute()
        base, rev = template_at_revision(repo, args.base, head_dir, template_id=template_id)
        base_side = Side("revision", args.base, head_side.path, rev.commit)
        plan.pairs.append(_Pair(template_id, base, head, base_side, head_side))
    return plan


def _baseline_plan(args: argparse.Namespace, where: Layout) -> _Plan:
    if args.template:
        template_id = str(args.template).strip("/")
    else:
        found = [t.id for t in where.find_templates()]
        if len(found) != 1:
            listing = ", ".join(found) if found else "none found"
            raise DiffError(
                f"--template is required: which template of "
                f"{display_path(where.templates_root)}? ({listing})"
            )
        template_id = found[0]
    head, head_side = _head(where, template_id)
    baseline = Path(args.baseline)
    named = Path(os.path.normpath(Path(os.path.realpath(Path.cwd())) / baseline))
    if named.is_relative_to(where.root):  # named inside the repository: it stays there
        confined(baseline, where.root)
    if not (baseline / MANIFEST_FILE).is_file():
        raise DiffError(f"--baseline {baseline}: not a template directory (no {MANIFEST_FILE})")
    shown = display_path(baseline)
    base_side = Side("baseline", shown, shown)
    return _Plan([_Pair(template_id, load_template(baseline), head, base_side, head_side)])


def run(args: argparse.Namespace) -> int:
    if args.allow_changed and not args.expect_unchanged:
        raise DiffError("--allow-changed exempts picks from --expect-unchanged; add that too")
    refuse_accept_without_base(args)
    where = layout(args)
    policy = None if args.base is None else base_policy(where, args.base)
    if policy is not None and not args.accept_policy_change:
        where = policy.layout  # gate.files, sentinels and sample values as the base has them
    plan = _revision_plan(args, where) if args.base is not None else _baseline_plan(args, where)
    changes = _policy_changes(args, policy, [pair.template_id for pair in plan.pairs])
    rule = Policy(
        expect_unchanged=args.expect_unchanged,
        allow_changed=frozenset(args.allow_changed),
        forbid_removed=args.forbid_removed,
    )
    results: list[tuple[TemplateDiff, PolicyResult]] = []
    failed: list[TemplateFailure] = []
    for pair in plan.pairs:
        missing = missing_values(pair.head, where.sample_values(pair.template_id))
        if missing:  # no pick renders: say how to fix it, and compare the others
            hint = where.settings.missing_value_hint(pair.template_id, missing[0])
            failed.append(TemplateFailure(pair.template_id, f"template {pair.template_id}: {hint}"))
            continue
        diff = _diff(args, where, pair)
        results.append((diff, evaluate_policy(diff, rule)))
    lost = plan.removed if rule.forbid_removed else []
    notes = _notes(plan, args.base, lost)
    if args.junit:
        write_report(args.junit, diff_junit(results, removed=lost), "JUnit report")
    if args.markdown:
        notes_md = [*_md_notes(notes), *_md_policy(changes)]
        write_report(args.markdown, diff_summary(results, notes_md), "Markdown summary")
    if args.json or args.format != "github":
        _print(args, results, notes, lost)
    _print_policy(args, changes)
    if not args.json and (args.format == "github" or on_github()):
        _annotate(args, where, results)
    if failed:
        return name_failures([failure.message for failure in failed])
    holds = all(r.holds for _, r in results) and not lost
    # A policy change fails what diff judges; report only (no policy), it is shown.
    judges = rule.expect_unchanged or rule.forbid_removed
    steered = judges and any(f.severity == "error" for f in changes)
    return 0 if holds and not steered else 1


def _diff(args: argparse.Namespace, where: Layout, pair: _Pair) -> TemplateDiff:
    # Read once (at the base, with --base): its gate is the scope, its sentinels are exempt.
    model = rules_in(where, pair.template_id)
    task = f"rendering every pick of {pair.template_id} on both sides, with every input"
    with Progress("diff", task, enabled=not args.quiet):
        return diff_template(
            pair.template_id,
            pair.base,
            pair.head,
            base_side=pair.base_side,
            head_side=pair.head_side,
            scope=scope_from_args(args.files, gate_of(model)),
            sentinels=declared_sentinels(model),
            inputs=gate_inputs(pair.head, where.sample_values(pair.template_id)),
            max_diff_lines=args.max_diff_lines or None,
        )


def _policy_changes(
    args: argparse.Namespace, policy: BasePolicy | None, template_ids: Sequence[str]
) -> list[Finding]:
    """The policy files diff reads (the settings, the compared templates' rules)
    that the work tree changes: POL001, or POL002 when accepted."""
    if policy is None:
        return []
    read = [
        f
        for f in policy.files
        if f.kind == "settings" or (f.kind == "rules" and f.template in template_ids)
    ]
    return policy_findings(
        read,
        policy.pinned,
        accepted=args.accept_policy_change,
        max_diff_lines=args.max_diff_lines or None,
    )


def _print_policy(args: argparse.Namespace, changes: Sequence[Finding]) -> None:
    """Each policy change: on stdout after the report, on stderr beside --json."""
    for finding in changes:
        if args.quiet and finding.severity != "error":
            continue
        text = f"{finding.location}: {finding.code} {finding.message}"
        if args.json:
            output.say(f"wendy-llm: {text}")
        else:
            output.emit(text)


def _md_policy(changes: Sequence[Finding]) -> list[str]:
    return [
        f"### wendy-llm diff: {markdown_cell(f.code)} {markdown_cell(f.location)}\n\n"
        f"```diff\n{f.message}\n```\n"
        for f in changes
    ]


def _notes(plan: _Plan, base: str | None, lost: Sequence[str]) -> list[tuple[str, str]]:
    """(template id, what happened) for templates on one side only."""
    notes = [(i, f"new since {base}: every pick is new, nothing to compare") for i in plan.new]
    for template_id in plan.removed:
        fails = "  [FAILS --forbid-removed]" if template_id in lost else ""
        notes.append((template_id, f"exists at {base} but not in the work tree{fails}"))
    return notes


def _md_notes(notes: Sequence[tuple[str, str]]) -> list[str]:
    return [
        f"### wendy-llm diff {markdown_cell(template_id)}: {markdown_cell(what)}\n"
        for template_id, what in notes
    ]


def _print(
    args: argparse.Namespace,
    results: Sequence[tuple[TemplateDiff, PolicyResult]],
    notes: Sequence[tuple[str, str]],
    lost: Sequence[str],
) -> None:
    if args.json:
        for diff, result in results[:1]:  # none when its one template failed
            output.emit(dumps(diff_json(diff, result)))
        for template_id, what in notes:  # the document describes one template
            output.say(f"wendy-llm: note: template {template_id}: {what}")
        return
    report = diff_failures_text if args.quiet else diff_text
    colour = output.stdout_colour()
    texts = [report(d, r, colour=colour) for d, r in results]
    shown = [(i, what) for i, what in notes if not args.quiet or i in lost]
    lines = [f"template {safe(template_id)}: {safe(what)}\n" for template_id, what in shown]
    output.emit("\n".join(t for t in [*texts, "".join(lines)] if t), colour=colour)


def _annotate(
    args: argparse.Namespace, where: Layout, results: Sequence[tuple[TemplateDiff, PolicyResult]]
) -> None:
    """The picks that fail the policy as annotations, at the template line of each change."""
    # lazy: only a run under GitHub Actions (or --format github) maps findings to
    # their template sources (the source map and the registry of codes).
    from wendy_llm.reports.github.annotations import workflow_annotations
    from wendy_llm.reports.github.diff_findings import diff_report
    from wendy_llm.reports.github.located import located_findings
    from wendy_llm.reports.github.sources import SourceLocator

    locator = SourceLocator(where)
    elsewhere = ["the text report (--format text)" if args.format == "github" else "the job log"]
    elsewhere += ["the step summary"] if args.markdown else []
    elsewhere += ["the JUnit report"] if args.junit else []
    for diff, result in results:
        report = diff_report(diff, result)
        for each in workflow_annotations(located_findings(report, locator), elsewhere=elsewhere):
            force = args.format == "github"
            output.emit_command(each.command, each.message, each.properties, force=force)
