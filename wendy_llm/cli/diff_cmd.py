"""``wendy-llm diff``: which picks did a template change touch?"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from wendy_llm.cli.style import (
    Progress,
    add_directories,
    add_max_diff_lines,
    add_quiet,
    directories,
    write_report,
)
from wendy_llm.compare.diff import Policy, Side, diff_template, evaluate_policy
from wendy_llm.compare.scope import scope_from_args
from wendy_llm.errors import DiffError
from wendy_llm.repo.dirs import DIRECTORY_RULE, display_path
from wendy_llm.repo.gitsource import template_at_revision
from wendy_llm.reports.diff import diff_failures_text, diff_text
from wendy_llm.reports.json import diff_json, dumps
from wendy_llm.reports.junit import diff_junit
from wendy_llm.reports.markdown import diff_markdown
from wendy_llm.reports.terminal import use_colour
from wendy_llm.validate.baseline import sentinels_of
from wendy_llm.validate.rules import rules_path

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

Every pick is rendered on both sides with the canonical inputs (app id
llm-app, defaults, the pick's answers) and with the template's variant (app
id my.app-2, other numbers typed as --var types them: PORT=9080 for a PORT
of 8080), and classified: unchanged or changed (compared with the base pick
of the same slug, or, for a new pick, with the base rendered with the same
answers, as wendy init --var would), added (a new pick the base cannot
render: the reason is shown), exempt (a new pick answering a sentinel of
the rules file: its rules check it) or removed. Without --files, the scope
is gate.files of <golden-dir>/<language>/<name>.rules.yaml when present,
else every file.
{DIRECTORY_RULE}
A change that is the same in several picks is shown once, naming them.
--quiet prints only what breaks the policy (nothing when it holds) and no
progress line; --json, --junit and --markdown shapes: docs/json-reports.md.
Exit status: 0 the policy holds (always, without a policy), 1 it does not,
2 usage or input error (unknown revision, not a git repository, no template).
"""


def add_parser(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "diff",
        help="compare every pick of a template with a git revision or a baseline directory",
        description=(
            "Render every pick of a template at a git revision (read through git, the "
            "work tree untouched) or in a baseline directory, and in the work tree; "
            "classify each pick unchanged, changed, added, exempt or removed."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    base = p.add_mutually_exclusive_group(required=True)
    base.add_argument("--base", metavar="REV", help="git revision to compare with")
    base.add_argument("--baseline", metavar="DIR", help="baseline template directory")
    p.add_argument("--template", metavar="ID", help="template id, e.g. python/llm")
    add_directories(p, "where <language>/<name>.rules.yaml lives")
    p.add_argument("--repo", default=".", metavar="DIR", help="git repository (default: .)")
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
    p.add_argument("--json", action="store_true", help="print a JSON document (version 1)")
    add_quiet(p, "print only what breaks the policy (nothing when it holds)")
    p.add_argument(
        "--junit", metavar="FILE", help="also write a JUnit XML report (one case a pick)"
    )
    p.add_argument("--markdown", metavar="FILE", help="also write a Markdown summary")
    add_max_diff_lines(p, "each file's diff")
    p.set_defaults(run=run)


def _template_id(args: argparse.Namespace, templates_dir: Path) -> str:
    if args.template:
        return str(args.template).strip("/")
    found = sorted(
        manifest.parent.relative_to(templates_dir).as_posix()
        for manifest in templates_dir.glob("*/*/template.json")
    )
    if len(found) == 1:
        return found[0]
    listing = ", ".join(found) if found else "none found"
    raise DiffError(f"--template is required: which template of {templates_dir}? ({listing})")


def run(args: argparse.Namespace) -> int:
    from wendy_llm.render.template import load_template

    if args.allow_changed and not args.expect_unchanged:
        raise DiffError("--allow-changed exempts picks from --expect-unchanged; add that too")
    templates_dir, golden_dir = directories(args)
    template_id = _template_id(args, templates_dir)
    head_dir = templates_dir / template_id
    if not (head_dir / "template.json").is_file():
        raise DiffError(f"no template {template_id} in the work tree ({head_dir}/template.json)")
    head = load_template(head_dir, id=template_id)
    head_side = Side("working-tree", display_path(head_dir), display_path(head_dir))
    if args.base is not None:
        base, rev = template_at_revision(args.repo, args.base, head_dir, template_id=template_id)
        base_side = Side("revision", args.base, display_path(head_dir), rev.commit)
    else:
        baseline = Path(args.baseline)
        if not (baseline / "template.json").is_file():
            raise DiffError(f"--baseline {baseline}: not a template directory (no template.json)")
        base = load_template(baseline)
        base_side = Side("baseline", display_path(baseline), display_path(baseline))
    rules = rules_path(golden_dir, template_id)
    scope = scope_from_args(args.files, rules)
    sentinels = sentinels_of(rules)
    task = f"rendering every pick of {template_id} on both sides, with every input"
    with Progress("diff", task, enabled=not args.quiet):
        diff = diff_template(
            template_id,
            base,
            head,
            base_side=base_side,
            head_side=head_side,
            scope=scope,
            sentinels=sentinels,
            max_diff_lines=args.max_diff_lines or None,
        )
    policy = Policy(
        expect_unchanged=args.expect_unchanged,
        allow_changed=frozenset(args.allow_changed),
        forbid_removed=args.forbid_removed,
    )
    result = evaluate_policy(diff, policy)
    if args.junit:
        write_report(args.junit, diff_junit(diff, result), "JUnit report")
    if args.markdown:
        write_report(args.markdown, diff_markdown(diff, result), "Markdown summary")
    if args.json:
        sys.stdout.write(dumps(diff_json(diff, result)))
    else:
        report = diff_failures_text if args.quiet else diff_text
        sys.stdout.write(report(diff, result, colour=use_colour(sys.stdout)))
    return 0 if result.holds else 1
