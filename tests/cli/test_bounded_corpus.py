"""Every run is bounded, and no crash hides the report (issue 38, items 4-5).

Each probe of ``tests/_bounds_probes.py`` is one small hostile file that once
stalled a run or crashed it with a traceback: a compose value of too many
YAML nodes, a picker of too many answer pairs, a rules regex that backtracks
exponentially, an entry script that makes ShellCheck take gigabytes, a
rendered line of megabytes, a Dockerfile of 600 chained stages, a settings
file nested 5,000 deep, a template folder whose name is not UTF-8.

Each is walked through every command (``check``, ``plan``, ``picks``,
``render``, ``golden --check``, ``diff --base``) and every output format
(text, ``--json``, ``--markdown``, ``--junit``, ``--sarif``, ``--format
github``), each command a process of its own under a 2 GiB address-space
limit (``RLIMIT_AS``: a run that needs more fails, whatever the machine's
load).  Asserted: an exit status of 0, 1 or 2 (``check`` 1 or 2: the probe
is a defect or an input error), no traceback, every report file requested
written (on exit 2 too, saying why the run stopped) and readable
(Markdown under the summary's limit, JUnit as XML, SARIF and ``--json`` as
JSON), and no line of any output wider than a cut text can make.  The
wall-clock bound is generous (a 2-core CI runner shared with the rest of
the suite) and only stops a run that never ends.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _bounds_probes import PROBES
from _check_helpers import write_template

from wendy_llm import options

#: Bytes of address space each command may map (the issue's bound).
MEMORY_LIMIT = 2 << 30
#: Seconds a command may take before it is called stuck: far above what any
#: probe takes (10-40 s on a loaded 2-core machine), far below "never ends".
STUCK_AFTER_S = 300
#: The widest line a report may hold: a cut text, its marker, and the escapes
#: (each character at most ten: ``\\U0001f600``), with a line's own framing.
WIDEST_LINE = options.REPORT_MAX_TEXT_CHARS * 10 + 4096


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def wendy_llm(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``python -m wendy_llm ARGV`` in ``cwd``, bounded in memory."""
    env = {**os.environ, "GITHUB_ACTIONS": "false", "WENDY_LLM_PROGRESS_DELAY": "1000"}
    return subprocess.run(
        [sys.executable, "-m", "wendy_llm", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=STUCK_AFTER_S,
        preexec_fn=_limit_memory,
        check=False,
    )


def git(cwd: Path, *argv: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *argv],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def assert_bounded(run: subprocess.CompletedProcess[bytes], what: str, exits: set[int]) -> None:
    said = run.stderr.decode("utf-8", "replace")
    assert run.returncode in exits, f"{what}: exit {run.returncode}\n{said[-2000:]}"
    assert "Traceback" not in said, f"{what}:\n{said[-4000:]}"
    # A JSON document carries the data whole (docs/json-reports.md); text is cut.
    shown = [("stderr", run.stderr)] + ([] if "--json" in what else [("stdout", run.stdout)])
    for name, output in shown:
        widest = max((len(line) for line in output.split(b"\n")), default=0)
        assert widest <= WIDEST_LINE, f"{what}: a {widest}-byte line on {name}"


def assert_report_files(reports: Path, names: list[str], what: str) -> None:
    for name in names:
        path = reports / name
        assert path.is_file(), f"{what}: {name} not written"
        data = path.read_bytes()
        widest = max(len(line) for line in data.split(b"\n"))
        assert widest <= WIDEST_LINE, f"{what}: {name} has a {widest}-byte line"
        if name.endswith(".md"):
            assert len(data) <= options.MARKDOWN_MAX_BYTES
            data.decode("utf-8")
        elif name.endswith(".xml"):
            ET.fromstring(data)
        else:
            json.loads(data)


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_every_command_ends_with_findings_or_an_error_and_writes_its_reports(
    tmp_path: Path, probe: str
) -> None:
    base = tmp_path / "repo"
    write_template(base)  # the clean template committed, then the probe over it
    git(base, "init", "-q")
    git(base, "add", "-A")
    git(base, "commit", "-qm", "before")
    templates, _ = PROBES[probe](base)
    (template,) = (templates / "py").iterdir()
    reports = tmp_path / "reports"
    reports.mkdir()
    r = str(reports)
    check_files = ["c.md", "c.xml", "c.sarif"]
    # Text and the report files, with every tool run; then --json and the
    # annotations reuse the kept tool results (the per-user cache).
    files = ["--markdown", f"{r}/c.md", "--junit", f"{r}/c.xml", "--sarif", f"{r}/c.sarif"]
    check = wendy_llm(["check", "--no-cache", *files], base)
    assert_bounded(check, f"{probe}: check", {1, 2})
    assert_report_files(reports, check_files, f"{probe}: check")  # exit 2 too
    as_json = wendy_llm(["check", "--json"], base)
    assert_bounded(as_json, f"{probe}: check --json", {1, 2})
    if as_json.returncode == 1:
        json.loads(as_json.stdout)
    annotated = wendy_llm(["check", "--format", "github"], base)
    assert_bounded(annotated, f"{probe}: check --format github", {1, 2})
    rel = str(template.relative_to(base))
    for argv in (
        ["picks", rel],
        ["picks", rel, "--json"],
        ["plan", rel],
        ["plan", rel, "--json"],
        ["render", rel, "--app-id", "probe-app", "--out", f"{r}/out", "--force"],
        ["golden", "--check"],
        ["golden", "--check", "--json"],
    ):
        run = wendy_llm(argv, base)
        assert_bounded(run, f"{probe}: {' '.join(argv)}", {0, 1, 2})
        if "--json" in argv and run.returncode != 2:
            json.loads(run.stdout)
    diff = wendy_llm(
        [
            "diff",
            "--base",
            "HEAD",
            "--markdown",
            f"{r}/d.md",
            "--junit",
            f"{r}/d.xml",
            "--format",
            "github",
        ],
        base,
    )
    assert_bounded(diff, f"{probe}: diff --base", {0, 1, 2})
    assert_report_files(reports, ["d.md", "d.xml"], f"{probe}: diff")
