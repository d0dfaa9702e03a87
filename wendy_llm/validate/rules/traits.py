"""Every selector trait, one entry each: its name, what it takes, its words, how it matches.

Adding a trait is one entry in :data:`SERVICE_TRAITS` or
:data:`VOLUME_TRAITS`: the selector parser reads the names and what each
takes (globs or ports) from here, the evaluator its ``reasons``, and
``tests/validate/test_rules_traits.py`` holds the rules schema's trait
properties and docs/rules.md's trait tables to what the entries say
(docs/rules.md, "Adding a trait", walks through one).  The facts a trait
reads come from :mod:`facts`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from wendy_llm.errors import quoted
from wendy_llm.validate.documents.compose_model import normalise_path
from wendy_llm.validate.rules.facts import ServiceFacts, VolumeFacts, image_forms
from wendy_llm.validate.rules.patterns import GlobSet
from wendy_llm.validate.rules.values import RuleProblem

Kind = Literal["services", "volumes"]
#: What a trait's values are: globs (a ``!`` one excludes) or port numbers.
Takes = Literal["globs", "ports"]
Reasons = list[str]
_F = TypeVar("_F", ServiceFacts, VolumeFacts)


@dataclass(frozen=True)
class Wanted:
    """A trait's values for one render: its globs, or its port numbers."""

    globs: GlobSet = field(default_factory=lambda: GlobSet(()))
    ports: frozenset[int] = frozenset()

    def matches(self, text: str) -> bool:
        return self.globs.matches(text)


def _as_written(text: str) -> str:
    return text


@dataclass(frozen=True)
class TraitEntry(Generic[_F]):
    """One trait: ``reasons`` says why an item has it (empty: it has not)."""

    name: str
    takes: Takes
    #: What it selects, in a reviewer's words (the schema's description, the docs' row).
    description: str
    example: str  # as the rules file writes it: ``{port: 11434}``
    reasons: Callable[[Wanted, _F], Reasons]
    #: Applied to each glob before it is parsed (``build_context``: ``./x`` is ``x``).
    normalise: Callable[[str], str] = _as_written

    def check(self, wanted: Wanted, item: _F) -> Reasons | None:
        return list(dict.fromkeys(self.reasons(wanted, item))) or None


def port_numbers(values: Sequence[str | int]) -> frozenset[int]:
    out = set()
    for value in values:
        text = str(value)
        if not text.isdigit():
            raise RuleProblem(f"the port {quoted(text)} is not a number")
        out.add(int(text))
    return frozenset(out)


def _name(w: Wanted, s: ServiceFacts) -> Reasons:
    return [f"it is named {s.name}"] if w.matches(s.name) else []


def _image(w: Wanted, s: ServiceFacts) -> Reasons:
    out = []
    for image in s.images:
        if any(w.matches(form) for form in image_forms(image.ref)):
            if image.how == "image":
                out.append(f"its image is {image.ref}")
            else:
                out.append(f"its build ends on the image {image.ref} ({image.where})")
    return out


def _ports(published: bool, target: bool) -> Callable[[Wanted, ServiceFacts], Reasons]:
    def reasons(w: Wanted, s: ServiceFacts) -> Reasons:
        out = []
        for port in s.ports:
            hits = sorted(w.ports & set(port.published))
            if hits and published:
                out.append(f"it publishes port {hits[0]} ({port.shown})")
            elif port.target in w.ports and target:
                out.append(f"its container listens on port {port.target} ({port.shown})")
        return out

    return reasons


def _mount(w: Wanted, s: ServiceFacts) -> Reasons:
    out = []
    for mount in s.mounts:
        if w.matches(mount.target):
            source = f"{mount.type} {mount.source}" if mount.source else f"a {mount.type}"
            out.append(f"it mounts {source} at {mount.target}")
    return out


def _env(compose: bool, image: bool) -> Callable[[Wanted, ServiceFacts], Reasons]:
    def reasons(w: Wanted, s: ServiceFacts) -> Reasons:
        out = []
        in_compose = [k for k in s.compose_env if w.matches(k)]
        in_image = [k for k in s.image_env if w.matches(k)]
        if in_compose and compose:
            out.append(f"its compose environment sets {', '.join(in_compose)}")
        if in_image and image:
            where = f" ({s.dockerfile})" if s.dockerfile else ""
            out.append(f"its image sets {', '.join(in_image)}{where}")
        return out

    return reasons


def _build_context(w: Wanted, s: ServiceFacts) -> Reasons:
    if s.build_context is None or not w.matches(normalise_path(s.build_context)):
        return []
    return [f"its build context is {s.build_context}"]


