"""Attaching each service's runtime to the view, and the checks judged by it.

Every check follows Wendy run facts, section 9 (named in its
message) and reads only the render: the service's argv, its Dockerfile's
image model and the entry scripts the argv starts, as the one program
resolver (:mod:`~wendy_llm.device.runtime.resolve`) finds them.

- :func:`path_findings`: a program run by bare name that only a directory
  the image's own ``PATH`` adds provides: on a device the agent's ``PATH``
  wins, so it is not found (a failure where the model is certain, a
  warning where it is likely);
- :func:`absent_findings`: a program or script interpreter the image
  certainly lacks (a failure);
- :func:`linked_findings`: a binary whose run-time libraries the image's
  base lacks (a failure).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from wendy_llm.codes import runtime as RC
from wendy_llm.device.model import Service
from wendy_llm.device.notes import Notes
from wendy_llm.device.runtime.build import runtime_of, service_facts
from wendy_llm.device.runtime.model import Resolution
from wendy_llm.device.runtime.process_checks import process_findings
from wendy_llm.device.runtime.resolve import UNSEEN_ENTRYPOINT, ServicePrograms, service_programs
from wendy_llm.device.runtime.storage_checks import storage_findings
from wendy_llm.device.runtime.variables import variable_findings
from wendy_llm.docker.image.facts import StageImage
from wendy_llm.wendycli.runtime import AGENT_PATH, RUN_FACTS

SPEC = RUN_FACTS


def with_runtime(
    tree: Mapping[str, bytes],
    services: Sequence[Service],
    deploy: str | None,
    notes: Notes,
    file: str | None,
    project: str = "",
) -> tuple[Service, ...]:
    """``services`` with their runtime attached; the checks' findings go to ``notes``.

    ``file`` is where the services are defined (the compose file or ``wendy.json``),
    ``project`` the project directory's name.
    """
    out = []
    for service in services:
        programs = service_programs(service, tree)
        runtime = dataclasses.replace(
            runtime_of(service, tree, deploy), programs=programs.resolutions
        )
        service = dataclasses.replace(service, runtime=runtime)
        facts = service_facts(service, tree)
        scripts = programs.scripts
        if facts is not None:
            path_findings(service, programs, notes)
            absent_findings(service, programs, notes)
            linked_findings(service, programs, notes)
            variable_findings(service, scripts, notes)
            process_findings(service, facts, scripts, notes, tree)
        out.append(service)
    storage_findings(tree, out, deploy, notes, file, project)
    return tuple(out)


def _where(service: Service, found: Resolution) -> tuple[str | None, int | None]:
    """The file and line that name the program: a script's, or the Dockerfile."""
    if found.file is not None and found.file_line is not None:
        return found.file, found.file_line
    return (service.build.dockerfile if service.build else found.file), found.file_line


def _how(found: Resolution) -> str:
    """Where the render names the program: the argv as written, or a script's line."""
    if found.named_in.startswith("its ") or found.file is None or found.file_line is None:
        return found.named_in.removesuffix(UNSEEN_ENTRYPOINT)
    return f"{found.file}:{found.file_line}"


