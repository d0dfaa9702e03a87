"""Templates shaped like a real repository's ``wendy.json`` services and platform stages.

Added for issue 19 (spec: wendy-run.md sections 4-6):

- ``python/vision-pipeline``: three services in ``wendy.json``, no compose
  file; the detector has a **gpu** entitlement (honoured on that path) and
  its Dockerfile selects ``base-${WENDY_PLATFORM}`` (``base-nvidia-jetson``
  on a Jetson Orin, ``base-generic`` elsewhere);
- ``node/home-hub``: two services plus top-level ``entitlements``,
  ``readiness`` and ``hooks``, which the multi-service path applies to no
  service (``check`` must report each loss, at its line);
- ``python/edge-inference``: one root Dockerfile (the single-container
  path) selecting ``base-${WENDY_PLATFORM}`` stages, with a gpu
  entitlement, readiness and a post-start hook (all honoured there).
"""

from __future__ import annotations

from _realrepo.spec import (
    BASE_PLATFORM,
    LOST_SETTINGS,
    MULTI_SERVICE,
    NO_PICKER,
    SINGLE_CONTAINER,
    TemplateSpec,
    manifest,
    port_variable,
)

VISION_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.3.0",
  "platform": "linux",
  "services": {
    "camera": {
      "context": "./camera",
      "entitlements": [
        {
          "type": "camera"
        },
        {
          "type": "network"
        }
      ]
    },
    "detector": {
      "context": "./detector",
      "entitlements": [
        {
          "type": "gpu"
        },
        {
          "type": "network"
        }
      ],
      "dependsOn": ["camera"]
    },
    "dashboard": {
      "context": "./dashboard",
      "entitlements": [
        {
          "type": "network",
          "mode": "host"
        }
      ],
      "dependsOn": ["detector"]
    }
  }
}
"""

CAMERA_DOCKERFILE = """\
FROM python:3.12-slim
WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY capture.py ./
CMD ["python", "capture.py"]
"""

CAPTURE_PY = '''\
"""Publishes camera frames on loopback for the detector."""

import cv2
import zmq

socket = zmq.Context().socket(zmq.PUB)
socket.bind("tcp://127.0.0.1:5555")
camera = cv2.VideoCapture(0)
while True:
    ok, frame = camera.read()
    if ok:
        socket.send(cv2.imencode(".jpg", frame)[1].tobytes())
'''

# The pattern of the real repository: the platform the Wendy CLI passes picks
# the base stage; a plain `docker build` takes the generic one.
DETECTOR_DOCKERFILE = """\
ARG WENDY_PLATFORM=generic

FROM nvcr.io/nvidia/l4t-pytorch:r36.4.0-pth2.5-py3 AS base-nvidia-jetson
ENV DETECTOR_DEVICE=cuda

FROM python:3.12-slim AS base-generic
ENV DETECTOR_DEVICE=cpu

FROM base-${WENDY_PLATFORM}
WORKDIR /app
COPY requirements.txt ./
RUN pip3 install --no-cache-dir -r requirements.txt
COPY detect.py ./
ENV MODEL="{{.MODEL}}"
CMD ["python3", "detect.py"]
"""

DETECT_PY = '''\
"""Runs the detector on every frame the camera publishes."""

import os

import zmq
from ultralytics import YOLO

model = YOLO(os.environ.get("MODEL", "{{.MODEL}}"))
model.to(os.environ.get("DETECTOR_DEVICE", "cpu"))
frames = zmq.Context().socket(zmq.SUB)
frames.connect("tcp://127.0.0.1:5555")
frames.setsockopt(zmq.SUBSCRIBE, b"")
while True:
    print(model.predict(frames.recv(), verbose=False)[0].summary(), flush=True)
'''

DASHBOARD_DOCKERFILE = """\
FROM node:22-alpine
WORKDIR /app
COPY package.json server.js ./
ENV PORT={{.PORT}}
EXPOSE {{.PORT}}
CMD ["node", "server.js"]
"""

DASHBOARD_PACKAGE = """\
{
  "name": "{{.APP_ID}}-dashboard",
  "version": "0.3.0",
  "private": true
}
"""

DASHBOARD_SERVER = """\
const http = require("node:http");

const port = Number(process.env.PORT || {{.PORT}});
http
  .createServer((_, res) => res.end("{{.APP_ID}}: detections are in the detector's log\\n"))
  .listen(port, "0.0.0.0");
"""

VISION_PIPELINE = TemplateSpec(
    language="python",
    name="vision-pipeline",
    description="Camera, GPU detector and dashboard: three services, no compose file.",
    shapes=frozenset({MULTI_SERVICE, BASE_PLATFORM, NO_PICKER}),
    files={
        "template.json": manifest(
            "vision-pipeline",
            "Camera, GPU detector and dashboard: three services, no compose file.",
            port_variable(8090, "HTTP port of the dashboard."),
            {
                "name": "MODEL",
                "type": "string",
                "description": "The detection model.",
                "default": "yolov8n.pt",
            },
        ),
        "README.md": "# {{.APP_ID}}\n\n`camera` -> `detector` (GPU) -> `dashboard` on port "
        "{{.PORT}}.\n",
        "wendy.json": VISION_WENDY,
        "camera/Dockerfile": CAMERA_DOCKERFILE,
        "camera/requirements.txt": "opencv-python-headless==4.10.0.84\npyzmq==26.2.0\n",
        "camera/capture.py": CAPTURE_PY,
        "detector/Dockerfile": DETECTOR_DOCKERFILE,
        "detector/requirements.txt": "ultralytics==8.3.40\npyzmq==26.2.0\n",
        "detector/detect.py": DETECT_PY,
        "dashboard/Dockerfile": DASHBOARD_DOCKERFILE,
        "dashboard/package.json": DASHBOARD_PACKAGE,
        "dashboard/server.js": DASHBOARD_SERVER,
    },
)

HOME_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "version": "2.0.1",
  "platform": "linux",
  "entitlements": [
    {
      "type": "network",
      "mode": "host"
    }
  ],
  "services": {
    "broker": {
      "context": "./broker",
      "entitlements": [
        {
          "type": "network",
          "mode": "host"
        },
        {
          "type": "persist",
          "name": "{{.APP_ID}}-mosquitto",
          "path": "/mosquitto/data"
        }
      ]
    },
    "bridge": {
      "context": "./bridge",
      "entitlements": [
        {
          "type": "network",
          "mode": "host"
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
      "openURL": "http://${WENDY_HOSTNAME}:{{.PORT}}"
    }
  }
}
"""

