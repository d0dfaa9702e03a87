#!/usr/bin/env bash
# Starts Open WebUI on $PORT.
#
# On a Wendy device (WENDY_HOSTNAME is set) the services of an app group get
# no Compose service DNS: the name `ollama` does not resolve, but every
# service shares the device's network, so Ollama is reached on loopback. This
# rewrites the backend URL Compose sets (by service name or by the device's
# host name) to loopback there, and leaves any other URL, and everything off
# the device, alone.
#
#   http://ollama:11434       -> http://127.0.0.1:11434     (OLLAMA_BASE_URL)
set -euo pipefail

log() { printf '[open-webui-entrypoint] %s\n' "$*" >&2; }

# Prints the loopback form of a known backend URL, or the URL unchanged.
loopback_url() {
  local url="${1%/}" host="$2"
  case "$url" in
    "http://ollama:11434" | "http://$host:11434")
      printf '%s' "http://127.0.0.1:11434"
      ;;
    *)
      printf '%s' "$1"
      ;;
  esac
}

if [[ -n "${WENDY_HOSTNAME:-}" && -n "${OLLAMA_BASE_URL:-}" ]]; then
  new="$(loopback_url "$OLLAMA_BASE_URL" "$WENDY_HOSTNAME")"
  if [[ "$new" != "$OLLAMA_BASE_URL" ]]; then
    log "on device $WENDY_HOSTNAME: OLLAMA_BASE_URL $OLLAMA_BASE_URL -> $new"
    export OLLAMA_BASE_URL="$new"
  fi
fi

# Open WebUI keeps its generated session key in the working directory: run
# from the data volume so logins survive restarts.
mkdir -p "${DATA_DIR:-/data}"
cd "${DATA_DIR:-/data}"
port="${PORT:-{{.PORT}}}"
log "starting Open WebUI on port $port"
exec open-webui serve --host 0.0.0.0 --port "$port"
