"""Codes of ``device``: what ``wendy run`` does with the render on a WendyOS device.

Errors: ``wendy run`` fails, or the app runs otherwise than the render says.
Warnings: the device drops or ignores something the render says.
"""

from __future__ import annotations

from wendy_llm.codes.model import Check, entry
from wendy_llm.wendycli import REVISION

_CLI = f"Wendy CLI {REVISION}"
_VIEW = f"{_CLI}; docs/device-view.md"
_PATHS = f"{_CLI}; docs/device-paths.md"

D = Check.DEVICE

COMPOSE_UNLOADABLE = entry(
    "DEV001", D, "error",
    "wendy run fails to load the compose file",
    "The CLI reads the compose file with go-yaml v3 before anything runs; a file it "
    "cannot read (not UTF-8, not YAML) fails wendy run. When the compose check "
    "reports the same file, the device check says it could not judge (DEV037).",
    f"{_VIEW} (the compose path: the YAML as go-yaml v3 reads it)",
    "services:\n  app: [unclosed",
)  # fmt: skip
COMPOSE_NO_SERVICES = entry(
    "DEV002", D, "error",
    "the compose file has no services",
    "wendy run deploys the compose file's services; with none it fails.",
    f"{_VIEW} (the compose path: each app)",
    "volumes: {data: {}}",
)  # fmt: skip
COMPOSE_CANNOT_DECODE = entry(
    "DEV003", D, "error",
    "the Wendy CLI cannot decode a compose value",
    "The CLI decodes the compose file into its own Go struct: a value of another "
    "YAML kind than the struct's field (a list where it wants a string) fails the "
    "whole load, even where Docker Compose accepts it.",
    f"{_VIEW} (the compose path: the YAML as go-yaml v3 reads it)",
    "services: {app: {build: {context: ., args: [A=1]}}}",
)  # fmt: skip
SERVICE_NO_IMAGE = entry(
    "DEV004", D, "error",
    "a service has neither image nor build",
    "The CLI builds or pulls each service; one with neither fails wendy run.",
    f"{_VIEW} (the compose path: each app)",
    "services: {app: {command: run}}",
)  # fmt: skip
UNKNOWN_DEPENDENCY = entry(
    "DEV005", D, "error",
    "depends_on names a service that does not exist",
    "The CLI orders creation by depends_on and fails on a name that is no service.",
    f"{_VIEW} (the compose path: creation order)",
    "services: {app: {image: x, depends_on: [db]}}",
)  # fmt: skip
KEY_IGNORED = entry(
    "DEV006", D, "warning",
    "a compose key is ignored on a device",
    "The CLI's compose struct has no field for it: what the key asks for (a health "
    "check, a network, a limit) never happens on a device, though Docker Compose "
    "does it.",
    f"{_VIEW} (the compose path: where Docker Compose and a device differ)",
    "services: {app: {image: x, healthcheck: {test: [CMD, true]}}}",
)  # fmt: skip
WENDY_JSON_UNREAD = entry(
    "DEV007", D, "warning",
    "wendy.json is not read on the compose path",
    "With a compose file, wendy run deploys it and never reads wendy.json: its "
    "entitlements, readiness, hooks and services never reach the device.",
    f"{_PATHS} (which path wendy run takes)",
    "a render with compose.yaml and a wendy.json asking for the gpu entitlement",
)  # fmt: skip
ENVIRONMENT_DROPPED = entry(
    "DEV008", D, "warning",
    "compose environment is not sent to the device",
    "The CLI does not pass a service's environment to the device: the container "
    "gets the image's ENV instead.",
    f"{_VIEW} (environments: fail on what the view proves, warn on what it cannot see)",
    "services: {app: {build: ., environment: {MODEL: llama3}}}",
)  # fmt: skip
APP_SETTING_LOST = entry(
    "DEV009", D, "warning",
    "an app-level wendy.json setting is lost on the multi-service path",
    "On the multi-service path each service is deployed from its own entry: what "
    "is given to the app as a whole (an entitlement, readiness, a Dockerfile at "
    "the root) reaches no container.",
    f"{_PATHS} (the multi-service path)",
    '{"appId": "x", "entitlements": [{"type": "gpu"}], "services": {"a": {"context": "a"}}}',
)  # fmt: skip
RUN_ARGS_UNUSED = entry(
    "DEV010", D, "warning",
    "run.args is never added to the container's argv",
    "Only the macOS SwiftPM and Xcode paths read run.args; a container runs its "
    "image's ENTRYPOINT and CMD.",
    f"{_PATHS} (wendy.json as the CLI decodes it)",
    '{"appId": "x", "run": {"args": ["--port", "8000"]}}',
)  # fmt: skip
IMAGE_UNUSED = entry(
    "DEV011", D, "warning",
    "a built service's image name is not used on a device",
    "A service with build is built on the device and named after the project and "
    "service; its image key names nothing there.",
    f"{_VIEW} (the compose path: each app)",
    "services: {app: {build: ., image: me/app:1}}",
)  # fmt: skip
BUILD_UNSUPPORTED = entry(
    "DEV012", D, "error",
    "a build setting the Wendy CLI cannot build",
    "The CLI builds from the context's Dockerfile only: a build of another form or "
    "a custom dockerfile name fails wendy run.",
    f"{_VIEW} (the compose path: each app)",
    "services: {app: {build: {context: ., dockerfile: Other.Dockerfile}}}",
)  # fmt: skip
NOT_INTERPOLATED = entry(
    "DEV013", D, "warning",
    "a ${VAR} that the Wendy CLI does not interpolate",
    "Docker Compose replaces ${VAR}; the CLI does not, so the device gets the "
    "literal text.",
    f"{_VIEW} (the compose path: where Docker Compose and a device differ)",
    "services: {app: {image: 'vllm:${TAG}'}}",
)  # fmt: skip
BUILD_ARG_NO_VALUE = entry(
    "DEV014", D, "warning",
    "a build arg without a value",
    "Docker Compose takes a valueless build arg from the environment; the device "
    "gets Go's empty string.",
    f"{_PATHS} (device profiles and build args)",
    "services: {app: {build: {context: ., args: {TOKEN: }}}}",
)  # fmt: skip
REMOTE_CONTEXT = entry(
    "DEV015", D, "warning",
    "a remote build context is read as a local directory",
    "Docker Compose builds from a git URL; the CLI joins it under the project as "
    "a directory, which the render does not hold.",
    f"{_VIEW} (the compose path: where Docker Compose and a device differ)",
    "services: {app: {build: https://github.com/me/app.git}}",
)  # fmt: skip
ITEM_DROPPED = entry(
    "DEV016", D, "warning",
    "a list item of another kind is dropped by the Wendy CLI",
    "Where the CLI reads a list of strings, an item of another kind is dropped "
    "(Docker Compose refuses the file instead).",
    f"{_VIEW} (the compose path: the YAML as go-yaml v3 reads it)",
    "services: {app: {image: x, ports: [{target: 80}]}}",
)  # fmt: skip
LONG_SYNTAX = entry(
    "DEV017", D, "error",
    "a long-syntax entry where the Wendy CLI reads strings",
    "The CLI reads ports and volumes as strings: a long-syntax mapping fails the "
    "load of the whole compose file.",
    f"{_VIEW} (the compose path: the YAML as go-yaml v3 reads it)",
    "services: {app: {image: x, volumes: [{type: volume, source: d, target: /d}]}}",
)  # fmt: skip
COMMAND_NOT_READ = entry(
    "DEV018", D, "warning",
    "a command or entrypoint the Wendy CLI does not read",
    "The CLI reads command as a string or list of strings; another kind gives no "
    "command, so the image's ENTRYPOINT and CMD run.",
    f"{_VIEW} (the compose path: each app)",
    "services: {app: {image: x, command: {run: serve}}}",
)  # fmt: skip
DEPENDENCY_CYCLE = entry(
    "DEV019", D, "warning",
    "depends_on forms a cycle",
    "The CLI ignores the cycle, so which of its services is created first changes "
    "from run to run.",
    f"{_VIEW} (the compose path: creation order)",
    "services: {a: {image: x, depends_on: [b]}, b: {image: x, depends_on: [a]}}",
)  # fmt: skip
COMMAND_SPLIT = entry(
    "DEV020", D, "warning",
    "the command is split differently on a device",
    "The CLI splits a command string itself (quotes grouped, no backslash escapes); "
    "the device may run other words than Docker Compose.",
    f"{_VIEW} (the compose path: where Docker Compose and a device differ)",
    "services: {app: {image: x, command: 'sh -c \"echo a\\ b\"'}}",
)  # fmt: skip
ENTRYPOINT_REPLACED = entry(
    "DEV021", D, "warning",
    "the image's ENTRYPOINT does not run on a device",
    "The CLI's command replaces ENTRYPOINT and CMD: an entrypoint script the image "
    "relies on is skipped.",
    f"{_VIEW} (the compose path: where Docker Compose and a device differ)",
    "an image with ENTRYPOINT [\"/entrypoint.sh\"] and compose command: serve",
)  # fmt: skip
BUILD_ARG_NOT_INJECTED = entry(
    "DEV022", D, "warning",
    "a Dockerfile ARG the device never passes",
    "The CLI passes only its own build args (and the service's): an ARG the "
    "Dockerfile expects from elsewhere keeps its default, or is empty.",
    f"{_PATHS} (device profiles and build args)",
    "ARG CUDA_VERSION with no default, and no build arg giving it",
)  # fmt: skip
PORT_DIFFERS = entry(
    "DEV023", D, "warning",
    "a port is published differently on a device",
    "The CLI parses each ports entry with its own rules (fmt.Sscanf into 1..65535); "
    "where its reading differs from Docker Compose's, the device publishes other "
    "ports or none.",
    f"{_VIEW} (the compose path: where Docker Compose and a device differ)",
    "services: {app: {image: x, ports: ['127.0.0.1:8000:80']}}",
)  # fmt: skip
VOLUME_DIFFERS = entry(
    "DEV024", D, "warning",
    "a volume is mounted differently on a device",
    "The device mounts only named volumes as persist entitlements: bind mounts, "
    "anonymous volumes, ~ paths and modes are not what Docker Compose mounts.",
    f"{_VIEW} (the compose path: where Docker Compose and a device differ)",
    "services: {app: {image: x, volumes: ['./data:/data']}}",
)  # fmt: skip
RESTART_UNKNOWN = entry(
    "DEV025", D, "warning",
    "a restart policy the Wendy CLI does not know",
    "The device runs the container with its default restart policy instead.",
    f"{_VIEW} (the compose path: where Docker Compose and a device differ)",
    "services: {app: {image: x, restart: on-failure:3}}",
)  # fmt: skip
ENV_CONTRADICTS = entry(
    "DEV026", D, "error",
    "compose environment contradicts the image's ENV",
    "Compose environment is not sent to a device: the container gets the image's "
    "value, which says otherwise than the compose file.",
    f"{_VIEW} (environments: fail on what the view proves, warn on what it cannot see)",
    "ENV PORT=8000 in the Dockerfile, environment: {PORT: '9000'} in compose",
)  # fmt: skip
ENV_FOREIGN_HOST = entry(
    "DEV027", D, "error",
    "an image ENV URL names a host that is no service of the app",
    "On a device the container talks to whatever that host name resolves to, not "
    "to a service of this app.",
    f"{_VIEW} (environments: fail on what the view proves, warn on what it cannot see)",
    "ENV OLLAMA_HOST=http://ollama:11434 with no service named ollama",
)  # fmt: skip
UNKNOWN_PROJECT = entry(
    "DEV028", D, "error",
    "wendy run finds no project type to build",
    "Without a compose file, wendy.json services or a known project file, wendy "
    "run has nothing to build and fails.",
    f"{_PATHS} (which path wendy run takes)",
    "a render holding only README.md",
)  # fmt: skip
NO_WENDY_JSON = entry(
    "DEV029", D, "warning",
    "no wendy.json: wendy run fails without a terminal",
    "Without wendy.json the CLI asks to create one; in CI (no terminal) it fails.",
    f"{_PATHS} (which path wendy run takes)",
    "a python project without wendy.json",
)  # fmt: skip
WENDY_JSON_REFUSED = entry(
    "DEV030", D, "error",
    "wendy run refuses wendy.json",
    "A wendy.json the CLI cannot decode or validate stops wendy run. When the "
    "wendy-json check reports it, the device check says it could not judge (DEV037).",
    f"{_PATHS} (wendy.json as the CLI decodes it)",
    '{"appId": 7}',
)  # fmt: skip
SERVICES_INVALID = entry(
    "DEV031", D, "error",
    "the wendy.json services cannot be deployed",
    "On the multi-service path the CLI orders services by dependsOn; a dependency "
    "it cannot resolve fails wendy run.",
    f"{_PATHS} (the multi-service path)",
    '{"services": {"a": {"context": "a", "dependsOn": ["b"]}}}',
)  # fmt: skip
SERVICE_NO_DOCKERFILE = entry(
    "DEV032", D, "error",
    "a wendy.json service's context has no Dockerfile",
    "Each service is built from its context's Dockerfile; without one wendy run "
    "fails to build it.",
    f"{_PATHS} (the multi-service path)",
    '{"services": {"a": {"context": "a"}}} and no a/Dockerfile',
)  # fmt: skip
ENTRY_MISSING = entry(
    "DEV033", D, "error",
    "the generated Dockerfile's entry file is not in the render",
    "For a python project wendy run generates a Dockerfile ending CMD [\"python\", "
    "entry]; without the entry (nor main.py) the container exits at once.",
    f"{_PATHS} (the single-container path)",
    "a python render without main.py",
)  # fmt: skip
NO_REQUIREMENTS = entry(
    "DEV034", D, "warning",
    "the generated Dockerfile installs nothing",
    "The generated python Dockerfile installs only from requirements.txt; other "
    "dependency files (pyproject.toml) are not read.",
    f"{_PATHS} (the single-container path)",
    "a python render with pyproject.toml and no requirements.txt",
)  # fmt: skip
COMPOSE_FILE_CHOICE = entry(
    "DEV035", D, "warning",
    "several compose files: wendy run reads one",
    "wendy run reads one compose file by its own order of names; another one beside "
    "it is not read, though Docker Compose may pick it.",
    f"{_VIEW} (the compose path: each app)",
    "a render holding both compose.yaml and docker-compose.yml",
)  # fmt: skip
READ_ONLY_ETC = entry(
    "DEV036", D, "error",
    "an entry script writes a file the device mounts read-only",
    "With host networking the device binds /etc/resolv.conf (and its kin) "
    "read-only: an entry script writing it fails there.",
    f"{_CLI}; docs/checks.md (build-time and run-time files)",
    "echo nameserver 1.1.1.1 > /etc/resolv.conf in the entry script",
)  # fmt: skip
NOT_JUDGED = entry(
    "DEV037", D, "note",
    "not judged: another check reports why",
    "The device view cannot judge a render whose compose file or wendy.json does "
    "not load, and Docker Compose refuses a service without image or build, or a "
    "depends_on naming no service, as the device does: the compose or wendy-json "
    "check reports that defect once, and this note names its code, so one defect "
    "costs one count and one suppression.",
    "docs/device-view.md",
    '{"appId": 7} (reported as WJS002; the device check notes DEV037)',
)  # fmt: skip
EXTENSION_UNREAD = entry(
    "DEV051", D, "warning",
    "an x-wendy key of the compose file is never read",
    "The Wendy CLI reads no x- key of a compose file: what x-wendy-entitlements (or "
    "another x-wendy key) asks for is never granted on a device. The compose path "
    "grants only host networking (ports or network_mode: host) and persist volumes "
    "(named volumes); an entitlement it grants anyway is not reported.",
    f"{_VIEW} (the compose path: where Docker Compose and a device differ)",
    "services: {app: {image: x, x-wendy-entitlements: [{type: gpu}]}}",
)  # fmt: skip
