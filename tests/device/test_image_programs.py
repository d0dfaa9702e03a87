"""The four real cases of issue 35, judged by the image model and the program resolver.

Each fixture is shaped like the template it comes from; each is reported by
program or variable, at its file and line, and goes quiet when fixed the
way the template's authors did.
"""

from __future__ import annotations

from _device_helpers import view

from wendy_llm.device import DeviceFinding, DeviceView
from wendy_llm.device.runtime.model import Resolution

COMPOSE = "services:\n  api:\n    build: ./api\n    ports: ['8000:8000']\n"
VENV = """FROM python:3.11-slim
WORKDIR /app
RUN python3 -m venv /app/venv
ENV PATH="/app/venv/bin:$PATH"
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY app.py .
CMD ["uvicorn", "app:app", "--host", "0.0.0.0", "--port", "8000"]
"""


def coded(found: DeviceView, code: str) -> list[DeviceFinding]:
    return [f for f in found.findings if f.code == code]


def programs(found: DeviceView, service: str = "api") -> tuple[Resolution, ...]:
    (svc,) = [s for s in found.services if s.name == service]
    assert svc.runtime is not None
    return svc.runtime.programs


# --- 1. a console script in a virtualenv, run by bare name ----------------------


def venv_files(
    dockerfile: str = VENV, requirements: str = "fastapi\nuvicorn[standard]\n"
) -> dict[str, str]:
    return {"api/Dockerfile": dockerfile, "api/requirements.txt": requirements, "api/app.py": ""}


def test_a_venv_console_script_from_a_requirements_file_run_by_bare_name_fails() -> None:
    found = view(COMPOSE, venv_files())
    (error,) = coded(found, "DEV046")
    assert (error.file, error.line) == ("api/Dockerfile", 8)
    assert "runs uvicorn by bare name" in error.message
    assert "api/Dockerfile:4 adds to the image's PATH" in error.message
    assert "requirements.txt:2 (pip install -r) at line 6" in error.message
    (uvicorn,) = [r for r in programs(found) if r.program == "uvicorn"]
    assert (uvicorn.state, uvicorn.path, uvicorn.line) == ("image-path", "/app/venv/bin/uvicorn", 6)


def test_the_venv_case_goes_quiet_with_the_absolute_path_the_authors_wrote() -> None:
    fixed = VENV.replace('CMD ["uvicorn"', 'CMD ["/app/venv/bin/uvicorn"')
    found = view(COMPOSE, venv_files(fixed))
    assert coded(found, "DEV046") == [] and coded(found, "DEV047") == []
    (uvicorn,) = [r for r in programs(found) if r.program == "/app/venv/bin/uvicorn"]
    assert uvicorn.state == "unknown" or uvicorn.state == "found"


def test_a_console_script_named_unlike_its_package_is_likely_missing() -> None:
    dockerfile = VENV.replace(
        "RUN pip install --no-cache-dir -r requirements.txt",
        "RUN pip install --no-cache-dir httpie",
    ).replace(
        'CMD ["uvicorn", "app:app", "--host", "0.0.0.0", "--port", "8000"]',
        'CMD ["http", "--version"]',
    )
    found = view(COMPOSE, venv_files(dockerfile))
    (warning,) = coded(found, "DEV047")
    assert (warning.file, warning.line) == ("api/Dockerfile", 8)
    assert "runs http by bare name" in warning.message
    assert "received httpie at line 6: likely a console script" in warning.message
    fixed = dockerfile.replace('CMD ["http"', 'CMD ["/app/venv/bin/http"')
    assert coded(view(COMPOSE, venv_files(fixed)), "DEV047") == []


# --- 2. an entry script found by bare name ----------------------------------------

WEBUI = """FROM ghcr.io/open-webui/open-webui:main
COPY entrypoint.sh /usr/local/bin/wendy-webui-entrypoint
RUN chmod +x /usr/local/bin/wendy-webui-entrypoint
CMD ["wendy-webui-entrypoint"]
"""
ENTRY = """#!/bin/sh
if [ -n "$WENDY_DEVICE_HOSTNAME" ]; then
  export OLLAMA_BASE_URL="http://$WENDY_DEVICE_HOSTNAME:11434"
fi
exec bash start.sh
"""
WEBUI_COMPOSE = "services:\n  webui:\n    build: ./webui\n    ports: ['8080:8080']\n"


def test_an_entry_script_cmd_by_bare_name_is_followed_and_its_variable_judged() -> None:
    files = {"webui/Dockerfile": WEBUI, "webui/entrypoint.sh": ENTRY}
    found = view(WEBUI_COMPOSE, files)
    (warning,) = [f for f in coded(found, "DEV048") if "WENDY_DEVICE_HOSTNAME" in f.message]
    assert (warning.file, warning.line) == ("webui/entrypoint.sh", 2)
    assert "did you mean WENDY_HOSTNAME" in warning.message
    (entry,) = [r for r in programs(found, "webui") if r.program == "wendy-webui-entrypoint"]
    assert (entry.state, entry.path, entry.line) == (
        "found",
        "/usr/local/bin/wendy-webui-entrypoint",
        2,
    )
    fixed = {
        **files,
        "webui/entrypoint.sh": ENTRY.replace("WENDY_DEVICE_HOSTNAME", "WENDY_HOSTNAME"),
    }
    assert coded(view(WEBUI_COMPOSE, fixed), "DEV048") == []


