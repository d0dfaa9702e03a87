"""The vLLM entrypoint (``vllm/entrypoint.sh``): CUDA preflight, DFlash probe,
serve arguments, the serve loop.  The behaviours live by concern in
:mod:`~harness.behaviours.vllm_startup` (preflight, probe, serve arguments)
and :mod:`~harness.behaviours.vllm_loop` (the serve loop), on the shared
stubs and facts of :mod:`~harness.behaviours.vllm_run`; this is their
catalogue, in the order the runs list them."""

from __future__ import annotations

from typing import Final

from harness.behaviours.base import VLLM_SCRIPT, Behaviour
from harness.behaviours.vllm_loop import (
    vllm_clean_exit,
    vllm_fast_death_demotes,
    vllm_fast_deaths_after_dflash,
    vllm_fast_deaths_give_up,
    vllm_slow_death_on_the_real_clock,
    vllm_slow_death_resets,
)
from harness.behaviours.vllm_startup import (
    vllm_dflash_absent,
    vllm_dflash_custom,
    vllm_dflash_disabled,
    vllm_dflash_on,
    vllm_download_notice,
    vllm_preflight_fails,
    vllm_preflight_retries,
    vllm_serve_settings,
)

BEHAVIOURS: Final[tuple[Behaviour, ...]] = (
    Behaviour("vllm-preflight-fails", VLLM_SCRIPT, vllm_preflight_fails),
    Behaviour("vllm-preflight-retries", VLLM_SCRIPT, vllm_preflight_retries),
    Behaviour("vllm-dflash-on", VLLM_SCRIPT, vllm_dflash_on),
    Behaviour("vllm-dflash-custom", VLLM_SCRIPT, vllm_dflash_custom),
    Behaviour("vllm-dflash-absent", VLLM_SCRIPT, vllm_dflash_absent),
    Behaviour("vllm-dflash-disabled", VLLM_SCRIPT, vllm_dflash_disabled),
    Behaviour("vllm-fast-death-demotes", VLLM_SCRIPT, vllm_fast_death_demotes),
    Behaviour("vllm-fast-deaths-give-up", VLLM_SCRIPT, vllm_fast_deaths_give_up),
    Behaviour("vllm-fast-deaths-after-dflash", VLLM_SCRIPT, vllm_fast_deaths_after_dflash),
    Behaviour("vllm-slow-death-resets", VLLM_SCRIPT, vllm_slow_death_resets),
    Behaviour("vllm-slow-death-on-the-real-clock", VLLM_SCRIPT, vllm_slow_death_on_the_real_clock),
    Behaviour("vllm-clean-exit", VLLM_SCRIPT, vllm_clean_exit),
    Behaviour("vllm-serve-settings", VLLM_SCRIPT, vllm_serve_settings),
    Behaviour("vllm-download-notice", VLLM_SCRIPT, vllm_download_notice),
)
