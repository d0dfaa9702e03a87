"""Networking and persist volumes as the agent runs them: the checks.

Following Wendy run facts, section 9 ("Network", "persist"):

- a port mapping whose host side differs from its container side: the
  agent publishes no port and runs host networking, so the device serves
  the container side and nothing listens on the host side: a warning naming
  both and the render's files that point at the host side;
- a service with no network (no network entitlement: its own namespace,
  loopback only) whose render shows it needs one (a pull or download, a
  URL of another service): a failure;
- a persist path at or above a path the Dockerfile fills: the bind mount
  is empty the first time and hides the image's content: a warning;
- a program run from under a persist path (``noexec``): a failure;
- a volume name that carries neither the project's nor the app's name
  (:func:`owner_names`, one rule for every path): every app of the device
  naming it shares the folder: a warning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from wendy_llm.codes import runtime as RC
from wendy_llm.device.model import Service
from wendy_llm.device.notes import Notes
from wendy_llm.device.runtime.build import service_facts
from wendy_llm.device.runtime.loopback import loopback_partners
from wendy_llm.device.runtime.resolve import entry_scripts
from wendy_llm.device.runtime.scripts import calls
from wendy_llm.errors import quoted
from wendy_llm.wendycli.runtime import RUN_FACTS, VOLUME_ROOT

SPEC = RUN_FACTS
_DOWNLOADS = re.compile(
    r"\b(?:ollama\s+pull|curl|wget|git\s+clone|huggingface-cli\s+download|hf\s+download|"
    r"pip[0-9.]*\s+install|vllm\s+serve|snapshot_download|apt-get|apk\s+add)\b"
)
_TEXT_SUFFIXES = (
    ".json",
    ".sh",
    ".yml",
    ".yaml",
    ".md",
    ".py",
    ".env",
    ".toml",
    ".conf",
    "Dockerfile",
)


def storage_findings(
    tree: Mapping[str, bytes],
    services: Sequence[Service],
    deploy: str | None,
    notes: Notes,
    file: str | None,
    project: str = "",
) -> None:
    """The network and persist findings of ``services`` (``file``: where they are defined;
    ``project``: the project directory's name, which ``wendy init`` names after the app id)."""
    for service in services:
        runtime = service.runtime
        if runtime is None:
            continue
        if runtime.network.mode == "host":
            for entry in runtime.network.unpublished:
                _mapping(tree, service, entry, notes, file)
        elif deploy is not None:
            _no_network(tree, service, services, notes, file)
        _persist(tree, service, notes, file, project)


def _pointing(tree: Mapping[str, bytes], port: int) -> list[str]:
    pattern = re.compile(rf"(?::|\"port\"\s*:\s*){port}(?!\d)")
    out = []
    for path, data in tree.items():
        if not path.endswith(_TEXT_SUFFIXES) or path.endswith(
            ("docker-compose.yml", "compose.yaml")
        ):
            continue
        if pattern.search(data.decode("utf-8", "replace")):
            out.append(path)
    return sorted(out)


def _mapping(
    tree: Mapping[str, bytes], service: Service, entry: str, notes: Notes, file: str | None
) -> None:
    port = next((p for p in service.ports if p.entry == entry), None)
    if port is None:
        return
    files = _pointing(tree, port.host)
    verb = "points" if len(files) == 1 else "point"
    pointing = f"; {', '.join(files)} {verb} at {port.host}" if files else ""
    notes.warn(
        RC.HOST_PORT_UNUSED,
        f"service {service.name}: ports {quoted(entry)}: the agent publishes no port and runs host "
        f"networking, so on a device the service is reachable on {port.container} (the "
        f"container side) and nothing listens on {port.host} ({SPEC}){pointing}",
        file,
        service.line,
    )


def _no_network(
    tree: Mapping[str, bytes],
    service: Service,
    services: Sequence[Service],
    notes: Notes,
    file: str | None,
) -> None:
    others = {s.name for s in services} - {service.name}
    needs: list[str] = []
    argv = " ".join(service.command.argv or ())
    if _DOWNLOADS.search(argv):
        needs.append(f"its argv ({argv})")
    for script in entry_scripts(service, tree):
        for call in calls(script.text):
            if _DOWNLOADS.search(call.text):
                needs.append(f"{script.file}:{call.line} ({call.text})")
                break
    # Compose environment is not sent, but it shows what the service talks to.
    written = [(f"its ENV {k}", v) for k, v in service.environment.values.items()]
    written += [
        (f"its compose environment {d.name}", d.compose)
        for d in service.dropped_environment
        if d.compose is not None
    ]
    for what, value in written:
        for other in sorted(others):
            if re.search(rf"://{re.escape(other)}(?:[:/]|$)", value):
                needs.append(f"{what}={value} (service {other})")
    needs += loopback_partners(tree, service, services)
    if not needs:
        return
    notes.error(
        RC.NO_NETWORK,
        f"service {service.name} has no network entitlement, so on a device it runs in a "
        f"network namespace of its own with only loopback: no internet, no other service "
        f"({SPEC}); its render needs one: {'; '.join(needs)}. Give it ports or network_mode: "
        "host (compose), or a network entitlement (wendy.json)",
        file,
        service.line,
        subject=f"services.{service.name}",
    )


def owner_names(service: Service, project: str) -> tuple[str, ...]:
    """The names a volume may carry to be this project's own, one rule on every path:
    the project directory's (what the compose path names its apps after), the app's
    (``<appId>`` or ``<appId>-<service>``) and the app id before ``-<service>``."""
    suffix = f"-{service.name}"
    prefix = service.app[: -len(suffix)] if service.app.endswith(suffix) else service.app
    return tuple(dict.fromkeys(n.lower() for n in (project, prefix, service.app) if n))


def _persist(
    tree: Mapping[str, bytes], service: Service, notes: Notes, file: str | None, project: str
) -> None:
    runtime = service.runtime
    if runtime is None or not runtime.mounts:
        return
    facts = service_facts(service, tree)
    dockerfile = service.build.dockerfile if service.build else None
    owners = owner_names(service, project)
    for mount in runtime.mounts:
        root = mount.path.rstrip("/") or "/"
        under = [root + "/", root]
        if facts is not None:
            hidden = [
                f for f in facts.filled if any(f.value == u or f.value.startswith(u) for u in under)
            ]
            if hidden:
                notes.warn(
                    RC.PERSIST_HIDES,
                    f"service {service.name}: persist volume {mount.name} is bind-mounted over "
                    f"{mount.path} from {mount.host_folder} (empty the first time, not filled "
                    f"from the image) ({SPEC}); what the Dockerfile puts there "
                    f"({', '.join(f'{h.value} at line {h.line}' for h in hidden)}) is hidden on "
                    "a device",
                    dockerfile,
                    hidden[0].line,
                )
        _noexec(tree, service, mount.path, notes)
        if not any(owner in mount.name.lower() for owner in owners):
            notes.warn(
                RC.VOLUME_SHARED,
                f"service {service.name}: volume {mount.name} carries neither the project's "
                f"nor the app's name ({' or '.join(owners)}): persist volumes are shared by "
                "name by every app of the device "
                f"({VOLUME_ROOT}/{mount.name}), so another app naming it sees the same folder "
                f"({SPEC})",
                file,
                service.line,
            )


def _noexec(tree: Mapping[str, bytes], service: Service, path: str, notes: Notes) -> None:
    root = path.rstrip("/") + "/"
    argv = service.command.argv or ()
    runs: list[tuple[str, str | None, int | None]] = [(argv[0], None, None)] if argv else []
    for script in entry_scripts(service, tree):
        runs += [(c.program, script.file, c.line) for c in calls(script.text)]
    for program, file, line in runs:
        if program.startswith(root):
            notes.error(
                RC.NOEXEC_PERSIST,
                f"service {service.name} runs {program}, which is under the persist path {path}: "
                f"the agent mounts it noexec ({SPEC}), so it cannot be executed on a device",
                file,
                line,
                subject=f"services.{service.name}: {program}",
            )
            return
