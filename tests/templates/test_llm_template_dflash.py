"""The python/llm template's DFlash render: its Compose topology and
healthcheck, wendy.json, no trace of Ollama, and the vLLM image agreeing
with Compose and with the entrypoint scripts' defaults.
"""

from __future__ import annotations

import re

import pytest
from _llm_template_helpers import (
    APP_ID,
    DEFAULT_MODEL,
    PORT_CASES,
    PORT_IDS,
    SENTINEL,
    compose_seconds,
    dockerfile_env,
    dockerfile_instructions,
    parse_json,
    parse_yaml,
    render,
)

from wendy_llm.render.template import Template

DFLASH_API_KEY = "wendy-local-dflash"


# --- the DFlash render ------------------------------------------------------------


@pytest.mark.parametrize(("extra", "port"), PORT_CASES, ids=PORT_IDS)
def test_dflash_compose_topology(template: Template, extra: dict[str, str], port: int) -> None:
    tree = render(template, SENTINEL, extra)
    compose = parse_yaml(tree["docker-compose.yml"])
    assert "version" not in compose
    assert set(compose["services"]) == {"vllm", "open-webui"}
    assert compose["volumes"] == {f"{APP_ID}-hf": None, f"{APP_ID}-openwebui": None}

    vllm = dict(compose["services"]["vllm"])
    healthcheck = vllm.pop("healthcheck")
    assert vllm == {
        "build": "./vllm",
        "restart": "unless-stopped",
        "ports": ["8000:8000"],
        "volumes": [f"{APP_ID}-hf:/models"],
    }
    assert compose["services"]["open-webui"] == {
        "build": "./open-webui",
        "ports": [f"{port}:{port}"],
        "environment": {
            "PORT": str(port),
            "ENABLE_OLLAMA_API": "False",
            "ENABLE_OPENAI_API": "True",
            "OPENAI_API_BASE_URL": "http://vllm:8000/v1",
            "OPENAI_API_KEY": DFLASH_API_KEY,
            "DEFAULT_MODELS": "laguna-s-2.1",
        },
        "volumes": [f"{APP_ID}-openwebui:/data"],
        "depends_on": ["vllm"],
    }

    # The probe runs in the NGC image, which has python3 (not necessarily curl),
    # and hits vLLM's /health on the container's own port.
    test = healthcheck["test"]
    assert test[:3] == ["CMD", "python3", "-c"]
    assert "http://127.0.0.1:8000/health" in test[3]
    assert set(healthcheck) == {"test", "interval", "timeout", "retries", "start_period"}
    # The start period must cover a first start that downloads ~72GB: at least
    # an hour (72GB at 20 MB/s) before failures count.
    assert compose_seconds(healthcheck["start_period"]) >= 72e9 / 20e6
    assert compose_seconds(healthcheck["interval"]) <= 60
    assert compose_seconds(healthcheck["timeout"]) < compose_seconds(healthcheck["interval"])
    assert isinstance(healthcheck["retries"], int) and healthcheck["retries"] >= 1


def test_dflash_compose_has_no_trace_of_ollama(template: Template) -> None:
    text = render(template, SENTINEL, {})["docker-compose.yml"].decode()
    assert f"{APP_ID}-models" not in text
    # The only Ollama word left is Open WebUI's switch that turns its API off.
    assert re.findall(r"\w*ollama\w*", text, flags=re.IGNORECASE) == ["ENABLE_OLLAMA_API"]


@pytest.mark.parametrize(("extra", "port"), PORT_CASES, ids=PORT_IDS)
def test_dflash_wendy_json(template: Template, extra: dict[str, str], port: int) -> None:
    wendy = parse_json(render(template, SENTINEL, extra)["wendy.json"])
    assert wendy["appId"] == APP_ID
    assert wendy["services"] == {
        "vllm": {"context": "./vllm", "entitlements": [{"type": "gpu"}]},
        "open-webui": {"context": "./open-webui"},
    }
    assert wendy["readiness"] == {"tcpSocket": {"port": port}, "timeoutSeconds": 180}
    assert wendy["hooks"]["postStart"]["cli"].endswith(f":{port}")


def test_dflash_compose_and_vllm_image_agree(template: Template) -> None:
    tree = render(template, SENTINEL, {})
    env = dockerfile_env(tree["vllm/Dockerfile"].decode())
    webui = parse_yaml(tree["docker-compose.yml"])["services"]["open-webui"]["environment"]
    assert env["VLLM_API_KEY"] == webui["OPENAI_API_KEY"] == DFLASH_API_KEY
    assert env["SERVED_MODEL_NAME"] == webui["DEFAULT_MODELS"]
    assert env == {
        "HF_HOME": "/models/hf",
        "VLLM_TARGET_MODEL": "poolside/Laguna-S-2.1-NVFP4",
        "DFLASH_DRAFT_MODEL": "poolside/Laguna-S-2.1-DFlash",
        "SERVED_MODEL_NAME": "laguna-s-2.1",
        "API_PORT": "8000",
        "NUM_SPECULATIVE_TOKENS": "15",
        "MAX_MODEL_LEN": "131072",
        "GPU_MEMORY_UTILIZATION": "0.70",
        "VLLM_API_KEY": DFLASH_API_KEY,
        "TRUST_REMOTE_CODE": "0",
        "DFLASH_DISABLE": "0",
    }
    froms = [
        rest
        for keyword, rest in dockerfile_instructions(tree["vllm/Dockerfile"].decode())
        if keyword == "FROM"
    ]
    assert froms == ["nvcr.io/nvidia/vllm:26.06-py3"]


@pytest.mark.parametrize(
    ("service", "dockerfile", "script"),
    [
        ("vllm", "vllm/Dockerfile", "vllm/entrypoint.sh"),
        ("ollama", "ollama/Dockerfile", "ollama/entrypoint.sh"),
    ],
)
def test_entrypoint_defaults_match_the_image(
    template: Template, service: str, dockerfile: str, script: str
) -> None:
    # The script falls back to the same defaults as the image, so it behaves
    # the same when run bare (as the tests of its behaviour do).
    tree = render(template, SENTINEL if service == "vllm" else DEFAULT_MODEL, {})
    env = dockerfile_env(tree[dockerfile].decode())
    fallbacks = dict(re.findall(r"\$\{(\w+):-([^}]*)\}", tree[script].decode()))
    shared = set(env) & set(fallbacks)
    assert shared, "the script reads none of the image's settings"
    assert {k: fallbacks[k] for k in shared} == {k: env[k] for k in shared}
