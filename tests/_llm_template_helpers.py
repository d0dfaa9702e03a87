"""What the python/llm template's tests share: where the template and its
baseline are, the picker's values, the inputs, and readers for what a render
holds (YAML, JSON, Compose durations, Dockerfile instructions and ENV).

The baseline (golden/baseline/python/llm/) is the template as it was before
the Laguna 2.1 / DFlash change.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from wendy_llm.docker.model import Dockerfile
from wendy_llm.docker.syntax import parse as parse_dockerfile
from wendy_llm.render.files.tree import RenderedTree
from wendy_llm.render.template import Template

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE_DIR = ROOT / "templates" / "python" / "llm"
BASELINE_DIR = ROOT / "golden" / "baseline" / "python" / "llm"
BIN = Path(sys.executable).parent

APP_ID = "llm-app"
SENTINEL = "laguna-s-2.1-dflash"
DEFAULT_MODEL = "gemma4:e2b"
COMPANION_FILES = ("docker-compose.yml", "wendy.json")

BASELINE_VALUES = (
    "gemma4:e2b",
    "gemma4:e4b",
    "gemma4:26b",
    "gemma4:31b",
    "gemma3:4b",
    "llama3.2:3b",
    "qwen2.5:3b",
    "mistral:7b",
    "qwen3-coder:30b",
    "gpt-oss:120b",
    "hf.co/nvidia/NVIDIA-Nemotron-3-Nano-4B-GGUF:Q4_K_M",
    "nemotron-3-nano:30b",
    "nemotron-3-super:120b",
    "nemotron-3-super:cloud",
)
LAGUNA_VALUES = ("laguna-xs-2.1:q4_K_M", "laguna-s-2.1:q4_K_M", SENTINEL)
# The Laguna options come right after gpt-oss:120b.
EXPECTED_VALUES = BASELINE_VALUES[:10] + LAGUNA_VALUES + BASELINE_VALUES[10:]
OLLAMA_VALUES = tuple(v for v in EXPECTED_VALUES if v != SENTINEL)

# PORT as `wendy init` holds it: float64 8080 from the default, an int from --var.
PORT_CASES: tuple[tuple[dict[str, str], int], ...] = (({}, 8080), ({"PORT": "3000"}, 3000))
PORT_IDS = ("default-port", "port-3000")


def model_question(template_dir: Path) -> dict[str, Any]:
    """The OLLAMA_MODEL radio question, read straight from the file under test."""
    picker = json.loads((template_dir / "template.schema.json").read_text(encoding="utf-8"))
    questions = [q for phase in picker["phases"] for q in phase["questions"]]
    assert [q["id"] for q in questions] == ["OLLAMA_MODEL"]
    question: dict[str, Any] = questions[0]
    return question


def option_values(template_dir: Path) -> list[str]:
    return [str(o["value"]) for o in model_question(template_dir)["options"]]


def render(
    template: Template, model: str, extra: Mapping[str, str], *, strict: bool = True
) -> RenderedTree:
    return template.render(APP_ID, {**extra, "OLLAMA_MODEL": model}, strict=strict)


def parse_yaml(data: bytes) -> dict[str, Any]:
    doc = yaml.safe_load(data)
    assert isinstance(doc, dict)
    return doc


def parse_json(data: bytes) -> dict[str, Any]:
    doc = json.loads(data)
    assert isinstance(doc, dict)
    return doc


def compose_seconds(duration: str) -> float:
    """A Compose duration (``1h30m``, ``90s``, ``500ms``) in seconds."""
    units = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001, "us": 1e-6}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|us|h|m|s)", duration)
    assert parts and "".join(n + u for n, u in parts) == duration, duration
    return sum(float(n) * units[u] for n, u in parts)


def dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments as written) pairs, read by BuildKit's parser (the
    package's), so continuation lines are joined and comments dropped as Docker does."""
    pairs = []
    for instruction in parse_dockerfile(text).instructions:
        _, _, rest = instruction.original.strip().partition(" ")
        pairs.append((instruction.keyword, rest.strip()))
    return pairs


def dockerfile_env(text: str, build_args: Mapping[str, str] | None = None) -> dict[str, str]:
    """The built image's ENV, by BuildKit's rules (ARG defaults and build args applied);
    what depends on the base image (``PATH=...:$PATH``) is left out."""
    dockerfile = Dockerfile(text)
    return dict(dockerfile.effective_env(dockerfile.stages[-1], build_args).values)
