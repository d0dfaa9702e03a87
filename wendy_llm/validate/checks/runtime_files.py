"""An entry script that writes ``/etc/resolv.conf`` in a host-network container.

With a network entitlement in host mode (mode empty or ``host``) the device
binds the host's resolver file over ``/etc/resolv.conf`` **read-only**
(docs/checks.md, "Build-time and run-time files"): a script the container
starts with that writes it fails there.  ``/etc/hosts`` is not bound at run
time (it is the image's own file), so writing it is allowed; this is where
a build that wrote it moves the write to (section 9, Builds).

The entry scripts are the render's shell scripts the service's command
names (its compose ``command``, else the image's ``ENTRYPOINT`` + ``CMD``;
``sh -c`` texts followed): those the program resolver follows in the image
model (:mod:`wendy_llm.device.runtime.resolve`, wherever the command finds
them), and those the command names by file name in the build context.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping

from wendy_llm.codes import Check
from wendy_llm.codes.device import READ_ONLY_ETC
from wendy_llm.device.model import DeviceView, Service
from wendy_llm.device.runtime.resolve import entry_scripts
from wendy_llm.validate.checks.shell import is_shell_script
from wendy_llm.validate.dockerfiles.etcwrites import RUNTIME_READ_ONLY, script_writes
from wendy_llm.validate.dockerfiles.exec import shell_commands
from wendy_llm.validate.findings import Finding, error

CHECK = Check.DEVICE
#: The network modes that share the host's namespace (an empty mode is host).
HOST_MODES = (None, "", "host")


def host_network(service: Service) -> bool:
    """Whether the device runs ``service`` in the host's network namespace."""
    return any(e.type == "network" and e.mode in HOST_MODES for e in service.entitlements)


def runtime_etc_findings(view: DeviceView, tree: Mapping[str, bytes]) -> list[Finding]:
    """Entry scripts of host-network services that write ``/etc/resolv.conf``."""
    found: dict[tuple[str, int], Finding] = {}
    for service in view.services:
        if not host_network(service):
            continue
        for script in sorted(set(_entry_scripts(service, tree))):
            text = tree[script].decode("utf-8", "replace")
            for line, write in script_writes(text, RUNTIME_READ_ONLY):
                message = (
                    f"service {service.name} runs with host networking, where the device "
                    f"binds {write.path} read-only (docs/checks.md, run-time files): this "
                    f"entry script {write.how} it (`{write.command}`) and fails there"
                )
                found.setdefault((script, line), error(READ_ONLY_ETC, message, script, line))
    return [found[key] for key in sorted(found)]


def _entry_scripts(service: Service, tree: Mapping[str, bytes]) -> Iterator[str]:
    """The render's shell scripts the service runs: those the program resolver follows in
    the image model (by absolute path, WORKDIR-relative or bare name), and, where the
    model cannot say (an ``image:`` service), a script the argv names by file name."""
    found = {script.file for script in entry_scripts(service, tree)}
    command = service.command
    argv = command.argv
    if argv is None:
        argv = (*(command.entrypoint or ()), *(command.cmd or ()))
    words = list(argv)
    for word in argv:
        words += [w for inner in shell_commands(word) for w in inner] if " " in word else []
    directory = service.build.directory if service.build is not None else "."
    prefix = "" if directory in ("", ".") else directory.rstrip("/") + "/"
    named = [w for w in words if "/" in w or w.endswith((".sh", ".bash"))]
    names = {posixpath.basename(w) for w in named}
    for path, data in tree.items():
        if not path.startswith(prefix) or not is_shell_script(path, data):
            continue
        if path in found or posixpath.basename(path) in names:
            yield path
