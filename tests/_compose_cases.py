"""How a compose case is written and checked (tests/device/test_compose_facts_table.py).

A case is a small compose project (the compose text, and files beside it),
the fact of wendy-run.md section 3 it tests, and the expected device view
as ``plan --json`` prints it (``view``: ``dataclasses.asdict`` of the
:class:`~wendy_llm.device.DeviceView`), written as short keys:

- ``argv``, ``image``, ``restart`` (policy, device default?), ``ports``
  (``host:container``), ``dropped`` (dropped port entries), ``volumes``
  (kinds), ``ent`` (entitlements as text), ``after`` (created after),
  ``dir`` (the build context in the render), ``args`` (its own build args),
  ``source`` (where argv comes from) -- of service ``a``, or of another
  service as ``name.key``;
- ``services``: the services listed; ``order``: the view's creation order;
- ``error`` / ``warning``: a finding of that severity holds the text;
  ``errors: 0`` / ``nowarn: text``: no error at all / no warning holds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ENTRYPOINT = 'FROM scratch\nENTRYPOINT ["/e", "-x"]\nCMD ["c"]\n'
CMD_ONLY = 'FROM scratch\nCMD ["c", "x"]\n'
EMPTY = "FROM scratch\n"


@dataclass(frozen=True)
class Case:
    id: str
    fact: str
    compose: str
    expect: dict[str, Any]
    files: dict[str, str] = field(default_factory=dict)


def svc(*lines: str, name: str = "a") -> str:
    """A compose file with one service ``name`` whose keys are ``lines``."""
    return f"services:\n  {name}:\n" + "".join(f"    {line}\n" for line in lines)


def built(*lines: str, dockerfile: str = ENTRYPOINT) -> tuple[str, dict[str, str]]:
    """A service built from the project root (``build: .``) with ``dockerfile``."""
    return svc("build: .", *lines), {"Dockerfile": dockerfile}


def case(id: str, fact: str, compose: str | tuple[str, dict[str, str]], **expect: Any) -> Case:
    if isinstance(compose, tuple):
        return Case(id, fact, compose[0], expect, compose[1])
    return Case(id, fact, compose, expect)


def entitlement(e: dict[str, Any]) -> str:
    if e["type"] == "network":
        if e["mode"]:
            return f"network {e['mode']}"
        return "network " + ",".join(f"{p['host']}:{p['container']}" for p in e["ports"])
    if e["type"] == "persist":
        return f"persist {e['name']}:{e['path']}"
    return str(e["type"])


def _service_value(service: dict[str, Any], key: str) -> Any:
    command = service["command"]
    build = service["build"]
    values = {
        "argv": None if command["argv"] is None else list(command["argv"]),
        "source": command["source"],
        "image": service["image"],
        "restart": (service["restart"]["policy"], service["restart"]["device_default"]),
        "ports": [f"{p['host']}:{p['container']}" for p in service["ports"]],
        "dropped": list(service["dropped_ports"]),
        "volumes": [v["kind"] for v in service["volumes"]],
        "ent": [entitlement(e) for e in service["entitlements"]],
        "after": list(service["created_after"]),
        "dir": None if build is None else build["directory"],
        "args": None
        if build is None
        else {a["name"]: a["value"] for a in build["args"] if a["source"] == "compose"},
    }
    return values[key]


def command_errors(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The view's errors, but DEV049: these cases build FROM scratch, which holds nothing,
    so every program they name is absent there (judged in test_runtime_checks); the
    table is about the command and the compose keys."""
    return [f for f in view["findings"] if f["severity"] == "error" and f["code"] != "DEV049"]


def check(case: Case, view: dict[str, Any]) -> None:
    """Every expectation of ``case`` against the plan's ``view``; fails naming the fact."""
    findings = view["findings"]
    services = {s["name"]: s for s in view["services"]}
    where = f"{case.id} ({case.fact}): findings {[f['message'] for f in findings]}"
    for key, want in case.expect.items():
        if key in ("error", "warning"):
            hits = [f for f in findings if f["severity"] == key and want in f["message"]]
            assert hits, f"{where}: no {key} holding {want!r}"
        elif key == "errors":
            assert [f for f in command_errors(view)] == [], where
        elif key == "nowarn":
            assert not [f for f in findings if want in f["message"]], where
        elif key == "services":
            assert list(services) == want, where
        elif key == "order":
            assert view["creation_order"] == want, where
        else:
            name, _, field_name = key.rpartition(".")
            got = _service_value(services[name or "a"], field_name)
            assert got == want, f"{where}: {key} is {got!r}, not {want!r}"
