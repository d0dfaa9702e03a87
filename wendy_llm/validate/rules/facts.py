"""What each service and volume of a render *is*: the traits rule selectors match on.

A service's traits come from the normalised Compose model (so every
spelling Compose accepts counts the same: ``build: ./x`` or ``{context:
./x}``, short or long ports and volumes, environment as a list or a
mapping), from what its build produces (the Dockerfile's final base image
through ``FROM <stage>`` chains, and its ``ENV``, for every device profile,
by :mod:`wendy_llm.device.images`), and from the device view where the
Wendy CLI reads the file (its ports and volumes, the way a device sees
them).  A render without a compose file has the device view's services.

A volume's traits: its key under ``volumes:``, its storage ``name`` when
one is written, and who mounts it where.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from wendy_llm.device import PROFILES, DeviceView
from wendy_llm.device.images import BuiltImage, built_image
from wendy_llm.docker.context import is_dockerfile_name
from wendy_llm.validate.documents.locate import LineIndex
from wendy_llm.wendycli.compose import qualify_image


@dataclass(frozen=True)
class Image:
    """An image a service is, or is built on, and where that was read."""

    ref: str
    how: str  # "image", or "base" (the final base image of its build)
    where: str  # the compose file, or the Dockerfile


@dataclass(frozen=True)
class PortFact:
    published: tuple[int, ...]  # host ports (none for a target-only entry)
    target: int | None
    shown: str  # "11434:11434"


@dataclass(frozen=True)
class Mount:
    source: str | None
    target: str
    type: str  # volume, bind, tmpfs, ...


@dataclass(frozen=True)
class ContextDockerfile:
    """A Dockerfile found directly in a service's build context, and its final base images."""

    path: str
    bases: tuple[str, ...]


@dataclass(frozen=True)
class ServiceFacts:
    name: str
    images: tuple[Image, ...]
    ports: tuple[PortFact, ...]
    mounts: tuple[Mount, ...]
    compose_env: tuple[str, ...]
    image_env: tuple[str, ...]
    dockerfile: str | None  # the Dockerfile its build uses, as a path in the render
    build_context: str | None  # relative to the project: ./ollama, .
    context_dockerfiles: tuple[ContextDockerfile, ...]
    line: int | None


@dataclass(frozen=True)
class VolumeFacts:
    key: str
    names: tuple[str, ...]  # the key, and the storage name when one is written
    mounts: tuple[tuple[str, str], ...]  # (service, target)
    line: int | None


#: The device view's volume kinds in Compose's words.
_KINDS = {"named": "volume", "bind": "bind", "anonymous": "volume"}


def image_forms(ref: str) -> tuple[str, ...]:
    """``ref`` as written, fully qualified, and without Docker Hub's implied parts.

    So ``ollama/ollama*`` matches ``ollama/ollama:0.32.5`` however it was
    spelled (``docker.io/ollama/ollama:0.32.5`` too).
    """
    qualified = qualify_image(ref)
    familiar = qualified.removeprefix("docker.io/").removeprefix("library/")
    return tuple(dict.fromkeys((ref, qualified, familiar)))


@functools.lru_cache(maxsize=256)
def build_once(data: bytes, args: tuple[tuple[str, str], ...]) -> BuiltImage:
    """A Dockerfile (its bytes) built for every device profile with ``args`` (sorted
    pairs), built once: every pick renders the same Dockerfiles."""
    return built_image(data.decode("utf-8", "replace"), dict(args), PROFILES)


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _args(build: Mapping[str, object]) -> dict[str, str]:
    return {str(k): str(v) for k, v in _mapping(build.get("args")).items() if v is not None}


def _directory(context: str, base: str) -> str:
    joined = posixpath.normpath(posixpath.join(base, context))
    return "." if joined in ("", ".") else joined


def _in(directory: str, name: str) -> str:
    return name if directory == "." else f"{directory}/{name}"


def _ports(raw: object) -> list[PortFact]:
    out = []
    for entry in _list(raw):
        item = _mapping(entry)
        target = item.get("target")
        published = str(item.get("published") or "")
        low, _, high = published.partition("-")
        hosts: tuple[int, ...] = ()
        if low.isdigit():
            hosts = tuple(range(int(low), int(high or low) + 1))
        shown = f"{published}:{target}" if published else str(target)
        out.append(PortFact(hosts, target if isinstance(target, int) else None, shown))
    return out


def _mounts(raw: object) -> list[Mount]:
    out = []
    for entry in _list(raw):
        item = _mapping(entry)
        target = item.get("target")
        if isinstance(target, str):
            source = item.get("source")
            kind = str(item.get("type") or "volume")
            out.append(Mount(source if isinstance(source, str) else None, target, kind))
    return out


