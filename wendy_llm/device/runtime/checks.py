"""Attaching each service's runtime to the view, and the checks judged by it.

Every check follows Wendy run facts, section 9 (named in its
message) and reads only the render: the service's argv, its Dockerfile
and the entry scripts the argv starts.

- :func:`path_findings`: a program run by bare name (ENTRYPOINT/CMD, a
  shell form's first word, an entry script's command) that the render
  installs only into a directory the Dockerfile adds to ``PATH``: on a
  device the agent's ``PATH`` wins, so it is not found (a failure).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from wendy_llm.codes import runtime as RC
from wendy_llm.device.model import Service
from wendy_llm.device.notes import Notes
from wendy_llm.device.runtime.build import runtime_of, service_facts
from wendy_llm.device.runtime.dockerfacts import DockerFacts
from wendy_llm.device.runtime.process_checks import process_findings
from wendy_llm.device.runtime.scripts import Script, calls, entry_scripts, functions
from wendy_llm.device.runtime.storage_checks import storage_findings
from wendy_llm.device.runtime.variables import variable_findings
from wendy_llm.wendycli.runtime import AGENT_PATH, DEFAULT_PATH_DIRS, RUN_FACTS

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
        runtime = runtime_of(service, tree, deploy)
        service = dataclasses.replace(service, runtime=runtime)
        facts = service_facts(service, tree)
        scripts = entry_scripts(service, tree)
        if facts is not None:
            path_findings(service, facts, scripts, notes)
            variable_findings(service, scripts, notes)
            process_findings(service, facts, scripts, notes, tree)
        out.append(service)
    storage_findings(tree, out, deploy, notes, file, project)
    return tuple(out)


def _argv_programs(service: Service) -> list[tuple[str, str, bool]]:
    """(program, how, certain) for the argv's bare first word and a shell form's first
    word.  With the base image's ENTRYPOINT unseen the CMD is judged, not certainly."""
    command = service.command
    argv, certain = command.argv, True
    if argv is None and command.cmd:
        argv, certain = command.cmd, False
    argv = argv or ()
    out = []
    if argv and "/" not in argv[0]:
        out.append((argv[0], f"its argv {list(argv)}", certain))
    if len(argv) >= 3 and argv[1] == "-c" and argv[0] in ("/bin/sh", "sh", "/bin/bash", "bash"):
        first = calls(argv[2])
        if first and "/" not in first[0].program:
            out.append((first[0].program, f"its shell-form command {argv[2]!r}", certain))
    return out


def _where_installed(program: str, facts: DockerFacts) -> str | None:
    """The added PATH directory the render installs ``program`` into, if only there."""
    added = {d.value for d in facts.path_added}
    dirs = {d for name, d in facts.installed if name == program and d in added}
    for place in facts.filled:
        parent, name = place.value.rsplit("/", 1) if "/" in place.value else ("", place.value)
        if name == program and parent in DEFAULT_PATH_DIRS:
            return None  # copied into a default-PATH directory: found on a device
        if name == program and parent in added:
            dirs.add(parent)
    for run in facts.runs:
        for default in DEFAULT_PATH_DIRS:
            if f"{default}/{program}" in run.value:
                return None  # linked or written into a default-PATH directory
    return min(dirs) if dirs else None


def path_findings(
    service: Service, facts: DockerFacts, scripts: Sequence[Script], notes: Notes
) -> None:
    """A program found only through a ``PATH`` directory the Dockerfile adds (section 9)."""
    if not facts.path_added or service.build is None:
        return
    line_of = {d.value: d.line for d in facts.path_added}
    dockerfile = service.build.dockerfile
    found: list[tuple[str, str, bool, str | None, int | None]] = []
    for program, how, certain in _argv_programs(service):
        found.append((program, how, certain, dockerfile, None))
    for script in scripts:
        own = functions(script.text)
        for call in calls(script.text):
            if "/" in call.program or call.program in own:
                continue
            where = f"{script.file}:{call.line}"
            found.append((call.program, where, True, script.file, call.line))
    for program, how, certain, file, line in found:
        directory = _where_installed(program, facts)
        if directory is None:
            continue
        message = (
            f"service {service.name} runs {program} by bare name ({how}); the render installs "
            f"it only into {directory}, which {dockerfile}:{line_of[directory]} adds to the "
            f"image's PATH, but on a device the agent's PATH={AGENT_PATH} comes after the "
            f"image's ENV and wins ({SPEC}): {program} is not found and the service does not "
            f"start. Run it as {directory}/{program}, or symlink it into /usr/local/bin"
        )
        if certain:
            subject = f"services.{service.name}: {program}"
            notes.error(RC.PATH_SHADOWED, message, file, line, subject=subject)
        else:
            notes.warn(
                RC.PATH_SHADOWED_MAYBE,
                message + " (unless the base image's unseen ENTRYPOINT runs it)",
                file,
                line,
            )
