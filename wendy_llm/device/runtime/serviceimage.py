"""The image model (:mod:`wendy_llm.docker.image`) of a built service's image.

The service's Dockerfile, built as the device builds it (the last stage:
the CLI reads no ``target``; the build args whose value is the same on
every device considered), from its build context with its
``.dockerignore`` applied (a Dockerfile's own ``<name>.dockerignore``
wins).  Memoised by content with every other reader of the same model.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Mapping

from wendy_llm.device.images import parse_dockerfile
from wendy_llm.device.model import Service
from wendy_llm.docker.context import BuildContext
from wendy_llm.docker.dockerignore import DockerIgnore, DockerIgnoreError
from wendy_llm.docker.expand import ExpansionError
from wendy_llm.docker.image.facts import ImageModel
from wendy_llm.docker.image.walk import image_model

#: The context's files a RUN or the resolver may read (scripts, requirements).
_SMALL = 65536


def service_model(service: Service, tree: Mapping[str, bytes]) -> ImageModel | str:
    """The model of ``service``'s image, or why there is none."""
    build = service.build
    if build is None:
        return f"service {service.name} runs an image (image:), whose files are unseen"
    if not build.found or build.dockerfile not in tree:
        return f"{build.dockerfile} is not in the render"
    text = tree[build.dockerfile].decode("utf-8", "replace")
    dockerfile = parse_dockerfile(text)
    if isinstance(dockerfile, str) or not dockerfile.stages:
        return f"{build.dockerfile} does not parse"
    context_dir = "" if build.directory in ("", ".") else build.directory.strip("/")
    ignore_path = _dockerignore(tree, build.dockerfile, context_dir)
    prefix = f"{context_dir}/" if context_dir else ""
    inside = {p: d for p, d in tree.items() if p.startswith(prefix)}
    try:
        context = _context(frozenset(inside), context_dir, ignore_text(tree, ignore_path))
    except DockerIgnoreError:
        return f"{ignore_path} is refused by docker build"
    contents = tuple(sorted((p, d) for p, d in inside.items() if len(d) < _SMALL))
    args = {a.name: a.value for a in build.args if a.value is not None}
    try:
        return image_model(dockerfile.build(args), text, context, contents)
    except ExpansionError as exc:
        return f"{build.dockerfile}: {exc}"


def ignore_text(tree: Mapping[str, bytes], path: str | None) -> str:
    return tree[path].decode("utf-8", "replace") if path else ""


@functools.lru_cache(maxsize=256)
def _context(paths: frozenset[str], root: str, ignore: str) -> BuildContext:
    """A build context, once per file list and ``.dockerignore`` (every pick has one)."""
    return BuildContext(paths, root, DockerIgnore(ignore))


def _dockerignore(tree: Mapping[str, bytes], dockerfile: str, context: str) -> str | None:
    own = f"{dockerfile}.dockerignore"
    if own in tree:
        return own
    shared = posixpath.join(context, ".dockerignore") if context else ".dockerignore"
    return shared if shared in tree else None
