"""Helpers for the golden, diff and gitsource tests: files, templates, git."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
from collections.abc import Mapping
from pathlib import Path

from _template_helpers import write_files as write_files  # shared: one way to write files

from wendy_llm.cli import main
from wendy_llm.render.canonical import OutputFile, PickRender

GIT_IDENTITY = ("-c", "user.name=Wendy Test", "-c", "user.email=wendy@example.invalid")


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-C", str(repo), *GIT_IDENTITY, *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout.strip()


def init_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "commit.gpgsign", "false")
    return path


def commit_all(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def render(slug: str, files: Mapping[str, str | bytes], **answers: str) -> PickRender:
    """A fake pick render; ``bytes`` values stand for copied files."""
    return PickRender(
        slug=slug,
        answers=answers,
        files={
            path: OutputFile(data=data.encode(), rendered=True)
            if isinstance(data, str)
            else OutputFile(data=data, rendered=False)
            for path, data in files.items()
        },
    )


# --- small synthetic templates (Wendy layout) -----------------------------------

COMPOSE_BASE = """\
services:
  backend:
    build: ./backend
    environment:
      MODEL: "{{.MODEL}}"
    ports:
      - "{{.PORT}}:{{.PORT}}"
volumes:
  {{.APP_ID}}-data: {}
"""

# The DFlash-like change: a sentinel option whose branch swaps the backend;
# whitespace trimming keeps every other pick's render byte for byte the same.
COMPOSE_SENTINEL = """\
services:
{{- if eq .MODEL "special"}}
  special:
    build: ./special
{{- else}}
  backend:
    build: ./backend
    environment:
      MODEL: "{{.MODEL}}"
{{- end}}
    ports:
      - "{{.PORT}}:{{.PORT}}"
volumes:
  {{.APP_ID}}-data: {}
"""


def template_files(
    options: list[str],
    *,
    compose: str = COMPOSE_BASE,
    readme: str = "# {{.APP_ID}}\n",
    extra: Mapping[str, str | bytes] | None = None,
) -> dict[str, str | bytes]:
    """Files of a small template with a one-question radio picker."""
    manifest = {
        "name": "mini",
        "description": "a small test template",
        "variables": [
            {"name": "APP_ID", "type": "string", "required": True},
            {"name": "PORT", "type": "integer", "default": 8080},
        ],
    }
    schema = {
        "phases": [
            {
                "id": "model",
                "questions": [
                    {
                        "id": "MODEL",
                        "label": "Model",
                        "type": "radio",
                        "required": True,
                        "default": options[0],
                        "options": [{"value": v, "label": v} for v in options],
                    }
                ],
            }
        ]
    }
    files: dict[str, str | bytes] = {
        "template.json": json.dumps(manifest, indent=2) + "\n",
        "template.schema.json": json.dumps(schema, indent=2) + "\n",
        "docker-compose.yml": compose,
        "README.md": readme,
        "backend/Dockerfile": "FROM scratch\n",
        "logo.png": b"\x89PNG\r\n\x1a\n{{ not a template }}",
    }
    files.update(extra or {})
    return files


def run_cli(*args: str) -> tuple[int, str, str]:
    """Run ``wendy-llm ARGS`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


#: A wendy.json the Wendy CLI refuses: an entitlement type it does not know.
LIDAR_WENDY_JSON = (
    '{"appId": "{{.APP_ID}}", "platform": "linux", "entitlements": [{"type": "lidar"}]}\n'
)


def repo_with_a_refused_wendy_json(root: Path) -> Path:
    """A repository whose one template (node/mini) renders a wendy.json the CLI
    refuses, with its golden fixtures recorded (the caller unsets CI first)."""
    root = init_repo(root)
    extra = {"wendy.json": LIDAR_WENDY_JSON}
    write_files(root / "node/mini", template_files(["a:1", "b:2"], extra=extra))
    assert run_cli("golden", "--update", "-q", str(root))[0] == 0
    return root
