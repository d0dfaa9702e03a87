"""SARIF 2.1.0 of a check, for GitHub code scanning (``check --sarif FILE``).

One run (GitHub rejects several runs of one category), its tool
``wendy-llm`` with the package's version, its ``automationDetails.id``
:data:`AUTOMATION_ID`.  Rules come from the code registry
(:mod:`wendy_llm.validate.codes`), plus one ``wendy-llm/<check>`` rule per
check whose findings have no registered code yet.  One result per distinct
finding (:mod:`~wendy_llm.reports.github.located`), at its template source in the
repository (relative ``uri``, ``uriBaseId`` ``%SRCROOT%``, ``startLine``;
never a column), naming the picks it applies to; a failure recorded in the
suppressions file carries an ``external`` suppression; the gate's own
fingerprint (template, file, rule, subject: no line number) is under
:data:`FINGERPRINT_KEY` in ``partialFingerprints``, never in GitHub's
``primaryLocationLineHash``.

GitHub's limits (its docs, "SARIF results exceed limit"): at most
:data:`MAX_RESULTS` results per run; past that the rest are left out and a
tool notification of the run's invocation says how many; so does one for
the findings that name no file of the repository (GitHub refuses a result
without a location, and the whole upload with it: codeql-action issue 1738).  The shape is
tested against the official schema (tests/reports/test_sarif.py).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping, Sequence

from wendy_llm import escape, options
from wendy_llm.reports.github.located import FALLBACK_PREFIX, LocatedFinding
from wendy_llm.revision import package_version
from wendy_llm.validate.codes import CODES, CodeInfo

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_NAME = "wendy-llm"
#: The run's category for code scanning (the part before the last ``/``).
AUTOMATION_ID = "wendy-llm/check/"
#: The gate's fingerprint's own key (GitHub computes ``primaryLocationLineHash`` itself).
FINGERPRINT_KEY = "wendyLlmFinding/v1"
#: Results GitHub accepts per run.
MAX_RESULTS = 25_000
#: A result's message is cut here, as every report's text is (a baseline diff can
#: be long; GitHub takes 10 MB gzipped per upload), and the cut says so.
MAX_MESSAGE_CHARS = options.REPORT_MAX_TEXT_CHARS

_LEVELS = {"error": "error", "warning": "warning", "note": "note"}


def tool_version() -> str:
    """This copy's exact version (``0.1.0+g<commit>``, :mod:`wendy_llm.revision`)."""
    return package_version()


def check_sarif(
    located: Sequence[LocatedFinding],
    *,
    registry: Mapping[str, CodeInfo] = CODES,
    version: str | None = None,
    max_results: int = MAX_RESULTS,
) -> dict[str, object]:
    """The SARIF log of a check's distinct findings."""
    rules = _rules(located, registry)
    index = {str(rule["id"]): i for i, rule in enumerate(rules)}
    # GitHub refuses a result without a location, and the whole upload with it.
    placed = [f for f in located if f.location is not None]
    results = [_result(f, index[f.rule]) for f in placed[:max_results]]
    invocation: dict[str, object] = {"executionSuccessful": True}
    notes = []
    if len(located) > len(placed):
        left = len(located) - len(placed)
        notes.append(
            f"{left} finding(s) name no file of the repository, and GitHub refuses a result "
            "without a location: left out; they are in the job log and the JSON report"
        )
    if len(placed) > max_results:
        left = len(placed) - max_results
        notes.append(
            f"{left} result(s) left out: GitHub reads at most {max_results} per run; every "
            "finding is in the job log and the JSON report"
        )
    if notes:
        invocation["toolExecutionNotifications"] = [
            {"level": "warning", "message": {"text": text}} for text in notes
        ]
    shown = version if version is not None else tool_version()
    driver: dict[str, object] = {
        "name": TOOL_NAME,
        "version": shown,
        "rules": rules,
    }
    run: dict[str, object] = {
        "tool": {"driver": driver},
        "automationDetails": {"id": AUTOMATION_ID},
        "invocations": [invocation],
        "results": results,
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _rules(
    located: Sequence[LocatedFinding], registry: Mapping[str, CodeInfo]
) -> list[dict[str, object]]:
    rules = [_registered_rule(info) for info in registry.values() if not info.retired]
    known = {str(rule["id"]) for rule in rules}
    for found in located:
        if found.rule not in known:
            known.add(found.rule)
            rules.append(_fallback_rule(found.rule))
    return rules


def _registered_rule(info: CodeInfo) -> dict[str, object]:
    help_text = info.rationale
    if info.fact:
        help_text += f"\n\nFact: {info.fact}"
    if info.example:
        help_text += f"\n\nExample:\n{info.example}"
    return {
        "id": info.code,
        "shortDescription": {"text": info.title},
        "fullDescription": {"text": info.rationale or info.title},
        "help": {"text": help_text or info.title},
        "defaultConfiguration": {"level": _LEVELS[info.severity]},
        "properties": {"tags": [info.check]},
    }


def _fallback_rule(rule: str) -> dict[str, object]:
    check = rule.removeprefix(FALLBACK_PREFIX)
    return {
        "id": rule,
        "shortDescription": {"text": f"a finding of the {check} check"},
        "fullDescription": {
            "text": f"A finding of wendy-llm's {check} check that has no registered code; "
            "its message says what is wrong."
        },
        "properties": {"tags": [check]},
    }


def _result(found: LocatedFinding, rule_index: int) -> dict[str, object]:
    f = found.finding
    result: dict[str, object] = {
        "ruleId": found.rule,
        "ruleIndex": rule_index,
        "level": _LEVELS[f.severity],
        "message": {"text": _cut(found.message)},
    }
    if found.location is not None:
        physical: dict[str, object] = {
            "artifactLocation": {
                # A byte of a name that is not UTF-8 (a lone surrogate) is its own %XX.
                "uri": urllib.parse.quote(found.location.path, safe="/", errors="surrogateescape"),
                "uriBaseId": "%SRCROOT%",
            }
        }
        if found.location.line is not None:
            physical["region"] = {"startLine": found.location.line}
        result["locations"] = [{"physicalLocation": physical}]
    result["partialFingerprints"] = {FINGERPRINT_KEY: found.fingerprint()}
    if f.suppressed:
        result["suppressions"] = [
            {"kind": "external", "justification": "recorded in the suppressions file"}
        ]
    result["properties"] = {
        "template": f.template,
        "check": f.check,
        "code": f.code,
        "picks": list(found.picks),
        "occurrences": found.count,
        "exactLine": found.location.exact if found.location is not None else False,
    }
    return result


def _cut(text: str) -> str:
    return escape.cut(text, MAX_MESSAGE_CHARS)