BROKER_DOCKERFILE = """\
FROM eclipse-mosquitto:2.0.20
COPY mosquitto.conf /mosquitto/config/mosquitto.conf
"""

MOSQUITTO_CONF = """\
listener 1883 127.0.0.1
allow_anonymous true
persistence true
persistence_location /mosquitto/data/
"""

BRIDGE_DOCKERFILE = """\
FROM node:22-alpine
WORKDIR /app
COPY package.json bridge.js ./
ENV PORT={{.PORT}} \\
    MQTT_URL=mqtt://127.0.0.1:1883
EXPOSE {{.PORT}}
ENTRYPOINT ["node", "bridge.js"]
"""

BRIDGE_PACKAGE = """\
{
  "name": "{{.APP_ID}}-bridge",
  "version": "2.0.1",
  "private": true,
  "dependencies": {
    "mqtt": "5.10.3"
  }
}
"""

BRIDGE_JS = """\
const http = require("node:http");
const mqtt = require("mqtt");

const last = {};
mqtt.connect(process.env.MQTT_URL).on("message", (topic, body) => {
  last[topic] = body.toString();
}).subscribe("home/#");
http
  .createServer((_, res) => res.end(JSON.stringify(last)))
  .listen(Number(process.env.PORT || {{.PORT}}), "0.0.0.0");
"""

HOME_HUB = TemplateSpec(
    language="node",
    name="home-hub",
    description="An MQTT broker and an HTTP bridge: two services declared in wendy.json.",
    shapes=frozenset({MULTI_SERVICE, LOST_SETTINGS, NO_PICKER}),
    files={
        "template.json": manifest(
            "home-hub",
            "An MQTT broker and an HTTP bridge: two services declared in wendy.json.",
            port_variable(8123, "HTTP port of the bridge."),
        ),
        "README.md": "# {{.APP_ID}}\n\nMosquitto on loopback, the last message of each "
        "`home/#` topic on port {{.PORT}}.\n",
        "wendy.json": HOME_WENDY,
        "broker/Dockerfile": BROKER_DOCKERFILE,
        "broker/mosquitto.conf": MOSQUITTO_CONF,
        "bridge/Dockerfile": BRIDGE_DOCKERFILE,
        "bridge/package.json": BRIDGE_PACKAGE,
        "bridge/bridge.js": BRIDGE_JS,
    },
)

EDGE_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.1.0",
  "platform": "linux",
  "entitlements": [
    {
      "type": "gpu"
    },
    {
      "type": "network"
    }
  ],
  "readiness": {
    "tcpSocket": {
      "port": {{.PORT}}
    },
    "timeoutSeconds": 300
  },
  "hooks": {
    "postStart": {
      "openURL": "http://${WENDY_HOSTNAME}:{{.PORT}}/docs"
    }
  }
}
"""

EDGE_DOCKERFILE = """\
ARG WENDY_PLATFORM=generic

FROM dustynv/onnxruntime:1.20-r36.4.0 AS base-nvidia-jetson
ENV ORT_PROVIDER=CUDAExecutionProvider

FROM python:3.12-slim AS base-generic
ENV ORT_PROVIDER=CPUExecutionProvider

FROM base-${WENDY_PLATFORM} AS app
WORKDIR /app
COPY requirements.txt ./
RUN pip3 install --no-cache-dir -r requirements.txt
COPY serve.py ./
ENV PORT={{.PORT}}
EXPOSE {{.PORT}}
CMD ["python3", "-m", "uvicorn", "serve:app", "--host", "0.0.0.0", "--port", "{{.PORT}}"]
"""

EDGE_SERVE = '''\
"""Serves an ONNX model over HTTP on whichever execution provider the image has."""

import os

from fastapi import FastAPI

app = FastAPI(title="{{.APP_ID}}")


@app.get("/provider")
def provider() -> dict[str, str]:
    return {"provider": os.environ.get("ORT_PROVIDER", "CPUExecutionProvider")}
'''

EDGE_INFERENCE = TemplateSpec(
    language="python",
    name="edge-inference",
    description="An ONNX model server whose base image follows the device's platform.",
    shapes=frozenset({SINGLE_CONTAINER, BASE_PLATFORM, NO_PICKER}),
    files={
        "template.json": manifest(
            "edge-inference",
            "An ONNX model server whose base image follows the device's platform.",
            port_variable(8000, "HTTP port of the model server."),
        ),
        "README.md": "# {{.APP_ID}}\n\nCUDA on a Jetson Orin, the CPU elsewhere; port {{.PORT}}.\n",
        "wendy.json": EDGE_WENDY,
        "Dockerfile": EDGE_DOCKERFILE,
        "requirements.txt": "fastapi==0.115.6\nuvicorn==0.34.0\n",
        "serve.py": EDGE_SERVE,
    },
)

DEVICE_PATH_TEMPLATES = (VISION_PIPELINE, HOME_HUB, EDGE_INFERENCE)
