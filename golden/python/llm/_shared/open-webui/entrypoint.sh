#!/usr/bin/env bash
# Starts Open WebUI on $PORT.
#
# In a WendyOS app group the services get no Compose service DNS: the names
# `ollama` and `vllm` do not resolve, but every service shares the device's
# network, so a backend is reached on loopback. The backend URL comes from
# the image's ENV (rendered for your pick; on a device that is all the
# container gets) or, under Docker Compose, from docker-compose.yml. This
# rewrites the backend services' URLs to loopback on a device, keeping their
# port and path, and leaves any other URL, and everything under Docker
# Compose, alone:
#
#   http://ollama:11434       -> http://127.0.0.1:11434     (OLLAMA_BASE_URL)
#   http://vllm:8000/v1       -> http://127.0.0.1:8000/v1   (OPENAI_API_BASE_URL)
#
# (also when written with the device's host name, $WENDY_HOSTNAME).
#
# "On a device" is: WENDY_HOSTNAME is set, or the URL's service name does not
# resolve (`getent hosts ollama` fails). A device's agent sets WENDY_HOSTNAME
# in every container, but leaves it out when it cannot resolve its own mDNS
# name, so the name lookup backs it up. Under Docker Compose the name
# resolves once the backend's container has started, which `depends_on`
# waits for; a backend that is down at that moment (e.g. between restarts)
# would be taken for a device: restart open-webui once it is up.
set -euo pipefail

log() { printf '[open-webui-entrypoint] %s\n' "$*" >&2; }

# Prints the loopback form of a backend URL (its host a backend service, or
# the device's host name $2), port and path kept; any other URL unchanged.
loopback_url() {
  local url="$1" name
  for name in ollama vllm ${2:+"$2"}; do
    if [[ "$url" == "http://$name:"* ]]; then
      printf '%s' "http://127.0.0.1:${url#"http://$name:"}"
      return
    fi
  done
  printf '%s' "$url"
}

# Prints the Compose service a backend URL names, or nothing.
backend_service() {
  case "$1" in
    http://ollama:*) printf 'ollama' ;;
    http://vllm:*) printf 'vllm' ;;
  esac
}

resolves() {
  getent hosts "$1" >/dev/null 2>&1
}

device="${WENDY_HOSTNAME:-}"
for var in OLLAMA_BASE_URL OPENAI_API_BASE_URL; do
  old="${!var:-}"
  [[ -n "$old" ]] || continue
  if [[ -n "$device" ]]; then
    new="$(loopback_url "$old" "$device")"
    why="on device $device"
  else
    service="$(backend_service "$old")"
    [[ -n "$service" ]] || continue
    if resolves "$service"; then
      continue
    fi
    new="$(loopback_url "$old" "")"
    why="$service does not resolve (a WendyOS device: no Compose service DNS)"
  fi
  if [[ "$new" != "$old" ]]; then
    log "$why: $var $old -> $new"
    export "$var=$new"
  fi
done

# Open WebUI keeps its generated session key in the working directory: run
# from the data volume so logins survive restarts.
mkdir -p "${DATA_DIR:-/data}"
cd "${DATA_DIR:-/data}"
port="${PORT:-8080}"
log "starting Open WebUI on port $port"
# open-webui is found through /usr/local/bin, where the Dockerfile links it:
# a WendyOS device puts its own PATH after the image's ENV, and the later
# entry wins, so the virtualenv's bin is not searched there.
exec open-webui serve --host 0.0.0.0 --port "$port"
