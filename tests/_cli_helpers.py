"""Running ``wendy-llm`` as a user does: a subprocess, with or without a terminal."""

from __future__ import annotations

import errno
import json
import os
import pty
import shutil
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema

from wendy_llm.reports.json import ReportKind, schema_path

REPO = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
SCHEMAS = REPO / "wendy_llm" / "schemas"
LLM = "python/llm"


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def cli_env(extra: Mapping[str, str] | None = None, *, drop: Sequence[str] = ()) -> dict[str, str]:
    """The environment of a user's shell: the venv's bin first, no colour override."""
    env = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "FORCE_COLOR", *drop}}
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra or {})
    return env


def run_module(
    *args: str, cwd: Path = REPO, env: Mapping[str, str] | None = None, timeout: float = 300
) -> Run:
    """``python -m wendy_llm ARGS`` with the venv's python, output piped."""
    proc = subprocess.run(
        [sys.executable, "-m", "wendy_llm", *args],
        cwd=cwd,
        env=dict(env) if env is not None else cli_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def _drain(fd: int, sink: bytearray) -> None:
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError as exc:  # EIO: the other side of the terminal closed
            if exc.errno == errno.EIO:
                return
            raise
        if not chunk:
            return
        sink.extend(chunk)


def run_in_terminal(
    *args: str,
    stdout_tty: bool = True,
    stderr_tty: bool = True,
    cwd: Path = REPO,
    env: Mapping[str, str] | None = None,
    timeout: float = 300,
) -> Run:
    """``python -m wendy_llm ARGS`` with stdout and/or stderr on pseudo-terminals.

    Each terminal is read by a thread while the command runs, so a long
    report never blocks on a full terminal buffer.
    """
    fds: dict[str, tuple[int, int]] = {}
    for name, wanted in (("out", stdout_tty), ("err", stderr_tty)):
        if wanted:
            fds[name] = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "wendy_llm", *args],
        cwd=cwd,
        env=dict(env) if env is not None else cli_env(),
        stdin=subprocess.DEVNULL,
        stdout=fds["out"][1] if "out" in fds else subprocess.PIPE,
        stderr=fds["err"][1] if "err" in fds else subprocess.PIPE,
    )
    sinks = {"out": bytearray(), "err": bytearray()}
    threads = []
    for name, (master, slave) in fds.items():
        os.close(slave)
        thread = threading.Thread(target=_drain, args=(master, sinks[name]))
        thread.start()
        threads.append(thread)
    piped_out, piped_err = proc.communicate(timeout=timeout)
    for thread in threads:
        thread.join(timeout)
    for master, _ in fds.values():
        os.close(master)
    out = bytes(sinks["out"]) if "out" in fds else piped_out
    err = bytes(sinks["err"]) if "err" in fds else piped_err
    return Run(proc.returncode, _from_terminal(out), _from_terminal(err))


def _from_terminal(data: bytes) -> str:
    # Terminals turn "\n" into "\r\n"; undo that so texts compare with pipes.
    return data.decode("utf-8").replace("\r\n", "\n")


def copy_llm_project(dest: Path) -> Path:
    """The python/llm template, its fixtures, rules and baseline, in a fresh directory."""
    shutil.copytree(REPO / "templates" / LLM, dest / "templates" / LLM)
    shutil.copytree(REPO / "golden" / LLM, dest / "golden" / LLM)
    shutil.copy2(REPO / "golden" / f"{LLM}.rules.yaml", dest / "golden" / f"{LLM}.rules.yaml")
    shutil.copytree(REPO / "golden" / "baseline" / LLM, dest / "golden" / "baseline" / LLM)
    return dest


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def validate_report(document: str, kind: ReportKind) -> dict[str, Any]:
    """Parse a ``--json`` document and validate it against its published schema."""
    parsed: dict[str, Any] = json.loads(document)
    schema = json.loads(schema_path(kind).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(parsed)
    return parsed


def unregistered_codes(report: Mapping[str, Any]) -> list[str]:
    """What is wrong with the codes of a ``check --json`` report: every finding must
    carry a registered code whose check and severity are its own (issue 27)."""
    # lazy: only the tests of codes read the registry.
    from wendy_llm.codes import CODES

    wrong = []
    for result in report["results"]:
        for finding in result["findings"]:
            code = CODES.get(finding.get("code", ""))
            if code is None or (code.check, code.severity) != (
                result["check"],
                finding["severity"],
            ):
                wrong.append(f"{result['check']} {finding['severity']} {finding.get('code')!r}")
    return wrong