def _context_dockerfile_from(w: Wanted, s: ServiceFacts) -> Reasons:
    return [
        f"its build context holds {found.path}, built on {base}"
        for found in s.context_dockerfiles
        for base in found.bases
        if any(w.matches(form) for form in image_forms(base))
    ]


def _volume_name(w: Wanted, v: VolumeFacts) -> Reasons:
    hits = [n for n in v.names if w.matches(n)]
    return [f"it is named {hits[0]}"] if hits else []


def _target(w: Wanted, v: VolumeFacts) -> Reasons:
    return [f"service {quoted(s)} mounts it at {t}" for s, t in v.mounts if w.matches(t)]


_Service = TraitEntry[ServiceFacts]
_Volume = TraitEntry[VolumeFacts]


def _table(*entries: TraitEntry[_F]) -> Mapping[str, TraitEntry[_F]]:
    return {entry.name: entry for entry in entries}


SERVICE_TRAITS: Mapping[str, TraitEntry[ServiceFacts]] = _table(
    _Service("name", "globs", "name matches", '{name: "ollama*"}', _name),
    _Service(
        "image",
        "globs",
        "`image:`, or the final base image of the Dockerfile its build uses (through "
        "`FROM <stage>` chains, `ARG` defaults and build args, for every device profile), "
        "matches, spelled as written, fully qualified (`docker.io/ollama/ollama:0.32.5`) "
        "or short",
        '{image: "ollama/ollama*"}',
        _image,
    ),
    _Service("port", "ports", "ports publish or target it", "{port: 11434}", _ports(True, True)),
    _Service(
        "published_port", "ports", "ports publish it", "{published_port: 8080}", _ports(True, False)
    ),
    _Service(
        "target_port",
        "ports",
        "container listens on it (a port's target)",
        "{target_port: 8000}",
        _ports(False, True),
    ),
    _Service(
        "mount",
        "globs",
        "a mount's target matches (named volume, bind mount, tmpfs; any syntax)",
        '{mount: [/root/.ollama, "/models/ollama/**"]}',
        _mount,
    ),
    _Service(
        "env",
        "globs",
        "compose `environment` or its image's `ENV` sets a matching variable",
        '{env: "OLLAMA_*"}',
        _env(True, True),
    ),
    _Service(
        "compose_env",
        "globs",
        "compose `environment` sets a matching variable",
        '{compose_env: "OPENAI_*"}',
        _env(True, False),
    ),
    _Service(
        "image_env",
        "globs",
        "image's `ENV` sets a matching variable",
        '{image_env: "WEBUI_*"}',
        _env(False, True),
    ),
    _Service(
        "build_context",
        "globs",
        "build context is that directory (`./x`, `x` and `x/` are one)",
        "{build_context: ./ollama}",
        _build_context,
        normalise_path,
    ),
    _Service(
        "context_dockerfile_from",
        "globs",
        "build context directly holds a Dockerfile (`Dockerfile`, `Dockerfile.*`, "
        "`*.Dockerfile`) built on a matching image, whichever Dockerfile the build uses",
        '{context_dockerfile_from: "ollama/ollama*"}',
        _context_dockerfile_from,
    ),
)

VOLUME_TRAITS: Mapping[str, TraitEntry[VolumeFacts]] = _table(
    _Volume(
        "name",
        "globs",
        "key, or the storage `name:` written for it, matches",
        '{name: "${APP_ID}-models"}',
        _volume_name,
    ),
    _Volume(
        "target", "globs", "mount target (by any service) matches", "{target: /models}", _target
    ),
)


def trait_entry(kind: Kind, name: str) -> TraitEntry[ServiceFacts] | TraitEntry[VolumeFacts]:
    """The entry of the trait ``name`` of ``kind``; KeyError when there is none."""
    return SERVICE_TRAITS[name] if kind == "services" else VOLUME_TRAITS[name]


def schema_properties(kind: Kind) -> dict[str, dict[str, str]]:
    """The trait properties the rules schema's ``serviceSelector`` / ``volumeSelector``
    holds, as the entries say (tests/validate/test_rules_traits.py holds the schema
    file to them)."""
    entries: Mapping[str, TraitEntry[ServiceFacts] | TraitEntry[VolumeFacts]]
    entries = {**SERVICE_TRAITS} if kind == "services" else {**VOLUME_TRAITS}
    return {
        name: {"$ref": f"#/$defs/{entry.takes}", "description": entry.description}
        for name, entry in entries.items()
    }


def docs_row(entry: TraitEntry[ServiceFacts] | TraitEntry[VolumeFacts]) -> str:
    """The entry's row of docs/rules.md's trait table."""
    return f"| `{entry.name}` | `{entry.example}` | {entry.description} |"
