"""Building one service's :class:`Runtime` from its view and its Dockerfile.

Follows Wendy run facts, section 9 (facts in
:mod:`wendy_llm.wendycli.runtime`): the image's ``ENV`` then the agent's
entries, the last of a name winning; the GPU the CLI grants; the network
namespace; persist mounts; the process.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from wendy_llm.device.model import Entitlement, Service
from wendy_llm.device.runtime.dockerfacts import DockerFacts, docker_facts
from wendy_llm.device.runtime.model import EnvEntry, Gpu, Mount, Network, Process, Runtime
from wendy_llm.wendycli.runtime import (
    HOST_MODES,
    HOSTNAME,
    PERSIST_OPTIONS,
    SHM_MIB,
    STOP_GRACE_SECONDS,
    VOLUME_ROOT,
    agent_variables,
)

_GPU_OPEN = (
    "whether the device's container runtime gives a GPU to an image that sets "
    "NVIDIA_VISIBLE_DEVICES is not in the CLI's code: unknown"
)


def service_facts(service: Service, tree: Mapping[str, bytes]) -> DockerFacts | None:
    """The Dockerfile facts of a built service (None: not built here, or not parseable)."""
    if service.build is None or not service.build.found:
        return None
    data = tree.get(service.build.dockerfile)
    if data is None:
        return None
    return docker_facts(data.decode("utf-8", "replace"))


def _has(service: Service, kind: str) -> Entitlement | None:
    return next((e for e in service.entitlements if e.type == kind), None)


def host_network(service: Service) -> bool:
    network = _has(service, "network")
    return network is not None and (network.mode or "") in HOST_MODES


def runtime_of(service: Service, tree: Mapping[str, bytes], deploy: str | None) -> Runtime:
    """What ``service``'s container gets on a device, on the path ``deploy``."""
    facts = service_facts(service, tree)
    return Runtime(
        environment=_environment(service, facts),
        base_env_unknown=_bases(service),
        gpu=_gpu(service, deploy),
        network=_network(service, deploy),
        mounts=tuple(_mounts(service)),
        process=_process(service, facts),
    )


def _bases(service: Service) -> tuple[str, ...]:
    env = service.environment
    if not env.known:
        return (service.image or "(unknown image)",)
    return env.inherits_from


def _environment(service: Service, facts: DockerFacts | None) -> tuple[EnvEntry, ...]:
    env = service.environment
    image: list[EnvEntry] = []
    for base in _bases(service):
        image.append(
            EnvEntry("(unknown)", None, "base image", False, False, f"whatever ENV {base} sets")
        )
    image += [EnvEntry(k, v, "image", True) for k, v in env.values.items()]
    image += [EnvEntry(k, None, "image", True, True, "varies by device") for k in env.by_device]
    image += [
        EnvEntry(k, None, "image", True, True, "depends on its base image's ENV")
        for k in env.unknown
    ]
    names = frozenset(e.name for e in image)
    open_base = bool(_bases(service))
    agent = agent_variables(
        host_network=host_network(service),
        gpu=_has(service, "gpu") is not None,
        audio=_has(service, "audio") is not None,
        bluetooth=_has(service, "bluetooth") is not None,
        image_names=names,
    )
    out = list(image)
    for var in agent:
        # A base image's unseen ENV may set the names the agent skips when present.
        conditional = open_base and var.name.startswith(("OTEL_", "HOME"))
        certain = not conditional and var.name not in ("WENDY_HOSTNAME", "(CDI)")
        note = var.when + (" (unless the base image's unseen ENV sets it)" if conditional else "")
        out.append(
            EnvEntry(var.name, var.value, var.source, False, certain, f"{var.source}: {note}")
        )
    # The last entry of a name wins (runc sets the list in order).
    last: dict[str, int] = {}
    for i, entry in enumerate(out):
        if entry.name not in ("(unknown)", "(CDI)"):
            last[entry.name] = i
    return tuple(
        EnvEntry(e.name, e.value, e.source, last.get(e.name) == i, e.certain, e.note)
        for i, e in enumerate(out)
    )


def _gpu(service: Service, deploy: str | None) -> Gpu:
    gpu = _has(service, "gpu")
    if gpu is not None:
        where = (
            f"wendy.json services.{service.name}.entitlements"
            if deploy == "multi-service"
            else "wendy.json entitlements"
        )
        return Gpu(True, where, None)
    env = service.environment
    sets = "NVIDIA_VISIBLE_DEVICES" in env.values or "NVIDIA_VISIBLE_DEVICES" in env.by_device
    unseen = bool(_bases(service))
    if sets or unseen:
        why = "the image sets NVIDIA_VISIBLE_DEVICES" if sets else "its base image's ENV is unseen"
        return Gpu(False, None, f"no gpu entitlement; {why}: {_GPU_OPEN}")
    return Gpu(False, None, None)


def _network(service: Service, deploy: str | None) -> Network:
    network = _has(service, "network")
    if network is None or (network.mode or "") not in HOST_MODES:
        why = "no network entitlement" if network is None else f"network mode {network.mode}"
        debug = (
            " (wendy run --debug gives it host networking)" if deploy == "single-container" else ""
        )
        return Network(
            "none",
            (),
            (),
            f"{why}: its own network namespace with only loopback: no internet, "
            f"no other service, no device port{debug}",
        )
    ports = network.ports or service.ports
    reachable = tuple(dict.fromkeys(p.container for p in ports))
    unpublished = tuple(p.entry for p in ports if p.host != p.container)
    note = "the device's network namespace: reachable on the port the process listens on"
    if unpublished:
        note += "; no port is published, so a mapping's host side serves nothing"
    return Network("host", reachable, unpublished, note)


def _mounts(service: Service) -> list[Mount]:
    out = []
    for e in service.entitlements:
        if e.type != "persist" or not e.name or not e.path:
            continue
        folder = f"{VOLUME_ROOT}/{posixpath.basename(e.name.rstrip('/')) or e.name}"
        out.append(Mount(e.name, e.path, folder, PERSIST_OPTIONS, False, True))
    return out


def _process(service: Service, facts: DockerFacts | None) -> Process:
    if facts is None:
        workdir = None
    elif facts.workdir is not None:
        workdir = facts.workdir.value
    else:
        workdir = "/" if facts.base_seen else None
    policy = service.restart.policy
    return Process(
        user="root (uid 0, gid 0; no_new_privileges)",
        ignored_user=facts.user.value if facts and facts.user else None,
        workdir=workdir,
        hostname=HOSTNAME,
        shm_mib=SHM_MIB,
        pid1="the program is PID 1, with no init",
        stop=f"SIGTERM, then SIGKILL after {STOP_GRACE_SECONDS} s",
        stop_grace_seconds=STOP_GRACE_SECONDS,
        ignored_stopsignal=facts.stopsignal.value if facts and facts.stopsignal else None,
        restart=(
            f"{policy}: the monitor looks every 15 s, at least 10 s between restarts"
            + ("; on-failure also restarts after exit 0" if policy == "on-failure" else "")
            + "; after a reboot of the device or the agent: unknown (nothing in the agent's "
            "code starts it again)"
        ),
        writes="lost on every wendy run (the container is re-created); kept across restarts",
    )
