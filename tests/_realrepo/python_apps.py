"""The Python templates: a FastAPI service, an OpenAI chat, a multi-service sensor hub.

Every file is a Go template as ``wendy init`` reads it (spec: wendy-init.md
section 3): ``.py``, ``.html``, ``.txt``, ``.env`` and Dockerfiles are
rendered, so a literal ``{{`` (Jinja) is written ``{{"{{"}}``; ``.conf`` and
``.dockerignore`` files are copied byte for byte.
"""

from __future__ import annotations

from _realrepo.common_files import STATUS_PAGE_CSS
from _realrepo.spec import (
    ESCAPED_BRACES,
    NEEDS_VALUE,
    NO_PICKER,
    SINGLE_CONTAINER,
    TemplateSpec,
    json_text,
    manifest,
    port_variable,
)

PYTHON_GITIGNORE = "__pycache__/\n*.pyc\n.venv/\n.env\n"
PYTHON_DOCKERIGNORE = ".venv\n__pycache__\n*.pyc\n.git\n.pytest_cache\n"

# --- python/simple-api: FastAPI, one container, Jinja pages ---------------------------

SIMPLE_API_DOCKERFILE = """\
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \\
    PYTHONUNBUFFERED=1

WORKDIR /app

COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

COPY app/ ./app/

EXPOSE {{.PORT}}
CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "{{.PORT}}"]
"""

SIMPLE_API_MAIN = '''\
"""{{.APP_ID}}: a small HTTP API with a status page, made with `wendy init`."""

import os
import time
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel

APP_ID = "{{.APP_ID}}"
GREETING = os.environ.get("GREETING", "{{.GREETING}}")
STARTED = time.monotonic()
HERE = Path(__file__).parent

app = FastAPI(title=APP_ID)
app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
pages = Jinja2Templates(directory=HERE / "templates")


class Note(BaseModel):
    text: str


notes: list[Note] = []


@app.get("/", response_class=HTMLResponse)
def index(request: Request) -> HTMLResponse:
    uptime = int(time.monotonic() - STARTED)
    context = {"greeting": GREETING, "uptime": uptime, "notes": notes}
    return pages.TemplateResponse(request, "index.html", context)


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


@app.get("/api/info")
def info() -> dict[str, object]:
    return {"app": APP_ID, "uptime_seconds": int(time.monotonic() - STARTED)}


@app.get("/api/notes")
def list_notes() -> list[Note]:
    return notes


@app.post("/api/notes", status_code=201)
def add_note(note: Note) -> Note:
    if not note.text.strip():
        raise HTTPException(status_code=422, detail="a note needs some text")
    notes.append(note)
    return note
'''

SIMPLE_API_INDEX = """\
<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{.APP_ID}}</title>
  <link rel="stylesheet" href="/static/style.css">
</head>
<body>
  <header><h1>{{"{{"}} greeting {{"}}"}}</h1></header>
  <main>
    <p>This is <code>{{.APP_ID}}</code>, up for {{"{{"}} uptime {{"}}"}} seconds.</p>
    <h2>Notes</h2>
    <ul>
    {% for note in notes %}
      <li>{{"{{"}} note.text {{"}}"}}</li>
    {% else %}
      <li class="muted">No notes yet: POST some JSON to <code>/api/notes</code>.</li>
    {% endfor %}
    </ul>
    <p><a href="/docs">API documentation</a></p>
  </main>
</body>
</html>
"""

SIMPLE_API_README = """\
# {{.APP_ID}}

A small [FastAPI](https://fastapi.tiangolo.com) service made with `wendy init`.

| path | what |
|---|---|
| `/` | a status page (Jinja template in `app/templates/index.html`) |
| `/health` | `{"status": "ok"}` for probes |
| `/api/info` | the app id and uptime |
| `/api/notes` | GET lists notes, POST `{"text": "..."}` adds one |
| `/docs` | the interactive API documentation |

## Run it

```sh
wendy run
```

The app listens on port {{.PORT}}; `wendy run` waits until the port accepts
connections, then opens the status page.

## Develop locally

```sh
python -m venv .venv && . .venv/bin/activate
pip install -r requirements.txt
uvicorn app.main:app --reload --port {{.PORT}}
```
"""

SIMPLE_API_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.1.0",
  "platform": "linux",
  "entitlements": [
    {
      "type": "network",
      "mode": "host"
    }
  ],
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

SIMPLE_API = TemplateSpec(
    language="python",
    name="simple-api",
    description="A FastAPI service with a status page, a health check and a JSON API.",
    shapes=frozenset({SINGLE_CONTAINER, NO_PICKER, ESCAPED_BRACES}),
    files={
        "template.json": manifest(
            "simple-api",
            "A FastAPI service with a status page, a health check and a JSON API.",
            port_variable(8000, "HTTP port of the API."),
            {
                "name": "GREETING",
                "type": "string",
                "description": "Headline of the status page.",
                "default": "Hello from Wendy",
                "validate": {"pattern": '^[^"\\\\]*$'},
            },
        ),
        "Dockerfile": SIMPLE_API_DOCKERFILE,
        ".dockerignore": PYTHON_DOCKERIGNORE,
        ".gitignore": PYTHON_GITIGNORE,
        "README.md": SIMPLE_API_README,
        "requirements.txt": "fastapi==0.115.6\nuvicorn[standard]==0.34.0\njinja2==3.1.5\n",
        "app/__init__.py": '"""The {{.APP_ID}} package."""\n',
        "app/main.py": SIMPLE_API_MAIN,
        "app/templates/index.html": SIMPLE_API_INDEX,
        "app/static/style.css": STATUS_PAGE_CSS,
        "wendy.json": SIMPLE_API_WENDY,
    },
)

