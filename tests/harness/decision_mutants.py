"""Issue 20: the seed change's key decisions (``llm-template.md``), each undone.

Each mutant undoes one decision and names the rule of
``golden/python/llm.rules.yaml`` that protects it (``topology:<rule>``),
the ``picker`` check for the picker's default, or the entrypoint behaviour
that runs the script: a kill shows which decision caught the regression.
"""

from __future__ import annotations

from typing import Final

from harness.mutation import Edit, Mutant
from harness.script_mutants import VLLM_SH, behaviour

_SENTINEL = "laguna-s-2.1-dflash"
_OTHER_DRAFTER = "z-lab/Qwen3-8B-DFlash-b16"

#: Issue 20: the seed change's key decisions (llm-template.md), each undone.
DECISION_MUTANTS: Final[tuple[Mutant, ...]] = (
    Mutant(
        "sentinel-is-the-default",
        "the picker's default is the DFlash sentinel: `wendy init` with no answer "
        "scaffolds the experimental vLLM app (no pick's render changes)",
        ("picker",),
        (
            Edit(
                "template.schema.json",
                '"default": "gemma4:e2b"',
                f'"default": "{_SENTINEL}"',
            ),
        ),
    ),
    Mutant(
        "webui-default-model-fixed",
        "Open WebUI's image opens on gemma4:e2b for every Ollama pick, not on the pick",
        ("topology:open-webui-default-model",),
        (
            Edit(
                "open-webui/Dockerfile",
                'DEFAULT_MODELS="{{.OLLAMA_MODEL}}"',
                'DEFAULT_MODELS="gemma4:e2b"',
            ),
        ),
    ),
    Mutant(
        "vllm-gpu-memory-0.9",
        "vLLM's GPU memory utilisation back to 0.9 (starves a unified-memory device)",
        ("topology:vllm-gpu-memory",),
        (Edit("vllm/Dockerfile", "GPU_MEMORY_UTILIZATION=0.70", "GPU_MEMORY_UTILIZATION=0.9"),),
    ),
    Mutant(
        "dflash-drafter-swapped",
        f"the DFlash draft model is another model's drafter ({_OTHER_DRAFTER})",
        ("topology:dflash-drafter",),
        (
            Edit(
                "vllm/Dockerfile",
                "DFLASH_DRAFT_MODEL=poolside/Laguna-S-2.1-DFlash",
                f"DFLASH_DRAFT_MODEL={_OTHER_DRAFTER}",
            ),
        ),
    ),
    Mutant(
        "vllm-port-changed-in-image",
        "vLLM listens on 8001 (its image's API_PORT); Open WebUI still calls 8000",
        ("topology:dflash-backend-url",),
        (Edit("vllm/Dockerfile", "API_PORT=8000", "API_PORT=8001"),),
    ),
    Mutant(
        "vllm-port-hard-coded-in-entrypoint",
        "the vLLM entrypoint passes --port 8000 whatever the image's API_PORT says",
        (behaviour("vllm-serve-settings"),),
        (Edit(VLLM_SH, '    --port "$port"\n', "    --port 8000\n"),),
    ),
    Mutant(
        "ollama-url-port-changed",
        "Open WebUI's image calls Ollama on 11435; Ollama listens on 11434",
        ("topology:ollama-backend-url",),
        (
            Edit(
                "open-webui/Dockerfile",
                "OLLAMA_BASE_URL=http://ollama:11434",
                "OLLAMA_BASE_URL=http://ollama:11435",
            ),
        ),
    ),
)
