"""The checks judged by the container's runtime (Wendy run facts, section 9).

Each rule has a fixture with the defect (the finding is there) and the
same fixture fixed (it is gone); every message names section 9.
"""

from __future__ import annotations

import pytest
from _device_helpers import view

from wendy_llm.device import DeviceView
from wendy_llm.validate.checks.device import build_view

SECTION = "(Wendy run facts, section 9"
VENV_DOCKERFILE = """FROM python:3.12-slim
RUN python -m venv /opt/venv && /opt/venv/bin/pip install "uvicorn[standard]==0.30"
ENV PATH=/opt/venv/bin:$PATH
{extra}COPY run.sh /usr/local/bin/run.sh
RUN chmod +x /usr/local/bin/run.sh
ENTRYPOINT ["/usr/local/bin/run.sh"]
"""
COMPOSE = "services:\n  api:\n    build: ./api\n    ports: ['80:80']\n"


def api(script: str, *, extra: str = "", compose: str = COMPOSE, **more: str) -> DeviceView:
    files = {
        "api/Dockerfile": VENV_DOCKERFILE.format(extra=extra),
        "api/run.sh": script,
        **more,
    }
    return view(compose, files)


def hits(found: DeviceView, severity: str, *words: str) -> list[str]:
    out = [
        f.message
        for f in found.findings
        if f.severity == severity and all(w in f.message for w in words)
    ]
    assert all(SECTION in m for m in out), out
    return out


# --- a program found only through the image's own PATH: a failure -----------


def test_a_venv_program_called_bare_by_the_entry_script_fails() -> None:
    found = api("#!/bin/sh\nexec uvicorn app:app --port 80\n")
    (message,) = hits(found, "error", "runs uvicorn by bare name")
    assert "only into /opt/venv/bin, which api/Dockerfile:3 adds to the image's PATH" in message
    assert "Run it as /opt/venv/bin/uvicorn, or symlink it into /usr/local/bin" in message
    (error,) = found.errors
    assert (error.file, error.line) == ("api/run.sh", 2)


def test_the_same_program_by_absolute_path_or_linked_passes() -> None:
    absolute = api("#!/bin/sh\nexec /opt/venv/bin/uvicorn app:app --port 80\n")
    assert hits(absolute, "error", "by bare name") == []
    link = "RUN ln -s /opt/venv/bin/uvicorn /usr/local/bin/uvicorn\n"
    linked = api("#!/bin/sh\nexec uvicorn app:app --port 80\n", extra=link)
    assert hits(linked, "error", "by bare name") == []


def test_an_exec_form_cmd_naming_the_program_bare_fails() -> None:
    dockerfile = VENV_DOCKERFILE.format(extra="").replace(
        'ENTRYPOINT ["/usr/local/bin/run.sh"]', 'CMD ["uvicorn", "app:app"]'
    )
    # python:* is documented without an ENTRYPOINT (docs/base-images.md): the CMD is the argv.
    found = view(COMPOSE, {"api/Dockerfile": dockerfile, "api/run.sh": ""})
    assert hits(found, "error", "runs uvicorn by bare name (its argv ['uvicorn'")
    # A base image nobody documents may have an ENTRYPOINT: the CMD is judged, as a warning.
    unseen = dockerfile.replace("FROM python:3.12-slim", "FROM example.org/team/python:3.12")
    found = view(COMPOSE, {"api/Dockerfile": unseen, "api/run.sh": ""})
    (message,) = hits(found, "warning", "runs uvicorn by bare name (its argv ['uvicorn'")
    assert "(unless the base image's unseen ENTRYPOINT runs it)" in message
    entrypoint = unseen.replace("CMD [", "ENTRYPOINT [")
    found = view(COMPOSE, {"api/Dockerfile": entrypoint})
    assert hits(found, "error", "runs uvicorn by bare name (its argv ['uvicorn'")
    fixed = view(
        COMPOSE, {"api/Dockerfile": dockerfile.replace('["uvicorn"', '["/opt/venv/bin/uvicorn"')}
    )
    assert hits(fixed, "error", "by bare name") == []


