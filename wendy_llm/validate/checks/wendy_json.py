"""The ``wendy-json`` validator: a render's ``wendy.json`` judged as the Wendy CLI judges it.

The CLI's reading (:mod:`wendy_llm.wendycli.wendy_json`): Go's decoder into
its struct, then its validation.  What that gives, each finding with the
JSON path in its message and the line in the file:

- invalid JSON, a decode error (a value of the wrong type) and a
  validation error: errors (``wendy run`` refuses the app);
- the CLI's own warnings (a deprecated or over-specified entitlement, a
  platform-specific ``postStart`` command): warnings;
- a key set twice (the CLI accepts it: a plain value takes the last, an
  object, map or list of objects given twice merges: section 2 of
  the facts): a warning, since what the CLI ends up with is not what either
  one says;
- a key the CLI does not read: a **note**.  The CLI ignores unknown keys by
  design (``$schema``, comments, keys of newer CLIs), so it is not a defect
  and must not fail ``check --strict``; it is still shown, because a
  misspelt key (``entitlement``) is silently dropped.
- ``appId`` the same in the canonical render and in the variant's, made
  with another app id (:func:`same_app_id`): a warning naming the line
  (it replaces the one below for that render);
- ``appId`` not containing the app id the render was made for: a warning.
  The CLI accepts any non-empty ``appId`` (``wendy init`` just renders the
  file), so it is no failure, but a template that ignores ``{{.APP_ID}}``
  gives every project made from it the same id.

These hold on every path ``wendy run`` may take: the file is the CLI's
format wherever it ships.  Nothing is cross-checked with the compose file:
on the compose path the CLI does not read ``wendy.json`` at all (what the
device gets there is the compose file's business), and on the other paths
there is no compose file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from wendy_llm.codes import Check, CodeInfo
from wendy_llm.codes.tools import (
    WENDY_JSON_APP_ID,
    WENDY_JSON_CLI_WARNS,
    WENDY_JSON_DECODE,
    WENDY_JSON_INVALID,
    WENDY_JSON_REPEATED,
    WENDY_JSON_SAME_APP_ID,
    WENDY_JSON_SYNTAX,
    WENDY_JSON_UNKNOWN_KEY,
)
from wendy_llm.errors import quoted
from wendy_llm.render.manifest.gojson import Decoded, GoJsonSyntaxError
from wendy_llm.render.manifest.jsonpos import JsonPath, format_json_path, value_positions
from wendy_llm.validate.findings import Finding, error, finding, note, warning
from wendy_llm.wendycli.wendy_json import FILE, Problem, judge

CHECK = Check.WENDY_JSON

LineOf = Callable[[JsonPath], int | None]


def validate_wendy_json(tree: Mapping[str, bytes], app_id: str) -> list[Finding]:
    """Judge the render's ``wendy.json`` (no findings when it has none)."""
    data = tree.get(FILE)
    if data is None:
        return []
    text = data.decode("utf-8", errors="replace")
    try:
        judged = judge(text)
    except GoJsonSyntaxError as exc:
        where = "" if exc.line is None else f" (line {exc.line}, column {exc.column})"
        return [error(WENDY_JSON_SYNTAX, f"JSON: {exc.message}{where}", FILE, exc.line)]
    positions = value_positions(text)
    decoded = judged.decoded

    def line(path: JsonPath) -> int | None:
        raw = decoded.raw_path(path)
        while raw not in positions and raw:
            raw = raw[:-1]
        found = positions.get(raw)
        return None if found is None else found[0]

    findings = [
        finding(_problem_code(p, decoded), str(p), FILE, line(p.path), subject=_subject(p.path))
        for p in judged.problems
    ]
    findings += _repeated(decoded, line)
    findings += _ignored(decoded, line)
    config = decoded.value
    if not decoded.errors and isinstance(config, Mapping):
        findings += _app_id(str(config["appId"]), app_id, line(("appId",)))
    return findings


def _problem_code(problem: Problem, decoded: Decoded) -> CodeInfo:
    if decoded.errors:
        return WENDY_JSON_DECODE  # the decoder refused a value: every problem is one
    return WENDY_JSON_INVALID if problem.severity == "error" else WENDY_JSON_CLI_WARNS


def _subject(path: JsonPath) -> str:
    return format_json_path(path)


def _at(path: JsonPath, key: str) -> str:
    return format_json_path((*path, key))


def _repeated(decoded: Decoded, line: LineOf) -> list[Finding]:
    return [
        warning(
            WENDY_JSON_REPEATED,
            f"{_at(path, key)}: set more than once; the Wendy CLI accepts it and decodes "
            "each into the same value (a plain value takes the last; objects, maps and "
            "lists of objects merge field by field)",
            FILE,
            line((*path, key)),
        )
        for path, key in decoded.repeated
    ]


def _ignored(decoded: Decoded, line: LineOf) -> list[Finding]:
    out = []
    for path, key in decoded.ignored:
        message = f"{_at(path, key)}: not a key the Wendy CLI reads (it ignores it)"
        out.append(note(WENDY_JSON_UNKNOWN_KEY, message, FILE, line((*path, key))))
    return out


def _app_id(rendered: str, app_id: str, line: int | None) -> list[Finding]:
    if not rendered or app_id in rendered:
        return []
    message = (
        f"appId: {quoted(rendered)} does not contain the app id {quoted(app_id)}: every project "
        "made from this template gets the same appId (render it from {{.APP_ID}})"
    )
    return [warning(WENDY_JSON_APP_ID, message, FILE, line)]


def app_id_line(tree: Mapping[str, bytes]) -> tuple[str, int | None] | None:
    """The rendered ``appId`` and its line, as the CLI decodes it (None: no usable file)."""
    data = tree.get(FILE)
    if data is None:
        return None
    text = data.decode("utf-8", errors="replace")
    try:
        decoded = judge(text).decoded
    except GoJsonSyntaxError:
        return None
    config = decoded.value
    if decoded.errors or not isinstance(config, Mapping) or not config.get("appId"):
        return None
    raw = decoded.raw_path(("appId",))
    found = value_positions(text).get(raw)
    return str(config["appId"]), None if found is None else found[0]


def same_app_id(
    canonical: Mapping[str, bytes], variant: Mapping[str, bytes], app_ids: tuple[str, str]
) -> list[Finding]:
    """A warning when ``appId`` renders the same for both app ids (canonical, variant)."""
    first, second = app_id_line(canonical), app_id_line(variant)
    if first is None or second is None or first[0] != second[0]:
        return []
    message = (
        f"appId: {quoted(first[0])} is the same whether `wendy init` is given the app id "
        f"{quoted(app_ids[0])} or {quoted(app_ids[1])}: every project made from this template "
        "gets the same appId on a device (render it from {{.APP_ID}})"
    )
    return [warning(WENDY_JSON_SAME_APP_ID, message, FILE, first[1])]


def is_app_id_finding(finding: Finding) -> bool:
    """The per-render appId warning that :func:`same_app_id` replaces."""
    return finding.check == CHECK and finding.message.startswith("appId: ")
