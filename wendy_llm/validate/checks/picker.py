"""The ``picker`` validator: the picker is well made, and sentinels stay out of pulls.

Shape (``template.json`` and ``template.schema.json`` against the package's
schemas) is the loader's job: ``check`` reports a template that fails to
load as a ``picker`` failure with the loader's own message.  On top of
that, this module lints what a schema cannot express:

- option values are unique within a question;
- the default is one of the options (each item, for a checkbox);
- every option carries the descriptive fields a rules file's
  ``picker.option_fields`` lists (python/llm: label, size, parameters and
  comments) as non-empty text; none by default, since the CLI reads only
  an option's value and label and ignores every other key;
- where ``comments`` is one of them, an option whose label or comment
  mentions "experimental" says so up front: its comment starts with
  ``Experimental:``;
- the colon rule, for the questions the rules file lists under
  ``sentinels``: an option value without a colon is not an Ollama tag, so
  only the declared sentinels may lack one (and a sentinel must lack one,
  and be an option).  Then, per pick, by rendering: no value at the
  sentinel's ``tag_paths`` (where a tag is handed to Ollama) may be a
  sentinel or lack a colon, so a sentinel can never reach ``ollama pull``;
- a declared sentinel is never what ``wendy init`` picks for an unanswered
  question: not its ``default`` (each item, for a checkbox), nor, for a
  radio question without one, its first option (the CLI's fallback).  A
  sentinel is a deliberate choice (python/llm's experimental vLLM app),
  never what a user gets by pressing enter.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from wendy_llm.bounded import json_loads
from wendy_llm.codes import Check
from wendy_llm.codes.template import (
    DEFAULT_NOT_OPTION,
    EXPERIMENTAL_COMMENT,
    OPTION_FIELD_MISSING,
    OPTION_NO_COLON,
    OPTION_REPEATED,
    PICKER_JSON,
    PICKER_NOT_UTF8,
    RENDERED_NOT_TAG,
    SENTINEL_HAS_COLON,
    SENTINEL_IS_FALLBACK,
    SENTINEL_NOT_OPTION,
    SENTINEL_RENDERED,
    SENTINEL_UNKNOWN_QUESTION,
)
from wendy_llm.errors import quoted
from wendy_llm.validate.documents.locate import LineIndex
from wendy_llm.validate.documents.parse import json_line_index
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.rules.docpath import resolve
from wendy_llm.validate.rules.file import DEFAULT_OPTION_FIELDS, Rules, Sentinel
from wendy_llm.validate.rules.subject import RuleDocument
from wendy_llm.validate.rules.values import describe_value
from wendy_llm.validate.schema import json_path

CHECK = Check.PICKER
PICKER_FILE = "template.schema.json"


def lint_picker(
    text: str | bytes, rules: Rules | None = None, *, path: str = PICKER_FILE
) -> list[Finding]:
    """Lint a picker file's text (``rules`` supplies sentinels and option fields)."""
    try:
        decoded = text.decode("utf-8") if isinstance(text, bytes) else text
        picker = json_loads(decoded)
    except json.JSONDecodeError as exc:
        return [
            error(
                PICKER_JSON,
                f"line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}",
                path,
            )
        ]
    except UnicodeDecodeError as exc:
        return [error(PICKER_NOT_UTF8, f"not UTF-8 (byte {exc.start})", path)]
    lines = json_line_index(decoded)
    fields = rules.option_fields if rules is not None else DEFAULT_OPTION_FIELDS
    sentinels = dict(rules.sentinels) if rules is not None else {}
    findings: list[Finding] = []
    seen_questions: set[str] = set()
    phases = picker.get("phases") if isinstance(picker, Mapping) else None
    for p_index, phase in enumerate(phases if isinstance(phases, list) else []):
        questions = phase.get("questions") if isinstance(phase, Mapping) else None
        for q_index, question in enumerate(questions if isinstance(questions, list) else []):
            if not isinstance(question, Mapping):
                continue
            keys: list[str | int] = ["phases", p_index, "questions", q_index]
            qid = str(question.get("id", ""))
            seen_questions.add(qid)
            findings += _lint_question(question, keys, lines, path, fields, sentinels.get(qid))
    for qid in sentinels:
        if qid not in seen_questions:
            where = rules.path if rules is not None else path
            line = rules.lines.line(["sentinels", qid]) if rules is not None else None
            message = f"sentinels: {quoted(qid)} is not a question of {path}"
            findings.append(error(SENTINEL_UNKNOWN_QUESTION, message, where, line))
    return findings


def _lint_question(
    question: Mapping[str, object],
    keys: list[str | int],
    lines: LineIndex,
    path: str,
    fields: Sequence[str],
    sentinel: Sentinel | None,
) -> list[Finding]:
    qid = str(question.get("id", json_path(keys)))
    options = question.get("options")
    if not isinstance(options, list):
        return []
    findings: list[Finding] = []

    def at(*more: str | int) -> int | None:
        return lines.line([*keys, *more])

    values: list[str] = []
    for o_index, option in enumerate(options):
        if not isinstance(option, Mapping):
            continue
        value = str(option.get("value", ""))
        where = f"{qid}: option {quoted(value)}"
        if value in values:
            findings.append(
                error(
                    OPTION_REPEATED,
                    f"{where} appears more than once",
                    path,
                    at("options", o_index),
                )
            )
        values.append(value)
        for name in fields:
            item = option.get(name)
            if not isinstance(item, str) or not item.strip():
                message = f"{where} has no {quoted(name)} (every option needs {', '.join(fields)})"
                findings.append(error(OPTION_FIELD_MISSING, message, path, at("options", o_index)))
        label = str(option.get("label", ""))
        comments = str(option.get("comments", ""))
        experimental = "experimental" in (label + " " + comments).lower()
        if "comments" in fields and experimental and not comments.startswith("Experimental:"):
            message = f'{where} is experimental, so its comments must start with "Experimental:"'
            findings.append(
                error(EXPERIMENTAL_COMMENT, message, path, at("options", o_index, "comments"))
            )
    findings += _default_findings(question, qid, values, path, at("default"))
    if sentinel is not None:
        findings += _colon_findings(sentinel, qid, values, path, at)
        findings += _sentinel_fallback_findings(question, sentinel, path, at)
    return findings


