"""Selectors: services and volumes chosen by what they are, not by what they are called.

A selector is a mapping of traits (all must hold) or the name of a
selector declared under the rules file's ``selectors:``.  The traits a
service or volume is matched on (``name``, ``image``, ``port``, ``env``,
...) are the entries of :mod:`traits`, one each (docs/rules.md has their
table); a volume selector also takes ``mounted_by`` (a service selector)
and ``baseline`` (a volume selector evaluated on the template's stored
baseline rendered with the same answers: this volume has the name of one
it selects).

Combinators: ``any: [...]``, ``all: [...]``, ``not: ...``, ``is: NAME``.
Text traits take a glob or a list of globs (the one dialect,
:mod:`wendy_llm.repo.globs`; ``${VAR}`` in them, :mod:`patterns`), parsed
when the rules file is read; a glob starting with ``!`` excludes
(``env: ["OLLAMA_*", "!OLLAMA_BASE_URL"]``).  Ports take a number or a
list.  Each trait is one entry of :mod:`traits`.

Evaluation returns every selected item with the reasons it was selected,
in words a reviewer reads: ``its build ends on the image
ollama/ollama:0.32.5 (ollama/Dockerfile)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from wendy_llm.errors import quoted
from wendy_llm.validate.rules.facts import ServiceFacts, VolumeFacts
from wendy_llm.validate.rules.patterns import RuleGlob, glob_set, rule_glob
from wendy_llm.validate.rules.traits import (
    SERVICE_TRAITS,
    VOLUME_TRAITS,
    Kind,
    Reasons,
    Wanted,
    port_numbers,
    trait_entry,
)
from wendy_llm.validate.rules.values import LocatedError, substitute

__all__ = ["Kind", "LocatedError"]  # where the rules file's readers take them from

_T = TypeVar("_T")

COMBINATORS = ("any", "all", "not", "is")
NESTED: Mapping[str, Kind] = {"mounted_by": "services", "baseline": "volumes"}


@dataclass(frozen=True)
class Trait:
    name: str
    values: tuple[str | int, ...]  # as written
    #: A text trait's globs, parsed when the rules file was read (none for ports).
    globs: tuple[RuleGlob, ...] = ()


@dataclass(frozen=True)
class AllOf:
    children: tuple[Node, ...]


@dataclass(frozen=True)
class AnyOf:
    children: tuple[Node, ...]


@dataclass(frozen=True)
class NotOf:
    child: Node


@dataclass(frozen=True)
class Ref:
    name: str


@dataclass(frozen=True)
class Nested:
    trait: str  # mounted_by (a services selector), baseline (a volumes selector)
    child: Node


Node = Trait | AllOf | AnyOf | NotOf | Ref | Nested


@dataclass(frozen=True)
class Named:
    """A selector declared under ``selectors:``."""

    name: str
    kind: Kind
    node: Node


def parse_selector(raw: object, kind: Kind, keys: Sequence[str | int]) -> Node:
    """A selector from the (schema-valid) rules data at ``keys``."""
    if isinstance(raw, str):
        return Ref(raw)
    assert isinstance(raw, Mapping)
    parts: list[Node] = []
    for key, value in raw.items():
        here = [*keys, key]
        if key in ("any", "all"):
            children = tuple(parse_selector(v, kind, [*here, i]) for i, v in enumerate(value))
            parts.append(AnyOf(children) if key == "any" else AllOf(children))
        elif key == "not":
            parts.append(NotOf(parse_selector(value, kind, here)))
        elif key == "is":
            parts.append(Ref(str(value)))
        elif key in NESTED and kind == "volumes":
            parts.append(Nested(key, parse_selector(value, NESTED[key], here)))
        else:
            parts.append(_trait(str(key), value, kind, here))
    return parts[0] if len(parts) == 1 else AllOf(tuple(parts))


def _trait(name: str, value: object, kind: Kind, keys: Sequence[str | int]) -> Trait:
    """A trait, its globs parsed (the schema knows the names; :mod:`traits` what each takes)."""
    values = tuple(value) if isinstance(value, list) else (value,)
    entry = trait_entry(kind, name)
    globs: tuple[RuleGlob, ...] = ()
    if entry.takes == "globs":
        where = [[*keys, i] for i in range(len(values))] if isinstance(value, list) else [keys]
        globs = tuple(
            rule_glob(str(v), at, negatable=True, normalise=entry.normalise)
            for v, at in zip(values, where, strict=True)
        )
    return Trait(name, values, globs)


def check_references(named: Mapping[str, Named], node: Node, kind: Kind) -> str | None:
    """Why ``node`` refers wrongly (an unknown name, a name of the other kind), or None."""
    for ref_kind, name in _refs(node, kind):
        target = named.get(name)
        if target is None:
            known = ", ".join(sorted(n for n, s in named.items() if s.kind == ref_kind))
            return f"no {ref_kind} selector is named {quoted(name)} (declared: {known or 'none'})"
        if target.kind != ref_kind:
            return f"{quoted(name)} selects {target.kind}, not {ref_kind}"
    return None


def find_cycle(named: Mapping[str, Named]) -> list[str] | None:
    """A chain of selectors that refer back to themselves, if any."""

    def visit(name: str, chain: list[str]) -> list[str] | None:
        if name in chain:
            return [*chain[chain.index(name) :], name]
        selector = named.get(name)
        if selector is None:
            return None
        for _, ref in _refs(selector.node, selector.kind):
            found = visit(ref, [*chain, name])
            if found:
                return found
        return None

    for name in named:
        found = visit(name, [])
        if found:
            return found
    return None


def uses_baseline(
    named: Mapping[str, Named], node: Node, seen: frozenset[str] = frozenset()
) -> bool:
    """Does evaluating ``node`` need the baseline render?"""
    if isinstance(node, Nested):
        return node.trait == "baseline" or uses_baseline(named, node.child, seen)
    if isinstance(node, AllOf | AnyOf):
        return any(uses_baseline(named, c, seen) for c in node.children)
    if isinstance(node, NotOf):
        return uses_baseline(named, node.child, seen)
    if isinstance(node, Ref) and node.name in named and node.name not in seen:
        return uses_baseline(named, named[node.name].node, seen | {node.name})
    return False


def _refs(node: Node, kind: Kind) -> list[tuple[Kind, str]]:
    if isinstance(node, Ref):
        return [(kind, node.name)]
    if isinstance(node, AllOf | AnyOf):
        return [r for c in node.children for r in _refs(c, kind)]
    if isinstance(node, NotOf):
        return _refs(node.child, kind)
    if isinstance(node, Nested):
        return _refs(node.child, NESTED[node.trait])
    return []


class Scope(Protocol):
    """What selectors are evaluated over: one render's services and volumes."""

    @property
    def values(self) -> Mapping[str, object]:
        """The render's variables, for ``${VAR}`` in trait values."""
        ...

    def services(self) -> Sequence[ServiceFacts]: ...

    def volumes(self) -> Sequence[VolumeFacts]: ...

    def baseline_evaluator(self) -> Evaluator:
        """The baseline render's evaluator; raises :class:`RuleProblem` when there is none."""
        ...

    @property
    def baseline_label(self) -> str: ...


