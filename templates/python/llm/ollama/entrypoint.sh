#!/usr/bin/env bash
# Serves Ollama and makes sure $OLLAMA_MODEL is pulled.
#
# `ollama serve` becomes the container's main process at once, so the API is
# up while the model downloads. A background job waits for the API, then
# pulls the model unless it is already present, retrying failed pulls with a
# doubling, capped delay: a first boot that races the network recovers by
# itself.
#
# On JetPack 6 (a Jetson Orin) it also sets JETSON_JETPACK=6, unless it is
# already set: the container cannot see the host's L4T release, and Ollama
# must be told to use its Jetson CUDA runners. The JetPack release is the
# build arg the Wendy CLI passes (WENDY_JETPACK_VERSION, e.g. 6.1 or
# L4T 38.2.1), which the Dockerfile keeps in the image's ENV; a build
# without it (plain `docker compose build`) is not a Jetson and gets
# nothing forced.
#
# Environment (defaults in brackets; seconds may be fractional, e.g. 0.01):
#   OLLAMA_MODEL                 model to pull [your pick, from the image's
#                                ENV; gemma4:e2b without it]
#   WENDY_JETPACK_VERSION        the device's JetPack release [none]
#   JETSON_JETPACK               set it to choose Ollama's Jetson runners
#                                yourself [6 on JetPack 6, else unset]
#   OLLAMA_API_WAIT_S            how long to wait for the API before giving up
#                                on the pull (serving goes on) [300]
#   OLLAMA_API_POLL_S            pause between API probes [1]
#   OLLAMA_PULL_BACKOFF_START_S  delay after the first failed pull [10]
#   OLLAMA_PULL_BACKOFF_MAX_S    cap of the doubling delay [60]
#   OLLAMA_PULL_MAX_ATTEMPTS     give up after this many failed pulls;
#                                0 = keep trying [0]
set -euo pipefail

log() { printf '[ollama-entrypoint] %s\n' "$*" >&2; }

die() {
  log "ERROR: $*"
  exit 2
}

# Seconds (integer or decimal) -> integer milliseconds, in pure bash so the
# script needs no awk/bc and tests can use millisecond timings.
to_ms() {
  local name="$1" value="$2"
  if [[ ! "$value" =~ ^([0-9]*)(\.([0-9]*))?$ || "$value" == "" || "$value" == "." ]]; then
    die "$name must be a number of seconds (e.g. 10 or 0.5), got '$value'"
  fi
  local whole="${BASH_REMATCH[1]:-0}" frac="${BASH_REMATCH[3]:-}000"
  printf '%d' "$((10#$whole * 1000 + 10#${frac:0:3}))"
}

ms_to_s() { printf '%d.%03d' "$(($1 / 1000))" "$(($1 % 1000))"; }

to_count() {
  local name="$1" value="$2"
  [[ "$value" =~ ^[0-9]+$ ]] || die "$name must be a whole number, got '$value'"
  printf '%d' "$((10#$value))"
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

model="${OLLAMA_MODEL:-gemma4:e2b}"
api_wait_ms="$(to_ms OLLAMA_API_WAIT_S "${OLLAMA_API_WAIT_S:-300}")"
api_poll_ms="$(to_ms OLLAMA_API_POLL_S "${OLLAMA_API_POLL_S:-1}")"
backoff_start_ms="$(to_ms OLLAMA_PULL_BACKOFF_START_S "${OLLAMA_PULL_BACKOFF_START_S:-10}")"
backoff_max_ms="$(to_ms OLLAMA_PULL_BACKOFF_MAX_S "${OLLAMA_PULL_BACKOFF_MAX_S:-60}")"
max_attempts="$(to_count OLLAMA_PULL_MAX_ATTEMPTS "${OLLAMA_PULL_MAX_ATTEMPTS:-0}")"

wait_for_api() {
  local deadline=$(($(now_ms) + api_wait_ms))
  # `ollama list` talks to the server at $OLLAMA_HOST: it succeeds exactly
  # when the API answers (the image has no curl).
  until ollama list >/dev/null 2>&1; do
    if (($(now_ms) >= deadline)); then
      return 1
    fi
    sleep "$(ms_to_s "$api_poll_ms")"
  done
}

ensure_model() {
  if ! wait_for_api; then
    log "ERROR: the Ollama API did not answer within $(ms_to_s "$api_wait_ms") s; not pulling $model (serving goes on)"
    return 1
  fi
  if ollama show "$model" >/dev/null 2>&1; then
    log "model $model is already present"
    return 0
  fi
  local attempt=0 delay_ms="$backoff_start_ms"
  while true; do
    attempt=$((attempt + 1))
    log "pulling $model (attempt $attempt)"
    if ollama pull "$model"; then
      log "model $model is ready"
      return 0
    fi
    if ((max_attempts > 0 && attempt >= max_attempts)); then
      log "ERROR: pulling $model failed $attempt times; giving up (serving goes on; pull it by hand with 'ollama pull $model')"
      return 1
    fi
    log "pulling $model failed; retrying in $(ms_to_s "$delay_ms") s"
    sleep "$(ms_to_s "$delay_ms")"
    delay_ms=$((delay_ms * 2))
    if ((delay_ms > backoff_max_ms)); then
      delay_ms="$backoff_max_ms"
    fi
  done
}

# JetPack 6 -> JETSON_JETPACK=6. The Wendy CLI passes WENDY_JETPACK_VERSION
# in one of two forms: a JetPack release from its table (6.1, 6.0, 5.1.3,
# ..., 4.1; a JetPack 6.2 device reports 6.1), or "L4T <release>" where its
# table stops ("L4T 36.5.0" on a newer JetPack 6, "L4T 38.2.1" on a Thor,
# JetPack 7). A bare L4T release (36.4.3, r36.4) is understood too.
# L4T R32 is JetPack 4, R34/R35 JetPack 5, R36 JetPack 6, R38 JetPack 7.
l4t_jetpack() {
  case "$1" in
    32) echo 4 ;;
    34 | 35) echo 5 ;;
    36) echo 6 ;;
    38) echo 7 ;;
    *) echo "unknown" ;;
  esac
}

jetpack_runner() {
  local version="${WENDY_JETPACK_VERSION:-}"
  if [[ -n "${JETSON_JETPACK:-}" ]]; then
    log "JETSON_JETPACK=$JETSON_JETPACK (set already; JetPack '$version')"
    return 0
  fi
  [[ -n "$version" ]] || return 0
  local major
  if [[ "$version" =~ ^[Ll]4[Tt][[:space:]]+[rR]?([0-9]+)([.]|$) ]]; then
    major="$(l4t_jetpack "$((10#${BASH_REMATCH[1]}))")"
  elif [[ "$version" =~ ^[rRvV]?([0-9]+)([.-]|$) ]]; then
    major="$((10#${BASH_REMATCH[1]}))"
    if ((major >= 30)); then
      major="$(l4t_jetpack "$major")"
    fi
  else
    log "WARNING: WENDY_JETPACK_VERSION='$version' is not a JetPack release such as 6.1 or L4T 38.2.1; not setting JETSON_JETPACK"
    return 0
  fi
  if [[ "$major" == 6 ]]; then
    export JETSON_JETPACK=6
    log "JetPack $version: JETSON_JETPACK=6 (Ollama's JetPack 6 CUDA runners)"
  else
    log "JetPack $version (JetPack $major): Ollama's standard runners"
  fi
}
jetpack_runner

log "starting ollama serve; $model will be pulled once the API is up"
ensure_model &
# exec: Ollama becomes the main process and receives the container's signals
# directly; the background pull keeps running beside it.
exec ollama serve
