"""The python/llm template: its picker, byte identity with the stored baseline,
the DFlash topology, and what its Dockerfiles and scripts must do.

The baseline (golden/baseline/python/llm/) is the template as it was before
the Laguna 2.1 / DFlash change. For every pick but the DFlash sentinel the
template must render docker-compose.yml and wendy.json exactly as the
baseline does; the generated-input version of that property lives in the
property suite.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from wendy_llm import load_template
from wendy_llm.docker.model import Dockerfile
from wendy_llm.render.template import Template
from wendy_llm.render.tree import RenderedTree

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

OPTION_FIELDS = ("label", "size", "parameters", "comments")
DFLASH_API_KEY = "wendy-local-dflash"

# (label, size, parameters) of the new options, from the spec's table.
LAGUNA_METADATA = {
    "laguna-xs-2.1:q4_K_M": ("laguna-xs-2.1", "edge server", "33B/3B active Q4"),
    "laguna-s-2.1:q4_K_M": ("laguna-s-2.1", "workstation+", "118B/8B active Q4"),
    SENTINEL: (
        "laguna-s-2.1 (DFlash \u2022 vLLM, experimental)",
        "workstation+",
        "118B/8B active NVFP4 + 1B draft",
    ),
}


@pytest.fixture(scope="module")
def template() -> Template:
    return load_template(TEMPLATE_DIR)


@pytest.fixture(scope="module")
def baseline() -> Template:
    return load_template(BASELINE_DIR)


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
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    logical: list[str] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        logical.append(pending + stripped)
        pending = ""
    pairs = []
    for entry in logical:
        keyword, _, rest = entry.partition(" ")
        pairs.append((keyword.upper(), rest.strip()))
    return pairs


def dockerfile_env(text: str, build_args: Mapping[str, str] | None = None) -> dict[str, str]:
    """The built image's ENV, by BuildKit's rules (ARG defaults and build args applied);
    what depends on the base image (``PATH=...:$PATH``) is left out."""
    dockerfile = Dockerfile(text)
    return dict(dockerfile.effective_env(dockerfile.stages[-1], build_args).values)


# --- the picker ------------------------------------------------------------------


def test_picker_offers_exactly_the_seventeen_values_in_order() -> None:
    assert option_values(TEMPLATE_DIR) == list(EXPECTED_VALUES)


def test_picker_default_is_gemma4_e2b(template: Template) -> None:
    assert model_question(TEMPLATE_DIR)["default"] == DEFAULT_MODEL
    assert template.values(APP_ID)["OLLAMA_MODEL"] == DEFAULT_MODEL


def test_only_the_sentinel_lacks_a_colon() -> None:
    # An Ollama pull tag always has one; the sentinel must never pass for a tag.
    assert [v for v in option_values(TEMPLATE_DIR) if ":" not in v] == [SENTINEL]


@pytest.mark.parametrize("template_dir", [TEMPLATE_DIR, BASELINE_DIR], ids=["template", "baseline"])
def test_every_option_has_its_four_metadata_fields(template_dir: Path) -> None:
    for option in model_question(template_dir)["options"]:
        for field in OPTION_FIELDS:
            value = option.get(field)
            assert isinstance(value, str) and value.strip(), f"{option['value']}: {field}"


def test_the_dflash_option_says_it_is_experimental() -> None:
    (option,) = [o for o in model_question(TEMPLATE_DIR)["options"] if o["value"] == SENTINEL]
    assert option["comments"].startswith("Experimental:")


def test_laguna_options_carry_the_spec_metadata() -> None:
    options = {o["value"]: o for o in model_question(TEMPLATE_DIR)["options"]}
    for value, (label, size, parameters) in LAGUNA_METADATA.items():
        option = options[value]
        assert (option["label"], option["size"], option["parameters"]) == (label, size, parameters)


def test_the_change_keeps_every_baseline_option_as_it_was() -> None:
    baseline_options = model_question(BASELINE_DIR)["options"]
    kept = [o for o in model_question(TEMPLATE_DIR)["options"] if o["value"] not in LAGUNA_VALUES]
    assert [o["value"] for o in baseline_options] == list(BASELINE_VALUES)
    assert kept == baseline_options


def test_both_templates_declare_the_same_variables() -> None:
    manifests = [
        json.loads((d / "template.json").read_text(encoding="utf-8"))["variables"]
        for d in (TEMPLATE_DIR, BASELINE_DIR)
    ]
    assert manifests[0] == manifests[1]
    port = next(v for v in manifests[0] if v["name"] == "PORT")
    assert (port["type"], port["default"], port["validate"]) == (
        "integer",
        8080,
        {"min": 1, "max": 65535},
    )


def test_picks_cover_every_option_in_order(template: Template) -> None:
    assert [p.answers["OLLAMA_MODEL"] for p in template.picks()] == list(EXPECTED_VALUES)


# --- byte identity with the baseline --------------------------------------------


@pytest.mark.parametrize(("extra", "port"), PORT_CASES, ids=PORT_IDS)
@pytest.mark.parametrize("model", OLLAMA_VALUES)
def test_ollama_picks_render_byte_identical_to_the_baseline(
    template: Template,
    baseline: Template,
    model: str,
    extra: dict[str, str],
    port: int,
) -> None:
    new = render(template, model, extra)
    # The baseline never offered the Laguna values; like `wendy init --var`,
    # render it anyway (strict checking would refuse an unknown option).
    old = render(baseline, model, extra, strict=False)
    for name in COMPANION_FILES:
        assert new[name] == old[name], f"{name} differs from the baseline for {model}"
    # Guard against a vacuous match: the inputs really are in the output.
    assert f'OLLAMA_MODEL: "{model}"'.encode() in new["docker-compose.yml"]
    assert f'"port": {port}'.encode() in new["wendy.json"]


@pytest.mark.parametrize(("extra", "port"), PORT_CASES, ids=PORT_IDS)
def test_the_baseline_renders_the_ollama_topology(
    baseline: Template, extra: dict[str, str], port: int
) -> None:
    tree = render(baseline, DEFAULT_MODEL, extra)
    compose = parse_yaml(tree["docker-compose.yml"])
    assert "version" not in compose
    assert compose["services"] == {
        "ollama": {
            "build": "./ollama",
            "environment": {"OLLAMA_MODEL": DEFAULT_MODEL},
            "ports": ["11434:11434"],
            "volumes": [f"{APP_ID}-models:/models"],
        },
        "open-webui": {
            "build": "./open-webui",
            "ports": [f"{port}:{port}"],
            "environment": {"PORT": str(port), "OLLAMA_BASE_URL": "http://ollama:11434"},
            "volumes": [f"{APP_ID}-openwebui:/data"],
            "depends_on": ["ollama"],
        },
    }
    assert compose["volumes"] == {f"{APP_ID}-models": None, f"{APP_ID}-openwebui": None}
    assert parse_json(tree["wendy.json"]) == {
        "appId": APP_ID,
        "version": "0.1.0",
        "platform": "linux",
        "services": {
            "ollama": {"context": "./ollama", "entitlements": [{"type": "gpu"}]},
            "open-webui": {"context": "./open-webui"},
        },
        "readiness": {"tcpSocket": {"port": port}, "timeoutSeconds": 180},
        "hooks": {
            "postStart": {"cli": f"wendy utils open-browser http://${{WENDY_HOSTNAME}}:{port}"}
        },
    }


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


# --- files of every render ------------------------------------------------------


def all_renders(template: Template, baseline: Template) -> list[tuple[str, RenderedTree]]:
    return [
        ("template/dflash", render(template, SENTINEL, {})),
        ("template/default", render(template, DEFAULT_MODEL, {"PORT": "3000"})),
        ("baseline/default", render(baseline, DEFAULT_MODEL, {})),
    ]


def test_renders_leave_no_template_syntax_behind(template: Template, baseline: Template) -> None:
    for label, tree in all_renders(template, baseline):
        for path, data in tree.items():
            assert b"{{" not in data and b"<no value>" not in data, f"{label}: {path}"


def test_every_dockerfile_chmods_the_script_it_runs(template: Template, baseline: Template) -> None:
    checked = 0
    for label, tree in all_renders(template, baseline):
        for path in (p for p in tree if p.rsplit("/", 1)[-1] == "Dockerfile"):
            instructions = dockerfile_instructions(tree[path].decode())
            runs = [json.loads(rest)[0] for kw, rest in instructions if kw in ("ENTRYPOINT", "CMD")]
            assert runs, f"{label}: {path} runs nothing"
            context = path.rsplit("/", 1)[0]
            for target in runs:
                copies = [rest.split() for kw, rest in instructions if kw == "COPY"]
                sources = [c[0] for c in copies if c[-1] == target and not c[0].startswith("--")]
                assert sources, f"{label}: {path} does not COPY {target}"
                assert f"{context}/{sources[0]}" in tree, f"{label}: {path}: no {sources[0]}"
                chmods = [rest for kw, rest in instructions if kw == "RUN" and "chmod" in rest]
                assert any(target in rest.split() for rest in chmods), f"{label}: {path}: {target}"
                checked += 1
    # Every render of the template has all three service directories; the baseline two.
    assert checked == 3 + 3 + 2


def test_the_ollama_image_keeps_the_jetpack_release_the_cli_passes(template: Template) -> None:
    # The Wendy CLI passes WENDY_JETPACK_VERSION (wendy-run.md section 3), never
    # the WENDY_JETPACK_MAJOR of llm-template.md: the image keeps it for the
    # entrypoint, which picks Ollama's JetPack 6 runners from it at start-up.
    text = render(template, DEFAULT_MODEL, {})["ollama/Dockerfile"].decode()
    froms = [rest for keyword, rest in dockerfile_instructions(text) if keyword == "FROM"]
    assert froms == ["ollama/ollama:${OLLAMA_VERSION}"]
    assert "WENDY_JETPACK_MAJOR" not in text and "JETSON_JETPACK" not in dockerfile_env(text)
    for version in ("6.2", "7.2"):
        env = dockerfile_env(text, {"WENDY_JETPACK_VERSION": version})
        assert env["WENDY_JETPACK_VERSION"] == version
    env = dockerfile_env(text)  # a plain `docker compose build`
    assert env == {
        "WENDY_JETPACK_VERSION": "",
        "OLLAMA_HOST": "0.0.0.0:11434",
        "OLLAMA_MODELS": "/models/ollama",
        "OLLAMA_MODEL": DEFAULT_MODEL,
        "OLLAMA_LOAD_TIMEOUT": "20m",
    }


def test_rendered_scripts_pass_bash_and_shellcheck(
    template: Template, baseline: Template, tmp_path: Path
) -> None:
    scripts: list[Path] = []
    for label, tree in all_renders(template, baseline):
        for path in (p for p in tree if p.endswith(".sh")):
            target = tmp_path / label / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tree[path])
            assert tree[path].startswith(b"#!/usr/bin/env bash\n"), f"{label}: {path}"
            scripts.append(target)
    assert len(scripts) == 3 + 3 + 2
    for script in scripts:
        syntax = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert syntax.returncode == 0, syntax.stderr
    lint = subprocess.run(
        [str(BIN / "shellcheck"), "-S", "warning", *map(str, scripts)],
        capture_output=True,
        text=True,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_renders_pass_docker_compose_config(
    template: Template, baseline: Template, tmp_path: Path
) -> None:
    # docker-compose needs the build contexts, so validate written trees.
    for label, tree in all_renders(template, baseline):
        out = tree.write(tmp_path / label.replace("/", "-"))
        result = subprocess.run(
            [str(BIN / "docker-compose"), "-f", str(out / "docker-compose.yml"), "config", "-q"],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, f"{label}: {result.stderr}"


# --- the spec's facts in the picker and the README ----------------------------

# Facts the spec gives for the new options, each of which must reach the
# picker's comments (the spec's "facts" column).
LAGUNA_FACTS = {
    "laguna-xs-2.1:q4_K_M": (
        "agentic-coding",
        "256K context",
        "20GB download",
        "59 tok/s decode",
        "Thor",
        "AGX Orin 32GB or larger",
        "not a Pi 5 or an Orin Nano 8GB",
    ),
    "laguna-s-2.1:q4_K_M": (
        "256K context",
        "1M figure belongs to other tags, not q4_K_M",
        "96GB download",
        "re-published",
        "75GB",
        "20.6 tok/s",
        "Thor 128GB / DGX Spark class only",
    ),
    SENTINEL: (
        "~72GB download",
        "vLLM instead of Ollama",
        "128K of the 256K context",
        "KV-cache budget on unified memory",
        "CUDA 13.3",
        "vLLM >= 0.25.1",
    ),
}


@pytest.mark.parametrize("value", sorted(LAGUNA_FACTS))
def test_laguna_option_comments_carry_the_spec_facts(value: str) -> None:
    (option,) = [o for o in model_question(TEMPLATE_DIR)["options"] if o["value"] == value]
    missing = [fact for fact in LAGUNA_FACTS[value] if fact not in option["comments"]]
    assert not missing, f"{value}: comments lack {missing}"


# The Thor benchmark, row for row as the spec gives it.
BENCHMARK_ROWS = (
    ("`qwen2.5:3b` (reference)", "3B dense", "62.80", "3357", "2.08 GB", "0.10"),
    ("`laguna-xs-2.1:q4_K_M`", "33B / 3B", "58.83", "1249", "20.35 GB", "0.18"),
    ("`laguna-s-2.1:q4_K_M`", "118B / 8B", "20.73", "562", "95.99 GB", "0.02"),
)
README_FACTS = (
    # the benchmark's method
    "Jetson AGX Thor (128GB, sm_110, CUDA 13.2)",
    "Ollama 0.32.5",
    "200 decoded tokens",
    "`num_ctx` 2048",
    "temperature 0",
    "seed 42",
    "one discarded\nwarm-up run",
    "median of five runs",
    "`eval_count` / `eval_duration`",
    # its reading and the download / load figures
    "Decode speed tracks the active parameters, prefill the total ones",
    "XS is the better default for most uses",
    "a fifth of\nS's download and memory",
    "~20.6 tok/s",
    "96.03 GB",
    "68 minutes at ~23 MB/s over Wi-Fi",
    "cold load took 45 s (with the page cache warm)",
    "20 minute\nload timeout",
    "~26 s",
    # capacity planning
    "### Capacity planning: pin `num_ctx`",
    "131.9 GB",
    "partial CPU offload",
    # Ollama settings the spec fixes
    "OLLAMA_LOAD_TIMEOUT=20m",
    "JETSON_JETPACK=6",
    "retried after 10 s, doubling to at most 60 s",
    # DFlash
    "## DFlash mode (experimental)",
    "lossless block-diffusion drafting",
    "identical to the target model's own",
    "2-4x",
    "vLLM, SGLang,\nTransformers and MLX",
    "`nvcr.io/nvidia/vllm:26.06-py3`",
    "26.05's vLLM 0.20.1 cannot load it",
    "CUDA 13.3",
    "JetPack 7.2 (CUDA 13.2)",
    "no CUDA forward\ncompatibility",
    "`vllm.model_executor.models.laguna_dflash`, vLLM >= 0.25.1",
    "`--moe-backend triton`",
    "`DFLASH_DISABLE=1`",
    "**The first start downloads ~72GB**",
    "**Context: 128K of the 256K.**",
    "~110GB of Thor's 122.8 GiB",
    "`wendy-local-dflash`",
    "**not a secret**",
    "no Hugging Face\ntoken is needed",
    # not yet measured
    "**Not yet measured.** DFlash end to end on CUDA 13.3+ hardware (DGX Spark)",
    "`laguna-xs-2.1` on a Jetson AGX Orin 32GB",
)
DEVICE_ROWS = {
    "Raspberry Pi 5": ("both Laguna picks",),
    "Jetson Orin Nano 8GB": ("both Laguna picks",),
    "Jetson AGX Orin 32GB": ("`laguna-xs-2.1`", "`laguna-s-2.1`"),
    "Jetson AGX Orin 64GB": ("`laguna-xs-2.1`",),
    "Jetson Thor 128GB": ("`laguna-xs-2.1`", "`laguna-s-2.1`", "DFlash"),
}


def readme(template: Template, model: str = DEFAULT_MODEL) -> str:
    return render(template, model, {})["README.md"].decode()


def table_rows(text: str) -> list[tuple[str, ...]]:
    return [
        tuple(cell.strip() for cell in line.strip().strip("|").split("|"))
        for line in text.splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ]


@pytest.mark.parametrize("model", [DEFAULT_MODEL, SENTINEL])
def test_readme_has_the_benchmark_exactly(template: Template, model: str) -> None:
    rows = table_rows(readme(template, model))
    for row in BENCHMARK_ROWS:
        assert row in rows, f"benchmark row {row} missing"


def test_readme_covers_every_spec_fact(template: Template) -> None:
    text = readme(template)
    # Reflowed prose must not hide a fact: compare with single spaces.
    flat = " ".join(text.split())
    missing = [fact for fact in README_FACTS if " ".join(fact.split()) not in flat]
    assert not missing, f"README.md lacks: {missing}"


def test_readme_device_table_places_the_laguna_picks(template: Template) -> None:
    rows = {row[0]: " ".join(row[1:]) for row in table_rows(readme(template))}
    for device, needles in DEVICE_ROWS.items():
        (row,) = [cells for name, cells in rows.items() if name.startswith(device)]
        assert all(n in row for n in needles), f"{device}: {row}"


@pytest.mark.parametrize(
    ("script", "undocumented"),
    [
        # OLLAMA_MODEL's README default is "your pick": the image always sets
        # it. JETSON_JETPACK's is derived from WENDY_JETPACK_VERSION, the
        # build's and not a setting (test_llm_device.py checks both).
        ("ollama/entrypoint.sh", {"OLLAMA_MODEL", "JETSON_JETPACK", "WENDY_JETPACK_VERSION"}),
        ("vllm/entrypoint.sh", set()),
    ],
)
def test_readme_settings_tables_match_the_scripts(
    template: Template, script: str, undocumented: set[str]
) -> None:
    tree = render(template, SENTINEL, {})
    fallbacks = dict(re.findall(r"\$\{(\w+):-([^}]*)\}", tree[script].decode()))
    # EPOCHREALTIME is bash's clock, not a setting.
    settings = {k: v for k, v in fallbacks.items() if k != "EPOCHREALTIME"}
    documented = {
        row[0].strip("`"): row[1].strip("`")
        for row in table_rows(tree["README.md"].decode())
        if len(row) >= 3 and re.fullmatch(r"`[A-Z_]+`", row[0])
    }
    assert settings.keys() - undocumented <= documented.keys(), "settings missing in README.md"
    for name in settings.keys() - undocumented:
        assert documented[name] == settings[name], f"{name}: README vs {script}"
