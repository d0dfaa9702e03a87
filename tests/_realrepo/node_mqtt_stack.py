"""node/mqtt-stack: a multi-service app WITH a compose file.

An MQTT broker, a simulator publishing readings and a web page showing
them live.  ``docker-compose.yml`` uses only what a WendyOS device reads
(string ports, short volumes, ``depends_on`` lists; spec: wendy-run.md
section 3).  The companion ``wendy.json`` declares the same services with
``dependsOn``; on the compose path the CLI does not read it, so it is
written for Docker Desktop users and documentation, and kept consistent.
"""

from __future__ import annotations

from _realrepo.node_apps import NODE_DOCKERIGNORE
from _realrepo.spec import (
    COMPOSE,
    MULTI_SERVICE,
    NO_PICKER,
    NPM_LOCK_GLOB,
    TemplateSpec,
    json_text,
    manifest,
    port_variable,
)

COMPOSE_FILE = """\
services:
  broker:
    build: ./broker
    ports:
      - "1883:1883"
    volumes:
      - "{{.APP_ID}}-mosquitto:/mosquitto/data"
    restart: unless-stopped

  simulator:
    build: ./simulator
    network_mode: host
    environment:
      MQTT_URL: "mqtt://broker:1883"
      MQTT_TOPIC: "{{.MQTT_TOPIC}}"
    depends_on:
      - broker
    restart: unless-stopped

  web:
    build: ./web
    ports:
      - "{{.PORT}}:{{.PORT}}"
    environment:
      PORT: "{{.PORT}}"
      MQTT_URL: "mqtt://broker:1883"
    depends_on:
      - broker
    restart: unless-stopped

volumes:
  {{.APP_ID}}-mosquitto: {}
"""

WENDY_JSON = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.2.0",
  "platform": "linux",
  "services": {
    "broker": {
      "context": "./broker",
      "entitlements": [
        {
          "type": "network"
        },
        {
          "type": "persist",
          "name": "{{.APP_ID}}-mosquitto",
          "path": "/mosquitto/data"
        }
      ]
    },
    "simulator": {
      "context": "./simulator",
      "dependsOn": ["broker"]
    },
    "web": {
      "context": "./web",
      "entitlements": [
        {
          "type": "network"
        }
      ],
      "dependsOn": ["broker"]
    }
  },
  "readiness": {
    "tcpSocket": {
      "port": {{.PORT}}
    },
    "timeoutSeconds": 60
  },
  "hooks": {
    "postStart": {
      "openURL": "http://${WENDY_HOSTNAME}:{{.PORT}}/"
    }
  }
}
"""

BROKER_DOCKERFILE = """\
FROM eclipse-mosquitto:2.0.20
COPY mosquitto.conf /mosquitto/config/mosquitto.conf
"""

MOSQUITTO_CONF = """\
listener 1883
allow_anonymous true
persistence true
persistence_location /mosquitto/data/
log_dest stdout
"""

NODE_SERVICE_DOCKERFILE = """\
FROM node:22-alpine
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json* ./
RUN npm install --omit=dev
{copies}
CMD ["node", "{main}"]
"""

SIMULATE_JS = """\
// Publishes a fake temperature reading every second, like a real sensor node.
const mqtt = require("mqtt");

