"""The compose path: each service of the CLI's model as the app the device runs.

From a service's draft (:mod:`compose_read`) and its built image
(:mod:`images`): the app and image names, the argv, the restart policy, the
synthesised entitlements (network host, network with the published ports,
persist per named volume; nothing else), the environment the container
really gets and the compose ``environment`` that does not reach it; and
``wendy.json``, which this path never reads, with what it held.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from wendy_llm.codes import device as DC
from wendy_llm.device.compose.granted import granted, report_extensions
from wendy_llm.device.compose.keys import ServiceDraft, Where
from wendy_llm.device.compose.read import creation_order, read_compose
from wendy_llm.device.env_checks import (
    contradicting,
    report_contradictions,
    report_missing_backends,
)
from wendy_llm.device.images import (
    NOTHING_KNOWN,
    built_image,
    container_command,
    uninjected_args,
    uninjected_message,
)
from wendy_llm.device.model import (
    Build,
    Command,
    DroppedVariable,
    Entitlement,
    Environment,
    Restart,
    Service,
    entitlement_from,
)
from wendy_llm.device.notes import Document, Located, Notes
from wendy_llm.device.profiles import DeviceProfile
from wendy_llm.docker.command import ImageCommand
from wendy_llm.wendycli import REVISION
from wendy_llm.wendycli.compose import (
    GRANTED_ENTITLEMENTS,
    app_name,
    device_image,
    restart_policy,
)
from wendy_llm.wendycli.compose import built_image as built_image_name
from wendy_llm.wendycli.wendy_json import FILE as WENDY_JSON
from wendy_llm.wendycli.wendy_json import acted_on, entitlement_entries, read


def compose_services(
    tree: Mapping[str, bytes],
    compose: Document,
    wendy: Document | None,
    project: str,
    devices: Sequence[DeviceProfile],
    notes: Notes,
) -> tuple[Service, ...]:
    """The apps the device runs for a compose project, in file order (the creation
    order is only partial: each service's ``created_after``)."""
    at = Where(notes, compose.path)
    services = _services(at, compose, tree, project, devices)
    _wendy_json_lost(tree, wendy, compose.path, notes, services)
    return services


def _services(
    at: Where,
    compose: Document,
    tree: Mapping[str, bytes],
    project: str,
    devices: Sequence[DeviceProfile],
) -> tuple[Service, ...]:
    drafts = read_compose(at, tree[at.file], project)
    if drafts is None:
        return ()
    after, cyclic = creation_order(drafts)
    for draft in drafts:
        if draft.name in cyclic:
            at.warn(
                DC.DEPENDENCY_CYCLE,
                f"services.{draft.name}.depends_on is part of a dependency cycle: the Wendy "
                "CLI ignores the cycle, so which of its services is created first changes "
                "from run to run",
                draft.depends_line,
            )
    names = [d.name for d in drafts]
    built = [
        _service(at, _located(at, compose, d), d, tree, project, devices, names, after[d.name])
        for d in drafts
    ]
    services = tuple(service for service, _ in built)
    report_missing_backends(at.notes, services, {s.name: lines for s, lines in built})
    return services


def _wendy_json_lost(
    tree: Mapping[str, bytes],
    wendy: Document | None,
    compose_file: str,
    notes: Notes,
    services: Sequence[Service],
) -> None:
    if WENDY_JSON not in tree:
        return
    reason = (
        f"not read on the compose path (wendy run deploys {compose_file}): its services, "
        "entitlements, readiness and hooks never reach the device"
    )
    notes.ignore(DC.WENDY_JSON_UNREAD, WENDY_JSON, reason, WENDY_JSON, 1)
    decoded = read(tree[WENDY_JSON]) if wendy is not None and wendy.ok else None
    if wendy is None or decoded is None:
        return
    at = Located(notes, wendy)
    by_name = {s.name: s for s in services}
    for path, service_name, fields in entitlement_entries(decoded):
        wanted = entitlement_from(fields)
        # The app's own (top-level) entitlement would go to its one container: the
        # compose path gives the same when every service gets it from compose.
        owners = list(services) if service_name is None else [by_name.get(service_name)]
        if wanted is not None and owners and all(s and granted(wanted, s) for s in owners):
            # Not read, but the compose path grants the same from compose.
            every = " to every service" if service_name is None else ""
            reason = f"not read; the compose path grants the same{every} from {compose_file}"
            at.ignore(DC.WENDY_JSON_UNREAD, reason, *path, warn=False)
            continue
        label = "an entitlement" if wanted is None else f"the {wanted.type} entitlement"
        owner = "the app" if service_name is None else f"service {service_name}"
        why = (
            f"{WENDY_JSON} is not read on the compose path, which grants only "
            f"{' and '.join(GRANTED_ENTITLEMENTS)} entitlements"
        )
        reason = f"{label} of {owner} is lost on a device ({why})"
        gpu = (
            ": the CLI grants no GPU (whether the device's runtime gives one to an image that "
            "sets NVIDIA_VISIBLE_DEVICES is not in its code: unknown)"
        )
        at.ignore(
            DC.WENDY_JSON_UNREAD, reason + (gpu if label.startswith("the gpu ") else ""), *path
        )
    for path, what in acted_on(decoded):
        at.ignore(
            DC.WENDY_JSON_UNREAD,
            f"{what} is lost on a device ({WENDY_JSON} is not read on the compose path)",
            *path,
        )


def _located(at: Where, compose: Document, draft: ServiceDraft) -> Located:
    """The compose file located by key path (for the environment checks): the parsed
    document when it parsed, else every key at the service's line."""
    return Located(at.notes, compose if compose.ok else _Lines(at.file, draft.line))


def _service(
    at: Where,
    located: Located,
    draft: ServiceDraft,
    tree: Mapping[str, bytes],
    project: str,
    devices: Sequence[DeviceProfile],
    names: Sequence[str],
    after: tuple[str, ...],
) -> tuple[Service, Mapping[str, int]]:
    """The app a service becomes, and where its image's ENV sets each name."""
    build, environment, image_command, env_lines = _image(at.notes, draft, tree, devices)
    image: str | None
    if draft.build is not None:
        image = built_image_name(project, draft.name)
    else:
        image = device_image(draft.image) if draft.image else None
        if image is not None:
            at.notes.unknown(
                f"service {draft.name} runs the image {image}: its ENV, ENTRYPOINT and CMD "
                "are not in the render"
            )
    dropped = _dropped(draft.environment, environment)
    if draft.environment:
        contradictions, routes = contradicting(dropped, names)
        dockerfile = None if build is None else build.dockerfile
        report_contradictions(located, draft.name, contradictions, dockerfile, env_lines)
        # Warn only where the device may lose something the view cannot see:
        # a contradiction is an error of its own, a same value loses nothing.
        warn = any(d.outcome not in ("same", "differs") or d.name in routes for d in dropped)
        message = _environment_message(dropped, routes)
        located.ignore(
            DC.ENVIRONMENT_DROPPED, message, "services", draft.name, "environment", warn=warn
        )
    command = container_command(draft.command, image_command)
    _compare_entrypoint(at, draft, command)
    policy, default = restart_policy(draft.restart)
    service = Service(
        name=draft.name,
        app=app_name(project, draft.name),
        image=image,
        image_written=draft.image,
        build=build,
        command=command,
        restart=Restart(draft.restart, policy, default),
        depends_on=tuple(draft.depends_on),
        ports=tuple(draft.ports),
        dropped_ports=tuple(draft.dropped_ports),
        volumes=tuple(draft.volumes),
        network_mode=draft.network_mode,
        entitlements=_entitlements(draft),
        environment=environment,
        dropped_environment=dropped,
        ignored_keys=tuple(draft.ignored_keys),
        line=draft.line,
        created_after=after,
    )
    report_extensions(at, draft, service)
    return service, env_lines


def _compare_entrypoint(at: Where, draft: ServiceDraft, command: Command) -> None:
    """Docker Compose keeps the image's ENTRYPOINT under a ``command``; a device drops it."""
    if command.source != "compose":
        return
    what = f"services.{draft.name}.command"
    argv = list(command.argv or ())
    tokens = command.compose or ("",)
    first = tokens[0]
    split_first = argv[: len(argv) - len(tokens) + 1]  # what strings.Fields made of it
    if split_first != [first]:
        at.warn(
            DC.COMMAND_SPLIT,
            f'{what}: the device splits its first token "{first}" again on whitespace and '
            f'runs {argv}; Docker Compose runs "{first}" as one program name',
            draft.command_line,
        )
    if command.entrypoint:
        at.warn(
            DC.ENTRYPOINT_REPLACED,
            f"{what}: the image's ENTRYPOINT {list(command.entrypoint)} does not run on a "
            f"device: the Wendy CLI's command replaces ENTRYPOINT and CMD, so the device runs "
            f"{argv}; Docker Compose keeps the ENTRYPOINT and runs "
            f"{[*command.entrypoint, *(command.compose or ())]}",
            draft.command_line,
        )
    elif command.entrypoint is None:
        at.warn(
            DC.ENTRYPOINT_REPLACED,
            f"{what}: the device runs {argv} with no ENTRYPOINT (the Wendy CLI's command "
            "replaces ENTRYPOINT and CMD); if the image has an ENTRYPOINT (not in the "
            "render), Docker Compose runs it with these arguments instead",
            draft.command_line,
        )


class _Lines:
    """The compose file as a :class:`Document` whose every key sits on one line (the
    service's): for the environment checks, which locate by key path."""

    def __init__(self, path: str, line: int | None) -> None:
        self.path = path
        self.data: object = None
        self.ok = True
        self._line = line

    def line(self, *path: str | int) -> int | None:
        return self._line


def _image(
    notes: Notes, draft: ServiceDraft, tree: Mapping[str, bytes], devices: Sequence[DeviceProfile]
) -> tuple[Build | None, Environment, ImageCommand | None, Mapping[str, int]]:
    spec = draft.build
    if spec is None:
        return None, NOTHING_KNOWN, None, {}
    if spec.directory is None or spec.dockerfile is None:
        notes.unknown(f"service {draft.name} builds from {spec.path}: outside the render")
        build = Build(spec.written, spec.path, "", False, (), None, ())
        return build, NOTHING_KNOWN, None, {}
    data = tree.get(spec.dockerfile)
    if data is None:
        notes.unknown(f"service {draft.name}: {spec.dockerfile} is not in the render")
        build = Build(spec.written, spec.directory, spec.dockerfile, False, (), None, ())
        return build, NOTHING_KNOWN, None, {}
    text = data.decode("utf-8", "replace")
    built = built_image(text, spec.args, devices)
    if built.problem is not None:
        notes.unknown(f"service {draft.name}: {spec.dockerfile}: {built.problem}")
    for arg in uninjected_args(text, spec.args):
        notes.warn(DC.BUILD_ARG_NOT_INJECTED, uninjected_message(arg), spec.dockerfile, arg.line)
    build = Build(
        spec.written,
        spec.directory,
        spec.dockerfile,
        True,
        built.args,
        built.stage,
        built.base_images,
    )
    return build, built.environment, built.command, built.env_lines


def _entitlements(draft: ServiceDraft) -> tuple[Entitlement, ...]:
    out = []
    if draft.network_mode == "host":
        out.append(Entitlement("network", mode="host"))
    elif draft.ports:
        out.append(Entitlement("network", ports=tuple(draft.ports)))
    for volume in draft.volumes:
        if volume.mounted:
            out.append(Entitlement("persist", name=volume.source, path=volume.target))
    return tuple(out)


def _dropped(
    entries: Sequence[tuple[str, str | None]], env: Environment
) -> tuple[DroppedVariable, ...]:
    out = []
    for name, value in entries:
        if not env.known or name in env.unknown:
            out.append(DroppedVariable(name, value, None, "unknown"))
        elif name in env.by_device:
            out.append(DroppedVariable(name, value, None, "varies"))
        elif name in env.values:
            image = env.values[name]
            out.append(DroppedVariable(name, value, image, "same" if image == value else "differs"))
        else:
            out.append(DroppedVariable(name, value, None, "absent"))
    return tuple(out)


def _environment_message(dropped: Sequence[DroppedVariable], routes: Collection[str]) -> str:
    parts = []
    same = [d.name for d in dropped if d.outcome == "same"]
    if same:
        parts.append(f"its image sets {', '.join(same)} to the same value")
    for d in dropped:
        if d.outcome == "differs":
            route = " (the loopback route to the same service)" if d.name in routes else ""
            parts.append(f'its image has {d.name}="{d.image}", not "{d.compose}"{route}')
    absent = [d.name for d in dropped if d.outcome == "absent"]
    if absent:
        parts.append(f"its Dockerfile does not set {', '.join(absent)}")
    varies = [d.name for d in dropped if d.outcome == "varies"]
    if varies:
        parts.append(f"{', '.join(varies)} vary by device")
    unknown = [d.name for d in dropped if d.outcome == "unknown"]
    if unknown:
        parts.append(f"nothing is known of {', '.join(unknown)} in its image")
    detail = f": {'; '.join(parts)}" if parts else ""
    return (
        f"not sent to the device (not implemented yet in the Wendy CLI at {REVISION}): "
        f"the container gets only its image's ENV{detail}"
    )
