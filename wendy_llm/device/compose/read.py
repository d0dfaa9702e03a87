"""Reading a compose file as the Wendy CLI does: its services, their keys, the creation order.

The file is loaded as go-yaml v3 loads it (:mod:`compose_yaml`: first
document, duplicate keys fail, raw nodes).  Of the top level the CLI reads
only ``services``; of each service the keys of
:data:`~wendy_llm.wendycli.compose.SERVICE_KEYS` (read by
:mod:`compose_keys`).  Every other key is noted as ignored: a warning,
except where ignoring it loses nothing (``version``, ``x-`` extension
fields, volume declarations without settings).  An ``x-wendy`` key is
written for Wendy, yet the CLI reads no ``x-`` key: a warning of its own
(a service's ``x-wendy-entitlements`` is judged against what the compose
path grants anyway, in :mod:`compose_view`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from wendy_llm.codes import device as DC
from wendy_llm.device.compose import keys
from wendy_llm.device.compose.goyaml import (
    MAPPING,
    LoadError,
    Node,
    load,
    mapping_items,
    resolve,
)
from wendy_llm.device.compose.keys import ServiceDraft, Where
from wendy_llm.wendycli.compose import (
    IGNORED_SERVICE_KEYS,
    SERVICE_KEYS,
    TOP_LEVEL_KEYS,
    unknown_dependency,
)

#: Extension keys written for Wendy (``x-wendy-entitlements``): the CLI reads none.
WENDY_EXTENSION = "x-wendy"
# Top-level keys whose loss changes nothing on a device.
_HARMLESS_TOP = ("version",)


def read_compose(at: Where, data: bytes, project: str) -> list[ServiceDraft] | None:
    """The services the CLI's struct holds, in file order; None when wendy run fails first."""
    try:
        root = load(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        at.error(
            DC.COMPOSE_UNLOADABLE,
            f"{at.file} is not UTF-8 (byte {exc.start}): wendy run fails to load it",
            None,
        )
        return None
    except LoadError as exc:
        at.error(
            DC.COMPOSE_UNLOADABLE, f"wendy run fails to load {at.file}: {exc.message}", exc.line
        )
        return None
    if root is None or resolve(root).is_null:
        at.error(DC.COMPOSE_NO_SERVICES, f"{at.file} has no services: wendy run fails", None)
        return None
    if resolve(root).kind != MAPPING:
        at.cannot_load(at.file, root, "a mapping")
        return None
    services: Node | None = None
    for name, value, line in mapping_items(root):
        if name in TOP_LEVEL_KEYS:
            services = value
        else:
            _top_level(at, name, value, line)
    if services is not None and resolve(services).kind != MAPPING and not services.is_null:
        at.cannot_load("services", services, "a mapping")
        return None
    items = [] if services is None or services.is_null else mapping_items(services)
    if not items:
        at.error(DC.COMPOSE_NO_SERVICES, f"{at.file} has no services: wendy run fails", None)
        return None
    drafts = [_service(at, name, value, line, project) for name, value, line in items]
    if any(f.severity == "error" and f.file == at.file for f in at.notes.findings):
        return drafts  # the file does not load: no dependency is looked at
    _check_dependencies(at, drafts)
    return drafts


def _top_level(at: Where, name: str, value: Node, line: int) -> None:
    if name.startswith(WENDY_EXTENSION):
        # Written for Wendy, so someone expects it to act: it never does.
        reason = (
            "never read: the Wendy CLI reads no x- key (only services), so what it asks "
            "for never reaches a device"
        )
        at.ignore(DC.EXTENSION_UNREAD, name, reason, line)
        return
    harmless = name in _HARMLESS_TOP or name.startswith("x-")
    if name == "volumes" and resolve(value).kind == MAPPING:
        for volume, settings, at_line in mapping_items(value):
            if settings.is_null or (resolve(settings).kind == MAPPING and not settings.content):
                # A bare declaration only tells Docker Compose the name exists; the
                # device makes a named volume from the service's entry anyway.
                reason = "not read (a bare declaration: nothing is lost)"
                at.ignore(DC.KEY_IGNORED, f"volumes.{volume}", reason, at_line, warn=False)
            else:
                reason = (
                    "ignored on a device: the volume's settings (driver, external, ...) are lost"
                )
                at.ignore(DC.KEY_IGNORED, f"volumes.{volume}", reason, at_line)
        return
    if name == "volumes" and value.is_null:
        harmless = True
    reason = "ignored on a device (the Wendy CLI reads only services)"
    if name == "name":
        reason = "ignored on a device: apps are named after the project directory"
    at.ignore(DC.KEY_IGNORED, name, reason, line, warn=not harmless)


_Reader = Callable[[Where, str, Node, ServiceDraft, str], None]


def _set_image(at: Where, svc: str, node: Node, draft: ServiceDraft, _: str) -> None:
    draft.image = keys.read_string(at, f"services.{svc}.image", node)


def _set_build(at: Where, svc: str, node: Node, draft: ServiceDraft, project: str) -> None:
    draft.build = keys.read_build(at, svc, node, project)


def _set_command(at: Where, svc: str, node: Node, draft: ServiceDraft, _: str) -> None:
    draft.command = keys.read_command(at, svc, node)
    draft.command_line = node.line


def _set_restart(at: Where, svc: str, node: Node, draft: ServiceDraft, _: str) -> None:
    draft.restart = keys.read_restart(at, svc, node)


def _set_network_mode(at: Where, svc: str, node: Node, draft: ServiceDraft, _: str) -> None:
    draft.network_mode = keys.read_string(at, f"services.{svc}.network_mode", node) or None
    if draft.network_mode is not None and draft.network_mode != "host":
        at.ignore(
            DC.KEY_IGNORED,
            f"services.{svc}.network_mode",
            f'"{draft.network_mode}" is ignored on a device: only "host" matters',
            node.line,
        )


def _set_depends_on(at: Where, svc: str, node: Node, draft: ServiceDraft, _: str) -> None:
    draft.depends_on = keys.read_depends_on(node)
    draft.depends_line = node.line


def _set_ports(at: Where, svc: str, node: Node, draft: ServiceDraft, _: str) -> None:
    keys.read_ports(at, svc, node, draft)


def _set_volumes(at: Where, svc: str, node: Node, draft: ServiceDraft, _: str) -> None:
    keys.read_volumes(at, svc, node, draft)


def _set_environment(at: Where, svc: str, node: Node, draft: ServiceDraft, _: str) -> None:
    draft.environment = keys.read_environment(node)


_READERS: Mapping[str, _Reader] = {
    "image": _set_image,
    "build": _set_build,
    "command": _set_command,
    "ports": _set_ports,
    "volumes": _set_volumes,
    "depends_on": _set_depends_on,
    "restart": _set_restart,
    "network_mode": _set_network_mode,
    "environment": _set_environment,
}
assert set(_READERS) == set(SERVICE_KEYS)
# Raw yaml.Node fields: go-yaml keeps the node as written (a null is a scalar too).
_RAW = ("build", "command", "depends_on")


def _service(at: Where, svc: str, value: Node, line: int, project: str) -> ServiceDraft:
    draft = ServiceDraft(svc, line)
    if resolve(value).kind != MAPPING and not value.is_null:
        at.cannot_load(f"services.{svc}", value, "a mapping")
        return draft
    items = [] if value.is_null else mapping_items(value)
    for name, item, key_line in items:
        reader = _READERS.get(name)
        if reader is not None:
            if name in _RAW or not item.is_null:  # a null decodes to Go's zero value
                reader(at, svc, item, draft, project)
        elif name.startswith(WENDY_EXTENSION):
            draft.wendy_extensions.append((name, item, key_line))
        elif not name.startswith("x-"):
            draft.ignored_keys.append(name)
            reason = IGNORED_SERVICE_KEYS.get(name, "not read by the Wendy CLI")
            at.ignore(
                DC.KEY_IGNORED, f"services.{svc}.{name}", f"ignored on a device: {reason}", key_line
            )
    image_given = bool(draft.image)
    if not image_given and draft.build is None and not _build_failed(items):
        at.error(
            DC.SERVICE_NO_IMAGE, f"service {svc} has neither image nor build: wendy run fails", line
        )
    elif image_given and draft.build is not None:
        at.warn(
            DC.IMAGE_UNUSED,
            f'services.{svc}.image "{draft.image}" is not used on a device: the service is '
            "built, and its image is named after the project and service",
            _line(items, "image"),
        )
    return draft


def _build_failed(items: Sequence[tuple[str, Node, int]]) -> bool:
    return any(name == "build" for name, _, _ in items)


def _line(items: Sequence[tuple[str, Node, int]], key: str) -> int | None:
    return next((line for name, _, line in items if name == key), None)


def _check_dependencies(at: Where, drafts: Sequence[ServiceDraft]) -> None:
    names = {d.name for d in drafts}
    for draft in drafts:
        for name in draft.depends_on:
            if name not in names:
                at.error(
                    DC.UNKNOWN_DEPENDENCY,
                    f"services.{draft.name}.depends_on names {name}, which is not a service: "
                    f"wendy run fails ({unknown_dependency(draft.name, name)})",
                    draft.depends_line,
                )
                return  # the CLI stops at the first


def creation_order(drafts: Sequence[ServiceDraft]) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    """What the CLI's creation order guarantees: each service's dependencies created before
    it (transitively); nothing else is fixed (Go's map order).  Edges inside a
    ``depends_on`` cycle are not guaranteed (the CLI ignores a cycle, so which one comes
    first depends on that map order); returns the kept edges and the services in a cycle."""
    by_name = {d.name: d for d in drafts}
    reach: dict[str, set[str]] = {}
    for draft in drafts:
        seen: set[str] = set()
        todo = [dep for dep in draft.depends_on if dep in by_name]
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(dep for dep in by_name[name].depends_on if dep in by_name)
        reach[draft.name] = seen
    cyclic = [d.name for d in drafts if d.name in reach[d.name]]
    after = {
        d.name: tuple(
            dict.fromkeys(
                dep
                for dep in d.depends_on
                if dep in by_name and d.name not in reach.get(dep, set())
            )
        )
        for d in drafts
    }
    return after, cyclic
