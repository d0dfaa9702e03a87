"""An independent reading of the CLI's rules, to prove the fixture valid and the defects real.

``wendy_json_errors`` applies the validation errors of wendy-run.md section
2 (the ones that make ``wendy run`` refuse an app) to a decoded
``wendy.json``; ``catalog_errors`` applies section 4 to ``meta.json`` and
the template directories.  Deliberately small and written from the spec,
not from the library: it judges the fixture, and the library is judged
against the fixture.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

ENTITLEMENT_TYPES = frozenset(
    {"network", "bluetooth", "video", "gpu", "persist", "audio", "camera"}
    | {"usb", "i2c", "gpio", "spi", "input", "mcp"}
)
_I2C_DEVICE = re.compile(r"^i2c-[0-9]+$")


def _relative_inside(path: str) -> bool:
    return not path.startswith("/") and ".." not in PurePosixPath(path).parts


def entitlement_errors(entitlements: object, where: str) -> list[str]:
    if not isinstance(entitlements, list):
        return [f"{where}: entitlements is not a list"]
    errors: list[str] = []
    mcp = 0
    for index, item in enumerate(entitlements):
        at = f"{where}[{index}]"
        kind = item.get("type") if isinstance(item, dict) else None
        if kind not in ENTITLEMENT_TYPES:
            errors.append(f"{at}: unknown entitlement type {kind!r}")
            continue
        assert isinstance(item, dict)
        if kind == "network" and item.get("mode", "") not in ("", "host", "none"):
            errors.append(f"{at}: network mode {item['mode']!r}")
        if kind == "persist":
            path = item.get("path")
            if not item.get("name") or not isinstance(path, str) or not path:
                errors.append(f"{at}: persist needs name and path")
            elif not path.startswith("/") or ".." in PurePosixPath(path).parts:
                errors.append(f"{at}: persist path {path!r} is not absolute")
        if kind == "i2c" and not _I2C_DEVICE.match(str(item.get("device", ""))):
            errors.append(f"{at}: i2c device {item.get('device')!r}")
        if kind == "mcp":
            mcp += 1
            port = item.get("port")
            if not isinstance(port, int) or not 1 <= port <= 65535:
                errors.append(f"{at}: mcp port {port!r}")
    if mcp > 1:
        errors.append(f"{where}: more than one mcp entitlement")
    return errors


def wendy_json_errors(data: object) -> list[str]:
    """The reasons the CLI would refuse this decoded ``wendy.json`` (empty: valid)."""
    if not isinstance(data, dict):
        return ["wendy.json is not an object"]
    errors: list[str] = []
    if not isinstance(data.get("appId"), str) or not data["appId"]:
        errors.append("appId is missing or empty")
    for key in ("version", "platform", "language"):
        if key in data and not isinstance(data[key], str):
            errors.append(f"{key} is not a string")
    if "entitlements" in data:
        errors += entitlement_errors(data["entitlements"], "entitlements")
    readiness = data.get("readiness")
    if readiness is not None:
        port = readiness.get("tcpSocket", {}).get("port") if isinstance(readiness, dict) else None
        if not isinstance(port, int) or not 1 <= port <= 65535:
            errors.append(f"readiness.tcpSocket.port {port!r}")
    services = data.get("services", {})
    if not isinstance(services, dict):
        return [*errors, "services is not an object"]
    for name, service in services.items():
        if not isinstance(service, dict):
            errors.append(f"services.{name} is null or not an object")
            continue
        context = service.get("context")
        if not isinstance(context, str) or not context or not _relative_inside(context):
            errors.append(f"services.{name}.context {context!r}")
        if "entitlements" in service:
            errors += entitlement_errors(service["entitlements"], f"services.{name}.entitlements")
        for dependency in service.get("dependsOn", []):
            if dependency not in services:
                errors.append(f"services.{name}.dependsOn names unknown service {dependency!r}")
    return errors


def _strings(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def template_dirs(root: Path) -> dict[str, Path]:
    """``<language>/<name>`` -> directory, for every directory holding a template.json."""
    return {
        f"{manifest.parent.parent.name}/{manifest.parent.name}": manifest.parent
        for manifest in sorted(root.glob("*/*/template.json"))
    }


def catalog_errors(
    root: Path, meta: Mapping[str, object], platforms: Mapping[str, str]
) -> list[str]:
    """What is wrong with ``meta.json`` against the template directories under ``root``.

    ``platforms`` maps template ids to their rendered ``wendy.json`` platform.
    """
    entries = meta.get("templates")
    if not isinstance(entries, list):
        return ["meta.json has no templates list"]
    found = template_dirs(root)
    listed: dict[str, dict[str, object]] = {str(e.get("name")): e for e in entries}
    errors: list[str] = []
    for template_id in found:
        language, name = template_id.split("/")
        entry = listed.get(name)
        if entry is None:
            errors.append(f"{template_id}: not listed in meta.json")
        elif "languages" in entry and language not in _strings(entry["languages"]):
            errors.append(f"{template_id}: meta.json does not list language {language}")
    for name, entry in listed.items():
        where = _strings(entry.get("languages")) or [i.split("/")[0] for i in found]
        if not any(f"{language}/{name}" in found for language in where):
            errors.append(f"meta.json lists {name}, which exists in no language")
        if not str(entry.get("description", "")).strip():
            errors.append(f"meta.json: {name} has no description")
        targets = _strings(entry.get("targets"))
        for template_id, platform in platforms.items():
            if template_id.split("/")[1] != name:
                continue
            if (platform == "wendy-lite") != ("wendy-lite" in targets):
                errors.append(f"{template_id}: platform {platform} but targets {targets}")
    languages = meta.get("languages")
    items = languages if isinstance(languages, list) else []
    keys = {str(item.get("key")) for item in items if isinstance(item, dict)}
    if keys != {template_id.split("/")[0] for template_id in found}:
        errors.append(f"meta.json languages {sorted(keys)} do not match the directories")
    return errors


KNOWN_QUESTION_TYPES = frozenset({"radio", "checkbox", "input"})


def as_cli_reads(files: Mapping[str, bytes]) -> dict[str, bytes]:
    """A template's files with every picker question of an unlisted type made an ``input``.

    The CLI collects such a question as an input (spec: wendy-run.md section
    5); rewriting the type lets a library that refuses unknown types render
    the template as the CLI would.
    """
    picker = files.get("template.schema.json")
    if picker is None:
        return dict(files)
    data = json.loads(picker)
    for phase in data.get("phases", []):
        for question in phase.get("questions", []):
            if question.get("type") not in KNOWN_QUESTION_TYPES:
                question["type"] = "input"
    return {**files, "template.schema.json": json.dumps(data).encode()}


def read_template_files(directory: Path) -> dict[str, bytes]:
    """Every regular file under ``directory``, by POSIX path relative to it."""
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }
