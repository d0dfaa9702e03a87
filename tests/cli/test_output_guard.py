"""No module writes to the terminal but through the output-safety layer (issue 29).

Every ``print(...)`` and every use of ``sys.stdout``/``sys.stderr`` (or
their ``sys.__stdout__`` twins, or ``from sys import stdout``) in the
package is read with ``ast``, as tests/test_layers.py reads imports.  Only
the modules of :data:`ALLOWED` may have one, each for a reason said there;
everything else prints through :mod:`wendy_llm.cli.output`, whose
:func:`~wendy_llm.cli.output.guard` escapes each line once more.
"""

from __future__ import annotations

import ast
import io
import json
from pathlib import Path

import pytest
from _imports import PACKAGE_DIR, offenders

from wendy_llm.cli import output
from wendy_llm.cli.style import Progress
from wendy_llm.reports import workflow
from wendy_llm.reports.json import dumps

#: Module (path under wendy_llm/) -> why it may write to the terminal itself.
ALLOWED: dict[str, str] = {
    "cli/output.py": "the writer: every report and message goes through it, guarded",
    "cli/style.py": "the progress line on stderr: the gate's words, its label escaped",
    "cli/history/progress.py": "replay's progress bar on stderr: a commit's subject escaped",
    "cli/interrupts.py": "a constant 'wendy-llm: interrupted' on stderr",
    "cli/parser.py": "argparse's usage text (the gate's own words)",
    "__main__.py": "a constant 'wendy-llm: interrupted' on stderr",
    "engine/toolchain.py": "a developer's entry point (go vet / go test of the helper)",
}

_STREAMS = {"stdout", "stderr", "__stdout__", "__stderr__"}


def writes_of(source: str, where: str) -> list[str]:
    """Each direct terminal write in ``source``: ``where:line: what``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        what = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            what = "print()" if node.func.id == "print" else None
        elif isinstance(node, ast.Attribute) and node.attr in _STREAMS:
            if isinstance(node.value, ast.Name) and node.value.id == "sys":
                what = f"sys.{node.attr}"
        elif isinstance(node, ast.ImportFrom) and node.module == "sys":
            names = [a.name for a in node.names if a.name in _STREAMS]
            what = f"from sys import {', '.join(names)}" if names else None
        if what is not None:
            found.append(f"{where}:{getattr(node, 'lineno', 0)}: {what}")
    return found


def unguarded_writes(package: Path, allowed: dict[str, str]) -> list[str]:
    return offenders(package, allowed, writes_of)


def test_no_module_writes_to_the_terminal_but_through_the_output_layer() -> None:
    unguarded = unguarded_writes(PACKAGE_DIR, ALLOWED)
    assert not unguarded, "write through wendy_llm.cli.output (emit, say) instead:\n" + "\n".join(
        unguarded
    )
    assert all((PACKAGE_DIR / where).is_file() for where in ALLOWED)


def test_the_guard_names_an_offender(tmp_path: Path) -> None:
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "output.py").write_text("import sys\nsys.stdout.write('x')\n")
    (tmp_path / "cli" / "leaky.py").write_text(
        "import sys\nfrom sys import stderr\n\ndef f(m):\n    print(m)\n    out = sys.stdout\n"
    )
    assert unguarded_writes(tmp_path, {"cli/output.py": "the writer"}) == [
        "wendy_llm/cli/leaky.py:2: from sys import stderr",
        "wendy_llm/cli/leaky.py:5: print()",
        "wendy_llm/cli/leaky.py:6: sys.stdout",
    ]


def test_guard_escapes_controls_and_commands_but_keeps_its_own() -> None:
    start, end = workflow.markers()
    text = f"ok\n::error::x\n  ::warning::y\na\x1b[2K\rb\n{start}\n{end}\n\x1b[31mred\x1b[0m"
    text += "\nx ##[error]y"
    plain = output.guard(text)
    assert plain.split("\n") == [
        "ok",
        "\\x3a:error::x",
        "  \\x3a:warning::y",
        "a\\x1b[2K\\rb",
        start,
        end,
        "\\x1b[31mred\\x1b[0m",
        "x #\\x23[error]y",
    ]
    coloured = output.guard(text, colour=True)
    assert coloured.split("\n")[-2] == "\x1b[31mred\x1b[0m"  # the formatter's own colour
    assert "a\\x1b[2K\\rb" in coloured  # not an SGR code: escaped even then
    assert output.guard(plain) == plain  # idempotent


def test_the_gate_s_own_command_is_written_only_under_github(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert not output.emit_command("error", "x", environ={})
    assert output.emit_command(
        "error", "50%\nnext", {"file": "a,b:c.yml", "line": "3"}, {"GITHUB_ACTIONS": "true"}
    )
    captured = capsys.readouterr()
    assert captured.out == "::error file=a%2Cb%3Ac.yml,line=3::50%25%0Anext\n"


def test_the_guard_leaves_a_json_document_as_it_is() -> None:
    # --json goes through the same writer: the guard must not change a byte of it.
    document = {"k\n::error::x": "##[error]y \x1b[2K\r\u202e \x85 ::z", "n": [1, None]}
    printed = dumps(document)
    assert output.guard(printed) == printed
    assert json.loads(output.guard(printed)) == document


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_escapes_a_template_s_name() -> None:
    stream = _Terminal()
    label = "rendering py/\x1b[2K\rok\n::error::x"
    with Progress("diff", label, stream=stream, delay=0, clock=lambda: 0.0):
        pass
    drawn = stream.getvalue().strip("\r ")
    assert drawn.startswith("wendy-llm diff: rendering py/\\x1b[2K\\rok\\n::error::x ... 0.0 s")
    assert "\x1b" not in stream.getvalue() and "\n" not in stream.getvalue()
