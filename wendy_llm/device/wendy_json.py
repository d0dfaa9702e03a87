"""What a ``wendy.json`` holds that a device would act on, read minimally.

A seam: the CLI's own decoder (``wendy_llm.wendycli.wendy_json``, with its
types and validation) is being written separately; until it lands, the
device view reads only what it reports, tolerating any shape: the
entitlements (app-level and per service), ``readiness``, ``hooks``,
``files`` and ``run``.  On the compose path these are what is lost; on the
other paths the app-level entitlements are what the app is granted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wendy_llm.device.model import Entitlement

#: Top-level keys the device acts on besides entitlements and services, named.
_ACTED_ON = {
    "readiness": "the readiness check",
    "hooks": "the post-start hook",
    "files": "the file list",
    "run": "the run configuration",
}


@dataclass(frozen=True)
class WendyItem:
    """Something ``wendy.json`` asks of the device, and its key path."""

    what: str
    path: tuple[str | int, ...]
    service: str | None = None  # the service an entitlement belongs to (None: the app)
    entitlement: Entitlement | None = None


def _entitlement_label(value: object) -> str:
    if isinstance(value, Mapping) and isinstance(value.get("type"), str):
        return f"the {value['type']} entitlement"
    return "an entitlement"


def wendy_items(data: object) -> list[WendyItem]:
    """Every entitlement, readiness, hook, file and run setting ``wendy.json`` holds."""
    if not isinstance(data, Mapping):
        return []
    items: list[WendyItem] = []
    entitlements = data.get("entitlements")
    if isinstance(entitlements, list):
        for index, value in enumerate(entitlements):
            label = f"{_entitlement_label(value)} of the app"
            items.append(WendyItem(label, ("entitlements", index), None, _entitlement(value)))
    services = data.get("services")
    if isinstance(services, Mapping):
        for name, service in services.items():
            listed = service.get("entitlements") if isinstance(service, Mapping) else None
            if not isinstance(listed, list):
                continue
            for index, value in enumerate(listed):
                path = ("services", str(name), "entitlements", index)
                label = f"{_entitlement_label(value)} of service {name}"
                items.append(WendyItem(label, path, str(name), _entitlement(value)))
    for key, what in _ACTED_ON.items():
        if data.get(key) is not None:
            items.append(WendyItem(what, (key,)))
    return items


def app_entitlements(data: object) -> tuple[Entitlement, ...]:
    """The app-level entitlements (type, mode, name, path; ports are not modelled)."""
    listed = data.get("entitlements") if isinstance(data, Mapping) else None
    if not isinstance(listed, list):
        return ()
    found = (_entitlement(value) for value in listed)
    return tuple(e for e in found if e is not None)


def _entitlement(value: object) -> Entitlement | None:
    if not isinstance(value, Mapping) or not isinstance(value.get("type"), str):
        return None
    mode, name, path = (_text(value.get(k)) for k in ("mode", "name", "path"))
    return Entitlement(value["type"], mode=mode or None, name=name, path=path)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def service_names(data: object) -> list[str]:
    services = data.get("services") if isinstance(data, Mapping) else None
    return [str(name) for name in services] if isinstance(services, Mapping) else []
