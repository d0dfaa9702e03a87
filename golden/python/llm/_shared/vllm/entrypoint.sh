#!/usr/bin/env bash
# Serves Laguna-S 2.1 through vLLM's OpenAI-compatible API on port API_PORT
# (8000), with DFlash speculative decoding when the installed vLLM has the
# drafter.
#
#  1. CUDA preflight, before anything is downloaded: a platform whose CUDA is
#     too old (see README.md, "DFlash mode") would otherwise crash-loop after
#     a ~72GB download while the app looks healthy.
#  2. DFlash probe: unless DFLASH_DISABLE=1, serve with the DFlash drafter if
#     this vLLM ships it, else warn and serve plain.
#  3. Serve loop: a clean vLLM exit ends the container with 0. A run that dies
#     within VLLM_FAST_EXIT_S with DFlash on is blamed on DFlash and retried
#     without it. Fast deaths without DFlash are counted; after
#     VLLM_MAX_FAST_EXITS in a row the script exits non-zero, so the restart
#     policy shows a restarting container instead of a loop that looks
#     healthy. A death after a long run resets the count. Retries wait
#     VLLM_RETRY_DELAY_S.
#
# Environment (defaults in brackets; the Dockerfile sets the same ones):
#   VLLM_TARGET_MODEL       [poolside/Laguna-S-2.1-NVFP4]
#   DFLASH_DRAFT_MODEL      [poolside/Laguna-S-2.1-DFlash]
#   SERVED_MODEL_NAME       [laguna-s-2.1]
#   API_PORT                port of the OpenAI-compatible API [8000]
#   NUM_SPECULATIVE_TOKENS  [15]
#   MAX_MODEL_LEN           [131072]
#   GPU_MEMORY_UTILIZATION  [0.70]
#   VLLM_API_KEY            [wendy-local-dflash] (not a secret; see README.md)
#   TRUST_REMOTE_CODE       1 adds --trust-remote-code [0]
#   DFLASH_DISABLE          1 skips the probe and serves plain [0]
#   HF_HOME                 Hugging Face cache [/models/hf]
# Timing and counts (seconds may be fractional, e.g. 0.05, so tests run fast):
#   VLLM_PREFLIGHT_ATTEMPTS  CUDA preflight attempts [3]
#   VLLM_PREFLIGHT_PAUSE_S   pause between preflight attempts [10]
#   VLLM_FAST_EXIT_S         a death sooner than this is a fast exit [90]
#   VLLM_MAX_FAST_EXITS      fast exits in a row before giving up [5]
#   VLLM_RETRY_DELAY_S       pause before every restart of vLLM [15]
#
# Exit status: 0 when vLLM exits cleanly; 2 for an invalid setting; 3 when the
# CUDA preflight fails; vLLM's own (non-zero) status after too many fast exits.
set -euo pipefail

log() { printf '[vllm-entrypoint] %s\n' "$*" >&2; }
warn() { printf '[vllm-entrypoint] WARNING: %s\n' "$*" >&2; }

die() {
  log "ERROR: $*"
  exit 2
}

# Seconds (integer or decimal) -> integer milliseconds, in pure bash.
to_ms() {
  local name="$1" value="$2"
  if [[ ! "$value" =~ ^([0-9]*)(\.([0-9]*))?$ || "$value" == "" || "$value" == "." ]]; then
    die "$name must be a number of seconds (e.g. 15 or 0.05), got '$value'"
  fi
  local whole="${BASH_REMATCH[1]:-0}" frac="${BASH_REMATCH[3]:-}000"
  printf '%d' "$((10#$whole * 1000 + 10#${frac:0:3}))"
}

ms_to_s() { printf '%d.%03d' "$(($1 / 1000))" "$(($1 % 1000))"; }

to_count() {
  local name="$1" value="$2" min="$3"
  [[ "$value" =~ ^[0-9]+$ ]] || die "$name must be a whole number, got '$value'"
  ((10#$value >= min)) || die "$name must be at least $min, got '$value'"
  printf '%d' "$((10#$value))"
}

to_switch() {
  local name="$1" value="$2"
  case "$value" in
    "" | 0) printf '0' ;;
    1) printf '1' ;;
    *) die "$name must be 0 or 1, got '$value'" ;;
  esac
}

now_ms() {
  # EPOCHREALTIME (bash 5) is "seconds.micros" with a locale-dependent
  # separator; dropping the separator gives microseconds.
  if [[ -n "${EPOCHREALTIME:-}" ]]; then
    local us="${EPOCHREALTIME//[!0-9]/}"
    printf '%d' "$((10#$us / 1000))"
  else
    printf '%d' "$(($(date +%s) * 1000))"
  fi
}

