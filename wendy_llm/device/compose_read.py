"""Reading a compose file as the Wendy CLI does: its services, their keys, the creation order.

Of the top level the CLI reads only ``services``; of each service the keys
of :data:`~wendy_llm.wendycli.compose.SERVICE_KEYS` (read by
:mod:`wendy_llm.device.compose_keys`).  Every other key is noted as
ignored: a warning, except where ignoring it loses nothing (``version``,
``x-`` extension fields, volume declarations without settings).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from wendy_llm.device import compose_keys as keys
from wendy_llm.device.compose_keys import ServiceDraft
from wendy_llm.device.notes import Located
from wendy_llm.wendycli.compose import IGNORED_SERVICE_KEYS, SERVICE_KEYS, TOP_LEVEL_KEYS

# Top-level keys whose loss changes nothing on a device.
_HARMLESS_TOP = ("version",)


def read_compose(at: Located) -> list[ServiceDraft] | None:
    """The services the CLI's model holds, in file order; None when the file cannot load."""
    data = at.document.data
    if not isinstance(data, Mapping):
        if data is None:
            at.error(f"{at.file} has no services: wendy run fails")
        else:
            keys_kind = keys.kind(data)
            at.error(f"{at.file} is a {keys_kind}, not a mapping: wendy run fails to load it")
        return None
    _top_level(at, data)
    raw = data.get("services")
    if raw is not None and not isinstance(raw, Mapping):
        at.error(
            f"services is a {keys.kind(raw)}, but the Wendy CLI reads a mapping: wendy run "
            f"fails to load {at.file}",
            "services",
        )
        return None
    if not raw:
        at.error(f"{at.file} has no services: wendy run fails", "services")
        return None
    drafts = [_service(at, str(name), value) for name, value in raw.items()]
    _check_dependencies(at, drafts)
    return drafts


def _top_level(at: Located, data: Mapping[object, object]) -> None:
    for key, value in data.items():
        name = str(key)
        if name in TOP_LEVEL_KEYS:
            continue
        harmless = name in _HARMLESS_TOP or name.startswith("x-")
        if name == "volumes" and isinstance(value, Mapping):
            _top_level_volumes(at, value)
            continue
        if name == "volumes" and value is None:
            harmless = True
        reason = "ignored on a device (the Wendy CLI reads only services)"
        if name == "name":
            reason = "ignored on a device: apps are named after the project directory"
        at.ignore(reason, name, warn=not harmless)


def _top_level_volumes(at: Located, volumes: Mapping[object, object]) -> None:
    for name, settings in volumes.items():
        if settings:
            reason = "ignored on a device: the volume's settings (driver, external, ...) are lost"
            at.ignore(reason, "volumes", str(name))
        else:
            # A bare declaration only tells Docker Compose the name exists; the
            # device makes a named volume from the service's entry anyway.
            reason = "not read (a bare declaration: nothing is lost)"
            at.ignore(reason, "volumes", str(name), warn=False)


_Reader = Callable[[Located, str, object, ServiceDraft], None]


def _set_image(at: Located, svc: str, value: object, draft: ServiceDraft) -> None:
    text = keys.read_string(at, svc, "image", value)
    draft.image = text or None


def _set_build(at: Located, svc: str, value: object, draft: ServiceDraft) -> None:
    draft.build = keys.read_build(at, svc, value)


def _set_command(at: Located, svc: str, value: object, draft: ServiceDraft) -> None:
    draft.command = keys.read_command(at, svc, value)


def _set_restart(at: Located, svc: str, value: object, draft: ServiceDraft) -> None:
    draft.restart = keys.read_restart(at, svc, value)


def _set_network_mode(at: Located, svc: str, value: object, draft: ServiceDraft) -> None:
    text = keys.read_string(at, svc, "network_mode", value)
    draft.network_mode = text or None
    if draft.network_mode is not None and draft.network_mode != "host":
        at.ignore(
            f'"{draft.network_mode}" is ignored on a device: only "host" matters',
            "services",
            svc,
            "network_mode",
        )


def _set_depends_on(at: Located, svc: str, value: object, draft: ServiceDraft) -> None:
    draft.depends_on = keys.read_depends_on(at, svc, value)


def _set_environment(at: Located, svc: str, value: object, draft: ServiceDraft) -> None:
    draft.environment = keys.read_environment(value)


_READERS: Mapping[str, _Reader] = {
    "image": _set_image,
    "build": _set_build,
    "command": _set_command,
    "ports": keys.read_ports,
    "volumes": keys.read_volumes,
    "depends_on": _set_depends_on,
    "restart": _set_restart,
    "network_mode": _set_network_mode,
    "environment": _set_environment,
}
assert set(_READERS) == set(SERVICE_KEYS)


def _service(at: Located, svc: str, value: object) -> ServiceDraft:
    draft = ServiceDraft(svc, at.line("services", svc))
    if value is not None and not isinstance(value, Mapping):
        at.error(
            f"service {svc} is a {keys.kind(value)}, not a mapping: wendy run fails to load "
            f"{at.file}",
            "services",
            svc,
        )
        return draft
    for key, item in (value or {}).items():
        name = str(key)
        reader = _READERS.get(name)
        if reader is not None:
            if item is not None:  # `key:` with no value decodes to Go's zero value
                reader(at, svc, item, draft)
        elif not name.startswith("x-"):
            draft.ignored_keys.append(name)
            reason = IGNORED_SERVICE_KEYS.get(name, "not read by the Wendy CLI")
            at.ignore(f"ignored on a device: {reason}", "services", svc, name)
    if draft.image is None and draft.build is None:
        at.error(f"service {svc} has neither image nor build: wendy run fails", "services", svc)
    elif draft.image is not None and draft.build is not None:
        at.warn(
            f'services.{svc}.image "{draft.image}" is not used on a device: the service is '
            "built, and its image is named after the project and service",
            "services",
            svc,
            "image",
        )
    return draft


def _check_dependencies(at: Located, drafts: Sequence[ServiceDraft]) -> None:
    names = {d.name for d in drafts}
    for draft in drafts:
        for name in draft.depends_on:
            if name not in names:
                at.error(
                    f"services.{draft.name}.depends_on names {name}, which is not a service: "
                    "wendy run fails",
                    "services",
                    draft.name,
                    "depends_on",
                )


def creation_order(drafts: Sequence[ServiceDraft]) -> tuple[list[str], list[tuple[str, str]]]:
    """The order the CLI creates services in, and the ``depends_on`` edges a cycle ignores.

    Dependencies first; services with no order between them keep their file
    order (the spec does not say; the CLI may order them otherwise).
    """
    by_name = {d.name: d for d in drafts}
    order: list[str] = []
    state: dict[str, str] = {}
    ignored: list[tuple[str, str]] = []

    def visit(name: str) -> None:
        state[name] = "visiting"
        for dep in by_name[name].depends_on:
            if dep not in by_name:
                continue
            if dep not in state:
                visit(dep)
            elif state[dep] == "visiting":
                ignored.append((name, dep))
        state[name] = "done"
        order.append(name)

    for draft in drafts:
        if draft.name not in state:
            visit(draft.name)
    return order, ignored