def test_a_shell_form_cmd_is_judged_by_its_first_word() -> None:
    dockerfile = VENV_DOCKERFILE.format(extra="").replace(
        'ENTRYPOINT ["/usr/local/bin/run.sh"]', "CMD uvicorn app:app --port 80"
    )
    found = view(COMPOSE, {"api/Dockerfile": dockerfile})
    assert hits(found, "error", "runs uvicorn by bare name (its shell-form command")
    fixed = dockerfile.replace("CMD uvicorn", "CMD /opt/venv/bin/uvicorn")
    assert hits(view(COMPOSE, {"api/Dockerfile": fixed}), "error", "by bare name") == []


def test_a_program_the_base_image_may_hold_is_not_judged() -> None:
    # python3 is not installed into the venv by anything the render shows.
    found = api("#!/bin/sh\nexec python3 -m http.server 80\n")
    assert found.errors == ()


# --- variables the container will not have: a warning ------------------------


def test_a_variable_nothing_sets_is_a_warning_with_its_near_name() -> None:
    found = api('#!/bin/sh\necho "$WENDY_DEVICE_HOSTNAME"\nexec /opt/venv/bin/uvicorn a:a\n')
    (message,) = hits(found, "warning", "reads $WENDY_DEVICE_HOSTNAME")
    assert "did you mean WENDY_HOSTNAME, which the container has?" in message
    fixed = api('#!/bin/sh\necho "$WENDY_HOSTNAME"\nexec /opt/venv/bin/uvicorn a:a\n')
    assert hits(fixed, "warning", "reads $") == []


def test_a_variable_read_with_a_default_is_fine() -> None:
    found = api(
        '#!/bin/sh\nport="${API_PORT:-80}"\nexec /opt/venv/bin/uvicorn a:a --port "$port"\n'
    )
    assert hits(found, "warning", "reads $") == []


def test_a_build_arg_not_copied_into_env_is_read_empty() -> None:
    script = '#!/bin/sh\necho "${WENDY_PLATFORM:-none}"\nexec /opt/venv/bin/uvicorn a:a\n'
    (message,) = hits(api(script), "warning", "reads $WENDY_PLATFORM (with a default)")
    assert "is a build arg, which exists at run time only where the Dockerfile copies it" in message
    copied = "ARG WENDY_PLATFORM\nENV WENDY_PLATFORM=$WENDY_PLATFORM\n"
    assert hits(api(script, extra=copied), "warning", "reads $") == []


# --- the process: /dev/shm, exec, USER --------------------------------------


def test_vllm_gets_a_64_mib_dev_shm_warning() -> None:
    found = api("#!/bin/sh\nexec vllm serve org/model --port 80\n")
    (message,) = hits(found, "warning", "service api runs vLLM, and its /dev/shm is 64 MiB")
    assert "--ipc=host or a larger --shm-size" in message
    plain = api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n")
    assert hits(plain, "warning", "/dev/shm") == []
    # Issue 37: at the line that makes it run vLLM: the script's command ...
    (shm,) = [f for f in found.findings if f.code == "DEV038"]
    assert (shm.file, shm.line) == ("api/run.sh", 2)


def test_the_dev_shm_warning_of_a_vllm_image_is_at_its_from_line() -> None:
    """... else the Dockerfile line naming vLLM: here the FROM of its image (issue 37)."""
    dockerfile = "# vLLM\nARG TAG=1\nFROM vllm/vllm-openai:${TAG}\nCOPY app /app\n"
    compose = "services:\n  llm:\n    build: ./llm\n    ports: ['8000:8000']\n"
    found = view(compose, {"llm/Dockerfile": dockerfile, "llm/app": "x"})
    (shm,) = [f for f in found.findings if f.code == "DEV038"]
    assert (shm.file, shm.line) == ("llm/Dockerfile", 3)


