#!/usr/bin/env bash
# Starts Open WebUI on $PORT.
#
# On a Wendy device (WENDY_HOSTNAME is set) the services of an app group get
# no Compose service DNS: the names `ollama` and `vllm` do not resolve, but
# every service shares the device's network, so a backend is reached on
# loopback. This rewrites the backend URLs Compose sets (by service name or
# by the device's host name) to loopback there, and leaves any other URL, and
# everything off the device, alone.
#
#   http://ollama:11434       -> http://127.0.0.1:11434     (OLLAMA_BASE_URL)
#   http://vllm:8000/v1       -> http://127.0.0.1:8000/v1   (OPENAI_API_BASE_URL)
set -euo pipefail

log() { printf '[open-webui-entrypoint] %s\n' "$*" >&2; }

# Prints the loopback form of a known backend URL, or the URL unchanged.
loopback_url() {
  local url="${1%/}" host="$2"
  case "$url" in
    "http://ollama:11434" | "http://$host:11434")
      printf '%s' "http://127.0.0.1:11434"
      ;;
    "http://vllm:8000/v1" | "http://$host:8000/v1")
      printf '%s' "http://127.0.0.1:8000/v1"
      ;;
    *)
      printf '%s' "$1"
      ;;
  esac
}

if [[ -n "${WENDY_HOSTNAME:-}" ]]; then
  for var in OLLAMA_BASE_URL OPENAI_API_BASE_URL; do
    old="${!var:-}"
    [[ -n "$old" ]] || continue
    new="$(loopback_url "$old" "$WENDY_HOSTNAME")"
    if [[ "$new" != "$old" ]]; then
      log "on device $WENDY_HOSTNAME: $var $old -> $new"
      export "$var=$new"
    fi
  done
fi

# Open WebUI keeps its generated session key in the working directory: run
# from the data volume so logins survive restarts.
mkdir -p "${DATA_DIR:-/data}"
cd "${DATA_DIR:-/data}"
port="${PORT:-8080}"
log "starting Open WebUI on port $port"
exec open-webui serve --host 0.0.0.0 --port "$port"
