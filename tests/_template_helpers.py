"""Small synthetic templates for the template tests, written into tmp_path."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from wendy_llm.render.template import Template, load_template

#: An integer variable with a JSON default and the CLI's range rules (the
#: conformance tests' standard example).
PORT: dict[str, object] = {
    "name": "PORT",
    "type": "integer",
    "default": 8080,
    "validate": {"min": 1, "max": 65535},
}


def write_files(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """``files`` (relative path -> text or bytes) under ``root``, text as UTF-8
    with its line endings untouched."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8", newline="")
    return root


def make_template(
    tmp_path: Path,
    *,
    variables: list[dict[str, object]] | None = None,
    phases: list[dict[str, object]] | None = None,
    files: Mapping[str, str | bytes] | None = None,
    name: str = "demo",
) -> Template:
    """A template directory ``tmp_path/name`` with the given manifest, picker
    (omitted when ``phases`` is None) and files, loaded."""
    manifest = {"name": name, "variables": variables if variables is not None else []}
    content: dict[str, str | bytes] = {"template.json": json.dumps(manifest, indent=2)}
    if phases is not None:
        content["template.schema.json"] = json.dumps({"phases": phases}, indent=2)
    content.update(files or {})
    return load_template(write_files(tmp_path / name, content))


def radio(qid: str, values: list[str], **extra: object) -> dict[str, object]:
    return {"id": qid, "type": "radio", "options": [{"value": v} for v in values], **extra}


def checkbox(qid: str, values: list[str], **extra: object) -> dict[str, object]:
    return {"id": qid, "type": "checkbox", "options": [{"value": v} for v in values], **extra}


def text_input(qid: str, **extra: object) -> dict[str, object]:
    return {"id": qid, "type": "input", **extra}


def phase(*questions: dict[str, object], **extra: object) -> dict[str, object]:
    return {"questions": list(questions), **extra}


def render_text(
    template: Template,
    path: str,
    app_id: str = "my-app",
    overrides: Mapping[str, str] | None = None,
    *,
    strict: bool = True,
) -> str:
    """One output file of a render, decoded."""
    return template.render(app_id, overrides, strict=strict)[path].decode("utf-8")
