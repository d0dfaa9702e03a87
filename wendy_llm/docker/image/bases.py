"""Documented facts about the base images templates use most (docs/base-images.md).

Each row says what its image's documentation (its Dockerfile in the
official-images library, or its maintainer's page: ``source``) shows: the
shell behind ``/bin/sh``, whether bash is there, the C library, the
language runtimes, the programs at known paths, ``PATH`` and
``ENTRYPOINT``.  A name not in a row's ``programs`` is not known to be
absent unless the row says so (``lacks``) or the image is ``complete``
(``scratch``, distroless: everything they hold is listed).  An image no
row matches has no facts: callers say "unknown".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

DOCKER_PATH = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
_DEBIAN_PROGRAMS = {"sh": "/bin/sh", "bash": "/bin/bash", "dash": "/bin/dash"}
_DOCKER_LIBRARY = "https://github.com/docker-library"


@dataclass(frozen=True)
class BaseFacts:
    """What one base image holds, as its documentation shows."""

    family: str  # "debian", "alpine", "python", ...
    shell: str | None  # what /bin/sh is ("dash", "bash", "busybox ash"); None: no shell
    libc: str | None  # "glibc", "musl"; None: no C library at all
    runtimes: frozenset[str]  # "python", "node", "swift", "swift-runtime", "go", "rust", ...
    programs: dict[str, str] = field(default_factory=dict)  # bare name -> absolute path
    lacks: frozenset[str] = frozenset()  # bare names documented as absent
    complete: bool = False  # everything it holds is in ``programs``
    path: tuple[str, ...] = DOCKER_PATH
    entrypoint: tuple[str, ...] | None = ()  # () none; None: unknown
    source: str = ""

    @property
    def bash(self) -> bool:
        return "bash" in self.programs


_DEBIAN = BaseFacts(
    "debian",
    "dash",
    "glibc",
    frozenset(),
    _DEBIAN_PROGRAMS,
    source=f"{_DOCKER_LIBRARY}/debian (debootstrap minbase: dash, bash, coreutils are Essential)",
)
_UBUNTU = replace(
    _DEBIAN, family="ubuntu", source="https://hub.docker.com/_/ubuntu (a minimised Ubuntu)"
)
_ALPINE = BaseFacts(
    "alpine",
    "busybox ash",
    "musl",
    frozenset(),
    {"sh": "/bin/sh", "ash": "/bin/ash"},
    lacks=frozenset({"bash"}),
    source=f"{_DOCKER_LIBRARY}/alpine and https://hub.docker.com/_/alpine (BusyBox, musl libc; "
    "no bash until `apk add bash`)",
)
_SCRATCH = BaseFacts(
    "scratch",
    None,
    None,
    frozenset(),
    complete=True,
    path=(),
    source="https://docs.docker.com/build/building/base-images/ (scratch: an empty image)",
)
_DISTROLESS = "https://github.com/GoogleContainerTools/distroless"


def _language(
    family: str,
    runtime: str,
    programs: dict[str, str],
    path: tuple[str, ...] = DOCKER_PATH,
    entrypoint: tuple[str, ...] = (),
) -> tuple[BaseFacts, BaseFacts]:
    """A Debian-based official language image and its ``-alpine`` variant."""
    source = f"{_DOCKER_LIBRARY}/{family} (Debian-based; -alpine variants on Alpine)"
    debian = replace(
        _DEBIAN,
        family=family,
        runtimes=frozenset({runtime}),
        programs={**_DEBIAN_PROGRAMS, **programs},
        path=path,
        entrypoint=entrypoint,
        source=source,
    )
    alpine = replace(
        _ALPINE,
        family=f"{family}-alpine",
        runtimes=frozenset({runtime}),
        programs={**_ALPINE.programs, **programs},
        path=path,
        entrypoint=entrypoint,
        source=source,
    )
    return debian, alpine


_PYTHON = _language(
    "python",
    "python",
    {p: f"/usr/local/bin/{p}" for p in ("python", "python3", "pip", "pip3")},
)
_NODE = _language(
    "node",
    "node",
    {p: f"/usr/local/bin/{p}" for p in ("node", "npm", "npx", "docker-entrypoint.sh")},
    entrypoint=("docker-entrypoint.sh",),
)
_GO_PATH = ("/go/bin", "/usr/local/go/bin", *DOCKER_PATH)
_GOLANG = _language("golang", "go", {"go": "/usr/local/go/bin/go"}, _GO_PATH)
_RUST_PATH = ("/usr/local/cargo/bin", *DOCKER_PATH)
_RUST = _language(
    "rust",
    "rust",
    {"cargo": "/usr/local/cargo/bin/cargo", "rustc": "/usr/local/cargo/bin/rustc"},
    _RUST_PATH,
)
_SWIFT = replace(
    _UBUNTU,
    family="swift",
    runtimes=frozenset({"swift", "swift-runtime"}),
    programs={**_DEBIAN_PROGRAMS, "swift": "/usr/bin/swift"},
    source="https://github.com/swiftlang/swift-docker (Ubuntu-based; the full toolchain; "
    "-slim: the runtime libraries only)",
)
_SWIFT_SLIM = replace(
    _SWIFT, family="swift-slim", runtimes=frozenset({"swift-runtime"}), programs=_DEBIAN_PROGRAMS
)
_CUDA = replace(
    _UBUNTU,
    family="nvidia/cuda",
    runtimes=frozenset({"cuda"}),
    path=("/usr/local/nvidia/bin", "/usr/local/cuda/bin", *DOCKER_PATH),
    entrypoint=("/opt/nvidia/nvidia_entrypoint.sh",),
    source="https://gitlab.com/nvidia/container-images/cuda (Ubuntu-based; "
    "base, runtime, devel flavours)",
)
_DOTNET = replace(
    _DEBIAN,
    family="dotnet",
    runtimes=frozenset({"dotnet"}),
    programs={**_DEBIAN_PROGRAMS, "dotnet": "/usr/bin/dotnet"},
    source="https://github.com/dotnet/dotnet-docker (runtime, aspnet and sdk carry the runtime; "
    "runtime-deps does not)",
)
_DOTNET_DEPS = replace(_DOTNET, family="dotnet-runtime-deps", runtimes=frozenset())


def _distroless(flavour: str) -> BaseFacts:
    libc = None if flavour.startswith("static") else "glibc"
    runtimes = {"python3": "python", "nodejs": "node", "java": "java"}
    runtime = next((r for prefix, r in runtimes.items() if flavour.startswith(prefix)), None)
    programs = {}
    if runtime == "python":
        programs = {"python3": "/usr/bin/python3", "python": "/usr/bin/python3"}
    if runtime == "node":
        programs = {"node": "/nodejs/bin/node"}
    debug = ":debug" in flavour or flavour.endswith("debug")
    return BaseFacts(
        f"distroless/{flavour.split(':')[0]}",
        "busybox sh" if debug else None,
        libc,
        frozenset({runtime} if runtime else ()),
        {**programs, **({"sh": "/busybox/sh"} if debug else {})},
        lacks=frozenset({"bash", *(() if debug else ("sh",))}),
        complete=not debug,
        path=DOCKER_PATH,
        entrypoint=None if runtime else (),
        source=f"{_DISTROLESS} (no shell or package manager; static: no libc; base and cc: glibc)",
    )


def _repository(image: str) -> tuple[str, str]:
    """(repository without docker.io/library, tag) of an image reference."""
    ref = image.split("@", 1)[0].lower()
    name, _, tag = ref.rpartition(":") if ":" in ref.rsplit("/", 1)[-1] else (ref, "", "")
    for prefix in ("docker.io/library/", "docker.io/", "index.docker.io/library/", "library/"):
        if name.startswith(prefix):
            name = name[len(prefix) :]
    return name, tag


def base_facts(image: str | None) -> BaseFacts | None:
    """The documented facts of ``image`` (None: not in the table, or not known)."""
    if image is None:
        return None
    name, tag = _repository(image)
    alpine = "alpine" in tag
    if name == "scratch":
        return _SCRATCH
    if name.startswith("gcr.io/distroless/"):
        return _distroless(f"{name.removeprefix('gcr.io/distroless/')}:{tag}")
    simple = {"debian": _DEBIAN, "ubuntu": _UBUNTU, "alpine": _ALPINE}
    if name in simple:
        return simple[name]
    language = {"python": _PYTHON, "node": _NODE, "golang": _GOLANG, "rust": _RUST}
    if name in language:
        return language[name][1 if alpine else 0]
    if name == "swift":
        return _SWIFT_SLIM if re.search(r"(^|-)slim(-|$)", tag) else _SWIFT
    if name == "nvidia/cuda":
        return _CUDA
    if name.startswith("mcr.microsoft.com/dotnet/"):
        flavour = name.removeprefix("mcr.microsoft.com/dotnet/")
        if flavour == "runtime-deps":
            return _DOTNET_DEPS
        return _DOTNET if flavour in ("runtime", "aspnet", "sdk") else None
    return None
