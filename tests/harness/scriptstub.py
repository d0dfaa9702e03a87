"""The stub program behind every stubbed command of an entrypoint test.

``harness.scripttest`` puts one small wrapper per stubbed command (``vllm``,
``ollama``, ``python3``, ...) first on the script's ``PATH``; each wrapper
runs this file as ``python -I -S scriptstub.py <command> <args...>``.  It
therefore imports nothing outside the standard library (the stubbed
``python3`` must not be the interpreter running it, and start-up must stay
fast).

Each call:

1. finds the first rule of the spec (the JSON file named by
   ``WENDY_STUB_SPEC``) whose ``command`` is this command, whose ``prefix``
   starts the arguments and whose ``contains`` occurs in one of them;
2. when the rule ``waits_for`` an event, waits until another call has
   signalled it (a file barrier in the spec's ``state`` directory), at most
   ``wait_max_ms``; a wait that runs out gives up on the event for the rest
   of the run, so later calls go on at once (the bound only guards against a
   script that never signals: the test reads the outcome, never the time);
3. appends one JSON line ``{"argv": [command, *args], "env": {...}, "t": T,
   "waited": {event: happened}}`` to the file named by ``WENDY_STUB_LOG``
   (``env`` holds the variables the spec's ``record_env`` lists, when set;
   ``t`` is ``time.monotonic()`` when the call started, a clock every
   process on Linux shares, for lower bounds on the pauses between calls);
   so the log's order is the order in which calls went on;
4. when the rule ``signals`` an event, signals it (after the line is
   written: a call waiting for it is logged after this one);
5. no rule: prints ``[stub] unexpected call: ...`` and exits 127;
6. takes the rule's next outcome (a per-rule call counter lives in the
   spec's ``state`` directory), or ``then`` once they are used up (``then``
   null: exits 126 saying so), and plays it: print ``stdout`` / ``stderr``,
   with ``outlive_group`` wait until no other process of its process group
   is left (at most ``outlive_max_ms``), sleep ``sleep_ms``, print
   ``exit_message`` to stderr, exit with ``exit``.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import time
from typing import Any

UNEXPECTED_CALL = 127
NO_OUTCOME_LEFT = 126


def _append_line(path: str, line: str) -> None:
    # One write per call under an exclusive lock: concurrent stubs (a
    # background job beside the main process) never interleave their lines.
    with open(path, "a", encoding="utf-8") as log:
        fcntl.flock(log, fcntl.LOCK_EX)
        log.write(line + "\n")
        log.flush()


def _next_call_index(state_dir: str, rule_index: int) -> int:
    path = os.path.join(state_dir, f"rule-{rule_index}.count")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        raw = os.read(fd, 64).decode("ascii").strip()
        count = int(raw) if raw else 0
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
        os.write(fd, str(count + 1).encode("ascii"))
        return count
    finally:
        os.close(fd)


def _matches(rule: dict[str, Any], command: str, args: list[str]) -> bool:
    if rule["command"] != command:
        return False
    prefix: list[str] = rule.get("prefix", [])
    if args[: len(prefix)] != prefix:
        return False
    needle: str = rule.get("contains", "")
    return not needle or any(needle in arg for arg in args)


def _event_file(state_dir: str, event: str) -> str:
    return os.path.join(state_dir, f"event-{event}")


def _signal(state_dir: str, event: str) -> None:
    with open(_event_file(state_dir, event), "a", encoding="utf-8"):
        pass


def _wait_for(state_dir: str, event: str, limit_ms: int) -> bool:
    """Wait until ``event`` is signalled (True) or ``limit_ms`` ran out (False)."""
    happened = _event_file(state_dir, event)
    given_up = happened + ".given-up"
    deadline = time.monotonic() + limit_ms / 1000
    while not os.path.exists(happened):
        if os.path.exists(given_up) or time.monotonic() >= deadline:
            _signal(state_dir, f"{event}.given-up")
            return os.path.exists(happened)
        time.sleep(0.005)
    return True


def _group_members(pgid: int, me: int) -> list[int]:
    """Live processes of process group ``pgid`` other than ``me`` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        state, group = fields[0], int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            found.append(int(entry))
    return found


def _outlive_group(limit_ms: int) -> None:
    """Wait until this process is the last one of its group (or ``limit_ms``)."""
    me, pgid = os.getpid(), os.getpgrp()
    deadline = time.monotonic() + limit_ms / 1000
    while time.monotonic() < deadline:
        # A script that `exec`s this stub leaves its background jobs as our
        # children: reap the finished ones so they do not linger as zombies.
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
        if not _group_members(pgid, me):
            return
        time.sleep(0.02)


def main(argv: list[str]) -> int:
    command, args = argv[0], argv[1:]
    started = time.monotonic()
    with open(os.environ["WENDY_STUB_SPEC"], encoding="utf-8") as handle:
        spec: dict[str, Any] = json.load(handle)
    state: str = spec["state"]
    rules: list[dict[str, Any]] = spec["rules"]
    index = next((i for i, rule in enumerate(rules) if _matches(rule, command, args)), None)
    rule: dict[str, Any] = rules[index] if index is not None else {}
    waited: dict[str, bool] = {}
    if rule.get("waits_for"):
        event = rule["waits_for"]
        waited[event] = _wait_for(state, event, int(rule.get("wait_max_ms", 30_000)))
    recorded = {name: os.environ[name] for name in spec.get("record_env", []) if name in os.environ}
    record = {"argv": argv, "env": recorded, "t": started, "waited": waited}
    _append_line(os.environ["WENDY_STUB_LOG"], json.dumps(record))
    if rule.get("signals"):
        _signal(state, rule["signals"])
    if index is None:
        print(f"[stub] unexpected call: {json.dumps(argv)}", file=sys.stderr)
        return UNEXPECTED_CALL
    call = _next_call_index(state, index)
    outcomes: list[dict[str, Any]] = rule.get("outcomes", [])
    outcome = outcomes[call] if call < len(outcomes) else rule.get("then")
    if outcome is None:
        print(
            f"[stub] {command}: call {call + 1} has no scripted outcome: {json.dumps(argv)}",
            file=sys.stderr,
        )
        return NO_OUTCOME_LEFT
    sys.stdout.write(outcome.get("stdout", ""))
    sys.stdout.flush()
    sys.stderr.write(outcome.get("stderr", ""))
    sys.stderr.flush()
    if outcome.get("outlive_group"):
        _outlive_group(int(outcome.get("outlive_max_ms", 60_000)))
    time.sleep(int(outcome.get("sleep_ms", 0)) / 1000)
    if outcome.get("exit_message"):
        print(outcome["exit_message"], file=sys.stderr, flush=True)
    return int(outcome.get("exit", 0))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