# --- 3. a binary whose runtime the final image lacks ------------------------------

SWIFT = """FROM swift:6.0 AS build
WORKDIR /build
COPY . .
RUN swift build -c release
FROM debian:bookworm-slim
WORKDIR /app
COPY --from=build /build/.build/release/App /app/App
CMD ["./App"]
"""
SWIFT_COMPOSE = "services:\n  app:\n    build: ./app\n    ports: ['8080:8080']\n"


def test_a_swift_binary_copied_into_debian_slim_fails_at_its_copy() -> None:
    files = {"app/Dockerfile": SWIFT, "app/Package.swift": "", "app/Sources/App/main.swift": ""}
    found = view(SWIFT_COMPOSE, files)
    (error,) = coded(found, "DEV050")
    assert (error.file, error.line) == ("app/Dockerfile", 7)
    assert "runs /app/App, built at line 4: `swift build -c release`" in error.message
    assert "debian:bookworm-slim, has no the Swift runtime" not in error.message
    assert (
        "has no Swift runtime" in error.message
        or "the Swift runtime (libswiftCore.so" in error.message
    )
    fixed = {**files, "app/Dockerfile": SWIFT.replace("debian:bookworm-slim", "swift:6.0-slim")}
    assert coded(view(SWIFT_COMPOSE, fixed), "DEV050") == []
    static = SWIFT.replace("swift build -c release", "swift build -c release --static-swift-stdlib")
    assert coded(view(SWIFT_COMPOSE, {**files, "app/Dockerfile": static}), "DEV050") == []


def test_the_other_linked_families_fail_where_both_sides_are_known() -> None:
    go = (
        "FROM golang:1.23 AS build\nWORKDIR /src\nCOPY . .\n"
        "RUN CGO_ENABLED=1 go build -o /out/server .\n"
        'FROM scratch\nCOPY --from=build /out/server /server\nENTRYPOINT ["/server"]\n'
    )
    rust = (
        "FROM rust:1.82 AS build\nWORKDIR /src\nCOPY . .\nRUN cargo build --release\n"
        "FROM alpine:3.20\nCOPY --from=build /src/target/release/app /usr/local/bin/app\n"
        'CMD ["app"]\n'
    )
    dotnet = (
        "FROM mcr.microsoft.com/dotnet/sdk:8.0 AS build\nWORKDIR /src\nCOPY . .\n"
        "RUN dotnet publish -c Release -o /out\n"
        "FROM mcr.microsoft.com/dotnet/runtime-deps:8.0\nCOPY --from=build /out /app\n"
        'ENTRYPOINT ["/app/Api"]\n'
    )
    for dockerfile, lacks in (
        (go, "glibc"),
        (rust, "glibc (it has musl)"),
        (dotnet, ".NET runtime"),
    ):
        found = view(SWIFT_COMPOSE, {"app/Dockerfile": dockerfile, "app/main": ""})
        (error,) = coded(found, "DEV050")
        assert lacks in error.message, error.message
    fixed = go.replace("CGO_ENABLED=1", "CGO_ENABLED=0")
    assert coded(view(SWIFT_COMPOSE, {"app/Dockerfile": fixed}), "DEV050") == []


# --- 4. an interpreter the image does not have --------------------------------------

ALPINE = """FROM alpine:3.20
COPY --chmod=755 start.sh /start.sh
ENTRYPOINT ["/start.sh"]
"""
ALPINE_COMPOSE = "services:\n  job:\n    build: ./job\n    network_mode: host\n"


def test_a_bash_shebang_on_alpine_without_bash_fails_at_the_shebang() -> None:
    files = {"job/Dockerfile": ALPINE, "job/start.sh": "#!/bin/bash\nexec sleep 1\n"}
    found = view(ALPINE_COMPOSE, files)
    (error,) = coded(found, "DEV049")
    assert (error.file, error.line) == ("job/start.sh", 1)
    assert "runs /bin/bash (job/start.sh:1)" in error.message
    assert "alpine:3.20 has no bash" in error.message
    installed = ALPINE.replace("COPY", "RUN apk add --no-cache bash\nCOPY")
    assert coded(view(ALPINE_COMPOSE, {**files, "job/Dockerfile": installed}), "DEV049") == []
    env = {**files, "job/start.sh": "#!/usr/bin/env bash\nexec sleep 1\n"}
    assert coded(view(ALPINE_COMPOSE, env), "DEV049")


def test_plan_shows_how_each_program_resolves() -> None:
    found = view(COMPOSE, venv_files())
    states = {(r.program, r.state) for r in programs(found)}
    assert ("uvicorn", "image-path") in states


def test_a_script_the_entry_script_runs_is_followed_too() -> None:
    dockerfile = WEBUI.replace(
        "COPY entrypoint.sh", "COPY --chmod=755 helper.sh /app/helper.sh\nCOPY entrypoint.sh"
    )
    entry = "#!/bin/sh\n/app/helper.sh\nexec bash start.sh\n"
    helper = '#!/bin/sh\necho "host: ${WENDY_DEVICE_HOSTNAME:-none}"\n'
    files = {
        "webui/Dockerfile": dockerfile,
        "webui/entrypoint.sh": entry,
        "webui/helper.sh": helper,
    }
    (warning,) = coded(view(WEBUI_COMPOSE, files), "DEV048")
    assert (warning.file, warning.line) == ("webui/helper.sh", 2)
