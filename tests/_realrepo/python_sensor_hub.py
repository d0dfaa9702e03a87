"""python/sensor-hub: a multi-service app declared in ``wendy.json``, no compose file.

Three services, each built from its own context: ``store`` (Redis with a
persist entitlement), ``collector`` (reads I2C sensors: i2c and gpio
entitlements) and ``api`` (serves the readings).  ``dependsOn`` orders
them.  With no compose file ``wendy run`` reads ``wendy.json`` (spec:
wendy-run.md sections 1 and 2).  The checkbox answer reaches the code as a
comma list (``{{.SENSORS}}``), never through the per-option booleans,
which a ``--var`` answer would leave unset.
"""

from __future__ import annotations

from _realrepo.spec import (
    CONDITIONALS,
    MULTI_SERVICE,
    TemplateSpec,
    json_text,
    manifest,
    port_variable,
)

WENDY_JSON = """\
{
  "appId": "{{.APP_ID}}",
  "version": "1.2.0",
  "platform": "linux",
  "services": {
    "store": {
      "context": "./store",
      "entitlements": [
        {
          "type": "persist",
          "name": "{{.APP_ID}}-readings",
          "path": "/data"
        },
        {
          "type": "network"
        }
      ]
    },
    "collector": {
      "context": "./collector",
      "entitlements": [
        {
          "type": "i2c",
          "device": "{{.I2C_BUS}}"
        },
        {
          "type": "gpio"
        },
        {
          "type": "network"
        }
      ],
      "dependsOn": ["store"]
    },
    "api": {
      "context": "./api",
      "entitlements": [
        {
          "type": "network"
        }
      ],
      "dependsOn": ["store"]
    }
  },
  "readiness": {
    "tcpSocket": {
      "port": {{.PORT}}
    },
    "timeoutSeconds": 120
  },
  "hooks": {
    "postStart": {
      "cli": "wendy utils open-browser http://${WENDY_HOSTNAME}:{{.PORT}}/readings"
    }
  }
}
"""

STORE_DOCKERFILE = """\
FROM redis:7.4-alpine
COPY redis.conf /usr/local/etc/redis/redis.conf
CMD ["redis-server", "/usr/local/etc/redis/redis.conf"]
"""

REDIS_CONF = """\
# Only the collector and the api (same device, host network) talk to Redis.
bind 127.0.0.1
port 6379
dir /data
appendonly yes
appendfsync everysec
maxmemory 64mb
maxmemory-policy allkeys-lru
"""

COLLECTOR_DOCKERFILE = """\
FROM python:3.12-slim

RUN apt-get update \\
    && apt-get install -y --no-install-recommends i2c-tools \\
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY collector.py ./

ENV SENSORS="{{.SENSORS}}" \\
    I2C_BUS="{{.I2C_BUS}}" \\
    SAMPLE_INTERVAL="{{.SAMPLE_INTERVAL}}"
CMD ["python", "collector.py"]
"""

COLLECTOR_PY = '''\
"""Reads the selected I2C sensors every SAMPLE_INTERVAL seconds into Redis."""

import json
import os
import time

import redis
from smbus2 import SMBus

BUS = int(os.environ.get("I2C_BUS", "{{.I2C_BUS}}").removeprefix("i2c-"))
INTERVAL = float(os.environ.get("SAMPLE_INTERVAL", "{{.SAMPLE_INTERVAL}}"))
SENSORS = [s.strip() for s in os.environ.get("SENSORS", "").split(",") if s.strip()]

ADDRESSES = {"bme280": 0x76, "sht31": 0x44, "bh1750": 0x23}


def read_sensor(bus: SMBus, name: str) -> dict[str, float]:
    address = ADDRESSES[name]
    if name == "bme280":
        raw = bus.read_i2c_block_data(address, 0xFA, 3)
        return {"temperature_raw": float((raw[0] << 12) | (raw[1] << 4) | (raw[2] >> 4))}
    if name == "sht31":
        bus.write_i2c_block_data(address, 0x24, [0x00])
        time.sleep(0.02)
        raw = bus.read_i2c_block_data(address, 0x00, 6)
        celsius = -45 + 175 * ((raw[0] << 8) | raw[1]) / 65535
        humidity = 100 * ((raw[3] << 8) | raw[4]) / 65535
        return {"temperature_c": round(celsius, 2), "humidity": round(humidity, 1)}
    raw = bus.read_i2c_block_data(address, 0x20, 2)
    return {"lux": round(((raw[0] << 8) | raw[1]) / 1.2, 1)}


def main() -> None:
    store = redis.Redis(host="127.0.0.1", port=6379)
    with SMBus(BUS) as bus:
        while True:
            reading = {"at": time.time()}
            for name in SENSORS:
                try:
                    reading[name] = read_sensor(bus, name)
                except OSError as exc:
                    reading[name] = {"error": str(exc)}
            store.lpush("readings", json.dumps(reading))
            store.ltrim("readings", 0, 9999)
            time.sleep(INTERVAL)


if __name__ == "__main__":
    main()
'''

