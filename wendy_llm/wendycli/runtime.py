"""What the Wendy agent gives every container it creates, at :data:`REVISION`.

Read off the agent's ``containerd/client.go``, ``oci/spec.go``,
``oci/entitlements.go`` and ``cdi/apply.go`` (section 9 of the Wendy run
facts).  Only facts live here; :mod:`wendy_llm.device.runtime` applies
them to a service.  The agent names no runtime, so containerd's default,
runc, runs the container.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from wendy_llm.wendycli import REVISION

__all__ = [
    "AGENT_PATH",
    "DEFAULT_PATH_DIRS",
    "HOSTNAME",
    "REVISION",
    "RUN_FACTS",
    "SHM_MIB",
    "STOP_GRACE_SECONDS",
    "VOLUME_ROOT",
    "AgentVariable",
    "agent_variables",
]

#: How findings name the facts they follow (section 9: the container at run time).
RUN_FACTS: Final = "Wendy run facts, section 9"
#: The directories of the ``PATH`` the agent appends (it wins over the image's).
DEFAULT_PATH_DIRS: Final = (
    "/usr/local/sbin",
    "/usr/local/bin",
    "/usr/sbin",
    "/usr/bin",
    "/sbin",
    "/bin",
)
AGENT_PATH: Final = ":".join(DEFAULT_PATH_DIRS)
#: Every container's hostname (its own UTS namespace, even with host networking).
HOSTNAME: Final = "wendy"
#: ``/dev/shm`` (a tmpfs nothing in ``wendy.json`` or compose can raise).
SHM_MIB: Final = 64
#: Stop: SIGTERM, then SIGKILL this many seconds later.
STOP_GRACE_SECONDS: Final = 10
#: Where a persist volume's host folder lives (``<root>/<base name of name>``).
VOLUME_ROOT: Final = "/var/lib/wendy/volumes"
#: Mount options of a persist bind mount.
PERSIST_OPTIONS: Final = ("nosuid", "noexec")
#: The OTEL defaults with host networking (the agent's ``WENDY_OTEL_PORT`` may change the port).
OTEL_ENDPOINT: Final = "http://127.0.0.1:4317"
#: A network entitlement's modes the agent runs in the host's namespace.
HOST_MODES: Final = ("", "host")


@dataclass(frozen=True)
class AgentVariable:
    """One entry the agent (or runc) appends to the image's ``ENV``.

    ``value`` None: it depends on the device (its mDNS name, its CDI spec);
    ``when``: the condition under which the agent adds it, in words.
    """

    name: str
    value: str | None
    source: Literal["agent", "runc"]
    when: str


def agent_variables(
    *,
    host_network: bool,
    gpu: bool,
    audio: bool,
    bluetooth: bool,
    image_names: frozenset[str],
) -> tuple[AgentVariable, ...]:
    """The agent's entries in the order it appends them, for one container.

    ``image_names`` are the names the image's ``ENV`` is known to set
    (OTEL defaults are skipped for those; runc's ``HOME`` too).
    """
    out = [
        AgentVariable("PATH", AGENT_PATH, "agent", "always"),
        AgentVariable("TERM", "xterm", "agent", "always"),
        AgentVariable(
            "WENDY_HOSTNAME",
            None,
            "agent",
            "the device's mDNS hostname + '.local'; left out when it cannot be resolved",
        ),
    ]
    if host_network and "OTEL_EXPORTER_OTLP_ENDPOINT" not in image_names:
        out.append(
            AgentVariable(
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                OTEL_ENDPOINT,
                "agent",
                "host networking and no OTEL_EXPORTER_OTLP_ENDPOINT in the image "
                "(the agent's WENDY_OTEL_PORT may change the port)",
            )
        )
        if "OTEL_EXPORTER_OTLP_PROTOCOL" not in image_names:
            out.append(
                AgentVariable(
                    "OTEL_EXPORTER_OTLP_PROTOCOL",
                    "grpc",
                    "agent",
                    "host networking and no OTEL_EXPORTER_OTLP_PROTOCOL in the image",
                )
            )
    if gpu:
        out += [
            AgentVariable("(CDI)", None, "agent", "whatever the device's NVIDIA CDI spec lists"),
            AgentVariable("NVIDIA_VISIBLE_DEVICES", "all", "agent", "gpu entitlement"),
            AgentVariable("NVIDIA_DRIVER_CAPABILITIES", "all", "agent", "gpu entitlement"),
        ]
    if audio:
        out += [
            AgentVariable(
                "PIPEWIRE_RUNTIME_DIR", "/run/pipewire", "agent", "audio, socket present"
            ),
            AgentVariable(
                "PULSE_SERVER", "unix:/run/pipewire/pulse-native", "agent", "audio, socket present"
            ),
        ]
    if bluetooth:
        out.append(
            AgentVariable(
                "DBUS_SYSTEM_BUS_ADDRESS",
                "unix:path=/var/run/dbus/system_bus_socket",
                "agent",
                "bluetooth entitlement (even when the socket is missing)",
            )
        )
    if "HOME" not in image_names:
        out.append(
            AgentVariable(
                "HOME",
                "/root",
                "runc",
                "runc, when the list has none: root's home in the image's /etc/passwd",
            )
        )
    return tuple(out)


def describe() -> str:
    """One line naming the source of these facts."""
    return f"the Wendy agent at {REVISION} (Wendy run facts, section 9)"
