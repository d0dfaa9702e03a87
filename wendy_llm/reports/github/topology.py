"""A pick's device topology as a Mermaid flowchart, for the Markdown summary.

The topology is what the device really runs (the device view,
:mod:`wendy_llm.device`): each service, the ports the device publishes for
it (``host:container``), the named volumes it mounts (a volume the device
drops is drawn as dropped), whether it gets a GPU (an entitlement the
device grants), and what it depends on.  Picks with the same topology
share one diagram.

Every label is user text (service and volume names come from the
template): it is written quoted, with ``"``, ``<``, ``>``, ``#``, backticks
and every control character as Mermaid's ``#code;`` entities, so no label
can end itself, open HTML or close the fence.  Node ids are generated
(``s0``, ``v1``), never taken from the template.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wendy_llm.device import DeviceView
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import Template
from wendy_llm.reports.github.sources import SourceLocator
from wendy_llm.validate.checks.device import build_view
from wendy_llm.validate.rulerun import baseline_render, load_baseline


@dataclass(frozen=True)
class ServiceShape:
    """One service as drawn."""

    name: str
    ports: tuple[str, ...]  # "11434:11434": host port on the device, container port
    volumes: tuple[tuple[str, bool], ...]  # (volume or entry, mounted on the device)
    gpu: bool
    depends_on: tuple[str, ...]


Topology = tuple[ServiceShape, ...]


def topology(view: DeviceView) -> Topology:
    """The shape of what the device runs for one render."""
    return tuple(
        ServiceShape(
            name=s.name,
            ports=tuple(f"{p.host}:{p.container}" for p in s.ports),
            volumes=tuple((v.source or v.entry, v.mounted) for v in s.volumes),
            gpu=any(e.type == "gpu" for e in s.entitlements),
            depends_on=tuple(s.depends_on),
        )
        for s in view.services
    )


def label(text: str) -> str:
    """``text`` as a quoted Mermaid label: ``"..."`` with every character that could
    act (quote, angle brackets, ``#``, backtick, controls) as a ``#code;`` entity."""
    out = []
    for char in text:
        if char in '"<>#`&;|[]{}()' or not char.isprintable():
            out.append(f"#{ord(char)};")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def mermaid(shape: Topology) -> list[str]:
    """The flowchart's lines (without the fence)."""
    lines = ["flowchart LR"]
    ids = {s.name: f"s{i}" for i, s in enumerate(shape)}
    volumes: dict[str, str] = {}
    if not shape:
        lines.append(f"  none[{label('no service')}]")
    for service in shape:
        node = ids[service.name]
        lines.append(f"  {node}[{label(service.name)}]")
        for index, port in enumerate(service.ports):
            lines.append(f"  {node}p{index}([{label('port ' + port)}]) --> {node}")
        if service.gpu:
            lines.append(f"  {node}gpu{{{{{label('GPU')}}}}} --- {node}")
        for name, mounted in service.volumes:
            key = f"{name}\0{mounted}"
            if key not in volumes:
                volumes[key] = f"v{len(volumes)}"
                shown = name if mounted else f"{name} (dropped on the device)"
                lines.append(f"  {volumes[key]}[({label(shown)})]")
            arrow = "---" if mounted else "-.-"
            lines.append(f"  {node} {arrow} {volumes[key]}")
    for service in shape:
        for other in service.depends_on:
            if other in ids:
                lines.append(f"  {ids[service.name]} -->|depends on| {ids[other]}")
    return lines


def describe(shape: Topology) -> str:
    """One line: the services and their ports (the diagram's caption)."""
    parts = [
        s.name + (f" ({', '.join(s.ports)})" if s.ports else "") + (" GPU" if s.gpu else "")
        for s in shape
    ]
    return ", ".join(parts) or "no service"


def distinct(shapes: Sequence[tuple[str, Topology]]) -> list[tuple[list[str], Topology]]:
    """(the picks, their topology) per distinct topology, in first-seen order."""
    groups: dict[Topology, list[str]] = {}
    for pick, shape in shapes:
        groups.setdefault(shape, []).append(pick)
    return [(picks, shape) for shape, picks in groups.items()]


@dataclass(frozen=True)
class TopologyGroup:
    """Picks of one template that run the same topology; ``before``: the stored
    baseline's for them, when it exists and differs."""

    template: str
    picks: tuple[str, ...]
    after: Topology
    before: Topology | None = None


def report_topologies(
    picks: Sequence[tuple[str, str]], locator: SourceLocator
) -> list[TopologyGroup]:
    """The distinct topologies of ``picks`` ((template, pick), canonical inputs), each
    with the stored baseline's where the template has one and it draws another."""
    groups: dict[tuple[str, Topology, Topology | None], list[str]] = {}
    baselines: dict[str, Template | str] = {}
    for template_id, pick in picks:
        tree = locator.tree(template_id, pick)
        if tree is None:
            continue
        after = topology(build_view(tree, CANONICAL_APP_ID))
        before = None
        template = locator.template(template_id)
        if template is not None:
            if template_id not in baselines:
                baselines[template_id] = load_baseline(locator.layout.golden_dir, template_id)
            before = _baseline_topology(baselines[template_id], template, pick, locator)
        if before == after:
            before = None
        groups.setdefault((template_id, after, before), []).append(pick)
    return [TopologyGroup(t, tuple(p), after, before) for (t, after, before), p in groups.items()]


def _baseline_topology(
    baseline: Template | str, template: Template, pick: str, locator: SourceLocator
) -> Topology | None:
    if isinstance(baseline, str):
        return None  # no stored baseline: nothing to draw before
    inputs = locator.inputs(template, None)
    chosen = next((p for p in template.picks() if p.slug == pick), None)
    if inputs is None or chosen is None:
        return None
    render = baseline_render(baseline, CANONICAL_APP_ID, inputs.with_answers(chosen.answers))
    if render.tree is None:
        return None
    return topology(build_view(render.tree, CANONICAL_APP_ID))