API_DOCKERFILE = """\
FROM python:3.12-slim
WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY main.py ./
COPY --chmod=755 entrypoint.sh /usr/local/bin/entrypoint.sh
ENV PORT={{.PORT}}
EXPOSE {{.PORT}}
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
"""

API_ENTRYPOINT = """\
#!/bin/sh
# Waits for the store (Redis on loopback) before serving, so the first
# requests after a boot do not fail while Redis replays its journal.
set -eu

tries=0
until python -c 'import redis; redis.Redis(host="127.0.0.1").ping()' 2>/dev/null; do
  tries=$((tries + 1))
  if [ "$tries" -ge 30 ]; then
    echo "store not reachable after 30 tries; starting anyway" >&2
    break
  fi
  sleep 1
done

exec uvicorn main:app --host 0.0.0.0 --port "${PORT:-{{.PORT}}}"
"""

API_MAIN = '''\
"""Serves the readings the collector stores in Redis."""

import json

import redis
from fastapi import FastAPI, Query

app = FastAPI(title="{{.APP_ID}} api")
store = redis.Redis(host="127.0.0.1", port=6379)


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok" if store.ping() else "store unreachable"}


@app.get("/readings")
def readings(limit: int = Query(default=50, ge=1, le=1000)) -> list[dict[str, object]]:
    return [json.loads(item) for item in store.lrange("readings", 0, limit - 1)]
'''

README = """\
# {{.APP_ID}}

Reads I2C sensors ({{if .SENSORS}}{{.SENSORS}}{{else}}none selected yet{{end}}) on
`/dev/{{.I2C_BUS}}` every {{.SAMPLE_INTERVAL}} seconds and serves the readings on
port {{.PORT}}.

| service | what | entitlements |
|---|---|---|
| `store` | Redis, journal on the `{{.APP_ID}}-readings` volume | persist |
| `collector` | reads the sensors | i2c, gpio |
| `api` | `GET /readings?limit=50` | network |

`wendy run` builds the three images and starts `store` first.
"""

PICKER = {
    "phases": [
        {
            "id": "sensors",
            "title": "Sensors",
            "questions": [
                {
                    "id": "SENSORS",
                    "label": "Which sensors are wired to the bus?",
                    "type": "checkbox",
                    "default": "bme280",
                    "options": [
                        {"value": "bme280", "label": "BME280 (temperature, pressure)"},
                        {"value": "sht31", "label": "SHT31 (temperature, humidity)"},
                        {"value": "bh1750", "label": "BH1750 (light)"},
                    ],
                }
            ],
        }
    ]
}

SENSOR_HUB = TemplateSpec(
    language="python",
    name="sensor-hub",
    description="Reads I2C sensors into Redis and serves them: three services, no compose file.",
    shapes=frozenset({MULTI_SERVICE, CONDITIONALS}),
    files={
        "template.json": manifest(
            "sensor-hub",
            "Reads I2C sensors into Redis and serves them: three services, no compose file.",
            port_variable(8080, "HTTP port of the readings API."),
            {
                "name": "I2C_BUS",
                "type": "string",
                "description": "The I2C bus the sensors are wired to.",
                "default": "i2c-1",
                "validate": {"pattern": "^i2c-[0-9]+$"},
            },
            {
                "name": "SAMPLE_INTERVAL",
                "type": "integer",
                "description": "Seconds between two readings.",
                "default": 5,
                "validate": {"min": 1, "max": 3600},
            },
        ),
        "template.schema.json": json_text(PICKER),
        "README.md": README,
        "wendy.json": WENDY_JSON,
        "store/Dockerfile": STORE_DOCKERFILE,
        "store/redis.conf": REDIS_CONF,
        "collector/Dockerfile": COLLECTOR_DOCKERFILE,
        "collector/requirements.txt": "redis==5.2.1\nsmbus2==0.5.1\n",
        "collector/collector.py": COLLECTOR_PY,
        "api/Dockerfile": API_DOCKERFILE,
        "api/requirements.txt": "fastapi==0.115.6\nuvicorn[standard]==0.34.0\nredis==5.2.1\n",
        "api/main.py": API_MAIN,
        "api/entrypoint.sh": API_ENTRYPOINT,
    },
)
