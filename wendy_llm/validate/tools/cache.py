"""An on-disk cache of what the external tools said about a given input.

``docker-compose config`` and ShellCheck take most of ``check``'s time, and
between two runs almost every input is the same.  Their findings are kept in
the per-user cache directory (:func:`wendy_llm.engine.toolchain.cache_dir`,
next to the Go helper), under ``results/``, one small JSON file per input.

A result is reused only for the very same question, so the cache can never
change a verdict:

- the key is a SHA-256 over everything the tool reads (for Compose the
  whole rendered project directory it is run in: every file's path and
  bytes, and the one mode every file and directory is written with, so
  whatever ``include:``, ``extends.file``, ``env_file`` or ``.env`` point
  at is in it; for ShellCheck and ``bash -n`` the script's bytes, its file
  name and every option given), and a salt;
- the salt covers the tools (each binary's identity: resolved path, size,
  modification time to the nanosecond, and what it says its version is;
  not the inode, which a cache restore (the action's ``actions/cache``,
  a tar archive) changes while the binary stays the same) and the
  package's whole code (:func:`package_salt`: every file of the installed
  ``wendy_llm`` directory, Python, the Go helper's source, the schemas), so
  an upgrade of either never reads an older result;
- each entry repeats its key; an entry whose key, format or shape is not
  what the reader expects (corrupt, truncated, hand-edited, copied from
  another key) is ignored, the tool runs, and the entry is rewritten;
- entries are written atomically (:mod:`wendy_llm.atomic`), so a reader
  sees a whole entry or none; a cache that cannot be read or written is
  simply not used.

The directory is safe to delete at any time.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

from wendy_llm.arguments import checked
from wendy_llm.atomic import write_file_atomically
from wendy_llm.engine.toolchain import cache_dir
from wendy_llm.errors import WendyLlmError
from wendy_llm.validate.tools.programs import ToolProcesses, run_tool

FORMAT = 1
RESULTS_DIR = "results"

_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")


class ResultCache:
    """Tool results by key, under ``directory`` (one ``<namespace>-<key>.json`` each)."""

    @checked
    def __init__(self, directory: Path, *, code_salt: str | None = None) -> None:
        self.directory = directory
        self.hits = 0  # answers served from disk (for tests and the bench)
        self._code_salt = code_salt

    @property
    def code_salt(self) -> str:
        """The digest of the code whose results are stored (default: :func:`package_salt`)."""
        if self._code_salt is None:
            self._code_salt = package_salt()
        return self._code_salt

    @classmethod
    def default(cls) -> ResultCache:
        """The cache in the per-user cache directory."""
        return cls(cache_dir() / RESULTS_DIR)

    def _path(self, namespace: str, key: str) -> Path:
        return self.directory / f"{namespace}-{key}.json"

    def get(self, namespace: str, key: str, decode: Callable[[object], _T]) -> _T | None:
        """The stored value for ``key``, or None when there is no usable entry.

        ``decode`` turns the stored JSON value back into the caller's type
        and raises (``KeyError``, ``TypeError``, ``ValueError``) when its
        shape is wrong; such an entry counts as missing.
        """
        try:
            entry = json.loads(self._path(namespace, key).read_bytes())
            if entry["format"] != FORMAT or entry["key"] != key:
                return None
            value = decode(entry["value"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        self.hits += 1
        return value

    def answer(
        self,
        namespace: str,
        pending: Mapping[_K, _V],
        disk_key: Callable[[_K, _V], str],
        decode: Callable[[object], _T],
    ) -> tuple[dict[_K, _T], dict[_K, _V]]:
        """The ``pending`` questions the disk answers (decoded), and the others."""
        answered: dict[_K, _T] = {}
        left: dict[_K, _V] = {}
        for key, item in pending.items():
            found = self.get(namespace, disk_key(key, item), decode)
            if found is None:
                left[key] = item
            else:
                answered[key] = found
        return answered, left

    def put(self, namespace: str, key: str, value: object) -> None:
        """Store ``value`` (JSON-serialisable) for ``key``; failures are ignored."""
        data = json.dumps({"format": FORMAT, "key": key, "value": value}).encode("utf-8")
        with contextlib.suppress(OSError):
            write_file_atomically(self._path(namespace, key), data)


def tool_identity(binary: Path) -> str:
    """What changes whenever a tool binary is replaced (path, size, mtime): a
    reinstall writes a new mtime, and the version it reports is asked too
    (:func:`tool_salt`); the inode is left out, since restoring the same
    binary from an archive gives it a new one."""
    try:
        resolved = binary.resolve()
        st = resolved.stat()
    except OSError:
        return f"{binary}\0unknown"
    return f"{resolved}\0{st.st_size}\0{st.st_mtime_ns}"


#: The installed package: its whole code (Python, the Go helper's source,
#: the schemas and every other data file) is the cache's code salt.
PACKAGE_DIR = Path(__file__).resolve().parents[2]
#: What the interpreter writes next to the code (derived, never read as code).
_DERIVED = ("__pycache__",)


def directory_digest(root: Path) -> str:
    """A SHA-256 over every file under ``root`` (relative path, mode, bytes), sorted.

    Byte-compiled caches are left out: Python writes them, they follow from
    the sources, and they appear after the first import.
    """
    digest = hashlib.sha256()
    files: list[tuple[str, Path]] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _DERIVED]
        for name in names:
            path = Path(folder, name)
            files.append((path.relative_to(root).as_posix(), path))
    for rel, path in sorted(files):
        try:
            mode, data = path.stat().st_mode & 0o7777, path.read_bytes()
        except OSError:
            mode, data = -1, b""
        for part in (os.fsencode(rel), str(mode).encode(), data):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
    return digest.hexdigest()


@functools.cache
def package_salt() -> str:
    """:func:`directory_digest` of :data:`PACKAGE_DIR`, worked out once per process."""
    return directory_digest(PACKAGE_DIR)


def tool_salt(
    binary: Path, version_args: tuple[str, ...], processes: ToolProcesses | None = None
) -> str:
    """The tool's identity and the version it reports (``binary *version_args``).

    The version is asked once per process and binary identity: a shim (a
    script that runs whichever version is installed) keeps its identity
    when what it runs changes, and says so here.  ``processes``: the
    validator's, so that a ``check`` interrupted meanwhile kills this run
    too.
    """
    identity = tool_identity(binary)
    question = (identity, version_args)
    known = _VERSIONS.get(question)
    if known is None:
        try:
            said = run_tool([binary, *version_args], processes=processes)
        except WendyLlmError as exc:
            # Not remembered: the tool run itself will say what is wrong, and
            # the identity alone still tells this binary from another.
            return f"{identity}\0unknown: {exc}"
        known = _VERSIONS[question] = f"{said.returncode}\0{said.stdout}\0{said.stderr}"
    return f"{identity}\0{known}"


#: Each tool's version, by (identity, arguments), for this process.
_VERSIONS: dict[tuple[str, tuple[str, ...]], str] = {}
