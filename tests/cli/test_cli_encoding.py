"""Names that are not UTF-8: ``--json`` stays valid JSON and text output never crashes.

Issue 11 item 9. On Linux a file name, an argument or an environment value
is bytes; Python carries the bytes that are not UTF-8 as lone surrogates
(``\\udcff`` for the byte 0xff). The JSON reports are ASCII, so such a
character is the escape ``\\udcff``: valid JSON whatever stdout's encoding,
and ``json.loads`` gives the same surrogate back (``os.fsencode`` gives the
bytes). Text output prints it as ``\\udcff`` too instead of failing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _cli_helpers import cli_env, validate_report
from _template_helpers import write_files

from wendy_llm.cli import main
from wendy_llm.golden import check_golden, update_golden

WENDY_LLM = Path(sys.executable).parent / "wendy-llm"
BAD = "x\udcff.txt"  # the file name b"x\xff.txt"


@pytest.fixture
def template(tmp_path: Path) -> Path:
    root = write_files(
        tmp_path / "templates" / "python" / "t",
        {
            "template.json": '{"variables": [{"name": "GREETING", "default": "h\\u00e9llo"}]}',
            "README.md": "{{.GREETING}} {{.APP_ID}}\n",
        },
    )
    (root / BAD).write_bytes(b"{{.APP_ID}}")
    return root


def run(*args: str | Path, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([WENDY_LLM, *args], env=env, capture_output=True)


# Strict UTF-8 (the default in a UTF-8 locale) and the C locale's surrogateescape.
ENVIRONMENTS = {
    "utf-8-strict": {"PYTHONIOENCODING": "utf-8"},
    "c-locale": {"LC_ALL": "C"},
    "ascii": {"PYTHONIOENCODING": "ascii"},
}


@pytest.mark.parametrize("environment", ENVIRONMENTS)
def test_render_json_with_names_that_are_not_utf8(
    template: Path, tmp_path: Path, environment: str
) -> None:
    out = tmp_path / "o\udcff"
    proc = run(
        "render", template, "--app-id", "a\udcfe", "--no-strict", "--var", "NOTE=\udcfd",
        "--out", out, "--json", env=cli_env(ENVIRONMENTS[environment]),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    text = proc.stdout.decode("ascii")  # strict: the report is ASCII
    report = validate_report(text, "render")
    assert report["app_id"] == "a\udcfe"
    assert report["out"] == str(out)
    assert report["answers"] == {"NOTE": "\udcfd"}
    assert {f["path"] for f in report["files"]} == {"README.md", BAD}
    assert (out / BAD).read_bytes() == b"a\xfe"
    assert (out / "README.md").read_bytes() == b"h\xc3\xa9llo a\xfe\n"


@pytest.mark.parametrize("environment", ENVIRONMENTS)
def test_render_text_output_never_fails_on_a_name(
    template: Path, tmp_path: Path, environment: str
) -> None:
    out = tmp_path / "o\udcff"
    proc = run(
        "render", template, "--app-id", "a", "--out", out, env=cli_env(ENVIRONMENTS[environment])
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    assert proc.stdout.startswith(b"wrote 2 files to ")
    assert b"Traceback" not in proc.stderr


def test_picks_json_is_ascii_and_round_trips(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "t",
        {
            "template.json": '{"variables": []}',
            "template.schema.json": json.dumps(
                {"phases": [{"questions": [{"id": "M", "type": "radio",
                 "options": [{"value": "caf\u00e9"}, {"value": "\U0001f600:1"}]}]}]}
            ),
        },
    )  # fmt: skip
    proc = run("picks", root, "--json", env=cli_env({"PYTHONIOENCODING": "ascii"}))
    assert proc.returncode == 0, proc.stderr
    report = validate_report(proc.stdout.decode("ascii"), "picks")
    assert [p["answers"]["M"] for p in report["picks"]] == ["caf\u00e9", "\U0001f600:1"]


def test_main_builds_the_json_report_before_writing(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through main(): same document, and the tree written once the report is ready."""
    out = tmp_path / "o"
    assert main(["render", str(template), "--app-id", "a", "--out", str(out), "--json"]) == 0
    text = capsys.readouterr().out
    assert text.isascii()
    assert "\\udcff" in text
    report = json.loads(text)
    assert BAD in {f["path"] for f in report["files"]}
    assert os.path.isfile(os.path.join(os.fsencode(out), b"x\xff.txt"))


def test_golden_fixtures_of_a_name_that_is_not_utf8(template: Path, tmp_path: Path) -> None:
    golden = tmp_path / "golden"
    update_golden(tmp_path / "templates", golden)
    manifest = (golden / "python" / "t" / "golden.json").read_bytes()
    assert b'"x\\udcff.txt"' in manifest  # UTF-8 file, the odd byte as a JSON escape
    assert check_golden(tmp_path / "templates", golden).ok