def test_a_last_command_not_execd_is_a_warning_naming_the_line() -> None:
    found = api("#!/bin/sh\necho start\n/opt/venv/bin/uvicorn a:a --port 80\n")
    (message,) = hits(found, "warning", "last command (/opt/venv/bin/uvicorn a:a --port 80)")
    assert "killed 10 s later" in message
    line = next(f.line for f in found.findings if message == f.message)
    assert line == 3
    execd = api("#!/bin/sh\necho start\nexec /opt/venv/bin/uvicorn a:a --port 80\n")
    assert hits(execd, "warning", "is not exec'd") == []
    trapped = api("#!/bin/sh\ntrap 'kill $pid' TERM\n/opt/venv/bin/uvicorn a:a &\npid=$!\nwait\n")
    assert hits(trapped, "warning", "is not exec'd") == []


def test_a_user_the_build_makes_files_for_is_a_warning() -> None:
    extra = "RUN useradd -m app && chown -R app /srv\nUSER app\n"
    found = api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n", extra=extra)
    (message,) = hits(found, "warning", "USER app is ignored on a device")
    assert "runs every process as root" in message
    assert hits(api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n"), "warning", "USER") == []


# --- networking and persist ---------------------------------------------------


def test_a_mapping_whose_sides_differ_names_the_files_that_point_at_the_host_side() -> None:
    compose = "services:\n  api:\n    build: ./api\n    ports: ['8080:80']\n"
    wendy = '{"readiness": {"tcpSocket": {"port": 8080}}}'
    found = api(
        "#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n", compose=compose, **{"wendy.json": wendy}
    )
    (message,) = hits(found, "warning", 'ports "8080:80"')
    assert "reachable on 80 (the container side) and nothing listens on 8080" in message
    assert message.endswith("; wendy.json points at 8080")
    assert hits(api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n"), "warning", 'ports "') == []


@pytest.mark.parametrize(
    ("script", "needs"),
    [
        (
            "#!/bin/sh\ncurl -fsS https://example.com/m.bin -o /m.bin\n"
            "exec /opt/venv/bin/uvicorn a:a\n",
            "curl",
        ),
        ("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n", None),
    ],
)
def test_a_service_without_network_that_downloads_fails(script: str, needs: str | None) -> None:
    found = api(script, compose="services:\n  api:\n    build: ./api\n")
    errors = hits(found, "error", "has no network entitlement")
    if needs is None:
        assert errors == []
    else:
        (message,) = errors
        assert needs in message and "only loopback" in message
        networked = api(script)
        assert hits(networked, "error", "has no network entitlement") == []


def test_a_service_without_network_that_names_another_service_fails() -> None:
    compose = (
        "services:\n  api:\n    build: ./api\n"
        "  db:\n    image: postgres\n    ports: ['5432:5432']\n"
    )
    extra = "ENV DATABASE_URL=postgres://db:5432/app\n"
    found = api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n", extra=extra, compose=compose)
    (message,) = hits(found, "error", "service api has no network entitlement")
    assert "its ENV DATABASE_URL=postgres://db:5432/app (service db)" in message


def test_a_persist_path_over_what_the_image_put_there_is_a_warning() -> None:
    compose = COMPOSE + "    volumes: ['demo-app:/usr/local/bin']\n"
    found = api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n", compose=compose)
    (message,) = hits(
        found, "warning", "persist volume demo-app is bind-mounted over /usr/local/bin"
    )
    assert "/usr/local/bin/run.sh at line 4) is hidden on a device" in message
    other = api(
        "#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n",
        compose=COMPOSE + "    volumes: ['demo-app:/data']\n",
    )
    assert hits(other, "warning", "is hidden on a device") == []


def test_a_program_run_from_under_a_persist_path_fails() -> None:
    compose = COMPOSE + "    volumes: ['demo-tools:/tools']\n"
    found = api("#!/bin/sh\nexec /tools/server --port 80\n", compose=compose)
    (message,) = hits(found, "error", "runs /tools/server, which is under the persist path /tools")
    assert "noexec" in message
    fixed = api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n", compose=compose)
    assert hits(fixed, "error", "under the persist path") == []


def test_a_volume_name_without_the_app_name_is_a_warning() -> None:
    compose = COMPOSE + "    volumes: ['models:/models']\n"
    found = api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n", compose=compose)
    (message,) = hits(
        found, "warning", "volume models carries neither the project's nor the app's name (demo"
    )
    assert "shared by name by every app of the device" in message
    named = api(
        "#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n",
        compose=COMPOSE + "    volumes: ['demo-models:/models']\n",
    )
    assert hits(named, "warning", "carries neither") == []


def persist_views(volume: str) -> tuple[DeviceView, DeviceView]:
    """The same app in the project directory ``vision`` on the compose path and on the
    multi-service path (wendy.json app id ``vision-detector``, service ``detector``),
    its one persist volume named ``volume``."""
    dockerfile = 'FROM python:3.12-slim\nCMD ["python3", "-m", "http.server"]\n'
    compose = f"services:\n  detector:\n    build: ./detector\n    volumes: ['{volume}:/models']\n"
    wendy = (
        '{"appId": "vision-detector", "services": {"detector": {"context": "detector", '
        f'"entitlements": [{{"type": "persist", "name": "{volume}", "path": "/models"}}]}}}}}}\n'
    )
    tree = {"detector/Dockerfile": dockerfile.encode()}
    on_compose = build_view({**tree, "docker-compose.yml": compose.encode()}, "vision")
    multi = build_view({**tree, "wendy.json": wendy.encode()}, "vision")
    assert (on_compose.deploy, multi.deploy) == ("compose", "multi-service")
    return on_compose, multi


def test_a_volume_named_after_the_project_is_its_own_on_every_path() -> None:
    """Issue 35: one rule for both paths: a volume named after the project (the
    directory wendy init names after the app id) is the project's own, whatever app
    id its services get (here vision-detector-detector); a foreign name is not."""
    for found in persist_views("vision-models"):
        assert hits(found, "warning", "carries neither") == [], found.deploy
    for found in persist_views("models"):
        assert len(hits(found, "warning", "volume models carries neither")) == 1, found.deploy


def test_compose_environment_naming_another_service_shows_a_network_is_needed() -> None:
    # Not sent to the device, but it says what the service talks to.
    compose = (
        "services:\n  api:\n    build: ./api\n    environment:\n"
        "      MQTT_URL: mqtt://broker:1883\n"
        "  broker:\n    image: eclipse-mosquitto\n    ports: ['1883:1883']\n"
    )
    found = api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n", compose=compose)
    (message,) = hits(found, "error", "service api has no network entitlement")
    assert "its compose environment MQTT_URL=mqtt://broker:1883 (service broker)" in message
    networked = compose.replace("build: ./api\n", "build: ./api\n    ports: ['80:80']\n")
    found = api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n", compose=networked)
    assert hits(found, "error", "has no network entitlement") == []


def test_services_meeting_on_loopback_need_the_devices_network() -> None:
    # wendy.json services: the store has no network entitlement, so it is alone in
    # its namespace and the api's 127.0.0.1:6379 never reaches it.
    wendy = (
        '{"appId": "demo", "services": {'
        '"store": {"context": "./store"},'
        '"api": {"context": "./api", "entitlements": [{"type": "network"}]}}}'
    )
    files = {
        "wendy.json": wendy,
        "store/Dockerfile": 'FROM redis:7\nCOPY redis.conf /etc/redis.conf\nCMD ["redis-server"]\n',
        "store/redis.conf": "bind 127.0.0.1\nport 6379\n",
        "api/Dockerfile": (
            'FROM python:3.12-slim\nCOPY main.py /main.py\nCMD ["python", "/main.py"]\n'
        ),
        "api/main.py": 'import redis\nstore = redis.Redis(host="127.0.0.1", port=6379)\n',
    }
    tree = {path: text.encode() for path, text in files.items()}
    found = build_view(tree, "demo")
    (message,) = hits(found, "error", "service store has no network entitlement")
    assert "service api reaches loopback port 6379 (api/main.py:2), which it names" in message
    fixed = wendy.replace('"./store"}', '"./store", "entitlements": [{"type": "network"}]}')
    tree["wendy.json"] = fixed.encode()
    assert hits(build_view(tree, "demo"), "error", "has no network entitlement") == []


def test_a_run_that_writes_under_a_persist_path_is_hidden_there() -> None:
    extra = "RUN curl -fsSL https://example.com/m.bin -o /models/m.bin\n"
    compose = COMPOSE + "    volumes: ['demo-models:/models']\n"
    found = api("#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n", extra=extra, compose=compose)
    (message,) = hits(found, "warning", "persist volume demo-models is bind-mounted over /models")
    assert "(/models/m.bin at line 4) is hidden on a device" in message
    made = api(
        "#!/bin/sh\nexec /opt/venv/bin/uvicorn a:a\n",
        extra="RUN mkdir -p /models/cache\n",
        compose=compose,
    )
    assert hits(made, "warning", "is hidden on a device") == []


def test_a_shell_form_cmd_reading_an_unset_variable_warns_at_the_dockerfile() -> None:
    dockerfile = VENV_DOCKERFILE.format(extra="").replace(
        'ENTRYPOINT ["/usr/local/bin/run.sh"]',
        'ENTRYPOINT ["/bin/sh", "-c", "exec /opt/venv/bin/uvicorn a:a --port $APP_PORT"]',
    )
    found = view(COMPOSE, {"api/Dockerfile": dockerfile})
    (message,) = hits(found, "warning", "reads $APP_PORT (with no default")
    assert "unless the unseen ENV of python:3.12-slim sets it" in message
    fixed = dockerfile.replace("ENTRYPOINT [", "ENV APP_PORT=80\nENTRYPOINT [")
    assert hits(view(COMPOSE, {"api/Dockerfile": fixed}), "warning", "reads $") == []


def test_a_variable_the_script_sets_itself_is_fine() -> None:
    script = (
        '#!/bin/sh\nport=80\nfor name in a b; do echo "$name"; done\n'
        'exec /opt/venv/bin/uvicorn a:a --port "$port"\n'
    )
    assert hits(api(script), "warning", "reads $") == []


def test_a_script_ending_in_its_own_function_is_not_judged() -> None:
    script = "#!/bin/sh\nmain() {\n  exec /opt/venv/bin/uvicorn a:a\n}\nmkdir -p /tmp/x\nmain\n"
    assert hits(api(script), "warning", "is not exec'd") == []


def test_variables_set_by_printf_getopts_and_mapfile_are_the_scripts_own() -> None:
    script = (
        "#!/bin/bash\nprintf -v stamp '%s' now\ngetopts ab opt\nmapfile -t lines < /etc/hosts\n"
        'echo "$stamp $opt ${lines[0]}"\nexec /opt/venv/bin/uvicorn a:a\n'
    )
    assert hits(api(script), "warning", "reads $") == []


def test_a_script_that_sources_a_file_is_judged_on_wendy_names_only() -> None:
    script = (
        '#!/bin/sh\n. /etc/app.env\necho "$APP_TOKEN $WENDY_DEVICE_HOSTNAME"\n'
        "exec /opt/venv/bin/uvicorn a:a\n"
    )
    found = api(script)
    assert hits(found, "warning", "reads $APP_TOKEN") == []
    assert hits(found, "warning", "reads $WENDY_DEVICE_HOSTNAME")


def test_a_script_copied_into_the_workdir_is_read_as_the_entry_script() -> None:
    dockerfile = (
        "FROM python:3.12-slim\n"
        "RUN python -m venv /opt/venv && /opt/venv/bin/pip install gunicorn\n"
        "ENV PATH=/opt/venv/bin:$PATH\nWORKDIR /app\nCOPY start.sh .\n"
        'CMD ["bash", "/app/start.sh"]\n'
    )
    found = view(COMPOSE, {"api/Dockerfile": dockerfile, "api/start.sh": "exec gunicorn app\n"})
    (error,) = found.errors
    assert (error.file, error.line) == ("api/start.sh", 1)
    assert "runs gunicorn by bare name" in error.message
