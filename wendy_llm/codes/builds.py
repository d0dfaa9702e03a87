"""Codes of ``dockerfile`` and ``topology``: how images build, and the repository's own rules."""

from __future__ import annotations

from wendy_llm.codes.model import Check, entry

_DF = "docs/checks.md"
_RULES = "docs/rules.md"

DF_NOT_UTF8 = entry(
    "DF001", Check.DOCKERFILE, "warning",
    "a Dockerfile is not UTF-8",
    "BuildKit reads bytes; the gate checks the file with the bad bytes replaced, "
    "so what it says of those lines may not hold.",
    _DF,
    "a Dockerfile saved as Latin-1",
)  # fmt: skip
DF_DOCKERIGNORE = entry(
    "DF002", Check.DOCKERFILE, "error",
    "a .dockerignore that docker build refuses",
    "docker build reads the context's .dockerignore first; a pattern it cannot "
    "parse fails every build.",
    _DF,
    "a .dockerignore line '[' (an unclosed class)",
)  # fmt: skip
DF_PARSE = entry(
    "DF003", Check.DOCKERFILE, "error",
    "BuildKit cannot parse the Dockerfile",
    "BuildKit's parser refuses the file before any step runs.",
    _DF,
    "a line continuation at the end of the file",
)  # fmt: skip
DF_COMBINATIONS = entry(
    "DF004", Check.DOCKERFILE, "warning",
    "too many build-argument combinations: only the first were checked",
    "Each combination of build-arg values is a different build; beyond the limit "
    "the rest are not checked.",
    _DF,
    "ten independent ARGs used in FROM lines",
)  # fmt: skip
DF_UNKNOWN_INSTRUCTION = entry(
    "DF005", Check.DOCKERFILE, "error",
    "an instruction BuildKit does not know",
    "BuildKit refuses an unknown instruction: the build fails at once.",
    _DF,
    "RUNN apt-get update",
)  # fmt: skip
DF_ONBUILD = entry(
    "DF006", Check.DOCKERFILE, "error",
    "an instruction not allowed as an ONBUILD trigger",
    "ONBUILD cannot trigger FROM, MAINTAINER or another ONBUILD; BuildKit refuses it.",
    _DF,
    "ONBUILD FROM alpine",
)  # fmt: skip
DF_ARGUMENTS = entry(
    "DF007", Check.DOCKERFILE, "error",
    "an instruction lacks its arguments",
    "BuildKit refuses an instruction with fewer arguments than it needs.",
    _DF,
    "COPY only-a-source",
)  # fmt: skip
DF_BLANK_NAME = entry(
    "DF008", Check.DOCKERFILE, "error",
    "an ARG or ENV with a blank name",
    "BuildKit refuses ARG and ENV without a name.",
    _DF,
    "ENV =value",
)  # fmt: skip
DF_BEFORE_FROM = entry(
    "DF009", Check.DOCKERFILE, "error",
    "an instruction before the first FROM",
    "Only ARG may come before the first FROM; BuildKit refuses anything else there.",
    _DF,
    "RUN echo hi\nFROM alpine",
)  # fmt: skip
DF_NO_FROM = entry(
    "DF010", Check.DOCKERFILE, "error",
    "no FROM instruction",
    "A Dockerfile without FROM builds nothing; BuildKit refuses it.",
    _DF,
    "RUN echo hi",
)  # fmt: skip
DF_FROM_FORM = entry(
    "DF011", Check.DOCKERFILE, "error",
    "a FROM that is not `FROM image [AS name]`",
    "BuildKit accepts an image and optionally `AS name`; other forms are refused.",
    _DF,
    "FROM alpine latest",
)  # fmt: skip
DF_STAGE_NAME = entry(
    "DF012", Check.DOCKERFILE, "error",
    "an invalid stage name",
    "A stage name starts with a letter and holds only letters, digits, -, _ and .; "
    "BuildKit refuses others.",
    _DF,
    "FROM alpine AS 1st",
)  # fmt: skip
DF_STAGE_REPEATED = entry(
    "DF013", Check.DOCKERFILE, "error",
    "a stage name used twice",
    "BuildKit refuses two stages of one name.",
    _DF,
    "FROM alpine AS base\nFROM debian AS base",
)  # fmt: skip
DF_SOURCE_MISSING = entry(
    "DF014", Check.DOCKERFILE, "error",
    "a COPY or ADD source is not in the build context",
    "BuildKit copies from the build context only: a source the context does not "
    "hold (or .dockerignore excludes) fails the build on a device too.",
    _DF,
    "COPY requirements.txt . with no requirements.txt in the context",
)  # fmt: skip
DF_BUILD_MAYBE = entry(
    "DF015", Check.DOCKERFILE, "warning",
    "a build step may fail",
    "Reserved: every build problem but a lockfile's and an entry script's (DF020, "
    "DF022) is certain, so no check reports this.",
    _DF,
    "(none: retired before release)",
    retired=True,
)  # fmt: skip
DF_FROM = entry(
    "DF016", Check.DOCKERFILE, "error",
    "a FROM that does not resolve",
    "A stage built FROM itself, an image name that expands to nothing, or a name "
    "that looks like a stage but is none, for some build-argument values: the "
    "build fails with them.",
    _DF,
    "ARG BASE\nFROM $BASE",
)  # fmt: skip
DF_EXPANSION = entry(
    "DF017", Check.DOCKERFILE, "error",
    "a variable expansion BuildKit refuses",
    "BuildKit fails the build on a ${VAR:?message} whose variable is unset, or "
    "an expansion it cannot parse.",
    _DF,
    "COPY ${SRC:?set SRC} /app",
)  # fmt: skip
DF_ETC_WRITE = entry(
    "DF018", Check.DOCKERFILE, "error",
    "a RUN step writes /etc/hosts or /etc/resolv.conf",
    "BuildKit binds those files into every RUN step, which cannot write or replace "
    "them: the build fails.",
    "docs/checks.md (build-time and run-time files)",
    "RUN echo '1.2.3.4 x' >> /etc/hosts",
)  # fmt: skip
DF_LOCKFILE = entry(
    "DF019", Check.DOCKERFILE, "error",
    "an install from a lockfile fails",
    "An install that demands hashes or pins (pip --require-hashes, npm ci, ...) "
    "fails when the lockfile is not in the image or does not pin what it must.",
    "docs/checks.md (Lockfiles)",
    "RUN pip install --require-hashes -r requirements.txt with no --hash lines",
)  # fmt: skip
DF_LOCKFILE_MAYBE = entry(
    "DF020", Check.DOCKERFILE, "warning",
    "an install from a lockfile may fail",
    "As DF019, where a RUN the check cannot follow may have provided the lockfile.",
    "docs/checks.md (Lockfiles)",
    "RUN ./fetch-lock.sh && npm ci",
)  # fmt: skip
DF_NOT_EXECUTABLE = entry(
    "DF021", Check.DOCKERFILE, "error",
    "the container's entry script cannot be executed",
    "The ENTRYPOINT or CMD script is missing from the image, not executable, or "
    "its interpreter is absent: the container exits at once.",
    "docs/checks.md (build-time and run-time files)",
    'COPY start.sh /start.sh (mode 0644) and ENTRYPOINT ["/start.sh"]',
)  # fmt: skip
DF_NOT_EXECUTABLE_MAYBE = entry(
    "DF022", Check.DOCKERFILE, "warning",
    "the container's entry script may not be executable",
    "As DF021, where a RUN the check cannot follow may have fixed it.",
    "docs/checks.md (build-time and run-time files)",
    'RUN ./setup.sh and ENTRYPOINT ["/start.sh"]',
)  # fmt: skip

