"""Codes of ``picker`` and ``catalog``: the template's picker, the repository's ``meta.json``."""

from __future__ import annotations

from wendy_llm.codes.model import Check, entry
from wendy_llm.wendycli import REVISION

_CLI = f"Wendy CLI {REVISION}"
_PICKER = f"{_CLI}; docs/wendy-init-semantics.md (6. Picks and slugs)"
_SENTINELS = "docs/rules.md"
_CATALOG = f"{_CLI}; docs/checks.md (template folders)"
P = Check.PICKER
C = Check.CATALOG

PICKER_JSON = entry(
    "PCK001", P, "error",
    "the picker file is not valid JSON",
    "wendy init reads the picker as JSON; a syntax error stops it before any question.",
    _PICKER,
    '{"phases": [}',
)  # fmt: skip
PICKER_NOT_UTF8 = entry(
    "PCK002", P, "error",
    "the picker file is not UTF-8",
    "JSON is UTF-8; wendy init cannot read other bytes as written.",
    _PICKER,
    "a picker saved as UTF-16",
)  # fmt: skip
SENTINEL_UNKNOWN_QUESTION = entry(
    "PCK003", P, "error",
    "a sentinel names a question the picker does not have",
    "A sentinel for a renamed question protects nothing.",
    _SENTINELS,
    "sentinels: {OLD_MODEL: {values: [none]}}",
)  # fmt: skip
OPTION_REPEATED = entry(
    "PCK004", P, "error",
    "an option value appears more than once",
    "Two options of one value are one choice shown twice; the second is unreachable.",
    _PICKER,
    '"options": [{"value": "a"}, {"value": "a"}]',
)  # fmt: skip
OPTION_FIELD_MISSING = entry(
    "PCK005", P, "error",
    "an option lacks a required field",
    "Every option needs the fields the rules file lists (value, label, comments by "
    "default) for the picker to show it.",
    _PICKER,
    '"options": [{"value": "a"}]',
)  # fmt: skip
EXPERIMENTAL_COMMENT = entry(
    "PCK006", P, "error",
    'an experimental option whose comments do not start with "Experimental:"',
    "Users choose in the picker; an experimental option must say so first.",
    _PICKER,
    '{"value": "x", "label": "X (experimental)", "comments": "fast"}',
)  # fmt: skip
SENTINEL_IS_FALLBACK = entry(
    "PCK007", P, "error",
    "a sentinel is what the question falls back to",
    "wendy init without an answer takes the default (or the first option): a "
    "sentinel there reaches every unattended project.",
    _SENTINELS,
    '"default": "none" where none is the sentinel',
)  # fmt: skip
DEFAULT_NOT_OPTION = entry(
    "PCK008", P, "error",
    "a default that is not one of the options",
    "A radio or checkbox default the options do not hold is never shown as chosen "
    "and renders a value no user could pick.",
    _PICKER,
    '"default": "c", "options": [{"value": "a"}, {"value": "b"}]',
)  # fmt: skip
OPTION_NO_COLON = entry(
    "PCK009", P, "error",
    "a model option that is not an Ollama tag",
    "An option without a colon is no Ollama tag (name:tag); only a declared "
    "sentinel may lack one.",
    _SENTINELS,
    '"options": [{"value": "llama3"}]',
)  # fmt: skip
SENTINEL_NOT_OPTION = entry(
    "PCK010", P, "error",
    "a declared sentinel is not one of the options",
    "A sentinel the question does not offer protects nothing.",
    _SENTINELS,
    "sentinels: {MODEL: {values: [none]}} and no option none",
)  # fmt: skip
SENTINEL_HAS_COLON = entry(
    "PCK011", P, "error",
    "a sentinel that could pass for an Ollama tag",
    "A sentinel with a colon looks like a model tag and could be pulled.",
    _SENTINELS,
    "sentinels: {MODEL: {values: ['none:0']}}",
)  # fmt: skip
SENTINEL_RENDERED = entry(
    "PCK012", P, "error",
    "a sentinel reaches a rendered Ollama tag",
    "The sentinel must never reach an Ollama pull: where the rules say a tag is "
    "rendered, a sentinel there fails at run time.",
    _SENTINELS,
    "environment: {MODEL: none} where MODEL is pulled",
)  # fmt: skip
RENDERED_NOT_TAG = entry(
    "PCK013", P, "error",
    "a rendered Ollama tag that is not a tag",
    "Where the rules say an Ollama tag is rendered, a value without a colon (or not "
    "a string) is not one.",
    _SENTINELS,
    "environment: {MODEL: llama3}",
)  # fmt: skip
PICKER_LOAD = entry(
    "PCK014", P, "error",
    "template.json or the picker does not load",
    "The template's manifest and picker are validated against the package's "
    "schemas as wendy init decodes them; a template that does not load has no pick.",
    _PICKER,
    '{"variables": "not a list"}',
)  # fmt: skip
PICKS_UNLISTED = entry(
    "PCK015", P, "error",
    "the template's picks cannot be listed",
    "The picks are every answer combination of the picker; when they cannot be "
    "enumerated, nothing is rendered.",
    _PICKER,
    "a question whose when refers to itself",
)  # fmt: skip
SENTINELS_NO_PICKER = entry(
    "PCK016", P, "error",
    "sentinels are declared but the template has no picker",
    "Sentinels belong to picker questions; without a picker they protect nothing.",
    _SENTINELS,
    "a rules file with sentinels for a template without a picker file",
)  # fmt: skip