# --- python/openai-chat: needs an API key (no default) ----------------------------------

CHAT_APP = '''\
"""{{.APP_ID}}: a chat page on the device that answers through the OpenAI API."""

import os

import gradio as gr
from dotenv import load_dotenv
from openai import OpenAI

load_dotenv()  # OPENAI_API_KEY and OPENAI_MODEL come from .env

MODEL = os.environ.get("OPENAI_MODEL", "{{.OPENAI_MODEL}}")
SYSTEM_PROMPT = os.environ.get("SYSTEM_PROMPT", """{{.SYSTEM_PROMPT}}""")
client = OpenAI()


def respond(message: str, history: list[dict[str, str]]) -> str:
    messages = [{"role": "system", "content": SYSTEM_PROMPT}]
    messages += [{"role": turn["role"], "content": turn["content"]} for turn in history]
    messages.append({"role": "user", "content": message})
    completion = client.chat.completions.create(model=MODEL, messages=messages)
    return completion.choices[0].message.content or ""


demo = gr.ChatInterface(respond, type="messages", title="{{.APP_ID}}")

if __name__ == "__main__":
    demo.launch(server_name="0.0.0.0", server_port=int(os.environ.get("PORT", "{{.PORT}}")))
'''

CHAT_DOCKERFILE = """\
FROM python:3.12-slim

ENV PYTHONUNBUFFERED=1 \\
    PORT={{.PORT}}

WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY app.py .env ./

EXPOSE {{.PORT}}
CMD ["python", "app.py"]
"""

CHAT_ENV = """\
# Written by `wendy init`. It holds your API key: never commit it.
OPENAI_API_KEY={{.OPENAI_API_KEY}}
OPENAI_MODEL={{.OPENAI_MODEL}}
"""

CHAT_README = """\
# {{.APP_ID}}

A chat page served from your device; answers come from `{{.OPENAI_MODEL}}`
through the OpenAI API.

`wendy init` needs your API key, since the template has no default for it:

```sh
wendy init --template openai-chat --var OPENAI_API_KEY=sk-...
```

The key is written to `.env` (listed in `.gitignore`). To change it later,
edit `.env` and run `wendy run` again. Open `http://<device>:{{.PORT}}/`.
"""

CHAT_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "platform": "linux",
  "entitlements": [
    {
      "type": "network"
    }
  ],
  "readiness": {
    "tcpSocket": {
      "port": {{.PORT}}
    },
    "timeoutSeconds": 90
  },
  "hooks": {
    "postStart": {
      "openURL": "http://${WENDY_HOSTNAME}:{{.PORT}}/"
    }
  }
}
"""

CHAT_PICKER = {
    "phases": [
        {
            "id": "model",
            "title": "Model",
            "questions": [
                {
                    "id": "OPENAI_MODEL",
                    "label": "Which OpenAI model answers?",
                    "type": "radio",
                    "required": True,
                    "default": "gpt-4o-mini",
                    "options": [
                        {"value": "gpt-4o-mini", "label": "GPT-4o mini (fast, cheap)"},
                        {"value": "gpt-4.1-mini", "label": "GPT-4.1 mini"},
                        {"value": "gpt-4.1", "label": "GPT-4.1 (best answers)"},
                    ],
                },
                {
                    "id": "SYSTEM_PROMPT",
                    "label": "System prompt",
                    "type": "input",
                    "default": "You are a helpful assistant running on a Wendy device.",
                },
            ],
        }
    ]
}

OPENAI_CHAT = TemplateSpec(
    language="python",
    name="openai-chat",
    description="A chat page on the device that answers through the OpenAI API.",
    shapes=frozenset({SINGLE_CONTAINER, NEEDS_VALUE}),
    sample_values={"OPENAI_API_KEY": "sk-wendy-llm-sample-key"},
    files={
        "template.json": manifest(
            "openai-chat",
            "A chat page on the device that answers through the OpenAI API.",
            {
                "name": "OPENAI_API_KEY",
                "type": "string",
                "description": "Your OpenAI API key (https://platform.openai.com/api-keys).",
                "required": True,
                "validate": {"pattern": "^sk-[A-Za-z0-9_-]+$"},
            },
            port_variable(7860, "HTTP port of the chat page."),
        ),
        "template.schema.json": json_text(CHAT_PICKER),
        "Dockerfile": CHAT_DOCKERFILE,
        ".dockerignore": PYTHON_DOCKERIGNORE,
        ".gitignore": PYTHON_GITIGNORE,
        ".env": CHAT_ENV,
        "README.md": CHAT_README,
        "requirements.txt": "gradio==5.9.1\nopenai==1.59.7\npython-dotenv==1.0.1\n",
        "app.py": CHAT_APP,
        "wendy.json": CHAT_WENDY,
    },
)
