"""A service's runtime (Wendy run facts, section 9) as ``plan`` text lines.

The container's environment list in the order it is set, the winner of
each name marked ``*`` and replaced entries marked ``(replaced)``; then
the GPU, network, persist mounts and the process; then how each program
the service runs resolves on a device (found, only on the image's own
``PATH``, absent, unknown: why).
"""

from __future__ import annotations

from wendy_llm.device.runtime.model import EnvEntry, Resolution, Runtime

_LABEL = 9


def _field(label: str, values: list[str]) -> list[str]:
    items = values or ["(none)"]
    head, *rest = items
    return [f"   {label:<{_LABEL}}{head}"] + [f"   {'':<{_LABEL}}{item}" for item in rest]


def _entry(e: EnvEntry) -> str:
    if e.source == "base image":
        return f"  {e.note} (not seen: unknown)"
    value = "(" + (e.note or "unknown") + ")" if e.value is None else e.value
    mark = "*" if e.wins else " "
    text = f"{mark} {e.name}={value} [{e.source}]"
    if not e.wins and e.name not in ("(CDI)",):
        text += " (replaced by a later entry)" if e.certain else " (if present)"
    if e.value is not None and e.source in ("agent", "runc") and e.note:
        text += f" ({e.note.split(': ', 1)[-1]})" if "always" not in e.note else ""
    return text


def runtime_lines(runtime: Runtime) -> list[str]:
    """The runtime's lines, aligned with the plan's other fields."""
    out = _field("run env", [_entry(e) for e in runtime.environment])
    out.append(f"   {'':<{_LABEL}}(in the order set; * the value the process sees; {runtime.spec})")
    gpu = runtime.gpu
    if gpu.granted:
        out += _field("gpu", [f"granted by the gpu entitlement ({gpu.entitlement})"])
    else:
        out += _field("gpu", ["not granted by the CLI", *([gpu.open] if gpu.open else [])])
    net = runtime.network
    if net.mode == "host":
        ports = ", ".join(str(p) for p in net.reachable_ports) or "any it listens on"
        lines = [f"host networking; reachable on {ports}"]
        lines += [
            f"{entry}: never published (only the container side serves)"
            for entry in net.unpublished
        ]
    else:
        lines = [net.note]
    out += _field("network", lines)
    out += _field(
        "mounts",
        [
            f"{m.name} -> {m.path} (bind of {m.host_folder}, {','.join(m.options)}; empty, "
            "not filled from the image; shared by name across apps)"
            for m in runtime.mounts
        ],
    )
    p = runtime.process
    user = p.user + (f"; USER {p.ignored_user} ignored" if p.ignored_user else "")
    stop = p.stop + (f"; STOPSIGNAL {p.ignored_stopsignal} ignored" if p.ignored_stopsignal else "")
    out += _field(
        "process",
        [
            user,
            "workdir " + (p.workdir or "unknown (the base image's WORKDIR, not seen)"),
            f"hostname {p.hostname}; /dev/shm {p.shm_mib} MiB; {p.pid1}",
            f"stop: {stop}",
            f"restart: {p.restart}",
            f"writes outside a persist path: {p.writes}",
        ],
    )
    # Every program of the argv; a script's commands when the model can say something.
    shown = [r for r in runtime.programs if r.file_line is None or r.state != "unknown"]
    lines = [_program(r) for r in shown]
    hidden = len(runtime.programs) - len(shown)
    if hidden:
        lines.append(
            f"{hidden} more command(s) of its scripts: unknown (not made by the Dockerfile)"
        )
    out += _field("programs", lines)
    if runtime.programs:
        out.append(f"   {'':<{_LABEL}}(over the agent's PATH in the image model; {runtime.spec})")
    return out


_STATES = {
    "found": "found",
    "image-path": "NOT FOUND on a device: only the image's own PATH has it",
    "absent": "ABSENT from the image",
    "unknown": "unknown",
}


def _program(r: Resolution) -> str:
    """One program's resolution: what, where it is named, and how it resolves."""
    where = f" at {r.path}" if r.path else ""
    likely = "" if r.certain or r.state in ("found", "unknown") else " (likely)"
    named = f"{r.file}:{r.file_line}" if r.file and r.file_line else r.named_in
    if r.named_in.startswith("its "):
        named = r.named_in + (f" at {named}" if r.file and r.file_line else "")
    return f"{r.program} [{named}]: {_STATES[r.state]}{where}{likely}: {r.note}"