TOP_RULE_FAILED = entry(
    "TOP001", Check.TOPOLOGY, "error",
    "a rule of the rules file does not hold",
    "The template's own rules (golden/<language>/<name>.rules.yaml) say what every "
    "selected pick must render; a pick that breaks one fails. The rule's name is "
    "the finding's subject.",
    _RULES,
    "a rule 'every service has a healthcheck' and a service without one",
)  # fmt: skip
TOP_RULE_UNCHECKABLE = entry(
    "TOP002", Check.TOPOLOGY, "error",
    "a rule cannot be checked",
    "A rule whose document does not parse or whose path selects nothing the render "
    "has checks nothing; it fails so it is not silently skipped.",
    _RULES,
    "a rule on declared document config.yaml that is not valid YAML",
)  # fmt: skip
TOP_UNKNOWN_PICK = entry(
    "TOP003", Check.TOPOLOGY, "error",
    "a rule names a pick the template does not have",
    "A renamed pick leaves the rule checking nothing.",
    _RULES,
    "picks: [old-name]",
)  # fmt: skip
TOP_UNKNOWN_VARIABLE = entry(
    "TOP004", Check.TOPOLOGY, "error",
    "a rule selects on a name that is no variable of the template",
    "A selection on a variable the template does not have never matches as meant.",
    _RULES,
    "picks: {when: [NO_SUCH_VAR]}",
)  # fmt: skip
TOP_SELECTS_NOTHING = entry(
    "TOP005", Check.TOPOLOGY, "error",
    "a rule selects no pick",
    "A rule that applies to no pick checks nothing; it is a mistake or dead.",
    _RULES,
    "picks: {when: [GPU], unless: [GPU]}",
)  # fmt: skip
TOP_RULES_FILE = entry(
    "TOP006", Check.TOPOLOGY, "error",
    "the rules file does not load",
    "A rules file that does not parse or fit its schema checks nothing; every "
    "mistake names its line.",
    _RULES,
    "rules: [{name: x, assert: }]",
)  # fmt: skip
TOP_NOT_UTF8 = entry(
    "TOP007", Check.TOPOLOGY, "error",
    "a document a rule reads is not UTF-8",
    "The rules read rendered documents as text; other bytes cannot be judged.",
    _RULES,
    "a declared document saved as Latin-1",
)  # fmt: skip
TOP_DOCUMENT_SYNTAX = entry(
    "TOP008", Check.TOPOLOGY, "error",
    "a document a rule reads does not parse",
    "A declared YAML or JSON document with a syntax error cannot be checked.",
    _RULES,
    "a declared document config.json holding {,}",
)  # fmt: skip
TOP_DOCUMENT_DUPLICATE = entry(
    "TOP009", Check.TOPOLOGY, "error",
    "a JSON document a rule reads repeats a key",
    "Readers disagree on a repeated key; the rules refuse to guess.",
    _RULES,
    '{"a": 1, "a": 2}',
)  # fmt: skip
