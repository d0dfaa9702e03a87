"""A small real render for the rules format's tests, and the topology
findings a rules text gives on it (through the real ``docker-compose
config`` and the device view, as ``check`` makes them)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from wendy_llm.validate.checks.compose import ComposeValidator
from wendy_llm.validate.checks.topology import check_topology
from wendy_llm.validate.rulerun import subject_for
from wendy_llm.validate.rules.file import parse_rules

COMPOSE_RUNS = ComposeValidator()
VALUES: Mapping[str, object] = {"APP_ID": "my.app", "PORT": 3000, "MODEL": "m:1"}

BACKEND_DOCKERFILE = b"""\
ARG VERSION=0.32.5
FROM ollama/ollama:${VERSION} AS base
FROM base
ENV OLLAMA_HOST=0.0.0.0:11434 \\
    OLLAMA_MODELS=/models/ollama
"""
WEB_DOCKERFILE = b"""\
FROM ubuntu:24.04
ARG PORT=3000
ENV WEBUI_NAME="x" \\
    PORT=${PORT} \\
    OPENAI_API_KEY=secret
"""
COMPOSE = b"""\
services:
  backend:
    build: ./backend
    ports: ["11434:11434"]
    volumes: ["my.app-models:/models"]
  web:
    build: {context: ./web, args: {PORT: "3000"}}
    environment:
      - OPENAI_API_KEY=secret
      - PORT=3000
    ports:
      - target: 3000
        published: "3000"
    volumes:
      - type: volume
        source: web-data
        target: /data
    depends_on: {backend: {condition: service_started}}
volumes:
  my.app-models:
  web-data:
    name: shared-data
"""
TREE: Mapping[str, bytes] = {
    "docker-compose.yml": COMPOSE,
    "backend/Dockerfile": BACKEND_DOCKERFILE,
    "web/Dockerfile": WEB_DOCKERFILE,
    "web/entrypoint.sh": b'#!/bin/sh\nKEY="${OPENAI_API_KEY:-secret}"\nexec serve --port 3000\n',
}


def findings(
    rules_text: str,
    tree: Mapping[str, bytes] = TREE,
    *,
    golden_root: Path | None = None,
    answers: Mapping[str, str] | None = None,
) -> list[str]:
    rules = parse_rules(rules_text, "t.rules.yaml")
    template_id = None if golden_root is None else "py/t"
    subject = subject_for(
        rules,
        "p",
        VALUES,
        tree,
        golden_root=golden_root,
        template_id=template_id,
        answers=answers,
        compose=COMPOSE_RUNS,
    )
    return [f"{f.file}:{f.line}: {f.message}" for f in check_topology(rules, subject)]


def one(assertion: str, selectors: str = "") -> list[str]:
    head = f"selectors:\n{selectors}" if selectors else ""
    return findings(f"{head}rules:\n  - name: r\n    assert:\n      - {assertion}\n")
