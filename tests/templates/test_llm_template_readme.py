"""The python/llm template's README: the Thor benchmark row for row, every
fact the spec gives, the device table, and settings tables that match the
entrypoint scripts.
"""

from __future__ import annotations

import re

import pytest
from _llm_template_helpers import DEFAULT_MODEL, SENTINEL, render

from wendy_llm.render.template import Template

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
