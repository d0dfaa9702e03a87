"""Renders and templates for the validator and ``check`` tests, written in the tests.

``good_tree()`` is a small, valid rendered app in the shape of the llm
template (compose + wendy.json + a service with a Dockerfile and an
entrypoint), so each test breaks exactly one thing.  ``write_template()``
writes a small template with an Ollama-style picker (two tags and a
sentinel) and its rules file, for end-to-end ``check`` runs.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

COMPOSE = """\
services:
  ollama:
    build: ./ollama
    environment:
      OLLAMA_MODEL: "gemma4:e2b"
    ports:
      - "11434:11434"
    volumes:
      - "app-models:/models"
  open-webui:
    build: ./open-webui
    ports:
      - "8080:8080"
    environment:
      PORT: "8080"
      OLLAMA_BASE_URL: "http://ollama:11434"
    volumes:
      - "app-openwebui:/data"
    depends_on:
      - ollama

volumes:
  app-models:
  app-openwebui:
"""

WENDY_JSON = """\
{
  "appId": "app",
  "version": "0.1.0",
  "platform": "linux",
  "services": {
    "ollama": {
      "context": "./ollama",
      "entitlements": [
        {
          "type": "gpu"
        }
      ]
    },
    "open-webui": {
      "context": "./open-webui"
    }
  },
  "readiness": {
    "tcpSocket": {
      "port": 8080
    },
    "timeoutSeconds": 180
  },
  "hooks": {
    "postStart": {
      "cli": "wendy utils open-browser http://${WENDY_HOSTNAME}:8080"
    }
  }
}
"""

OLLAMA_DOCKERFILE = """\
# values: nvidia|generic
ARG WENDY_GPU_VENDOR=generic
ARG WENDY_JETPACK_MAJOR=0

FROM ollama/ollama:0.32.5 AS base-generic-0
FROM ollama/ollama:0.32.5 AS base-generic-6
FROM ollama/ollama:0.32.5 AS base-generic-7
FROM ollama/ollama:0.32.5 AS base-nvidia-0
FROM ollama/ollama:0.32.5 AS base-nvidia-6
ENV JETSON_JETPACK=6
FROM ollama/ollama:0.32.5 AS base-nvidia-7

FROM base-${WENDY_GPU_VENDOR}-${WENDY_JETPACK_MAJOR}
COPY entrypoint.sh /usr/local/bin/entrypoint.sh
RUN chmod 0755 /usr/local/bin/entrypoint.sh
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
"""

WEBUI_DOCKERFILE = """\
FROM ubuntu:24.04
WORKDIR /app
COPY --chmod=755 entrypoint.sh ./start.sh
CMD ["./start.sh"]
"""

SCRIPT = """\
#!/usr/bin/env bash
set -euo pipefail
model="${OLLAMA_MODEL:-gemma4:e2b}"
echo "serving ${model}"
exec ollama serve
"""


def good_tree() -> dict[str, bytes]:
    """A valid render: every validator passes it."""
    return {
        "docker-compose.yml": COMPOSE.encode(),
        "wendy.json": WENDY_JSON.encode(),
        "ollama/Dockerfile": OLLAMA_DOCKERFILE.encode(),
        "ollama/entrypoint.sh": SCRIPT.encode(),
        "open-webui/Dockerfile": WEBUI_DOCKERFILE.encode(),
        "open-webui/entrypoint.sh": SCRIPT.encode(),
    }


def with_files(tree: Mapping[str, bytes], **changes: str) -> dict[str, bytes]:
    """``tree`` with files replaced (keyword ``a__b`` means path ``a/b``)."""
    out = dict(tree)
    for key, text in changes.items():
        out[key.replace("__", "/")] = text.encode()
    return out


# --- a small template for end-to-end runs ------------------------------------

TEMPLATE_JSON: dict[str, Any] = {
    "name": "mini",
    "description": "A tiny two-backend app for the check tests.",
    "variables": [
        {"name": "APP_ID", "type": "string", "required": True},
        {
            "name": "PORT",
            "type": "integer",
            "default": 8080,
            "validate": {"min": 1, "max": 65535},
        },
    ],
}

PICKER: dict[str, Any] = {
    "phases": [
        {
            "id": "model",
            "questions": [
                {
                    "id": "OLLAMA_MODEL",
                    "label": "Model",
                    "type": "radio",
                    "required": True,
                    "default": "gemma4:e2b",
                    "options": [
                        {
                            "value": "gemma4:e2b",
                            "label": "gemma4:e2b",
                            "size": "edge",
                            "parameters": "E2B",
                            "comments": "The default.",
                        },
                        {
                            "value": "qwen2.5:3b",
                            "label": "qwen2.5:3b",
                            "size": "edge",
                            "parameters": "3B",
                            "comments": "Small and quick.",
                        },
                        {
                            "value": "big-dflash",
                            "label": "big (vLLM, experimental)",
                            "size": "workstation+",
                            "parameters": "118B",
                            "comments": "Experimental: the vLLM backend.",
                        },
                    ],
                }
            ],
        }
    ]
}

VLLM_SWITCH = '{{- $vllm := eq .OLLAMA_MODEL "big-dflash" -}}'

TEMPLATE_COMPOSE = """\
{{- $vllm := eq .OLLAMA_MODEL "big-dflash" -}}
services:
{{- if $vllm}}
  vllm:
    build: ./vllm
    restart: unless-stopped
    ports:
      - "8000:8000"
{{- else}}
  ollama:
    build: ./ollama
    environment:
      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"
    ports:
      - "11434:11434"
    volumes:
      - "{{.APP_ID}}-models:/models"
{{- end}}
  web:
    build: ./web
    ports:
      - "{{.PORT}}:{{.PORT}}"
    depends_on:
      - {{if $vllm}}vllm{{else}}ollama{{end}}
{{- if not $vllm}}

