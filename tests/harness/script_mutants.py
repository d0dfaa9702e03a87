"""The known regressions of python/llm's entrypoint scripts (part of ``make mutants``).

Each is killed by the entrypoint behaviour (:mod:`harness.behaviours`)
that runs the rendered script with stubs and checks what it did: the
vLLM serve loop (preflight, fast exits, retries, its clock), the Ollama
pull (wait, skip, backoff, JetPack runners) and Open WebUI's loopback
rewrite on a device.
"""

from __future__ import annotations

from typing import Final

from harness.mutation import ENTRYPOINT, Edit, Mutant

VLLM_SH: Final = "vllm/entrypoint.sh"
_OLLAMA_SH = "ollama/entrypoint.sh"
_WEBUI_SH = "open-webui/entrypoint.sh"


def behaviour(name: str) -> str:
    """The check name of an entrypoint behaviour, for ``killed_by``."""
    return f"{ENTRYPOINT}:{name}"


SCRIPT_MUTANTS: Final[tuple[Mutant, ...]] = (
    Mutant(
        "unbounded-fast-exits",
        "fast vLLM deaths are counted but never end the loop",
        (behaviour("vllm-fast-deaths-give-up"),),
        (
            Edit(
                VLLM_SH,
                "if ((fast_exits >= max_fast_exits)); then",
                "if ((max_fast_exits == 0)); then",
            ),
        ),
    ),
    Mutant(
        "preflight-after-download",
        "the CUDA preflight runs after vLLM's first start (which downloads ~72GB)",
        (behaviour("vllm-preflight-fails"),),
        (
            Edit(VLLM_SH, "if ! preflight; then", "if false; then"),
            Edit(
                VLLM_SH,
                '  run_vllm "${args[@]}"\n',
                '  run_vllm "${args[@]}"\n  preflight || exit 3\n',
            ),
        ),
    ),
    Mutant(
        "trust-remote-code-always",
        "--trust-remote-code is passed although TRUST_REMOTE_CODE=0",
        (behaviour("vllm-dflash-on"),),
        (Edit(VLLM_SH, "if ((trust_remote_code)); then", "if true; then"),),
    ),
    Mutant(
        "quantization-flag",
        "vLLM is told --quantization instead of detecting it from the checkpoint",
        (behaviour("vllm-serve-settings"),),
        (
            Edit(
                VLLM_SH,
                "    --max-num-batched-tokens 32768\n",
                "    --max-num-batched-tokens 32768\n    --quantization modelopt_fp4\n",
            ),
        ),
    ),
    Mutant(
        "no-retry-pause",
        "vLLM is restarted at once instead of after VLLM_RETRY_DELAY_S",
        (behaviour("vllm-clean-exit"),),
        (Edit(VLLM_SH, '  pause "$(ms_to_s "$retry_delay_ms")"\n', ""),),
    ),
    Mutant(
        "slow-death-keeps-count",
        "a slow vLLM death no longer resets the count of fast exits in a row",
        (behaviour("vllm-slow-death-resets"),),
        (
            Edit(
                VLLM_SH,
                '    fast_exits=0\n    log "vLLM died after $ran (status $status); restarting"',
                '    log "vLLM died after $ran (status $status); restarting"',
            ),
        ),
    ),
    Mutant(
        "clock-in-seconds",
        "the vLLM script's clock reads seconds where it means milliseconds",
        (behaviour("vllm-slow-death-on-the-real-clock"),),
        (
            Edit(
                VLLM_SH,
                "printf '%d' \"$((10#$us / 1000))\"",
                "printf '%d' \"$((10#$us / 1000000))\"",
            ),
        ),
    ),
    Mutant(
        "uncapped-backoff",
        "the pull backoff keeps doubling past OLLAMA_PULL_BACKOFF_MAX_S",
        (behaviour("ollama-pull-backoff"),),
        (Edit(_OLLAMA_SH, "if ((delay_ms > backoff_max_ms)); then", "if false; then"),),
    ),
    Mutant(
        "pull-before-serve",
        "the model is pulled before `ollama serve` starts (in the foreground)",
        (behaviour("ollama-waits-then-pulls"),),
        (Edit(_OLLAMA_SH, "ensure_model &\n", "ensure_model\n"),),
    ),
    Mutant(
        "pull-when-present",
        "the model is pulled even when `ollama show` finds it",
        (behaviour("ollama-skips-present-model"),),
        (
            Edit(
                _OLLAMA_SH,
                'if ollama show "$model" >/dev/null 2>&1; then',
                'if false && ollama show "$model" >/dev/null 2>&1; then',
            ),
        ),
    ),
    Mutant(
        "webui-keeps-vllm-dns",
        "on a device, Open WebUI keeps the vllm service name, which does not resolve",
        (behaviour("webui-rewrites-on-device"),),
        (
            Edit(
                _WEBUI_SH,
                'for name in ollama vllm ${2:+"$2"}; do',
                'for name in ollama ${2:+"$2"}; do',
            ),
        ),
    ),
    Mutant(
        "webui-rewrites-only-with-hostname",
        "Open WebUI rewrites backend URLs only if WENDY_HOSTNAME is set (a device may not set it)",
        (behaviour("webui-rewrites-where-names-do-not-resolve"),),
        (Edit(_WEBUI_SH, '    if resolves "$service"; then', "    if true; then"),),
    ),
    Mutant(
        "jetpack-6-not-detected",
        "the Ollama entrypoint no longer sets JETSON_JETPACK=6 on JetPack 6",
        (behaviour("ollama-jetpack-runners"),),
        (Edit(_OLLAMA_SH, 'if [[ "$major" == 6 ]]; then', 'if [[ "$major" == 0 ]]; then'),),
    ),
)