CATALOG_UNSEEN_FOLDER = entry(
    "CAT001", C, "error",
    "a template folder without template.json",
    "wendy init refuses a folder without template.json, the CLI cannot list it, and "
    "the gate never checks it.",
    _CATALOG,
    "python/app/ holding compose.yaml and no template.json",
)  # fmt: skip
CATALOG_JSON = entry(
    "CAT002", C, "error",
    "meta.json is not valid JSON",
    "The CLI decodes meta.json to list templates; a syntax error lists none.",
    _CATALOG,
    '{"templates": [}',
)  # fmt: skip
CATALOG_DECODE = entry(
    "CAT003", C, "error",
    "the Wendy CLI cannot decode meta.json",
    "A value of the wrong type fails the CLI's decoder: no template is listed.",
    _CATALOG,
    '{"templates": "python/llm"}',
)  # fmt: skip
CATALOG_UNLISTED = entry(
    "CAT004", C, "error",
    "a template is not listed in meta.json",
    "wendy init --template NAME refuses a template meta.json does not list.",
    _CATALOG,
    "python/llm/ present, no meta.json entry llm",
)  # fmt: skip
CATALOG_LANGUAGE = entry(
    "CAT005", C, "error",
    "meta.json lists a template for other languages",
    "wendy init offers a template only in the languages its entry lists.",
    _CATALOG,
    'python/llm/ and {"name": "llm", "languages": ["swift"]}',
)  # fmt: skip
CATALOG_NO_DESCRIPTION = entry(
    "CAT006", C, "error",
    "a meta.json entry has no description",
    "The picker shows the description beside each template; an empty one tells "
    "users nothing.",
    _CATALOG,
    '{"name": "llm", "description": ""}',
)  # fmt: skip
CATALOG_UNKNOWN_TARGETS = entry(
    "CAT007", C, "warning",
    "meta.json targets wendy init does not know",
    "A template whose targets name none wendy init knows is never offered by its "
    "picker; only --template reaches it.",
    _CATALOG,
    '{"name": "llm", "targets": ["raspberry"]}',
)  # fmt: skip
CATALOG_LITE_MISSING = entry(
    "CAT008", C, "error",
    "a Wendy Lite app not targeted at Wendy Lite",
    "A template rendering Wendy Lite apps must list the Lite target, or wendy init "
    "offers it where it cannot run.",
    _CATALOG,
    'wendy.json platform "wendy-lite" and targets without it',
)  # fmt: skip
CATALOG_LITE_WRONG = entry(
    "CAT009", C, "error",
    "offered for Wendy Lite but renders other apps",
    "A template meta.json offers for Wendy Lite must render Lite apps.",
    _CATALOG,
    'targets ["wendy-lite"] and a render without platform "wendy-lite"',
)  # fmt: skip
CATALOG_REPEATED = entry(
    "CAT010", C, "warning",
    "a template listed more than once in meta.json",
    "wendy init uses the first entry; the others are dead.",
    _CATALOG,
    'two entries {"name": "llm"}',
)  # fmt: skip
CATALOG_NOWHERE = entry(
    "CAT011", C, "error",
    "meta.json lists a template that exists in no language",
    "An entry without a template folder offers users a template that fails.",
    _CATALOG,
    '{"name": "gone"} and no */gone/',
)  # fmt: skip
CATALOG_LANGUAGE_MISSING = entry(
    "CAT012", C, "error",
    "meta.json lists a template for a language that lacks it",
    "wendy init would offer the template in a language folder that does not hold it.",
    _CATALOG,
    '{"name": "llm", "languages": ["python", "swift"]} and no swift/llm/',
)  # fmt: skip
CATALOG_LANGUAGE_UNLISTED = entry(
    "CAT013", C, "error",
    "a language folder holds templates meta.json's languages do not list",
    "wendy init offers languages from meta.json; an unlisted one is never offered.",
    _CATALOG,
    "rust/app/ present and languages [python]",
)  # fmt: skip
CATALOG_LANGUAGE_EMPTY = entry(
    "CAT014", C, "error",
    "meta.json lists a language that holds no template",
    "A language offered with nothing in it leads users to an empty choice.",
    _CATALOG,
    'languages ["python", "cobol"] and no cobol/ templates',
)  # fmt: skip
CATALOG_REFUSED = entry(
    "CAT015", C, "error",
    "meta.json is not read: a link out of the repository, not a regular file, or too large",
    "The gate reads only regular files inside the repository it judges: a catalog linked "
    "to a host file would be quoted in the report, a device would hang the run.",
    "docs/security.md (Threat model)",
    "meta.json -> /etc/passwd",
)  # fmt: skip
