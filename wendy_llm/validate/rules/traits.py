"""Whether one service or volume has one trait, and the reasons, in a reviewer's words.

The traits are described in :mod:`selectors`; the facts they are matched
against come from :mod:`facts`.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence

from wendy_llm.errors import quoted
from wendy_llm.validate.documents.compose_model import normalise_path
from wendy_llm.validate.rules.facts import ServiceFacts, VolumeFacts, image_forms
from wendy_llm.validate.rules.values import RuleProblem

Reasons = list[str]


def glob_match(patterns: Sequence[str | int], text: str) -> bool:
    """``text`` matches a pattern and no ``!`` pattern (only ``!`` ones: anything else)."""
    include = [str(p) for p in patterns if not str(p).startswith("!")]
    exclude = [str(p)[1:] for p in patterns if str(p).startswith("!")]
    if any(fnmatch.fnmatchcase(text, p) for p in exclude):
        return False
    return not include or any(fnmatch.fnmatchcase(text, p) for p in include)


def _ports(values: Sequence[str | int]) -> set[int]:
    out = set()
    for value in values:
        text = str(value)
        if not text.isdigit():
            raise RuleProblem(f"the port {quoted(text)} is not a number")
        out.add(int(text))
    return out


def service_trait(name: str, values: Sequence[str | int], s: ServiceFacts) -> Reasons | None:
    """The reasons ``s`` has the trait ``name: values``, or None."""
    out: Reasons = []
    if name == "name" and glob_match(values, s.name):
        out.append(f"it is named {s.name}")
    elif name == "image":
        for image in s.images:
            if any(glob_match(values, form) for form in image_forms(image.ref)):
                if image.how == "image":
                    out.append(f"its image is {image.ref}")
                else:
                    out.append(f"its build ends on the image {image.ref} ({image.where})")
    elif name in ("port", "published_port", "target_port"):
        wanted = _ports(values)
        for port in s.ports:
            published = sorted(wanted & set(port.published))
            if published and name != "target_port":
                out.append(f"it publishes port {published[0]} ({port.shown})")
            elif port.target in wanted and name != "published_port":
                out.append(f"its container listens on port {port.target} ({port.shown})")
    elif name == "mount":
        for mount in s.mounts:
            if glob_match(values, mount.target):
                source = f"{mount.type} {mount.source}" if mount.source else f"a {mount.type}"
                out.append(f"it mounts {source} at {mount.target}")
    elif name in ("env", "compose_env", "image_env"):
        in_compose = [k for k in s.compose_env if glob_match(values, k)]
        in_image = [k for k in s.image_env if glob_match(values, k)]
        if in_compose and name != "image_env":
            out.append(f"its compose environment sets {', '.join(in_compose)}")
        if in_image and name != "compose_env":
            where = f" ({s.dockerfile})" if s.dockerfile else ""
            out.append(f"its image sets {', '.join(in_image)}{where}")
    elif name == "build_context" and s.build_context is not None:
        context = normalise_path(s.build_context)
        if any(glob_match([normalise_path(str(v))], context) for v in values):
            out.append(f"its build context is {s.build_context}")
    elif name == "context_dockerfile_from":
        for found in s.context_dockerfiles:
            for base in found.bases:
                if any(glob_match(values, form) for form in image_forms(base)):
                    out.append(f"its build context holds {found.path}, built on {base}")
    return list(dict.fromkeys(out)) or None


def volume_trait(name: str, values: Sequence[str | int], v: VolumeFacts) -> Reasons | None:
    """The reasons ``v`` has the trait ``name: values``, or None."""
    if name == "name":
        hits = [n for n in v.names if glob_match(values, n)]
        return [f"it is named {hits[0]}"] if hits else None
    hits = [f"service {quoted(s)} mounts it at {t}" for s, t in v.mounts if glob_match(values, t)]
    return hits or None