class Evaluator:
    """Selects a render's services and volumes (results cached per selector)."""

    def __init__(self, named: Mapping[str, Named], scope: Scope) -> None:
        self.named = named
        self.scope = scope
        self._services: dict[Node, list[tuple[ServiceFacts, Reasons]]] = {}
        self._volumes: dict[Node, list[tuple[VolumeFacts, Reasons]]] = {}

    def services(self, node: Node) -> list[tuple[ServiceFacts, Reasons]]:
        if node not in self._services:
            self._services[node] = _keep(self.scope.services(), lambda s: self._service(node, s))
        return self._services[node]

    def volumes(self, node: Node) -> list[tuple[VolumeFacts, Reasons]]:
        if node not in self._volumes:
            self._volumes[node] = _keep(self.scope.volumes(), lambda v: self._volume(node, v))
        return self._volumes[node]

    def select(self, kind: Kind, node: Node) -> list[tuple[str, Reasons]]:
        """(service name or volume key, reasons) of every item ``node`` selects."""
        if kind == "services":
            return [(s.name, r) for s, r in self.services(node)]
        return [(v.key, r) for v, r in self.volumes(node)]

    def _combine(self, node: Node, own: Callable[[Node], Reasons | None]) -> Reasons | None:
        if isinstance(node, AllOf):
            out: Reasons = []
            for child in node.children:
                got = own(child)
                if got is None:
                    return None
                out += got
            return out
        if isinstance(node, AnyOf):
            found = [r for r in (own(c) for c in node.children) if r is not None]
            return [x for r in found for x in r] if found else None
        if isinstance(node, NotOf):
            return (
                None
                if own(node.child) is not None
                else [f"it is not {describe(node.child, False)}"]
            )
        if isinstance(node, Ref):
            return own(self.named[node.name].node)
        raise TypeError(node)

    def _wanted(self, trait: Trait) -> Wanted:
        values = self.scope.values
        if trait.globs:
            return Wanted(globs=glob_set(trait.globs, values))
        ports = [substitute(v, values) if isinstance(v, str) else v for v in trait.values]
        return Wanted(ports=port_numbers(ports))

    def _service(self, node: Node, s: ServiceFacts) -> Reasons | None:
        if isinstance(node, Trait):
            return SERVICE_TRAITS[node.name].check(self._wanted(node), s)
        return self._combine(node, lambda n: self._service(n, s))

    def _volume(self, node: Node, v: VolumeFacts) -> Reasons | None:
        if isinstance(node, Trait):
            return VOLUME_TRAITS[node.name].check(self._wanted(node), v)
        if isinstance(node, Nested) and node.trait == "mounted_by":
            return self._mounted_by(node.child, v)
        if isinstance(node, Nested):
            return self._baseline(node.child, v)
        return self._combine(node, lambda n: self._volume(n, v))

    def _mounted_by(self, child: Node, v: VolumeFacts) -> Reasons | None:
        chosen = dict((s.name, r) for s, r in self.services(child))
        out = [
            f"service {quoted(name)} mounts it at {target} ({'; '.join(chosen[name])})"
            for name, target in v.mounts
            if name in chosen
        ]
        return out or None

    def _baseline(self, child: Node, v: VolumeFacts) -> Reasons | None:
        baseline = self.scope.baseline_evaluator()
        for other, reasons in baseline.volumes(child):
            shared = [n for n in v.names if n in other.names]
            if shared:
                return [
                    f"{self.scope.baseline_label} has a volume named {shared[0]}: "
                    + "; ".join(reasons)
                ]
        return None


def _keep(items: Sequence[_T], test: Callable[[_T], Reasons | None]) -> list[tuple[_T, Reasons]]:
    out = []
    for item in items:
        reasons = test(item)
        if reasons is not None:
            out.append((item, reasons))
    return out


def describe(node: Node, top: bool = True) -> str:
    """A selector in words: ``name llm-app-hf and mounted_by vllm and target /models``."""
    if isinstance(node, Ref):
        return node.name
    if isinstance(node, Trait):
        shown = " or ".join(str(v) for v in node.values)
        return f"{node.name} {shown}"
    if isinstance(node, NotOf):
        return f"not {describe(node.child, False)}"
    if isinstance(node, Nested):
        return f"{node.trait} {describe(node.child, False)}"
    word = " and " if isinstance(node, AllOf) else " or "
    text = word.join(describe(c, False) for c in node.children)
    return text if top else f"({text})"