const url = process.env.MQTT_URL || "mqtt://127.0.0.1:1883";
const topic = (process.env.MQTT_TOPIC || "{{.MQTT_TOPIC}}").replace(/#$/, "simulated");
const client = mqtt.connect(url, { reconnectPeriod: 2000 });

let temperature = 21;
client.on("connect", () => {
  console.log(`publishing to ${topic} on ${url}`);
  setInterval(() => {
    temperature += (Math.random() - 0.5) * 0.4;
    const reading = { at: Date.now(), temperature: Number(temperature.toFixed(2)) };
    client.publish(topic, JSON.stringify(reading));
  }, 1000);
});
client.on("error", (err) => console.error(err.message));
"""

WEB_SERVER_JS = """\
// Subscribes to the broker and streams every message to browsers (Server-Sent Events).
const express = require("express");
const mqtt = require("mqtt");

const port = Number(process.env.PORT || {{.PORT}});
const client = mqtt.connect(process.env.MQTT_URL || "mqtt://127.0.0.1:1883");
const listeners = new Set();

client.on("connect", () => client.subscribe("{{.MQTT_TOPIC}}"));
client.on("message", (topic, payload) => {
  const event = `data: ${JSON.stringify({ topic, payload: payload.toString() })}\\n\\n`;
  for (const res of listeners) res.write(event);
});

const app = express();
app.use(express.static("public"));
app.get("/events", (req, res) => {
  res.set({ "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
  listeners.add(res);
  req.on("close", () => listeners.delete(res));
});
app.listen(port, "0.0.0.0", () => console.log(`web on port ${port}`));
"""

WEB_INDEX = """\
<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{{.APP_ID}}: live readings</title>
</head>
<body>
  <h1>Live readings on <code>{{.MQTT_TOPIC}}</code></h1>
  <ol id="log" reversed></ol>
  <script>
    const log = document.getElementById("log");
    new EventSource("/events").onmessage = (event) => {
      const item = document.createElement("li");
      item.textContent = event.data;
      log.prepend(item);
      while (log.children.length > 100) log.lastChild.remove();
    };
  </script>
</body>
</html>
"""


def _package(name: str, main: str, dependencies: dict[str, str]) -> str:
    return json_text(
        {
            "name": name,
            "version": "0.2.0",
            "private": True,
            "main": main,
            "scripts": {"start": f"node {main}"},
            "dependencies": dependencies,
        }
    )


README = """\
# {{.APP_ID}}

An MQTT broker, a simulated sensor and a live web page, as a compose app:

| service | what | port |
|---|---|---|
| `broker` | Eclipse Mosquitto, retained data on `{{.APP_ID}}-mosquitto` | 1883 |
| `simulator` | publishes a temperature every second under `{{.MQTT_TOPIC}}` | |
| `web` | the live page | {{.PORT}} |

Replace `simulator` with your own devices: publish to `mqtt://<device>:1883`.
"""

MQTT_STACK = TemplateSpec(
    language="node",
    name="mqtt-stack",
    description="An MQTT broker, a simulated sensor and a live web page (Docker Compose).",
    shapes=frozenset({MULTI_SERVICE, COMPOSE, NO_PICKER, NPM_LOCK_GLOB}),
    files={
        "template.json": manifest(
            "mqtt-stack",
            "An MQTT broker, a simulated sensor and a live web page (Docker Compose).",
            port_variable(8080, "HTTP port of the live page."),
            {
                "name": "MQTT_TOPIC",
                "type": "string",
                "description": "Topic filter the page subscribes to.",
                "default": "sensors/#",
            },
        ),
        "docker-compose.yml": COMPOSE_FILE,
        "wendy.json": WENDY_JSON,
        "README.md": README,
        "broker/Dockerfile": BROKER_DOCKERFILE,
        "broker/mosquitto.conf": MOSQUITTO_CONF,
        "simulator/Dockerfile": NODE_SERVICE_DOCKERFILE.format(
            copies="COPY simulate.js ./", main="simulate.js"
        ),
        "simulator/.dockerignore": NODE_DOCKERIGNORE,
        "simulator/package.json": _package(
            "{{.APP_ID}}-simulator", "simulate.js", {"mqtt": "^5.10.3"}
        ),
        "simulator/simulate.js": SIMULATE_JS,
        "web/Dockerfile": NODE_SERVICE_DOCKERFILE.format(
            copies="COPY server.js ./\nCOPY public/ ./public/", main="server.js"
        ),
        "web/.dockerignore": NODE_DOCKERIGNORE,
        "web/package.json": _package(
            "{{.APP_ID}}-web", "server.js", {"express": "^4.21.2", "mqtt": "^5.10.3"}
        ),
        "web/server.js": WEB_SERVER_JS,
        "web/public/index.html": WEB_INDEX,
    },
)
