"""The process as the agent starts it: the checks (Wendy run facts, section 9).

- a service that runs vLLM, or PyTorch work in several processes
  (``torchrun``, ``torch.distributed``): its ``/dev/shm`` is 64 MiB, which
  nothing can raise (vLLM's and PyTorch's docs ask Docker users for
  ``--ipc=host`` or a larger ``--shm-size``): a warning at the line that
  makes it run (the script's command, else the Dockerfile's CMD, install or
  ``FROM`` naming it, else the built stage's ``FROM``);
- an entry script whose last command is neither ``exec``'d nor covered by a
  ``trap ... TERM``: the shell is PID 1 and keeps SIGTERM, so the program is
  killed 10 s after a stop: a warning naming the line;
- a Dockerfile ``USER`` other than root that the build makes something for
  (``useradd``, ``chown``/``--chown`` to it, a ``/home/<user>`` path): the
  device runs the process as root, so those files and that home are not
  the process's: a warning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from wendy_llm.codes import runtime as RC
from wendy_llm.device.model import Service
from wendy_llm.device.notes import Notes
from wendy_llm.device.runtime.dockerfacts import DockerFacts
from wendy_llm.device.runtime.scripts import Script, calls, functions
from wendy_llm.wendycli.runtime import RUN_FACTS, SHM_MIB, STOP_GRACE_SECONDS

SPEC = RUN_FACTS
_SHM_PROGRAMS = frozenset({"vllm", "torchrun"})
_SHM_TEXT = re.compile(r"-m\s+(?:vllm\.entrypoints|torch\.distributed)|\bvllm\s+serve\b")
_FROM = re.compile(r"\s*FROM\s", re.IGNORECASE)
_TRAP_TERM = re.compile(r"^\s*trap\s+.+\b(?:TERM|SIGTERM|15)\b", re.MULTILINE)
#: Commands that end a script without leaving a program behind.
_QUIET_LAST = frozenset(
    {"exit", "wait", "return", "true", "false", ":", "echo", "printf", "set", "exec", "fi", "done"}
)


def process_findings(
    service: Service,
    facts: DockerFacts,
    scripts: Sequence[Script],
    notes: Notes,
    tree: Mapping[str, bytes] | None = None,
) -> None:
    """The process checks of a built ``service`` (``tree``: the render, where its
    Dockerfile's lines are read to place a Dockerfile-wide warning)."""
    _shm(service, scripts, notes, tree or {})
    for script in scripts:
        _not_execd(service, script, notes)
    _user(service, facts, notes)


def _shm_cause(
    service: Service, scripts: Sequence[Script], tree: Mapping[str, bytes]
) -> tuple[str | None, int | None]:
    """The line that makes a service run vLLM or PyTorch workers: the script line that
    starts it, else the Dockerfile line naming it (its CMD/ENTRYPOINT, its install, a
    FROM of its image), else the Dockerfile's last FROM (the stage built)."""
    for script in scripts:
        for call in calls(script.text):
            name = call.program.rsplit("/", 1)[-1]
            if name in _SHM_PROGRAMS or _SHM_TEXT.search(call.text):
                return script.file, call.line
    dockerfile = service.build.dockerfile if service.build else None
    data = tree.get(dockerfile) if dockerfile else None
    if dockerfile is None or data is None:
        return dockerfile, None
    rows = data.decode("utf-8", "replace").splitlines()
    named = re.compile(r"\b(?:vllm|torchrun)\b|torch\.distributed", re.IGNORECASE)
    for number, row in enumerate(rows, 1):
        if not row.lstrip().startswith("#") and named.search(row):
            return dockerfile, number
    froms = [n for n, row in enumerate(rows, 1) if _FROM.match(row)]
    return dockerfile, (froms[-1] if froms else None)


def _shm(
    service: Service, scripts: Sequence[Script], notes: Notes, tree: Mapping[str, bytes]
) -> None:
    argv = service.command.argv or ()
    programs = {a.rsplit("/", 1)[-1] for a in argv[:1]}
    texts = [" ".join(argv)]
    for script in scripts:
        programs.update(c.program.rsplit("/", 1)[-1] for c in calls(script.text))
        texts.append(script.text)
    bases = service.build.base_images if service.build else ()
    what = None
    if programs & _SHM_PROGRAMS or any(_SHM_TEXT.search(t) for t in texts):
        what = (
            "vLLM"
            if "vllm" in programs or "vllm" in " ".join(texts)
            else "PyTorch (several processes)"
        )
    elif any("vllm" in b for b in bases):
        what = f"vLLM (its base image {', '.join(bases)})"
    if what is None:
        return
    where, line = _shm_cause(service, scripts, tree)
    notes.warn(
        RC.SMALL_SHM,
        f"service {service.name} runs {what}, and its /dev/shm is {SHM_MIB} MiB on a device, "
        f"which nothing in wendy.json or compose can raise ({SPEC}); vLLM and PyTorch ask Docker "
        "users for --ipc=host or a larger --shm-size: workers that share tensors through "
        "/dev/shm can fail or stall there",
        where,
        line,
    )


def _not_execd(service: Service, script: Script, notes: Notes) -> None:
    if _TRAP_TERM.search(script.text):
        return  # the script passes SIGTERM on (or handles it) itself
    own = functions(script.text)
    found = calls(script.text)
    if not found:
        return
    last = found[-1]
    if last.execs or last.background or last.program in _QUIET_LAST:
        return
    if last.program in own:
        return  # a function of the script: what it runs is not judged here
    notes.warn(
        RC.NOT_EXECD,
        f"service {service.name}: the entry script's last command ({last.text}) is not exec'd "
        f"and the script traps no TERM: the shell stays PID 1 and keeps the SIGTERM a stop "
        f"sends, so {last.program} is killed {STOP_GRACE_SECONDS} s later ({SPEC}); "
        f"start it with exec",
        script.file,
        last.line,
    )


def _user(service: Service, facts: DockerFacts, notes: Notes) -> None:
    user = facts.user
    if user is None or user.value.split(":")[0] in ("root", "0"):
        return
    name = user.value.split(":")[0]
    made = [
        r.line
        for r in facts.runs
        if re.search(rf"\b(?:useradd|adduser)\b.*\b{re.escape(name)}\b", r.value)
        or re.search(rf"\bchown\b[^;&|]*\b{re.escape(name)}\b", r.value)
    ]
    made += [f.line for f in facts.filled if f.value.startswith(f"/home/{name}")]
    if not made:
        return
    where = service.build.dockerfile if service.build else None
    notes.warn(
        RC.USER_IGNORED,
        f"service {service.name}: USER {user.value} is ignored on a device, which runs every "
        f"process as root ({SPEC}); the build makes files or a home for {name} (line "
        f"{', '.join(str(n) for n in sorted(set(made)))}), which the process does not run as "
        "(HOME is root's, what it writes is root's)",
        where,
        user.line,
    )