def compose_services(
    model: Mapping[str, object],
    compose_file: str,
    tree: Mapping[str, bytes],
    lines: LineIndex,
    view: DeviceView | None,
) -> list[ServiceFacts]:
    """Every service of a normalised Compose model, with its build's traits."""
    base = str(PurePosixPath(compose_file).parent)
    out = []
    for name, raw in _mapping(model.get("services")).items():
        service = _mapping(raw)
        images: list[Image] = []
        image = service.get("image")
        if isinstance(image, str):
            images.append(Image(image, "image", compose_file))
        build = _mapping(service.get("build"))
        context = build.get("context")
        dockerfile = None
        image_env: list[str] = []
        found: list[ContextDockerfile] = []
        if isinstance(context, str) and "://" not in context:
            directory = _directory(context, base)
            args = _args(build)
            dockerfile = _in(directory, str(build.get("dockerfile") or "Dockerfile"))
            if dockerfile in tree:
                built = build_once(tree[dockerfile], tuple(sorted(args.items())))
                images += [Image(b, "base", dockerfile) for b in built.base_images]
                env = built.environment
                image_env = [*env.values, *env.by_device, *env.unknown]
            found = _context_dockerfiles(tree, directory, args)
        device = view.service(str(name)) if view is not None else None
        ports = _ports(service.get("ports"))
        mounts = _mounts(service.get("volumes"))
        if device is not None:
            ports += [PortFact((p.host,), p.container, p.entry) for p in device.ports]
            mounts += [Mount(v.source, v.target, _KINDS[v.kind]) for v in device.volumes]
        out.append(
            ServiceFacts(
                name=str(name),
                images=tuple(images),
                ports=tuple(ports),
                mounts=tuple(mounts),
                compose_env=tuple(str(k) for k in _mapping(service.get("environment"))),
                image_env=tuple(dict.fromkeys(image_env)),
                dockerfile=dockerfile,
                build_context=context if isinstance(context, str) else None,
                context_dockerfiles=tuple(found),
                line=lines.line(("services", str(name))),
            )
        )
    return out


def _context_dockerfiles(
    tree: Mapping[str, bytes], directory: str, args: Mapping[str, str]
) -> list[ContextDockerfile]:
    # Only files directly in the context: a root context (.) would otherwise
    # "hold" every Dockerfile of the render.
    out = []
    for path in sorted(tree):
        parent = str(PurePosixPath(path).parent)
        if parent == directory and is_dockerfile_name(PurePosixPath(path).name):
            built = build_once(tree[path], tuple(sorted(args.items())))
            out.append(ContextDockerfile(path, built.base_images))
    return out


def device_services(view: DeviceView) -> list[ServiceFacts]:
    """Services as the device view has them (a render that takes no compose path)."""
    out = []
    for s in view.services:
        images = [Image(s.image_written, "image", view.path_file or "")] if s.image_written else []
        dockerfile = None
        if s.build is not None:
            dockerfile = s.build.dockerfile or None
            images += [Image(b, "base", s.build.dockerfile) for b in s.build.base_images]
        env = s.environment
        out.append(
            ServiceFacts(
                name=s.name,
                images=tuple(images),
                ports=tuple(PortFact((p.host,), p.container, p.entry) for p in s.ports),
                mounts=tuple(Mount(v.source, v.target, _KINDS[v.kind]) for v in s.volumes),
                compose_env=tuple(d.name for d in s.dropped_environment),
                image_env=tuple(dict.fromkeys([*env.values, *env.by_device, *env.unknown])),
                dockerfile=dockerfile,
                build_context=None if s.build is None else s.build.context,
                context_dockerfiles=(),
                line=s.line,
            )
        )
    return out


def compose_volumes(
    model: Mapping[str, object], services: Sequence[ServiceFacts], lines: LineIndex
) -> list[VolumeFacts]:
    """Every volume of a normalised Compose model: declared, or mounted by a service."""
    declared = _mapping(model.get("volumes"))
    keys = [str(k) for k in declared]
    for service in services:
        keys += [m.source for m in service.mounts if m.type == "volume" and m.source]
    out = []
    for key in dict.fromkeys(keys):
        name = _mapping(declared.get(key)).get("name")
        names = (key,) if not isinstance(name, str) or name == key else (key, name)
        mounts = tuple(
            dict.fromkeys(
                (s.name, m.target)
                for s in services
                for m in s.mounts
                if m.type == "volume" and m.source == key
            )
        )
        out.append(VolumeFacts(key, names, mounts, lines.line(("volumes", key))))
    return out
