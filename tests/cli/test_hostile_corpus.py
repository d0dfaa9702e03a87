"""A pull request's template cannot speak through the gate's output (issue 29, item 7).

Hostile text (control characters, ``::`` workflow commands, Markdown and
XML metacharacters, bidi overrides) is written into a compose key and
value, a wendy.json value, a file name and a template's own text; a
compose file may also point at a canary file outside the repository.
Then ``check`` (text, ``--json``, ``--markdown``, ``--junit``), ``plan``
and ``diff`` (text, ``--markdown``, ``--junit``) run, with and without
``GITHUB_ACTIONS=true``, and every output is read: no line is a workflow
command but the run's own stop-commands pair, no raw control byte reaches
text, each Markdown table keeps one row per finding, the JUnit files
parse, the JSON carries the text as data, no canary appears, and no
message names the host's path of the repository.  The ``@example`` cases
are the corpus: one per class of the issue.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _check_helpers import TEMPLATE_WENDY, template_files, write_template
from _hypothesis_profiles import property_settings
from hypothesis import HealthCheck, example, given
from hypothesis import strategies as st

from wendy_llm.cli import main
from wendy_llm.reports import workflow

CANARY = "canary-5b1d9e-host-file"
#: Where the tools run (validate/tools/programs.py): never named in a message.
TOOL_DIRS = os.path.join(tempfile.gettempdir(), "wendy-llm-")
PIECES = [
    "\n::error file=docker-compose.yml,line=1::PWNED",
    "\r\n::stop-commands::x",
    "\x1b[2K\rok",
    "\u202egnp.exe",
    "\u2066x\u2069",
    "| a | b |",
    "`code`",
    "<script>&amp;</script>",
    "]]><!--",
    "\x00\x07\x7f\x85\x9b",
    "\u2028",
    "%0A::warning::x",
    "##[error]legacy ##[stop-commands]t",
]
hostile = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=8)), max_size=4).map("".join)


def is_raw_control(char: str) -> bool:
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F or char in "\u2028\u2029\u202e\u2066\u2069"


def yaml_string(text: str) -> str:
    """A YAML double-quoted scalar (JSON's escapes are YAML's); ``{{`` cannot start an action."""
    return json.dumps(text.replace("{{", "{ {"))


def write_canaries(host: Path) -> dict[str, Path]:
    """Files of the host, outside the repository, that no output may ever quote."""
    host.mkdir()
    env = host / "canary.env"
    env.write_text(f"SECRET={CANARY}\n{CANARY}: [{CANARY}\n")
    included = host / "canary.yml"  # what Compose would quote ("invalid containerPort: ...")
    included.write_text(f"services:\n  c:\n    image: {CANARY}\n    ports: ['{CANARY}']\n")
    return {"env_file": env, "include": included}


def write_hostile(tmp: Path, text: str, place: str, outside: str | None) -> tuple[Path, Path, Path]:
    """``py/mini`` with ``text`` everywhere a pull request can put it (a compose
    key and value, or a port, which Compose quotes back in its own message of
    several lines; a wendy.json value; a file name; a template's text), and,
    with ``outside``, a compose key reading a canary file of the host; a
    clean copy as the baseline."""
    compose = template_files()["docker-compose.yml"]
    if place == "ports":
        port = '      - "11434:11434"\n'
        compose = compose.replace(port, f"{port}      - {yaml_string(text)}\n")
    else:
        model = '      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"\n'
        compose = compose.replace(model, f"{model}      {yaml_string(text)}: {yaml_string(text)}\n")
    canaries = write_canaries(tmp / "host")
    if outside == "env_file":
        build = "    build: ./ollama\n"
        compose = compose.replace(build, f"{build}    env_file: {canaries['env_file']}\n")
    elif outside == "include":
        compose = compose.replace(
            "services:\n", f"include:\n  - {canaries['include']}\nservices:\n"
        )
    wendy = TEMPLATE_WENDY.replace('"version": "0.1.0"', f'"version": {yaml_string(text)}')
    name = re.sub(r"[/\x00]", "_", text)[:60]
    files = {"docker-compose.yml": compose, "wendy.json": wendy, "hostile.txt": text}
    files[f"notes-{name}.txt"] = "x\n"
    templates, golden = write_template(tmp / "repo")
    for rel, content in files.items():  # a lone surrogate is a byte that is not UTF-8
        (templates / "py" / "mini" / rel).write_bytes(content.encode("utf-8", "surrogateescape"))
    baseline, _ = write_template(tmp / "repo" / "base")
    return templates, golden, baseline / "py" / "mini"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(argv)
    captured = capsys.readouterr()
    return captured.out + captured.err


def assert_text_is_inert(output: str, what: str) -> None:
    markers = workflow.markers() if workflow.stop_token.cache_info().currsize else ()
    for line in output.split("\n"):
        assert not any(is_raw_control(c) for c in line), f"{what}: raw control in {line!r}"
        assert "##[" not in line, f"{what}: a legacy workflow command: {line!r}"
        if line.lstrip().startswith("::"):
            # The run's own stop-commands pair, or the gate's own annotation (one
            # per distinct finding under GitHub Actions): its properties escaped,
            # so the text of a template is its message's data, never a command.
            own = line in markers or GATE_ANNOTATION.fullmatch(line) is not None
            assert own, f"{what}: a workflow command: {line!r}"


#: ``::error file=...,line=...,title=...::message``: property values hold no raw
#: ``:`` ``,`` or ``%`` but the runner's escapes.
_PROPERTY = r"[a-z]+=(?:[^,:%\s]|%(?:25|0D|0A|3A|2C))*"
GATE_ANNOTATION = re.compile(rf"::(?:error|warning|notice) {_PROPERTY}(?:,{_PROPERTY})*::.*")


def assert_tables_keep_rows(markdown: str, rows: int | None) -> None:
    tables: list[list[str]] = []
    previous = False
    for line in markdown.split("\n"):
        if line.startswith("|"):
            if not previous:
                tables.append([])
            tables[-1].append(line)
        previous = line.startswith("|")
    for table in tables:
        cells = [len(re.split(r"(?<!\\)\|", row)) for row in table]
        assert len(set(cells)) == 1, table  # every row as wide as its header
    if rows is not None:
        problem_tables = [t for t in tables if "| problem |" in t[0]]
        shown = sum(len(t) - 2 for t in problem_tables)
        assert shown == min(rows, 50)


# capsys is read (and so emptied) by every run; monkeypatch sets every
# example's variables and directory anew: sharing them is safe.
@property_settings(
    max_examples=4,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    text=hostile,
    place=st.sampled_from(["environment", "ports"]),
    outside=st.sampled_from([None, "env_file", "include"]),
    github=st.booleans(),
)
# The corpus, a case per class of the issue: a workflow command on a line of
# its own (and stop-commands), a line painted over on a terminal, bytes XML
# cannot carry, a tool's message of two lines, Markdown and HTML, bidi
# overrides, the runner's legacy command form; host files read through
# env_file and include.
@example(
    text="\n::error file=a.yml,line=1::PWNED\n::stop-commands::x",
    place="environment",
    outside=None,
    github=True,
)
@example(text="\x1b[2K\rall checks ok", place="environment", outside=None, github=False)
@example(text="\x00\x08\x1f\udcff\uffff", place="environment", outside=None, github=False)
@example(text="1:2\n::error::fake", place="ports", outside=None, github=True)
@example(text="| a | `b` <i>c</i>\n", place="ports", outside="env_file", github=False)
@example(text="\u202eevil\u2066", place="environment", outside="include", github=True)
@example(text="ok ##[error file=a.yml]legacy", place="ports", outside=None, github=True)
def test_no_template_text_acts_through_any_output(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    place: str,
    outside: str | None,
    github: bool,
) -> None:
    tmp = tmp_path_factory.mktemp("hostile")
    templates, golden, baseline = write_hostile(tmp, text, place, outside)
    monkeypatch.setenv("GITHUB_ACTIONS", "true" if github else "false")
    monkeypatch.chdir(tmp / "repo")
    reports = tmp / "reports"
    common = [str(templates), "--golden-dir", str(golden)]
    outputs = {
        "check": run(
            [
                "check",
                *common,
                "--no-cache",
                "--junit",
                str(reports / "c.xml"),
                "--markdown",
                str(reports / "c.md"),
            ],
            capsys,
        ),
        "check --json": run(["check", *common, "--no-cache", "--json"], capsys),
        "plan": run(["plan", str(templates / "py" / "mini"), "--pick", "gemma4-e2b"], capsys),
        "diff": run(
            [
                "diff",
                *common,
                "--baseline",
                str(baseline),
                "--template",
                "py/mini",
                "--expect-unchanged",
                "--junit",
                str(reports / "d.xml"),
                "--markdown",
                str(reports / "d.md"),
            ],
            capsys,
        ),
    }
    files = {name: (reports / name).read_text(encoding="utf-8") for name in os.listdir(reports)}
    for what, output in outputs.items():
        assert_text_is_inert(output, what)
    for what, output in [*outputs.items(), *files.items()]:
        assert CANARY not in output, what
        # The canary's path is quoted as the template wrote it; the repository's never.
        assert str(tmp / "repo") not in output, f"{what} names the host's path:\n{output}"
        assert TOOL_DIRS not in output, f"{what} names a tool's temporary directory"
    document = json.loads(outputs["check --json"].split("\nwendy-llm:")[0])
    errors = [
        f
        for result in document["results"]
        for f in result["findings"]
        if f["severity"] == "error" and not f.get("suppressed")
    ]
    # The summary has one row per distinct failure (a finding of several picks once).
    distinct = {
        (r["template"], r["check"], f.get("file"), f.get("line"), f["message"], r["pick"] is None)
        for r in document["results"]
        for f in r["findings"]
        if f["severity"] == "error" and not f.get("suppressed")
    }
    assert_tables_keep_rows(files["c.md"], len(distinct))
    assert_tables_keep_rows(files["d.md"], None)
    for name in ("c.xml", "d.xml"):
        ET.fromstring(files[name].encode())
    if outside and "YAML" not in outputs["check"]:  # refused before Compose runs
        assert "is outside the rendered app (it is an absolute path)" in outputs["check"]
    if place == "ports" and not outside and "YAML" not in outputs["check"]:
        # Compose quotes the port back; its message stays one finding.
        quoting = [f for f in errors if f["message"].startswith("docker-compose")]
        assert len(quoting) <= 2  # one per compose render (the canonical and the variant)
    if github and "::stop-commands::" in outputs["diff"]:
        start, end = workflow.markers()
        assert outputs["diff"].count(start) == outputs["diff"].count(end)