target="${VLLM_TARGET_MODEL:-poolside/Laguna-S-2.1-NVFP4}"
draft="${DFLASH_DRAFT_MODEL:-poolside/Laguna-S-2.1-DFlash}"
served_name="${SERVED_MODEL_NAME:-laguna-s-2.1}"
port="$(to_count API_PORT "${API_PORT:-8000}" 1)"
api_key="${VLLM_API_KEY:-wendy-local-dflash}"
hf_home="${HF_HOME:-/models/hf}"
spec_tokens="$(to_count NUM_SPECULATIVE_TOKENS "${NUM_SPECULATIVE_TOKENS:-15}" 1)"
max_model_len="$(to_count MAX_MODEL_LEN "${MAX_MODEL_LEN:-131072}" 1)"
gpu_util="${GPU_MEMORY_UTILIZATION:-0.70}"
trust_remote_code="$(to_switch TRUST_REMOTE_CODE "${TRUST_REMOTE_CODE:-0}")"
dflash_disable="$(to_switch DFLASH_DISABLE "${DFLASH_DISABLE:-0}")"
preflight_attempts="$(to_count VLLM_PREFLIGHT_ATTEMPTS "${VLLM_PREFLIGHT_ATTEMPTS:-3}" 1)"
preflight_pause_ms="$(to_ms VLLM_PREFLIGHT_PAUSE_S "${VLLM_PREFLIGHT_PAUSE_S:-10}")"
fast_exit_ms="$(to_ms VLLM_FAST_EXIT_S "${VLLM_FAST_EXIT_S:-90}")"
max_fast_exits="$(to_count VLLM_MAX_FAST_EXITS "${VLLM_MAX_FAST_EXITS:-5}" 1)"
retry_delay_ms="$(to_ms VLLM_RETRY_DELAY_S "${VLLM_RETRY_DELAY_S:-15}")"

[[ -n "$target" ]] || die "VLLM_TARGET_MODEL must not be empty"
[[ -n "$served_name" ]] || die "SERVED_MODEL_NAME must not be empty"
((port <= 65535)) || die "API_PORT must be a port number (1-65535), got '$port'"
[[ -n "$api_key" ]] || die "VLLM_API_KEY must not be empty (Open WebUI sends it as OPENAI_API_KEY)"
[[ "$gpu_util" =~ ^(0?\.[0-9]+|1(\.0*)?)$ ]] ||
  die "GPU_MEMORY_UTILIZATION must be a fraction such as 0.70, got '$gpu_util'"
# The draft model goes into a JSON string: allow repository ids and paths only.
[[ "$draft" =~ ^[A-Za-z0-9._/:-]+$ ]] ||
  die "DFLASH_DRAFT_MODEL must be a Hugging Face repository id or a path, got '$draft'"

# --- 1. CUDA preflight --------------------------------------------------------

cuda_works() {
  python3 -c "import torch; torch.zeros(1, device='cuda')"
}

preflight() {
  local attempt
  for ((attempt = 1; attempt <= preflight_attempts; attempt++)); do
    if cuda_works; then
      log "CUDA preflight passed"
      return 0
    fi
    log "CUDA preflight attempt $attempt/$preflight_attempts failed"
    if ((attempt < preflight_attempts)); then
      sleep "$(ms_to_s "$preflight_pause_ms")"
    fi
  done
  return 1
}

if ! preflight; then
  log "ERROR: this device cannot run CUDA with the PyTorch of nvcr.io/nvidia/vllm:26.06-py3."
  log "ERROR: that image needs CUDA 13.3 or newer, and Jetson (Tegra) has no CUDA forward"
  log "ERROR: compatibility: on a JetPack with older CUDA (JetPack 7.2 ships CUDA 13.2) CUDA"
  log "ERROR: init fails. Nothing was downloaded. Update the device to a JetPack with CUDA"
  log "ERROR: 13.3+, or re-create the app with an Ollama pick such as laguna-s-2.1:q4_K_M."
  log "ERROR: Or the container has no GPU at all: on a WendyOS device, the Wendy CLI revision"
  log "ERROR: README.md names grants no gpu entitlement to a docker-compose.yml app."
  log "ERROR: See \"DFlash mode\" and \"On a WendyOS device\" in the app's README.md."
  exit 3
fi

# --- 2. DFlash probe ------------------------------------------------------------

