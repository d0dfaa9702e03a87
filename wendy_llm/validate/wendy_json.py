"""The ``wendy-json`` validator: ``wendy.json`` parses, fits its schema, agrees with compose.

``wendy.json`` says what compose cannot (app id, entitlements, readiness,
hooks), so the two files describe one app and must agree:

- ``appId`` is the app id the render was made for;
- every ``wendy.json`` service is a compose service, and its ``context``
  is that service's compose build context (``./x``, ``x`` and ``x/`` are
  the same directory);
- the readiness TCP port is a host port some compose service publishes
  (otherwise the device waits for a port nothing listens on, and the app
  times out as "not ready").

The schema (``wendy_llm/schemas/wendy.schema.json``) is strict: unknown
keys are errors where the shape is known, and ports are integers.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath

from wendy_llm.validate import compose_model
from wendy_llm.validate.documents import Documents, Parsed, parse_documents
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.schema import describe, validator_for, violations

CHECK = "wendy-json"
SCHEMA = "wendy.schema.json"


def validate_wendy_json(
    tree: Mapping[str, bytes], app_id: str, docs: Documents | None = None
) -> list[Finding]:
    """Validate the render's ``wendy.json`` (no findings when it has none).

    ``docs`` are the render's parsed documents when the caller has them.
    """
    if docs is None:
        docs = parse_documents(tree)
    wendy = docs.wendy
    if wendy is None:
        return []
    if wendy.problem is not None:
        return [wendy.problem]
    findings = schema_findings(wendy)
    if findings or not isinstance(wendy.data, Mapping):
        # Cross-checks read fields whose shape the schema vouches for.
        return findings
    return _cross_file(wendy, wendy.data, app_id, docs.compose)


def schema_findings(wendy: Parsed) -> list[Finding]:
    out = []
    for err in violations(validator_for(SCHEMA), wendy.data):
        line = wendy.lines.line(list(err.absolute_path))
        out.append(error(CHECK, f"schema: {describe(err)}", wendy.path, line))
    return out


def _cross_file(
    wendy: Parsed, data: Mapping[str, object], app_id: str, compose: Parsed | None
) -> list[Finding]:
    findings: list[Finding] = []
    if data.get("appId") != app_id:
        findings.append(
            error(
                CHECK,
                f"appId is {data.get('appId')!r}, but the app id is {app_id!r}",
                wendy.path,
                wendy.line("appId"),
            )
        )
    services = data.get("services")
    readiness = data.get("readiness")
    if not isinstance(services, Mapping) and not isinstance(readiness, Mapping):
        return findings
    if compose is None:
        message = "wendy.json declares services or readiness, but the render has no compose file"
        return [*findings, error(CHECK, message, wendy.path, 1)]
    if compose.problem is not None:
        message = f"cannot cross-check with {compose.path}: it does not parse"
        return [*findings, error(CHECK, message, wendy.path)]
    compose_services = compose_model.services(compose.data)
    base = str(PurePosixPath(compose.path).parent)
    if isinstance(services, Mapping):
        for name, service in services.items():
            findings += _service_findings(
                wendy, str(name), service, compose, compose_services, base
            )
    if isinstance(readiness, Mapping):
        findings += _readiness_findings(wendy, readiness, compose, compose_services)
    return findings


def _service_findings(
    wendy: Parsed,
    name: str,
    service: object,
    compose: Parsed,
    compose_services: Mapping[str, Mapping[str, object]],
    base: str,
) -> list[Finding]:
    line = wendy.line("services", name)
    if name not in compose_services:
        known = ", ".join(sorted(compose_services)) or "none"
        message = f"service {name!r} is not a service in {compose.path} (it has: {known})"
        return [error(CHECK, message, wendy.path, line)]
    if not isinstance(service, Mapping) or not isinstance(service.get("context"), str):
        return []
    context = str(service["context"])
    build = compose_model.build_of(compose_services[name])
    if build is None:
        message = (
            f"service {name!r} has context {context!r}, but its compose service has no build "
            "section"
        )
        return [error(CHECK, message, wendy.path, wendy.line("services", name, "context"))]
    ours = compose_model.normalise_path(context)
    theirs = compose_model.normalise_path(build.context, base)
    if ours != theirs:
        message = (
            f"service {name!r} has context {context!r}, but {compose.path} builds it from "
            f"{build.context!r}"
        )
        return [error(CHECK, message, wendy.path, wendy.line("services", name, "context"))]
    return []


def _readiness_findings(
    wendy: Parsed,
    readiness: Mapping[str, object],
    compose: Parsed,
    compose_services: Mapping[str, Mapping[str, object]],
) -> list[Finding]:
    socket = readiness.get("tcpSocket")
    port = socket.get("port") if isinstance(socket, Mapping) else None
    if not isinstance(port, int):
        return []
    published = {
        p.port: name
        for name, service in compose_services.items()
        for p in compose_model.published_ports(service)
        if p.protocol == "tcp"
    }
    if port in published:
        return []
    shown = ", ".join(f"{p} ({published[p]})" for p in sorted(published)) or "none"
    message = (
        f"readiness port {port} is not published by any service in {compose.path} "
        f"(published TCP ports: {shown})"
    )
    return [error(CHECK, message, wendy.path, wendy.line("readiness", "tcpSocket", "port"))]
