"""Codes of ``lint``, ``golden``, ``baseline``, ``suppressions`` and ``policy``.

The lint codes map wendy-llm's template lints (``render/lints``, each named
by a slug) one to one: :data:`LINT_CODES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from wendy_llm.codes.model import Check, CodeInfo, entry
from wendy_llm.wendycli import REVISION

_CLI = f"Wendy CLI {REVISION}"
_INIT = f"{_CLI}; docs/wendy-init-semantics.md (7. Lints)"
L = Check.LINT


def _lint(number: int, slug: str, title: str, rationale: str, example: str) -> CodeInfo:
    return entry(f"LNT{number:03d}", L, "warning", title, rationale, _INIT, example)


#: Lint slug -> its code.
LINT_CODES: Mapping[str, CodeInfo] = MappingProxyType(
    {
        slug: _lint(number, slug, title, rationale, example)
        for number, (slug, title, rationale, example) in (
            *enumerate(
            (
                ("duplicate-variable", "a variable declared more than once",
                 "wendy init keeps the last declaration; the first is dead.",
                 'two variables {"name": "PORT"}'),
                ("unknown-type", "a variable type wendy init does not convert",
                 "Only integer and boolean are converted: --var values stay strings.",
                 '{"name": "N", "type": "number"}'),
                ("ignored-rule", "a validate rule wendy init ignores",
                 "wendy init checks only min/max on integers and pattern on strings.",
                 '{"name": "N", "type": "integer", "validate": {"pattern": "x"}}'),
                ("invalid-pattern", "a validate.pattern that is not a Go regexp",
                 "Every --var value for the variable is rejected.",
                 '{"validate": {"pattern": "("}}'),
                ("large-number", "a numeric default that renders in exponent form",
                 "wendy init decodes JSON numbers as float64: big numbers render as 1e+06.",
                 '{"name": "N", "default": 1000000}'),
                ("default-invalid", "a default that breaks its own validate rule",
                 "wendy init never checks defaults: the project gets a value --var refuses.",
                 '{"default": 0, "validate": {"min": 1}}'),
                ("shadowed-question", "a question that is never asked",
                 "A template.json variable of the same name already holds the value.",
                 'variable MODEL and a picker question MODEL'),
                ("default-not-option", "a question default that is not one of its options",
                 "The picker shows a default no option matches.",
                 '"default": "c", "options": [{"value": "a"}]'),
                ("unknown-question", "a when that names no question nor variable",
                 "It is always false: the question is never shown.",
                 '"when": "NOPE"'),
                ("copied-template", "template syntax in a file wendy init copies unrendered",
                 "Only some extensions and names are rendered; the project gets '{{.' as is.",
                 "notes.txt holding {{.MODEL}}"),
                ("checkbox-flags", "a checkbox flag set only when the question keeps its default",
                 "--var skips the question, so QUESTION_<value> stays unset and the file "
                 "fails to render.", "{{ if .FEATURES_gpu }} with --var FEATURES=gpu"),
                ("values-error", "a pick's values are refused",
                 "The pick's answers do not pass template.json's rules.",
                 "a pick answering 0 for a variable with min 1"),
                ("render-error", "a pick fails to render",
                 "Go's text/template stops at the first error; no project is written.",
                 "{{ .X | nosuchfunc }}"),
                ("no-value", "a pick renders '<no value>'",
                 "A key missing from the data map renders as '<no value>' (index does not fail).",
                 "{{ index . \"MISSING\" }}"),
                ("number-typing", "a number compared or printed with the wrong Go type",
                 "Go's template compares and prints float64 and int differently.",
                 "{{ if eq .PORT 8000 }} where PORT is a float64"),
                ("unnamed", "a variable or question without a name",
                 "wendy init stores its value under the empty name, which no template reads.",
                 '{"variables": [{"type": "string"}]}'),
                ("unknown-question-type", "a question type wendy init does not list",
                 "It is collected as a free-text input.",
                 '{"id": "X", "type": "slider"}'),
                ("binary-content", "a rendered file that holds bytes text/template mangles",
                 "A binary file wendy init renders is kept intact only while it holds no '{{'.",
                 "logo.png rendered as a template"),
            ),
            start=1,
            ),
            # Numbers go on after LNT019/LNT020 (below): a code is never reused.
            (21, ("skipped-entry", "a template entry wendy init skips",
                  "A symlink, socket or other non-regular file in the template directory is "
                  "not copied by wendy init: the project lacks it.",
                  "python/llm/config -> ../shared/config (a symlink)")),
        )
    }
)  # fmt: skip
LINT_STOPPED = entry(
    "LNT019", L, "warning",
    "not linted: an earlier render ran away",
    "The lints render every pick again; after a runaway render they are skipped, saying why.",
    "docs/reliability.md (A runaway template in `check`)",
    "a template whose first pick timed out",
)  # fmt: skip
LINT_FAILED = entry(
    "LNT020", L, "error",
    "the template cannot be linted",
    "Linting failed for a reason other than a lint (the engine refused the template).",
    "docs/checks.md",
    "a template.json the engine cannot load",
)  # fmt: skip

GOLDEN_DIFFERS = entry(
    "GLD001", Check.GOLDEN, "error",
    "the render differs from its golden fixture",
    "The golden fixtures are what each pick renders; a difference is a change nobody "
    "recorded: review it, then `wendy-llm golden --update`.",
    "docs/golden.md",
    "compose.yaml of one pick changed and golden/ not updated",
)  # fmt: skip
GOLDEN_SAME_CHANGE = entry(
    "GLD002", Check.GOLDEN, "error",
    "the same golden difference, shown on one of its picks",
    "One change seen by several picks is reported once on the template's row with "
    "its diff; each pick's row points there.",
    "docs/golden.md",
    "a template file every pick renders changed",
)  # fmt: skip
GOLDEN_UNREADABLE = entry(
    "GLD003", Check.GOLDEN, "error",
    "the golden fixtures cannot be compared",
    "A fixture folder that does not load compares nothing; it fails rather than pass.",
    "docs/golden.md",
    "a golden manifest that is not valid JSON",
)  # fmt: skip

BASELINE_DIFFERS = entry(
    "BAS001", Check.BASELINE, "error",
    "a gated file differs from the stored baseline",
    "The baseline is the template before a change; the files the rules file gates "
    "must render the same for every pick the baseline has.",
    "docs/baseline.md",
    "compose.yaml of an existing pick changed under gate.files",
)  # fmt: skip
BASELINE_SAME_CHANGE = entry(
    "BAS002", Check.BASELINE, "error",
    "the same baseline difference, shown on one of its picks",
    "One change seen by several picks is reported once on the template's row with "
    "its diff; each pick's row points there.",
    "docs/baseline.md",
    "a gated file every pick renders changed",
)  # fmt: skip
BASELINE_NOT_TEMPLATE = entry(
    "BAS003", Check.BASELINE, "error",
    "the stored baseline is not a template",
    "A baseline folder without template.json (or one that does not load) compares "
    "nothing.",
    "docs/baseline.md",
    "golden/baseline/python/llm/ without template.json",
)  # fmt: skip
BASELINE_RULES_UNREAD = entry(
    "BAS004", Check.BASELINE, "error",
    "not compared: the rules file does not load",
    "The files the gate compares (gate.files) come from the rules file; the "
    "topology check says why it does not load.",
    "docs/baseline.md",
    "a rules file with a YAML syntax error",
)  # fmt: skip
BASELINE_NOT_COMPARABLE = entry(
    "BAS005", Check.BASELINE, "warning",
    "a new pick cannot be compared with the baseline",
    "The baseline was not rendered with the new pick's answers: nothing holds it to "
    "today's output.",
    "docs/baseline.md",
    "a new picker option",
)  # fmt: skip
BASELINE_PICKS_REMOVED = entry(
    "BAS006", Check.BASELINE, "error",
    "picks of the baseline are gone",
    "Every baseline pick must still render as before; a removed option breaks the "
    "projects made from it.",
    "docs/baseline.md",
    "a picker option removed",
)  # fmt: skip
BASELINE_FAILED = entry(
    "BAS007", Check.BASELINE, "error",
    "the baseline comparison failed",
    "The comparison itself failed (a render of the baseline refused); it fails "
    "rather than pass.",
    "docs/baseline.md",
    "a baseline that no longer renders with today's engine",
)  # fmt: skip
BASELINE_DIFF_POLICY = entry(
    "BAS008", Check.BASELINE, "error",
    "a pick renders a file differently from the `diff` base",
    "`wendy-llm diff --expect-unchanged` holds every pick to its base (a git revision "
    "or a stored baseline); the first changed line is where the annotation points.",
    "docs/baseline.md",
    "`diff --base main --expect-unchanged` after an edit of compose.yaml",
)  # fmt: skip

SUPPRESSION_UNUSED = entry(
    "SUP001", Check.SUPPRESSIONS, "error",
    "a suppressed failure no longer occurs (or less often)",
    "A recorded failure that is fixed must be pruned, so it stays fixed: "
    "`wendy-llm check --prune-suppressions`.",
    "docs/suppressions.md",
    "an entry with count 3 and only 2 occurrences left",
)  # fmt: skip

POLICY_CHANGED = entry(
    "POL001", Check.POLICY, "error",
    "a pull request changes the policy it is judged by",
    "With a base revision (`check --base`, `diff --base`), the rules files (their rules, "
    "gate.files, sentinels), wendy-llm.toml and the suppressions file are read as the base "
    "holds them: a change could otherwise exempt itself (an emptied rules file, `gate: files: "
    "[nothing-here]`, `ignore = [\"ALL\"]`, a suppressions file recording every failure). The "
    "change, shown as a diff, fails until the maintainers accept it with "
    "`--accept-policy-change` (in the action: a label), as `picks-may-change` accepts renders.",
    "docs/security.md (The policy is the base's)",
    "a pull request adding `ignore = [\"ALL\"]` under [findings] of wendy-llm.toml",
)  # fmt: skip

POLICY_CHANGE_ACCEPTED = entry(
    "POL002", Check.POLICY, "note",
    "a policy change accepted by `--accept-policy-change`",
    "The maintainers accepted the change: the work tree's policy judges this run, and the "
    "change (shown as a diff) is listed for the reviewer.",
    "docs/security.md (The policy is the base's)",
    "`check --base main --accept-policy-change` after a new rule in a rules file",
)  # fmt: skip
