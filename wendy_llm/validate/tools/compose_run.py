"""Running ``docker-compose config`` on one compose file, and reading what it says.

The run is isolated (nothing from the caller's environment reaches it) and
prints the normalised model (``--format json``, made portable by
:mod:`compose_normal`); its log lines become findings: warnings (unset
variables, obsolete keys) stay warnings, errors are errors with the line
Compose names.  :class:`ComposeOutcome` is what one run said, as a small
serialisable value (the on-disk result cache stores it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from wendy_llm.bounded import json_loads
from wendy_llm.codes import CODES, Check
from wendy_llm.codes.tools import COMPOSE_EXIT, COMPOSE_NO_MODEL, COMPOSE_REFUSED, COMPOSE_WARNED
from wendy_llm.validate.documents.compose_normal import normalise_model
from wendy_llm.validate.findings import Finding, error, finding, warning
from wendy_llm.validate.tools.programs import ToolProcesses, run_tool


@dataclass
class ComposeResult:
    """One render's compose check: its findings, and each compose file's model.

    ``models`` maps a compose file's path to its normalised model (None when
    Compose refused it); a file that is not YAML is not run and not listed.
    """

    findings: list[Finding] = field(default_factory=list)
    models: dict[str, object | None] = field(default_factory=dict)


CHECK = Check.COMPOSE

#: A project name for the isolated run; Compose requires one it can derive
#: or is given, and a fixed one keeps messages identical across runs.
PROJECT_NAME = "wendy-llm-check"


@dataclass(frozen=True)
class ComposeOutcome:
    """What one ``docker-compose config`` run said about one compose file.

    ``model`` is the normalised model (JSON data, portable: see
    :mod:`compose_normal`), None when Compose refused the file.  Findings
    carry no file (the caller adds it: identical files share a run).  A
    small serialisable value: :meth:`to_json` / :meth:`from_json`.
    """

    findings: tuple[Finding, ...]
    model: object | None

    def to_json(self) -> dict[str, object]:
        findings = [
            {
                "severity": f.severity,
                "message": f.message,
                "line": f.line,
                "code": f.code,
                "subject": f.subject,
            }
            for f in self.findings
        ]
        return {"findings": findings, "model": self.model}

    @classmethod
    def from_json(cls, value: object) -> ComposeOutcome:
        """Back from :meth:`to_json`; raises ``TypeError``/``ValueError`` on a wrong shape."""
        if not isinstance(value, Mapping) or not isinstance(value.get("findings"), list):
            raise TypeError("not a compose outcome")
        found: list[Finding] = []
        for item in value["findings"]:
            severity, message, line = item["severity"], item["message"], item["line"]
            if not isinstance(message, str) or not (line is None or type(line) is int):
                raise TypeError("not a finding")
            if severity not in ("error", "warning"):
                raise ValueError(f"unknown severity {severity!r}")
            code = CODES.get(str(item.get("code")))
            if code is None or code.check != CHECK or code.severity != severity:
                # An outcome stored before findings had codes: Compose's own words.
                code = COMPOSE_REFUSED if severity == "error" else COMPOSE_WARNED
            subject = item.get("subject")
            if not isinstance(subject, str):  # stored before findings had subjects
                subject = _subject(message.split(": ", 1)[-1])
            found.append(finding(code, message, None, line, subject=subject))
        return cls(tuple(found), value.get("model"))


def _subject(message: str) -> str:
    """What Compose refused, in Compose's own words (its first line, line and column
    numbers and the run's temporary paths out): Compose's wording is the identity
    of its refusal, which wendy-llm's rewording never changes."""
    first = (message.splitlines() or [""])[0]
    return _NUMBERS.sub(r"\1 N", first)


_NUMBERS = re.compile(r"\b(line|column|col)\s+\d+", re.IGNORECASE)


def isolated_env(home: Path) -> dict[str, str]:
    # Nothing from the caller's environment: no DOCKER_HOST, no contexts,
    # no COMPOSE_FILE / COMPOSE_PROFILES overrides, no stray variables
    # that would make an interpolation pass here and fail on a device.
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "DOCKER_CONFIG": str(home / ".docker"),
        "COMPOSE_PROJECT_NAME": PROJECT_NAME,
        "DOCKER_CLI_HINTS": "false",
        "COMPOSE_MENU": "false",
        "COMPOSE_ANSI": "never",
        # Each run is a short single-file job, and several run side by side:
        # one Go scheduler thread each costs a quarter less CPU.
        "GOMAXPROCS": "1",
    }


_LEVEL = re.compile(r'level=(?P<level>\w+) msg="(?P<msg>(?:[^"\\]|\\.)*)"')
_LINE = re.compile(r"\bline (?P<a>\d+)|\bL(?P<b>\d+)\.C\d+")


def _line_of(message: str) -> int | None:
    # go-yaml says "line 12"; compose-go's parser says "at L12.C7".
    match = _LINE.search(message)
    if match is None:
        return None
    return int(match.group("a") or match.group("b"))


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def run_compose(
    binary: Path,
    root: Path,
    tree_dir: Path,
    compose_path: str,
    env: Mapping[str, str],
    timeout: float,
    processes: ToolProcesses | None = None,
) -> ComposeOutcome:
    project_dir = tree_dir / PurePosixPath(compose_path).parent
    name = PurePosixPath(compose_path).name
    result = run_tool(
        [binary, "-f", name, "config", "--format", "json"],
        cwd=project_dir,
        env=env,
        timeout=timeout,
        processes=processes,
        no_network=True,  # Compose reads files only: it has no address to reach
    )
    prefixes = sorted({f"{p}/" for p in (project_dir, project_dir.resolve())}, key=len)
    findings: list[Finding] = []
    model: object | None = None
    if result.returncode == 0:
        try:
            model = normalise_model(json_loads(result.stdout), project_dir, root, PROJECT_NAME)
        except json.JSONDecodeError:
            findings.append(
                error(COMPOSE_NO_MODEL, "docker-compose config printed no readable model")
            )
    stderr = result.stderr
    for prefix in reversed(prefixes):
        stderr = stderr.replace(prefix, "")
    # Compose's log lines (level=... msg="...") are one line each; what else it
    # prints is its one error, whose text holds the file's own newlines (a key,
    # a path): those lines are one finding, never one per line (issue 29).
    said: list[str] = []
    for raw in [*stderr.split("\n"), ""]:
        text = raw.strip()
        match = _LEVEL.search(text)
        if match is None and text:
            said.append(text)
            continue
        if said:
            message = "\n".join(said)
            findings.append(
                error(
                    COMPOSE_REFUSED,
                    f"docker-compose config: {message}",
                    None,
                    _line_of(message),
                )
            )
            said = []
        if match is not None:
            message = _unescape(match.group("msg"))
            severity_is_warning = match.group("level") in ("warning", "info")
            if severity_is_warning:
                findings.append(
                    warning(
                        COMPOSE_WARNED,
                        f"docker-compose: {message}",
                        None,
                        subject=_subject(message),
                    )
                )
            else:
                findings.append(
                    error(
                        COMPOSE_REFUSED,
                        f"docker-compose: {message}",
                        None,
                        _line_of(message),
                    )
                )
    if result.returncode != 0 and not any(f.severity == "error" for f in findings):
        findings.append(
            error(COMPOSE_EXIT, f"docker-compose config exited with status {result.returncode}")
        )
    return ComposeOutcome(tuple(findings), model)
