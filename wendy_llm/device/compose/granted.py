"""What the compose path grants a service, against what a render asks for elsewhere.

Two places ask for entitlements the compose path never reads: ``wendy.json``
(not read on that path) and a service's ``x-wendy-entitlements`` (the CLI
reads no ``x-`` key).  Both are judged by :func:`granted`, which compares
what the process gets (section 9), not how it is spelled; what the path
does not grant anyway is a warning.
"""

from __future__ import annotations

from wendy_llm.codes import device as DC
from wendy_llm.device.compose.goyaml import MAPPING, SEQUENCE, Node, mapping_items, resolve, text
from wendy_llm.device.compose.keys import ServiceDraft, Where
from wendy_llm.device.model import Entitlement, Service, entitlement_from
from wendy_llm.wendycli.compose import GRANTED_ENTITLEMENTS
from wendy_llm.wendycli.runtime import HOST_MODES

#: The service key templates use to ask Wendy for entitlements from a compose file.
ENTITLEMENTS_KEY = "x-wendy-entitlements"


def granted(wanted: Entitlement, service: Service) -> bool:
    """Does the compose path give ``service``'s process what ``wanted`` asks for?

    A network entitlement of mode empty or ``host`` is host networking either
    way, and mode ``none`` is what no network entitlement gives too (its own
    namespace, loopback only); a persist volume is the same name at the same path.
    """
    if wanted.type == "network":
        got = next((e for e in service.entitlements if e.type == "network"), None)
        gets_host = got is not None and (got.mode or "") in HOST_MODES
        return gets_host == ((wanted.mode or "") in HOST_MODES)
    return any(
        wanted.type == "persist" and (wanted.name, wanted.path) == (got.name, got.path)
        for got in service.entitlements
        if got.type == wanted.type
    )


def report_extensions(at: Where, draft: ServiceDraft, service: Service) -> None:
    """A warning for each ``x-wendy`` key of a service: the CLI never reads it."""
    for key, node, line in draft.wendy_extensions:
        what = f"services.{draft.name}.{key}"
        if key != ENTITLEMENTS_KEY:
            reason = "never read: the Wendy CLI reads no x- key, so it never acts on a device"
            at.ignore(DC.EXTENSION_UNREAD, what, reason, line)
            continue
        asked = _entitlements(node)
        lost = [e for e in asked if e is None or not granted(e, service)]
        if asked and not lost:
            reason = "never read (the Wendy CLI reads no x- key); the compose path grants the same"
            at.ignore(DC.EXTENSION_UNREAD, what, reason, line, warn=False)
            continue
        names = ", ".join("an entry without a type" if e is None else _label(e) for e in lost)
        at.ignore(
            DC.EXTENSION_UNREAD,
            what,
            f"never read: the Wendy CLI reads no x- key, so {names or 'what it asks for'} is "
            f"never granted on a device (the compose path grants only "
            f"{' and '.join(GRANTED_ENTITLEMENTS)}, from ports, network_mode and named volumes)",
            line,
        )


def _label(entitlement: Entitlement) -> str:
    mode = f" (mode {entitlement.mode})" if entitlement.mode else ""
    return f"the {entitlement.type} entitlement{mode}"


def _entitlements(node: Node) -> list[Entitlement | None]:
    """The entitlements an ``x-wendy-entitlements`` list asks for, in ``wendy.json``'s shape."""
    node = resolve(node)
    if node.kind != SEQUENCE:
        return []
    out: list[Entitlement | None] = []
    for item in node.content:
        item = resolve(item)
        if item.kind != MAPPING:
            out.append(None)
            continue
        fields = {key: text(value) for key, value, _ in mapping_items(item)}
        out.append(entitlement_from(fields))
    return out
