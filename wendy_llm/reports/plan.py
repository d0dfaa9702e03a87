"""A device view as text: a deployment plan (``wendy-llm plan``).

The header (template, pick, CLI revision, path, devices), then each app
(in creation order, or with the services it is created after when only
dependencies are ordered) with what it gets (image or build, base image, build args,
argv, restart policy, ports, entitlements, environment, and the compose
``environment`` that does not reach it), then what the device ignores,
what is not modelled, and the remaining findings.  Values that differ
between device profiles are shown per profile; build-arg values taken
from a profile are marked ``*`` (assumed).  Functions return strings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from wendy_llm.device.model import (
    DeviceFinding,
    DeviceView,
    DroppedVariable,
    Entitlement,
    Environment,
    Service,
)
from wendy_llm.device.profiles import DeviceProfile
from wendy_llm.escape import text as safe
from wendy_llm.reports.plan_runtime import runtime_lines
from wendy_llm.reports.terminal import Style

_LABEL = 9  # width of the field labels


def format_plan(
    view: DeviceView,
    *,
    template: str,
    pick: str | None,
    app_id: str,
    devices: Sequence[DeviceProfile],
    colour: bool = False,
) -> str:
    """The whole plan, newline-terminated."""
    style = Style(colour)
    lines = [
        f"wendy run on a WendyOS device: {template}"
        + (f", pick {pick}" if pick else "")
        + f", app id {app_id}",
        f"Wendy CLI {view.revision}; path: {_path(view)}; project {view.project}",
        "Devices, and the Wendy build args each gets (what a device reports is assumed; "
        "the args follow the CLI's rules):",
        *(_device(d, debug=view.deploy != "multi-service") for d in devices),
        "",
    ]
    if view.services and view.creation_order == "dependencies-first":
        lines.append(
            "Apps (creation order: each one's dependencies first, shown as 'after'; "
            "the rest is unordered and changes from run to run):"
        )
        for number, service in enumerate(view.services, start=1):
            lines += ["", *_service(number, service, compose=True)]
        lines.append("")
    elif view.services:
        lines.append("Apps, in creation order:")
        for number, service in enumerate(view.services, start=1):
            lines += ["", *_service(number, service, compose=view.deploy == "compose")]
        lines.append("")
    else:
        lines += ["No apps.", ""]
    lines += _after_start(view)
    if view.ignored:
        lines.append("Ignored on the device:")
        for item in view.ignored:
            where = _where(item.file, item.line)
            lines.append(f"  {where}{item.what}: {item.reason}")
        lines.append("")
    if view.not_modelled:
        lines.append("Not modelled (the spec does not say, or the render does not hold it):")
        lines += [f"  {text}" for text in view.not_modelled]
        lines.append("")
    # Every line so far holds the render's text (names, values, paths) and
    # no colour: each is escaped whole; a value's newline stays in its line.
    lines = [safe(line) for line in lines]
    lines += _findings(view, style)
    return "\n".join(lines) + "\n"


def _path(view: DeviceView) -> str:
    """The deploy path and why; ``none`` only with the reason ``wendy run`` cannot deploy it."""
    if view.deploy == "compose" or (view.deploy is None and view.path == "compose"):
        return f"compose ({view.path_file})"
    reason = f" ({view.deploy_reason})" if view.deploy_reason else ""
    return f"{view.deploy or 'none'}{reason}"


def _device(profile: DeviceProfile, *, debug: bool = True) -> str:
    # The multi-service path passes WENDY_DEBUG only when debugging; the compose and
    # single-container paths always pass it (false on a plain run): section 3, 4, 5.
    shown = {k: v for k, v in profile.build_args.items() if debug or k != "WENDY_DEBUG"}
    args = " ".join(f"{k}={v}" for k, v in shown.items()) or "(none)"
    return f"  {profile.name} ({profile.label}): {args}"


def _after_start(view: DeviceView) -> list[str]:
    """What ``wendy run`` does once the app has started (single-container path)."""
    lines = []
    if view.readiness is not None:
        r = view.readiness
        lines.append(
            f"  {_where('wendy.json', r.line)}waits up to {r.timeout_seconds} s for a TCP "
            f"connect to the device's port {r.port} (a warning on timeout)"
        )
    if view.post_start is not None:
        p = view.post_start
        fields = [("openURL", p.open_url), ("cli", p.cli), ("agent", p.agent)]
        shown = ", ".join(f"{k} {v}" for k, v in fields if v is not None) or "(empty)"
        lines.append(f"  {_where('wendy.json', p.line)}then runs hooks.postStart: {shown}")
    return ["After the start, wendy run:", *lines, ""] if lines else []


def _where(file: str | None, line: int | None) -> str:
    if file is None:
        return ""
    return f"{file}:{line}: " if line is not None else f"{file}: "


def _field(label: str, values: Iterable[str]) -> list[str]:
    items = list(values) or ["(none)"]
    head, *rest = items
    return [f"   {label:<{_LABEL}}{head}"] + [f"   {'':<{_LABEL}}{item}" for item in rest]


def _per_device(values: Mapping[str, str | None]) -> str:
    return ", ".join(f"{d}={'(unset)' if v is None else v}" for d, v in values.items())


def _service(number: int, s: Service, *, compose: bool = True) -> list[str]:
    out = [f"{number}. {s.name} -> app {s.app}"]
    if s.build is not None:
        b = s.build
        image = s.image or "(unknown)"
        source = b.dockerfile or b.context
        if b.generated is not None:
            source = "the Dockerfile wendy run generates"
        elif b.builder == "swift-container-plugin":
            source = "the swift container plugin"
        built = f"{image}, built from {source} (context {b.context}"
        built += f", stage {b.stage})" if b.stage is not None else ")"
        shown = built if b.found or b.generated is not None else f"{built}: not in the render"
        out += _field("image", [shown])
        if b.generated is not None:
            out += _field("generated", [f" | {line}" for line in b.generated.splitlines()])
        if b.base_images:
            out += _field("base", [", ".join(b.base_images)])
        own = [a for a in b.args if a.source == "compose"]
        args = [f"{a.name}={a.value} (its build.args, winning)" for a in own]
        if any(a.source == "wendy" for a in b.args):
            args.insert(0, "each device's Wendy build args (above)")
        elif b.builder == "swift-container-plugin":
            args.insert(0, "none: the swift container plugin gets no Wendy build args")
        out += _field("args", args)
    else:
        out += _field("image", [s.image or "(none)"])
    out += _field("argv", [_argv(s)])
    written = "absent" if s.restart.written is None else f'"{s.restart.written}"'
    if compose:
        default = ", the device default" if s.restart.device_default else ""
        out += _field("restart", [f"{s.restart.policy}{default} (compose restart: {written})"])
    else:
        out += _field("restart", [f"{s.restart.policy} (the device default)"])
    if s.created_after:
        out += _field("after", [", ".join(s.created_after)])
    elif s.depends_on and not compose:
        out += _field("after", [", ".join(s.depends_on)])
    unordered = [d for d in s.depends_on if d not in s.created_after] if compose else []
    if unordered:
        out += _field("cycle", [f"depends on {', '.join(unordered)}: not ordered (a cycle)"])
    ports = [f"{p.host} -> {p.container}" for p in s.ports]
    ports += [f'"{entry}" dropped' for entry in s.dropped_ports]
    out += _field("ports", ports)
    out += _field("volumes", [_volume(v.entry, v.kind, v.mounted) for v in s.volumes])
    if s.network_mode is not None:
        out += _field("network", [s.network_mode])
    out += _field("entitle", [_entitlement(e) for e in s.entitlements])
    out += _field("env", _environment(s.environment))
    if s.dropped_environment:
        dropped = [
            f"{d.name}={d.compose if d.compose is not None else '(no value)'}: {_outcome(d)}"
            for d in s.dropped_environment
        ]
        out += _field("not sent", dropped)
    if s.ignored_keys:
        out += _field("ignored", [", ".join(s.ignored_keys)])
    if s.runtime is not None:
        out += runtime_lines(s.runtime)
    return out


def _argv(s: Service) -> str:
    c = s.command
    if c.argv is not None:
        source = {
            "compose": "compose command, replacing the image's ENTRYPOINT and CMD",
            "image": "the image's ENTRYPOINT + CMD",
            "shell": "the image has no ENTRYPOINT or CMD",
        }
        return f"{list(c.argv)} ({source.get(c.source, c.source)})"
    if c.cmd is not None:
        return f"the base image's ENTRYPOINT (unknown) + {list(c.cmd)}"
    return "unknown (the image's ENTRYPOINT/CMD are not in the render)"


def _volume(entry: str, kind: str, mounted: bool) -> str:
    return f"{entry} ({kind}, {'persisted' if mounted else 'not mounted'})"


def _entitlement(e: Entitlement) -> str:
    fields = [("mode", e.mode), ("name", e.name), ("path", e.path)]
    parts = [e.type, *(f"{k}={v}" for k, v in fields if v is not None)]
    if e.ports:
        parts.append("ports=" + ",".join(f"{p.host}:{p.container}" for p in e.ports))
        parts.append("(sent, never published: the agent applies no port mapping)")
    return " ".join(parts)


def _environment(env: Environment) -> list[str]:
    if not env.known:
        return ["unknown (an image not built from the render: its ENV is not seen)"]
    lines = [f"{k}={v}" for k, v in env.values.items()]
    lines += [f"{k}: {_per_device(v)}" for k, v in env.by_device.items()]
    lines += [f"{k}=(unknown: depends on its base image)" for k in env.unknown]
    for base in env.inherits_from:
        lines.append(f"+ whatever ENV {base} sets (not seen)")
    return lines


def _outcome(d: DroppedVariable) -> str:
    return {
        "same": "the image sets the same",
        "differs": f"the image has {d.image}",
        "absent": "the image's Dockerfile does not set it",
        "unknown": "unknown in the image",
        "varies": "the image's value varies by device",
    }[d.outcome]


def _findings(view: DeviceView, style: Style) -> list[str]:
    listed = {f"{i.what}: {i.reason}" for i in view.ignored}
    errors = [f for f in view.findings if f.severity == "error"]
    warnings = [f for f in view.findings if f.severity == "warning"]
    shown_warnings = [f for f in warnings if f.message not in listed]
    lines = []
    if errors or shown_warnings:
        lines.append("Findings:")
        lines += [_finding(f, style) for f in [*errors, *shown_warnings]]
        lines.append("")
    summary = f"{len(errors)} error(s), {len(warnings)} warning(s)"
    if len(shown_warnings) != len(warnings):
        summary += f" (of which {len(warnings) - len(shown_warnings)} ignored items above)"
    # An error is either wendy run failing or the app running otherwise than
    # the render says (each message says which).
    verdict = "wrong on a device" if errors else "wendy run deploys it"
    lines.append(f"{style.verdict(verdict, not errors)}: {summary}")
    return lines


def _finding(f: DeviceFinding, style: Style) -> str:
    label = style.fail("error") if f.severity == "error" else style.warn("warning")
    code = f"{f.code} " if f.code else ""
    return f"  {label} {safe(_where(f.file, f.line) + code + f.message)}"