def path_findings(service: Service, programs: ServicePrograms, notes: Notes) -> None:
    """A program found only through a ``PATH`` directory the Dockerfile adds (section 9)."""
    stage = programs.stage
    if stage is None or service.build is None:
        return
    line_of = {d: at for d, at in stage.path_dirs}
    dockerfile = service.build.dockerfile
    for found in programs.resolutions:
        if found.state != "image-path" or found.path is None:
            continue
        directory, program = found.path.rsplit("/", 1)
        added = line_of.get(directory)
        where = (
            f"{dockerfile}:{added} adds to the image's PATH"
            if added
            else f"the base image {stage.base_image} puts on its PATH"
        )
        message = (
            f"service {service.name} runs {program} by bare name ({_how(found)}); the render "
            f"installs it only into {directory}, which {where} ({found.note}), but on a device "
            f"the agent's PATH={AGENT_PATH} comes after the image's ENV and wins ({SPEC}): "
            f"{program} is not found and the service does not start. Run it as "
            f"{directory}/{program}, or symlink it into /usr/local/bin"
        )
        file, line = _where(service, found)
        unseen = found.named_in.endswith(UNSEEN_ENTRYPOINT)
        if found.certain and not unseen:
            subject = f"services.{service.name}: {program}"
            notes.error(RC.PATH_SHADOWED, message, file, line, subject=subject)
        else:
            maybe = (
                " (unless the base image's unseen ENTRYPOINT runs it)"
                if unseen
                else " (likely: the render cannot name the console scripts a package installs)"
            )
            notes.warn(RC.PATH_SHADOWED_MAYBE, message + maybe, file, line)


def absent_findings(service: Service, programs: ServicePrograms, notes: Notes) -> None:
    """A program or interpreter the image model is certain the image lacks."""
    for found in programs.resolutions:
        if found.state != "absent" or not found.certain:
            continue
        file, line = _where(service, found)
        notes.error(
            RC.PROGRAM_ABSENT,
            f"service {service.name} runs {found.program} ({_how(found)}), which its image "
            f"does not have: {found.note}; the container exits at once ({SPEC})",
            file,
            line,
            subject=f"services.{service.name}: {found.program}",
        )


_FIXES = {
    "swift-runtime": "base the stage that runs it on swift:<version>-slim (it carries the "
    "runtime), or build with --static-swift-stdlib",
    "glibc": "base the stage that runs it on a glibc image (debian:*-slim, "
    "gcr.io/distroless/base), or link it statically",
    "musl": "run it on Alpine, or build it for glibc",
    "dotnet-runtime": "base the stage that runs it on mcr.microsoft.com/dotnet/runtime (or "
    "aspnet), or publish --self-contained",
}


def _lacks(stage: StageImage, needs: str) -> str | None:
    """What the stage's base lacks of ``needs`` (None: it has it, or that is unknown)."""
    base = stage.base
    packages = {name for name, _ in stage.packages}
    if base is None:
        return None
    if needs == "swift-runtime" and "swift-runtime" not in base.runtimes:
        if any(p.startswith("/usr/lib/swift") for p in stage.entries):
            return None
        return "Swift runtime (libswiftCore.so, Foundation)"
    if needs == "glibc" and base.libc != "glibc" and not packages & {"gcompat", "libc6-compat"}:
        return "glibc" + (f" (it has {base.libc})" if base.libc else " (it has no C library)")
    if needs == "musl" and base.libc != "musl":
        return "musl (the binary was linked on Alpine)"
    if needs == "dotnet-runtime" and "dotnet" not in base.runtimes:
        if any("dotnet" in p for p in packages):
            return None
        return ".NET runtime"
    return None


def linked_findings(service: Service, programs: ServicePrograms, notes: Notes) -> None:
    """A binary built in one stage and run where its runtime is missing (an error)."""
    stage = programs.stage
    if stage is None or service.build is None:
        return
    for found in programs.resolutions:
        # A program of a directory copied from a build's output needs what the build links.
        entry = stage.holder(found.path) if found.path else None
        if found.state == "absent" or entry is None or entry.needs is None:
            continue
        lacks = _lacks(stage, entry.needs)
        if lacks is None:
            continue
        assert stage.base is not None
        notes.error(
            RC.RUNTIME_MISSING,
            f"service {service.name} runs {found.path}, built at {entry.built_at} and copied "
            f"at line {entry.line}; the image it runs in, {stage.base_image}, has no {lacks} "
            f"({stage.base.source}): the container cannot start; {_FIXES[entry.needs]}",
            service.build.dockerfile,
            entry.line,
            subject=f"services.{service.name}: {entry.path}",
        )