def unanswered_values(question: Mapping[str, object]) -> tuple[list[str], str]:
    """What ``wendy init`` stores for ``question`` left unanswered, and from where:
    a radio's default, else its first option's value; a checkbox's default items;
    an input's default (the CLI's picker walk, as ``render.values`` follows it)."""
    default = question.get("default")
    default = default if isinstance(default, str) else ""
    kind = question.get("type")
    if kind == "checkbox":
        return [part.strip() for part in default.split(",") if part.strip()], "default"
    if kind == "radio" and not default:
        options = question.get("options")
        first = options[0] if isinstance(options, list) and options else None
        if isinstance(first, Mapping) and "value" in first:
            return [str(first["value"])], "first option"
        return [], "default"
    return ([default] if default else []), "default"


def _sentinel_fallback_findings(
    question: Mapping[str, object], sentinel: Sentinel, path: str, at: Callable[..., int | None]
) -> list[Finding]:
    """A sentinel is never what the question falls back to when unanswered."""
    chosen, source = unanswered_values(question)
    findings = []
    for value in chosen:
        if value not in sentinel.values:
            continue
        declared = sentinel.declared[sentinel.values.index(value)] if sentinel.declared else ""
        where = f" (declared at {declared})" if declared else ""
        if source == "default":
            what = f"its default {quoted(value)} is the sentinel{where}"
            line = at("default")
        else:
            what = (
                f"with no default it falls back to its first option {quoted(value)}, "
                f"the sentinel{where}"
            )
            line = at("options", 0, "value")
        message = (
            f"{sentinel.question}: {what}, so `wendy init` without an answer picks it; "
            "the default must be an ordinary option"
        )
        findings.append(error(SENTINEL_IS_FALLBACK, message, path, line))
    return findings


def _default_findings(
    question: Mapping[str, object], qid: str, values: Sequence[str], path: str, line: int | None
) -> list[Finding]:
    default = question.get("default")
    if not isinstance(default, str):
        return []
    if question.get("type") == "checkbox":
        wanted = [part.strip() for part in default.split(",") if part.strip()]
    elif question.get("type") == "radio":
        wanted = [default]
    else:
        return []
    return [
        error(
            DEFAULT_NOT_OPTION,
            f"{qid}: the default {quoted(item)} is not one of the options",
            path,
            line,
        )
        for item in wanted
        if item not in values
    ]


def _colon_findings(
    sentinel: Sentinel,
    qid: str,
    values: Sequence[str],
    path: str,
    at: Callable[..., int | None],
) -> list[Finding]:
    findings: list[Finding] = []
    for o_index, value in enumerate(values):
        if ":" not in value and value not in sentinel.values:
            message = (
                f"{qid}: option {quoted(value)} has no colon, so it is not an Ollama tag; "
                "only a declared sentinel may lack one"
            )
            findings.append(error(OPTION_NO_COLON, message, path, at("options", o_index, "value")))
    for value in sentinel.values:
        if value not in values:
            message = f"{qid}: the sentinel {quoted(value)} is not one of the options"
            findings.append(error(SENTINEL_NOT_OPTION, message, path, at("options")))
        elif ":" in value:
            message = (
                f"{qid}: the sentinel {quoted(value)} has a colon, "
                "so it could pass for an Ollama tag"
            )
            findings.append(
                error(
                    SENTINEL_HAS_COLON,
                    message,
                    path,
                    at("options", values.index(value), "value"),
                )
            )
    return findings


def check_sentinel_renders(
    rules: Rules, documents: Mapping[str, RuleDocument | None]
) -> list[Finding]:
    """Per pick: no sentinel (or colon-less value) where an Ollama tag is rendered.

    ``documents`` are the rules' documents of the render (``compose`` is
    the normalised model, so an environment written as a list counts too).
    """
    findings: list[Finding] = []
    for qid, sentinel in rules.sentinels.items():
        for tag_path in sentinel.tag_paths:
            document = documents.get(tag_path.document)
            if document is None or document.problem is not None:
                continue
            for match in resolve(tag_path, document.data):
                shown = json_path([tag_path.document, *match.keys])
                file, line = document.locate(match.keys)
                value = match.value
                if isinstance(value, str) and value in sentinel.values:
                    message = (
                        f"{shown} is {quoted(value)}, a sentinel of {qid}, not an Ollama tag: "
                        "the sentinel must never reach an Ollama pull"
                    )
                    findings.append(error(SENTINEL_RENDERED, message, file, line, subject=shown))
                elif not isinstance(value, str) or ":" not in value:
                    # JSON's spelling, as topology shows values: `null`, not a Python type.
                    message = (
                        f"{shown} is {describe_value(value)}, which is not an Ollama tag (no colon)"
                    )
                    findings.append(error(RENDERED_NOT_TAG, message, file, line, subject=shown))
    return findings