volumes:
  {{.APP_ID}}-models:
{{- end}}
"""

TEMPLATE_WENDY = """\
{{- $vllm := eq .OLLAMA_MODEL "big-dflash" -}}
{
  "appId": "{{.APP_ID}}",
  "version": "0.1.0",
  "services": {
    "{{if $vllm}}vllm{{else}}ollama{{end}}": {
      "context": "./{{if $vllm}}vllm{{else}}ollama{{end}}",
      "entitlements": [{"type": "gpu"}]
    }
  },
  "readiness": {"tcpSocket": {"port": {{.PORT}}}, "timeoutSeconds": 60}
}
"""

SERVICE_DOCKERFILE = """\
FROM debian:12
COPY run.sh /run.sh
RUN chmod +x /run.sh
ENTRYPOINT ["/run.sh"]
"""

RULES = """\
version: 1
sentinels:
  OLLAMA_MODEL:
    values: [big-dflash]
    tag_paths: [compose.services.*.environment.OLLAMA_MODEL]
gate:
  files: [docker-compose.yml, wendy.json]
rules:
  - name: vllm-has-no-ollama
    picks: {when: {OLLAMA_MODEL: big-dflash}}
    assert:
      - {path: compose.services.ollama, absent: true}
      - {path: "compose.volumes.${APP_ID}-models", absent: true}
      - {path: "wendy.services.vllm.entitlements[*].type", contains: gpu}
      - {path: compose.services.web.depends_on, contains: vllm}
  - name: ollama-topology
    picks: {except: [big-dflash]}
    assert:
      - {path: compose.services.ollama.environment.OLLAMA_MODEL, equals: "${OLLAMA_MODEL}"}
      - {path: compose.services.web.depends_on, contains: ollama}
"""


def template_files() -> dict[str, str]:
    """The files of the ``py/mini`` template (relative to the template root)."""
    script = "#!/bin/sh\nset -eu\nexec sleep 1\n"
    return {
        "template.json": json.dumps(TEMPLATE_JSON, indent=2) + "\n",
        "template.schema.json": json.dumps(PICKER, indent=2) + "\n",
        "docker-compose.yml": TEMPLATE_COMPOSE,
        "wendy.json": TEMPLATE_WENDY,
        "ollama/Dockerfile": SERVICE_DOCKERFILE,
        "ollama/run.sh": script,
        "vllm/Dockerfile": SERVICE_DOCKERFILE,
        "vllm/run.sh": script,
        "web/Dockerfile": SERVICE_DOCKERFILE,
        "web/run.sh": script,
    }


def write_template(
    base: Path, *, files: Mapping[str, str] | None = None, rules: str | None = RULES
) -> tuple[Path, Path]:
    """Write ``templates/py/mini`` and ``golden/py/mini.rules.yaml`` under ``base``.

    Returns (templates dir, golden dir).  ``files`` replaces or adds
    template files; ``rules=None`` writes no rules file.
    """
    templates = base / "templates"
    golden = base / "golden"
    root = templates / "py" / "mini"
    for rel, text in {**template_files(), **(files or {})}.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    golden.mkdir(parents=True, exist_ok=True)
    if rules is not None:
        (golden / "py").mkdir(parents=True, exist_ok=True)
        (golden / "py" / "mini.rules.yaml").write_text(rules, encoding="utf-8")
    return templates, golden


def picker_without(*values: str) -> str:
    picker: dict[str, Any] = copy.deepcopy(PICKER)
    question = picker["phases"][0]["questions"][0]
    question["options"] = [o for o in question["options"] if o["value"] not in values]
    return json.dumps(picker, indent=2) + "\n"


def ollama_only(**changes: str) -> dict[str, str]:
    """Baseline files from before the vLLM option: no option, no branch."""
    never = "{{- $vllm := false -}}"
    return {
        "template.schema.json": picker_without("big-dflash"),
        "docker-compose.yml": TEMPLATE_COMPOSE.replace(VLLM_SWITCH, never),
        "wendy.json": TEMPLATE_WENDY.replace(VLLM_SWITCH, never),
        **changes,
    }


def write_baseline(golden: Path, **changes: str) -> Path:
    """The template's files as the stored baseline (``changes`` replace some)."""
    root = golden / "baseline" / "py" / "mini"
    for rel, text in {**template_files(), **changes}.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root