use_dflash=0
if ((dflash_disable)); then
  log "DFLASH_DISABLE=1: serving without speculative decoding"
# The probe runs inside the `if`: a vLLM install that cannot even be imported
# demotes to plain serving instead of aborting the script.
elif python3 -c 'import importlib.util,sys; sys.exit(0 if importlib.util.find_spec("vllm.model_executor.models.laguna_dflash") else 1)'; then
  use_dflash=1
  log "DFlash drafter found: speculative decoding with $draft, $spec_tokens tokens per step"
else
  warn "this vLLM has no DFlash drafter (vllm.model_executor.models.laguna_dflash, vLLM >= 0.25.1); serving $target WITHOUT speculative decoding"
fi

serve_args() {
  args=(serve "$target"
    --host 0.0.0.0
    --port "$port"
    --api-key "$api_key"
    --served-model-name "$served_name"
    --gpu-memory-utilization "$gpu_util"
    --max-model-len "$max_model_len"
    --max-num-batched-tokens 32768
    --enable-auto-tool-choice
    --tool-call-parser poolside_v1
    --reasoning-parser poolside_v1)
  # Quantisation (NVFP4) is detected from the checkpoint: never --quantization.
  if ((trust_remote_code)); then
    args+=(--trust-remote-code)
  fi
  if ((use_dflash)); then
    args+=(--speculative-config
      "{\"method\": \"dflash\", \"model\": \"$draft\", \"num_speculative_tokens\": $spec_tokens}"
      --moe-backend triton)
  fi
}

# --- 3. Serve loop ----------------------------------------------------------------

# vLLM runs as a child; the container's stop signal is passed on to it so it
# shuts down cleanly, and the loop ends.
child=0
stopping=0
on_stop() {
  stopping=1
  if ((child > 0)); then
    kill -TERM "$child" 2>/dev/null || true
  fi
}
trap on_stop TERM INT

# Runs vLLM with "$@" and leaves its exit status in $status.
status=0
run_vllm() {
  vllm "$@" &
  child=$!
  status=0
  wait "$child" || status=$?
  # A trapped signal interrupts `wait` while vLLM is still shutting down.
  while ((stopping)) && kill -0 "$child" 2>/dev/null; do
    status=0
    wait "$child" || status=$?
  done
  child=0
}

if [[ -d "$hf_home/hub/models--${target//\//--}" ]]; then
  log "found $target in the cache at $hf_home; the API on port $port answers once it has loaded"
else
  log "first start: downloading ~72GB of weights ($target and its draft) into $hf_home."
  log "that takes about 50 minutes at 25 MB/s; the API on port $port stays down, and Open WebUI"
  log "lists no model, until the download has finished and the model has loaded."
fi

# Sleeps in the background so a stop signal is handled at once, not after
# the pause.
pause() {
  sleep "$1" &
  wait "$!" || true
}

fast_exits=0
while true; do
  if ((stopping)); then
    log "stopped"
    exit 0
  fi
  serve_args
  shown=("${args[@]}")
  for i in "${!shown[@]}"; do
    if [[ "${shown[i]}" == --api-key ]]; then
      shown[i + 1]='<VLLM_API_KEY>'
    fi
  done
  log "starting: vllm ${shown[*]}"
  started_ms="$(now_ms)"
  run_vllm "${args[@]}"
  elapsed_ms=$(($(now_ms) - started_ms))
  ran="$(ms_to_s "$elapsed_ms") s"

  if ((stopping)); then
    log "stopped (vLLM exited with status $status)"
    exit "$status"
  fi
  if ((status == 0)); then
    log "vLLM exited cleanly after $ran"
    exit 0
  fi

  if ((elapsed_ms < fast_exit_ms)); then
    if ((use_dflash)); then
      warn "vLLM died after $ran (status $status) with DFlash on; blaming DFlash and retrying WITHOUT speculative decoding (set DFLASH_DISABLE=1 to skip it from the start)"
      use_dflash=0
    else
      fast_exits=$((fast_exits + 1))
      log "vLLM died after $ran (status $status): fast exit $fast_exits/$max_fast_exits in a row"
      if ((fast_exits >= max_fast_exits)); then
        log "ERROR: vLLM keeps dying at start-up; giving up (status $status). Its log lines above say why."
        exit "$status"
      fi
    fi
  else
    fast_exits=0
    log "vLLM died after $ran (status $status); restarting"
  fi
  log "restarting vLLM in $(ms_to_s "$retry_delay_ms") s"
  pause "$(ms_to_s "$retry_delay_ms")"
done
