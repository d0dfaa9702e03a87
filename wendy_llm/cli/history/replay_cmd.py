"""``wendy-llm replay A..B``: what the gate would have said of each commit of a range.

Thin: the walk, the verdicts and their reuse are :mod:`wendy_llm.history`;
this module reads the options, draws the progress bar and prints the report.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wendy_llm.cli import output
from wendy_llm.cli.args import add_json, add_quiet
from wendy_llm.cli.history.progress import ProgressBar
from wendy_llm.cli.parser import terminal_columns

HELP = "replay a repository's history: the findings each commit introduced and fixed"
DESCRIPTION = (
    "Check each commit of BASE..HEAD as the gate would have: per commit, the findings it "
    "introduced and the ones it fixed, judging only the templates it touched."
)
EPILOG = """\
examples:
  wendy-llm replay v1.0..main                      # every commit after v1.0 up to main
  wendy-llm replay HEAD~50..                       # the last 50 commits (HEAD~50..HEAD)
  wendy-llm replay origin/main~200..origin/main --json > replay.json
  wendy-llm replay HEAD~20.. --quiet               # only the commits that changed a verdict

The base commit is checked whole; each later commit judges again only the
templates whose files (or rules file, baseline, meta.json, settings) it
changed, and the repository row when meta.json or the template folders
changed; every other verdict is reused. Golden fixtures are not compared.
A finding is the same across commits when its template, pick, check,
severity, file and message are (not its line). A progress bar is drawn on
stderr when it is a terminal (not with --quiet or --json).
Exit status: 0 no commit introduced an error (with --strict: nor a warning),
1 some commit did (the gate would have failed it), 2 usage or input error
(not a git repository, an unknown revision, a range that is not BASE..HEAD).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("range", metavar="BASE..HEAD", help="the commits to replay (HEAD: default HEAD)")
    p.add_argument(
        "--repo", default=".", metavar="DIR", help="the repository (default: the current one)"
    )
    p.add_argument(
        "--templates-dir",
        default=None,
        metavar="DIR",
        help="the templates directory, the same at every commit (default: each commit's own)",
    )
    p.add_argument(
        "--golden-dir",
        default=None,
        metavar="DIR",
        help="rules files and baselines (default: golden/)",
    )
    p.add_argument(
        "--strict", action="store_true", help="exit 1 when a commit introduced a warning too"
    )
    add_json(p, "print JSON (version 1) instead of text")
    add_quiet(p, "print only the commits that changed a verdict; no progress bar")


def run(args: argparse.Namespace) -> int:
    # lazy: the walk imports every check.
    from wendy_llm.history.replay import replay
    from wendy_llm.history.report import replay_json, replay_text
    from wendy_llm.reports.json import dumps

    quiet = args.quiet or args.json
    bar = ProgressBar(columns=terminal_columns()) if not quiet else None
    try:
        report = replay(
            args.range,
            Path(args.repo),
            templates_dir=args.templates_dir,
            golden_dir=args.golden_dir,
            progress=bar.update if bar is not None else None,
        )
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        output.emit(dumps(replay_json(report)))  # ASCII JSON: the text is data
    else:
        output.emit(replay_text(report, quiet=args.quiet))
    failing = {"error", "warning"} if args.strict else {"error"}
    caught = any(f.severity in failing for c in report.commits for f in c.introduced)
    return 1 if caught else 0
