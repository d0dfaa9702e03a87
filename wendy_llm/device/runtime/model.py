"""The container as the agent runs it: environment, GPU, network, mounts, process (data).

One :class:`Runtime` per service of a device view (``Service.runtime``),
following Wendy run facts, section 9 at the CLI revision the
view names.  Field names are stable (``plan --json`` prints them).  What
the render cannot show is said as such (``known: False``, ``unknown``),
never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EnvSource = Literal["image", "base image", "agent", "runc"]
#: How a program the container runs resolves over the agent's PATH in the image model:
#: found there; found only through a PATH directory the image's own ENV adds (which the
#: agent's PATH replaces); absent; unknown (``note`` says why).
ResolutionState = Literal["found", "image-path", "absent", "unknown"]


@dataclass(frozen=True)
class EnvEntry:
    """One entry of the container's environment list, in the order it is set.

    ``value`` None: not known from the render (a base image's, a device's
    value, one that varies by device: ``note`` says which).  ``wins``: this
    entry is the one the process sees for ``name`` (runc sets the list in
    order, so the last entry of a name wins); False for a replaced one, and
    for an entry that may not be there at all (``certain`` False).
    """

    name: str
    value: str | None
    source: EnvSource
    wins: bool
    certain: bool = True  # False: present only under a condition the render cannot settle
    note: str = ""


@dataclass(frozen=True)
class Gpu:
    """Whether the CLI grants the container a GPU, and what that leaves open."""

    granted: bool  # the agent maps the GPU (CDI) only for a gpu entitlement
    entitlement: str | None  # which: ``wendy.json services.<name>`` / ``wendy.json entitlements``
    open: str | None  # what the CLI's code does not settle (None: nothing)


@dataclass(frozen=True)
class Network:
    """The network namespace the container gets, and where its process is reachable."""

    mode: Literal["host", "none"]  # host: the device's namespace; none: own, loopback only
    reachable_ports: tuple[int, ...]  # host mode: the container side of each mapping
    unpublished: tuple[str, ...]  # mappings whose host side is never applied (``8080:80``)
    note: str


@dataclass(frozen=True)
class Mount:
    """A persist volume as the agent mounts it."""

    name: str
    path: str
    host_folder: str  # ``/var/lib/wendy/volumes/<base name of name>``
    options: tuple[str, ...]  # ``nosuid``, ``noexec``
    filled_from_image: bool  # False: whatever the image put at ``path`` is hidden
    shared_by_name: bool  # True: every app of the device naming it sees the same folder


@dataclass(frozen=True)
class Process:
    """How the container's process runs and stops."""

    user: str  # always root
    ignored_user: str | None  # the image's ``USER`` (ignored)
    workdir: str | None  # the image's WORKDIR, ``/`` without one; None: a base image's, unseen
    hostname: str
    shm_mib: int
    pid1: str  # the program runs as PID 1 with no init
    stop: str  # SIGTERM, then SIGKILL after the grace
    stop_grace_seconds: int
    ignored_stopsignal: str | None  # the image's ``STOPSIGNAL`` (ignored)
    restart: str  # the policy and how the monitor applies it
    writes: str  # what survives a redeploy


@dataclass(frozen=True)
class Resolution:
    """One program of a service's argv (or of a script it follows), resolved on a device."""

    program: str  # as written
    named_in: str  # "argv", "shell-form command", "<script>:<line>", "shebang of <script>"
    state: ResolutionState
    path: str | None  # where it is found (or would be, for image-path)
    line: int | None  # the Dockerfile line that puts it there (None: the base image's, or none)
    certain: bool  # False: likely (a console script assumed, a package named like it)
    note: str  # how it got there, or why it is absent or unknown
    file: str | None = None  # the render file that names the program
    file_line: int | None = None  # and its line there


@dataclass(frozen=True)
class Runtime:
    """What one service's container gets on a device (section 9)."""

    environment: tuple[EnvEntry, ...]
    base_env_unknown: tuple[str, ...]  # base images whose ENV the render cannot show
    gpu: Gpu
    network: Network
    mounts: tuple[Mount, ...]
    process: Process
    spec: str = "Wendy run facts, section 9 (docs/device-paths.md)"
    # How each program the service runs resolves over the agent's PATH (additive: plan v2).
    programs: tuple[Resolution, ...] = ()
