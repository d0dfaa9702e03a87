"""An on-disk cache of what the external tools said about a given input.

``docker-compose config`` and ShellCheck take most of ``check``'s time, and
between two runs almost every input is the same.  Their findings are kept in
the per-user cache directory (:func:`wendy_llm.engine.toolchain.cache_dir`,
next to the Go helper), under ``results/``, one small JSON file per input.

A result is reused only for the very same question, so the cache can never
change a verdict:

- the key is a SHA-256 over the tool's input bytes (what the validator
  already keys its in-memory cache by), the identity of every tool binary
  involved (resolved path, size, modification time, inode: a new version is
  a new file) and the source of the code that runs the tool and reads its
  output (an edited validator never reads an old result);
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

from wendy_llm.atomic import write_file_atomically
from wendy_llm.engine.toolchain import cache_dir

FORMAT = 1
RESULTS_DIR = "results"

_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")


class ResultCache:
    """Tool results by key, under ``directory`` (one ``<namespace>-<key>.json`` each)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.hits = 0  # answers served from disk (for tests and the bench)

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
    """What changes whenever a tool binary is replaced (path, size, mtime, inode)."""
    try:
        resolved = binary.resolve()
        st = resolved.stat()
    except OSError:
        return f"{binary}\0unknown"
    return f"{resolved}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}"


@functools.cache
def code_version(*modules: str) -> str:
    """A digest of the source files of ``modules`` (paths), read once per process."""
    digest = hashlib.sha256()
    for module in modules:
        with contextlib.suppress(OSError):
            digest.update(Path(module).read_bytes())
        digest.update(os.fsencode(Path(module).name))
    return digest.hexdigest()
