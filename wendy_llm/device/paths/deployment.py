"""The paths other than compose: which one ``wendy run`` takes, and why (section 1).

Every non-compose path loads ``wendy.json`` (its absence fails ``wendy run``
with the CLI's message when it has no terminal: a warning, since with one
the facts do not say), validates it (an invalid one fails: the
``wendy-json`` check says why), then on a WendyOS device:

- non-empty ``services``: the multi-service path (:mod:`multi_service`),
  whatever the top level holds;
- else docker, python and swift projects: the single-container path
  (:mod:`single_container`);
- an Xcode project, and a Swift package whose ``platform`` is ``darwin``
  (a macOS app), go to the macOS path, not to a device: no WendyOS-device
  finding belongs to them (``run.args``, read on that path, is no finding);
- else an "unknown" project fails with the CLI's message, with or without
  ``wendy.json`` (without one, ``wendy run`` offers to create it and then
  finds nothing to build).

What the facts leave open is said, never judged: a Wendy Lite app
(``platform`` ``wendy-lite``) runs on a microcontroller, not a WendyOS
device.  ``run.args`` is never used on a device: reported as ignored, on
the device paths only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wendy_llm.codes import device as DC
from wendy_llm.device.model import DeployPath, PostStart, Readiness, Service
from wendy_llm.device.notes import Document, Notes, dotted
from wendy_llm.device.paths.multi_service import multi_services
from wendy_llm.device.paths.single_container import post_start, readiness, single_service
from wendy_llm.device.profiles import DeviceProfile
from wendy_llm.render.manifest.gojson import Decoded
from wendy_llm.render.manifest.jsonpos import JsonPath, format_json_path
from wendy_llm.wendycli.catalog import WENDY_LITE
from wendy_llm.wendycli.project import (
    SINGLE_CONTAINER_KINDS,
    UNKNOWN_PROJECT,
    WENDY_JSON_NOT_FOUND,
    ProjectPath,
)
from wendy_llm.wendycli.single_builds import MACOS_PLATFORM, MACOS_SWIFTPM_PATH, XCODE_PATH
from wendy_llm.wendycli.wendy_json import FILE as WENDY_JSON
from wendy_llm.wendycli.wendy_json import read, validate


@dataclass(frozen=True)
class Deployment:
    """How a non-compose project is deployed (``deploy`` None: it is not)."""

    deploy: DeployPath | None
    reason: str
    services: tuple[Service, ...] = ()
    readiness: Readiness | None = None
    post_start: PostStart | None = None


def other_paths(
    path: ProjectPath,
    tree: Mapping[str, bytes],
    wendy: Document | None,
    devices: Sequence[DeviceProfile],
    notes: Notes,
) -> Deployment:
    """What ``wendy run`` deploys for a project that has no compose file."""
    kind = f"project type {path.kind}" + (f" ({path.file})" if path.file else "")
    if path.kind == "unknown" and (WENDY_JSON not in tree or wendy is None):
        # Offered to create wendy.json or not, wendy run finds nothing to build (section 1).
        notes.error(DC.UNKNOWN_PROJECT, f"wendy run fails: {UNKNOWN_PROJECT}")
        return Deployment(None, f"{kind}, no {WENDY_JSON}: {UNKNOWN_PROJECT}")
    if WENDY_JSON not in tree or wendy is None:
        # The facts give the CLI's answer without a terminal only: a warning.
        notes.warn(DC.NO_WENDY_JSON, f"without a terminal, wendy run fails: {WENDY_JSON_NOT_FOUND}")
        notes.unknown(f"what wendy run does without {WENDY_JSON} when it has a terminal")
        return Deployment(None, f"{kind} without {WENDY_JSON}: {WENDY_JSON_NOT_FOUND}")
    decoded = read(tree[WENDY_JSON]) if wendy.ok else None
    refused = _refused(decoded)
    if refused is not None or decoded is None:
        message, where = refused or ("it is not JSON", ())
        line = wendy.line(*where) if where else None
        notes.error(
            DC.WENDY_JSON_REFUSED, f"wendy run refuses {WENDY_JSON}: {message}", WENDY_JSON, line
        )
        return Deployment(None, f"wendy run refuses {WENDY_JSON}: {message}")
    config = decoded.value
    assert isinstance(config, Mapping)
    if config["platform"] == WENDY_LITE:
        why = f"a Wendy Lite app ({WENDY_JSON} platform {WENDY_LITE}) runs on a microcontroller"
        notes.unknown(f"{why}: the facts do not say how wendy run deploys it")
        return Deployment(None, f"{why}, not on a WendyOS device")
    if config["services"]:
        names = ", ".join(config["services"])
        reason = f"{WENDY_JSON} services ({names}), no compose file; {kind}"
        _report_run_args(wendy, decoded, notes)
        found = multi_services(tree, wendy, decoded, devices, notes)
        return Deployment("multi-service", reason, found or ())
    if path.kind == "swift" and config["platform"] == MACOS_PLATFORM:
        # A Mac app: no WendyOS-device finding belongs to it (run.args is read there).
        notes.unknown(f"{kind}: {MACOS_SWIFTPM_PATH}; the macOS path is not modelled")
        return Deployment(None, f"{kind}: {MACOS_SWIFTPM_PATH}")
    if path.kind in SINGLE_CONTAINER_KINDS:
        _report_run_args(wendy, decoded, notes)
        service = single_service(path, tree, decoded, devices, notes)
        generated = "; wendy run generates its Dockerfile" if path.kind == "python" else ""
        return Deployment(
            "single-container",
            f"{kind}, {WENDY_JSON} without services{generated}",
            (service,),
            readiness(wendy, decoded),
            post_start(wendy, decoded),
        )
    if path.kind == "xcode":
        notes.unknown(f"{kind}: {XCODE_PATH}; the macOS path is not modelled")
        return Deployment(None, f"{kind}: {XCODE_PATH}")
    notes.error(DC.UNKNOWN_PROJECT, f"wendy run fails: {UNKNOWN_PROJECT}")
    return Deployment(None, f"{kind} and no {WENDY_JSON} services: {UNKNOWN_PROJECT}")


def _report_run_args(wendy: Document, decoded: Decoded, notes: Notes) -> None:
    """``run.args``: only the macOS SwiftPM and Xcode paths read it (section 5)."""
    config = decoded.value
    assert isinstance(config, Mapping)
    run = config["run"]
    if not isinstance(run, Mapping) or not run["args"]:
        return
    path = decoded.raw_path(("run", "args"))
    notes.ignore(
        DC.RUN_ARGS_UNUSED,
        dotted(path),
        f"never added to the argv on a device ({' '.join(map(str, run['args']))}): only the "
        "macOS SwiftPM and Xcode paths read it; the container runs the image's "
        "ENTRYPOINT + CMD",
        WENDY_JSON,
        wendy.line(*path),
    )


def _refused(decoded: Decoded | None) -> tuple[str, JsonPath] | None:
    """The first reason the CLI refuses ``wendy.json``, and where (None: it accepts it)."""
    if decoded is None:
        return ("it is not JSON", ())
    if decoded.errors:
        first = decoded.errors[0]
        return f"{format_json_path(first.path)}: {first.message}", decoded.raw_path(first.path)
    errors = [p for p in validate(decoded) if p.severity == "error"]
    if not errors:
        return None
    return str(errors[0]), decoded.raw_path(errors[0].path)
