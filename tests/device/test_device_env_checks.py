"""The device check's failures about environments: fail on what the view proves.

Compose ``environment`` is not sent to a device at the CLI revision of the
spec, so a container gets its image's ``ENV`` only.  A contradiction (the
image sets another value) and a URL to a service the app does not have are
failures; what the view cannot see (a key the image does not set) stays a
warning.  One small compose file per case; no template is involved.
"""

from __future__ import annotations

import pytest
from _device_helpers import COMPOSE, view

from wendy_llm.device import DeviceView
from wendy_llm.device.env_checks import loopback_route, parse_url


def dockerfile(*env: str) -> str:
    lines = "".join(f"ENV {e}\n" for e in env)
    return f'FROM ubuntu:24.04\n{lines}ENTRYPOINT ["/run.sh"]\n'


def errors(found: DeviceView) -> list[tuple[str | None, int | None, str]]:
    return [(f.file, f.line, f.message) for f in found.errors]


def warnings(found: DeviceView) -> list[str]:
    return [f.message for f in found.findings if f.severity == "warning"]


def test_an_image_value_contradicting_compose_fails_at_the_compose_key() -> None:
    found = view(
        "services:\n  llm:\n    build: ./llm\n    environment:\n"
        '      PORT: "80"\n      MODEL: "big:7b"\n',
        {"llm/Dockerfile": dockerfile("PORT=80", "MODEL=small:1b")},
    )
    ((file, line, message),) = errors(found)
    assert (file, line) == (COMPOSE, 6)
    assert message.startswith('services.llm.environment.MODEL is "big:7b", but the image ')
    assert '(llm/Dockerfile:3) sets MODEL="small:1b"' in message
    assert 'on a device the container runs with "small:1b"' in message
    # The contradiction is the error; the environment item adds no warning.
    assert warnings(found) == []


def test_a_contradiction_in_list_form_is_located_at_the_environment_key() -> None:
    found = view(
        "services:\n  llm:\n    build: ./llm\n    environment:\n      - MODEL=big\n",
        {"llm/Dockerfile": dockerfile("MODEL=small")},
    )
    ((file, line, _),) = errors(found)
    assert (file, line) == (COMPOSE, 4)


def test_an_environment_the_image_repeats_loses_nothing() -> None:
    found = view(
        'services:\n  llm:\n    build: ./llm\n    environment:\n      MODEL: "big"\n',
        {"llm/Dockerfile": dockerfile('MODEL="big"')},
    )
    assert found.findings == ()
    (item,) = found.ignored
    assert item.what == "services.llm.environment"
    assert "its image sets MODEL to the same value" in item.reason


def test_a_key_the_image_does_not_set_is_a_warning_not_a_failure() -> None:
    # The app's code may default it (e.g. a URL to 127.0.0.1): unseen here.
    found = view(
        # (ports: a network, which talking to the broker needs on a device)
        "services:\n  broker:\n    image: eclipse-mosquitto\n  sim:\n    build: ./sim\n"
        "    ports: ['9000:9000']\n"
        '    environment:\n      MQTT_URL: "mqtt://broker:1883"\n',
        {"sim/Dockerfile": dockerfile("NODE_ENV=production")},
    )
    assert found.errors == ()
    (warning,) = [w for w in warnings(found) if "services.sim.environment" in w]
    assert "its Dockerfile does not set MQTT_URL" in warning


def test_a_value_that_varies_by_device_is_a_warning() -> None:
    text = (
        'FROM ubuntu:24.04\nARG WENDY_GPU_VENDOR=none\nENV VENDOR=${WENDY_GPU_VENDOR}\nCMD ["x"]\n'
    )
    found = view(
        'services:\n  app:\n    build: ./app\n    environment:\n      VENDOR: "nvidia"\n',
        {"app/Dockerfile": text},
    )
    assert found.errors == ()
    assert any("VENDOR vary by device" in w for w in warnings(found))


def test_the_loopback_route_to_the_same_service_is_no_contradiction() -> None:
    found = view(
        "services:\n  api:\n    image: vllm/vllm\n  ui:\n    build: ./ui\n"
        "    ports: ['80:80']\n    environment:\n"
        '      API_URL: "http://api:8000/v1"\n',
        {"ui/Dockerfile": dockerfile("API_URL=http://127.0.0.1:8000/v1/")},
    )
    assert found.errors == ()
    (warning,) = [w for w in warnings(found) if "services.ui.environment" in w]
    assert "(the loopback route to the same service)" in warning


@pytest.mark.parametrize(
    ("compose", "image"),
    [
        ("http://api:8000/v1", "http://127.0.0.1:9000/v1"),  # another port
        ("http://api:8000/v1", "http://127.0.0.1:8000/v2"),  # another path
        ("http://elsewhere:8000/v1", "http://127.0.0.1:8000/v1"),  # not a service of the app
        ("http://api:8000/v1", "http://api.example.com:8000/v1"),  # not loopback
    ],
)
def test_other_differences_between_urls_are_contradictions(compose: str, image: str) -> None:
    assert not loopback_route(compose, image, {"api", "ui"})


def test_an_image_url_naming_no_service_of_the_app_fails_at_its_env_line() -> None:
    # Open WebUI's image still points at Ollama, in an app whose backend is vLLM.
    found = view(
        "services:\n  vllm:\n    build: ./vllm\n  ui:\n    build: ./ui\n",
        {
            "vllm/Dockerfile": dockerfile("X=1"),
            "ui/Dockerfile": dockerfile("PORT=8080", "OLLAMA_BASE_URL=http://ollama:11434"),
        },
    )
    ((file, line, message),) = errors(found)
    assert (file, line) == ("ui/Dockerfile", 3)
    assert message.startswith("ENV OLLAMA_BASE_URL=http://ollama:11434 (the image of service ui):")
    assert "ollama is no service of this app" in message
    assert "talks to a backend that is not there" in message
    assert "(the app's services: ui, vllm)" in message


@pytest.mark.parametrize(
    "url",
    [
        "http://vllm:8000/v1",  # a service of the app
        "http://127.0.0.1:11434",
        "http://localhost:11434",
        "https://api.openai.com/v1",  # a real host name
        "http://[::1]:8000",
        "/models/hf",  # not a URL
        "0.0.0.0:11434",
    ],
)
def test_urls_the_app_can_reach_or_cannot_judge_pass(url: str) -> None:
    found = view(
        "services:\n  vllm:\n    build: ./vllm\n",
        {"vllm/Dockerfile": dockerfile(f"URL={url}")},
    )
    assert found.errors == ()


def test_a_backend_url_per_device_is_checked_on_every_device() -> None:
    text = (
        "FROM ubuntu:24.04\nARG WENDY_GPU_VENDOR=cpu\n"
        'ENV BACKEND=http://llm-${WENDY_GPU_VENDOR}:8000\nCMD ["x"]\n'
    )
    found = view(
        "services:\n  llm-cpu:\n    image: x/cpu\n  ui:\n    build: ./ui\n",
        {"ui/Dockerfile": text},
    )
    # llm-cpu exists (a device that reports no vendor); llm-nvidia does not.
    ((file, line, message),) = errors(found)
    assert (file, line) == ("ui/Dockerfile", 3)
    assert "llm-nvidia is no service of this app" in message


def test_parse_url() -> None:
    url = parse_url("HTTP://User@Ollama:11434/api/")
    assert url is not None
    assert (url.scheme, url.host, url.port, url.rest) == ("http", "ollama", "11434", "/api")
    assert parse_url("not a url") is None
