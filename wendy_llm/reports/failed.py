"""The reports of a run that stopped on an error (exit 2): still written, saying so.

A run that cannot start its checks (a settings file it cannot read, a
template whose picks cannot be listed under ``diff``, any input error) used
to leave every ``--markdown``, ``--junit`` and ``--sarif`` file unwritten,
so a pull request's summary was empty and the error was only in the log.
Each report here is a valid document of its format holding the error, as
the log words it (escaped and cut as every report's text).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from wendy_llm import escape
from wendy_llm.reports.github.sarif import check_sarif


def failed_markdown(command: str, message: str) -> str:
    """A Markdown summary of ``wendy-llm COMMAND`` that stopped on ``message``."""
    return (
        f"## wendy-llm {command}: error\n\n"
        "The run stopped before its checks (exit 2):\n\n"
        f"> {escape.markdown_cell(message)}\n"
    )


def failed_junit(command: str, message: str) -> str:
    """A JUnit report of one case, in error with ``message``."""
    suites = ET.Element("testsuites", name=f"wendy-llm {command}", tests="1", errors="1")
    suite = ET.SubElement(suites, "testsuite", name=f"wendy-llm {command}", tests="1", errors="1")
    case = ET.SubElement(suite, "testcase", classname="wendy-llm", name=command)
    shown = escape.xml_text(message)
    error = ET.SubElement(case, "error", message=shown, type="error")
    error.text = shown
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def failed_sarif(message: str, *, version: str | None = None) -> dict[str, object]:
    """A SARIF log of no results whose invocation failed with ``message``."""
    document = check_sarif([], version=version)
    runs = document["runs"]
    assert isinstance(runs, list)
    runs[0]["invocations"] = [
        {
            "executionSuccessful": False,
            "toolExecutionNotifications": [
                {"level": "error", "message": {"text": escape.cut(message)}}
            ],
        }
    ]
    return document
