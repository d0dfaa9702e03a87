"""Codes of ``device`` about the container at run time (the agent's environment,
network, persist mounts and process): what the render asks of a container
that a WendyOS device runs otherwise."""

from __future__ import annotations

from wendy_llm.codes.model import Check, entry
from wendy_llm.wendycli import REVISION

_RUN = f"Wendy CLI {REVISION}; docs/device-paths.md (The container at run time)"
D = Check.DEVICE

SMALL_SHM = entry(
    "DEV038", D, "warning",
    "a service that shares tensors through a small /dev/shm",
    "vLLM and PyTorch workers share memory through /dev/shm, which a device keeps "
    "small and nothing in wendy.json or compose can raise: they can fail or stall.",
    _RUN,
    "services: {vllm: {build: ., command: vllm serve model}}",
)  # fmt: skip
NOT_EXECD = entry(
    "DEV039", D, "warning",
    "the entry script's last command is not exec'd",
    "The shell stays PID 1 and keeps the SIGTERM a stop sends, so the program is "
    "killed at the end of the grace period instead of stopping cleanly.",
    _RUN,
    "#!/bin/sh\nollama serve   (not: exec ollama serve)",
)  # fmt: skip
USER_IGNORED = entry(
    "DEV040", D, "warning",
    "a Dockerfile USER the device does not run as",
    "Every process runs as root on a device: files and a home the build makes for "
    "another user are not the process's.",
    _RUN,
    "RUN useradd app && chown -R app /data\nUSER app",
)  # fmt: skip
HOST_PORT_UNUSED = entry(
    "DEV041", D, "warning",
    "a published host port nothing listens on under host networking",
    "The agent publishes no port and runs host networking: the service is reachable "
    "on its container port, not on the host side of the mapping.",
    _RUN,
    "services: {web: {image: x, ports: ['3000:8080']}}",
)  # fmt: skip
NO_NETWORK = entry(
    "DEV042", D, "error",
    "a service that needs the network has no network entitlement",
    "Without one, the container runs in a network namespace of its own with only "
    "loopback: no internet, no other service, though its render needs them.",
    _RUN,
    "a service without ports whose entry script runs curl https://...",
)  # fmt: skip
PERSIST_HIDES = entry(
    "DEV043", D, "warning",
    "a persist volume hides what the image puts under it",
    "The persist folder is bind-mounted over the path, empty the first time and not "
    "filled from the image: what the Dockerfile puts there is hidden on a device.",
    _RUN,
    "COPY models /data/models and a persist volume at /data",
)  # fmt: skip
VOLUME_SHARED = entry(
    "DEV044", D, "warning",
    "a persist volume whose name carries neither the project's nor the app's",
    "Persist volumes are shared by name by every app of the device: another app "
    "naming it sees the same folder. One rule on every path: the project directory's "
    "name (wendy init names it after the app id) or the app's.",
    _RUN,
    "volumes: {data: {}} (not: my-app-data)",
)  # fmt: skip
NOEXEC_PERSIST = entry(
    "DEV045", D, "error",
    "a program run from under a persist path",
    "The agent mounts persist folders noexec: a program there cannot be executed on "
    "a device.",
    _RUN,
    "command: /data/bin/server with a persist volume at /data",
)  # fmt: skip
PATH_SHADOWED = entry(
    "DEV046", D, "error",
    "a program run by bare name that only the image's PATH finds",
    "On a device the agent's PATH comes after the image's ENV and wins: a program "
    "installed only where the image's PATH points is not found.",
    _RUN,
    "ENV PATH=/opt/venv/bin:$PATH and command: uvicorn app:main",
)  # fmt: skip
PATH_SHADOWED_MAYBE = entry(
    "DEV047", D, "warning",
    "a program run by bare name that only the image's PATH may find",
    "As DEV046, where it is likely rather than certain: the base image's unseen "
    "ENTRYPOINT may run it, or it is no default-PATH program while a virtualenv or "
    "prefix only the image's PATH names received packages (a console script named "
    "unlike its package, such as httpie's http).",
    _RUN,
    "ENV PATH=/app/venv/bin:$PATH, pip install httpie and CMD [\"http\", ...]",
)  # fmt: skip
VARIABLE_UNSET = entry(
    "DEV048", D, "warning",
    "an entry script reads a variable the container does not get",
    "The name is in neither the image's ENV nor the agent's environment (a typo of "
    "a Wendy name, or a compose environment that is not sent): it is empty there.",
    _RUN,
    'echo "$WENDY_HOST_NAME"  (the agent sets WENDY_HOSTNAME)',
)  # fmt: skip
PROGRAM_ABSENT = entry(
    "DEV049", D, "error",
    "a program or script interpreter the image does not have",
    "The image model is certain nothing provides it: the base image is documented "
    "without it (docs/base-images.md) and no instruction installs it, so the "
    "container exits at once.",
    _RUN + "; docs/base-images.md",
    "#!/bin/bash on FROM alpine:3.20 with no apk add bash",
)  # fmt: skip
RUNTIME_MISSING = entry(
    "DEV050", D, "error",
    "a binary whose run-time libraries the final image lacks",
    "A binary built in one stage links a runtime dynamically (the Swift runtime, "
    "glibc, the .NET runtime, by its toolchain's documented default) and the stage "
    "that runs it is based on an image documented without it: it cannot start.",
    "docs/base-images.md (toolchain defaults)",
    "swift build -c release in FROM swift:6.0, copied into FROM debian:bookworm-slim",
)  # fmt: skip
