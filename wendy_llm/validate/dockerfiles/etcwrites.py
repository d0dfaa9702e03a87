"""Which shell commands write, move or link over ``/etc/hosts`` or ``/etc/resolv.conf``.

Two facts make such a write fail (docs/checks.md, "Build-time and run-time files"):

- **Builds**: in a ``RUN`` step BuildKit binds both files into the
  container; the step cannot write or replace them, so the build fails
  (:func:`run_step_writes`, read by the ``dockerfile`` check);
- **Network**: with host networking (a network entitlement in mode empty
  or ``host``) the device binds ``/etc/resolv.conf`` read-only at run time;
  an entry script writing it fails there, while ``/etc/hosts`` is the
  image's own file and may be written (:func:`script_writes` with
  :data:`RUNTIME_READ_ONLY`, read by the ``device`` check).

Commands are read with the shell parser the Dockerfile checks already use
(:func:`~wendy_llm.validate.dockerfiles.exec.shell_commands`): what it
cannot see (a path in a variable, a write inside a function called
elsewhere) is not judged.  A write is an output redirection (``>``,
``>>``, ``>|``, ``&>``) to the file, ``tee``, ``sed -i``/``perl -i``, ``dd
of=``, or the file as the destination of ``cp``, ``mv``, ``install``,
``ln`` (and ``mv`` of the file itself, which would unlink the bind);
``sh -c '...'`` and its kin are followed into their text.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from wendy_llm.validate.dockerfiles.exec import shell_commands

HOSTS = "/etc/hosts"
RESOLV_CONF = "/etc/resolv.conf"
#: Bound into every ``RUN`` step by BuildKit.
BUILD_TIME_BOUND = (HOSTS, RESOLV_CONF)
#: Bound read-only into a host-network container on the device.
RUNTIME_READ_ONLY = (RESOLV_CONF,)

_SHELLS = re.compile(r"^(?:sh|bash|dash|ash|zsh|ksh)$")
_REDIRECT = re.compile(r"^(?:[0-9]*|&)(?:>>|>\||>)(.*)$")
#: ``echo x>/etc/hosts``: the shell splits at ``>``; the lexer keeps one word.
_GLUED_REDIRECT = re.compile(r"[^>]>>?(/[^>]*)$")
#: Words that may come before the command word of a simple command.
_PREFIXES = frozenset({"then", "do", "else", "!", "{", "time", "exec", "sudo", "command"})
_DESTINATION_LAST = frozenset({"cp", "mv", "install", "ln"})


@dataclass(frozen=True)
class EtcWrite:
    """One command that writes a protected file: which file, how, the command's text."""

    path: str
    how: str
    command: str


def run_step_writes(texts: Iterable[str], protected: Sequence[str]) -> list[EtcWrite]:
    """The writes to ``protected`` files in shell texts (a RUN's text, its heredocs)."""
    found: list[EtcWrite] = []
    for text in texts:
        for words in shell_commands(text):
            found += command_writes(words, protected)
    return found


def script_writes(text: str, protected: Sequence[str]) -> list[tuple[int, EtcWrite]]:
    """The writes to ``protected`` files in a script, with their 1-based line."""
    found: list[tuple[int, EtcWrite]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        found += [(number, write) for write in run_step_writes([line], protected)]
    return found


def command_writes(words: Sequence[str], protected: Sequence[str]) -> list[EtcWrite]:
    """What one simple command (as words) writes of ``protected``."""
    shown = " ".join(words)
    found = [EtcWrite(path, "redirects output to", shown) for path in _redirected(words, protected)]
    command = _command(words)
    if not command:
        return found
    name = posixpath.basename(command[0])
    operands = [w for w in command[1:] if not w.startswith("-") and not _REDIRECT.match(w)]
    if _SHELLS.match(name):
        for index, word in enumerate(command[1:-1], start=1):
            if re.fullmatch(r"-[a-zA-Z]*c[a-zA-Z]*", word):
                return found + run_step_writes([command[index + 1]], protected)
        return found
    if name == "tee":
        found += [EtcWrite(p, "writes (tee)", shown) for p in _named(operands, protected)]
    elif name in ("sed", "perl") and any(_in_place(w) for w in command[1:]):
        found += [
            EtcWrite(p, f"edits in place ({name} -i)", shown) for p in _named(operands, protected)
        ]
    elif name == "dd":
        targets = [w[3:] for w in command[1:] if w.startswith("of=")]
        found += [EtcWrite(p, "writes (dd of=)", shown) for p in _named(targets, protected)]
    elif name in _DESTINATION_LAST and len(operands) >= 1:
        target = _target_dir(command) or operands[-1]
        sources = operands if _target_dir(command) else operands[:-1]
        landed = [target]
        if target.endswith("/") or posixpath.normpath(target) == "/etc":
            landed += [posixpath.join(target, posixpath.basename(s)) for s in sources]
        verb = {"ln": "links over", "mv": "moves over", "cp": "copies over"}.get(name, "installs")
        found += [EtcWrite(p, f"{verb} ({name})", shown) for p in _named(landed, protected)]
        if name == "mv":
            found += [EtcWrite(p, "moves away (mv)", shown) for p in _named(sources, protected)]
    return found


def _command(words: Sequence[str]) -> list[str]:
    """``words`` from the command word on: no assignments, keywords or redirections first."""
    out = list(words)
    while out and (
        out[0] in _PREFIXES
        or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", out[0])
        or _REDIRECT.match(out[0])
    ):
        out = out[2:] if out[0] in (">", ">>", ">|") else out[1:]
    return out


def _redirected(words: Sequence[str], protected: Sequence[str]) -> list[str]:
    targets = []
    for index, word in enumerate(words):
        match = _REDIRECT.match(word) or _GLUED_REDIRECT.search(word)
        if match is None:
            continue
        target = match.group(1) or (words[index + 1] if index + 1 < len(words) else "")
        if not target.startswith("&"):  # ``2>&1`` duplicates a descriptor
            targets.append(target)
    return _named(targets, protected)


def _named(words: Iterable[str], protected: Sequence[str]) -> list[str]:
    """The protected paths ``words`` name (absolute paths only: a relative one depends on
    the working directory, which this check does not follow)."""
    out = []
    for word in words:
        if word.startswith("/") and "$" not in word:
            path = posixpath.normpath(word)
            if path in protected and path not in out:
                out.append(path)
    return out


def _in_place(word: str) -> bool:
    return (
        word == "--in-place"
        or word.startswith("--in-place=")
        or bool(re.fullmatch(r"-[a-zA-Z]*i.*", word) and not word.startswith("--"))
    )


def _target_dir(command: Sequence[str]) -> str | None:
    """``-t DIR`` / ``--target-directory=DIR``: every operand lands in DIR (never a file)."""
    for index, word in enumerate(command):
        if word == "-t" and index + 1 < len(command):
            return posixpath.join(command[index + 1], "")
        if word.startswith("--target-directory="):
            return posixpath.join(word.partition("=")[2], "")
    return None
