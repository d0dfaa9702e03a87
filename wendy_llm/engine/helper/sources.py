"""The Go helper's source files and the digests that name a binary built from them.

:func:`source_digest` names the sources alone: a platform wheel records it
beside the helper it ships (:mod:`.shipped`), and the binary is used only
where the installed sources have the same digest.  :func:`cache_key` adds
the ``go version`` line: a helper built on this machine is cached under it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from wendy_llm.errors import ToolchainError

HELPER_SOURCE_DIR = Path(__file__).resolve().parent.parent / "gohelper"


def helper_sources(source_dir: Path = HELPER_SOURCE_DIR) -> dict[str, bytes]:
    """The helper's source files by name: ``go.mod`` and the non-test ``.go`` files."""
    code = sorted(p.name for p in source_dir.glob("*.go") if not p.name.endswith("_test.go"))
    names = ["go.mod", *code]
    try:
        return {name: (source_dir / name).read_bytes() for name in names}
    except OSError as exc:
        raise ToolchainError(f"the Go helper source is missing: {exc}") from exc


def sha256_hex(parts: Iterable[bytes]) -> str:
    import hashlib  # lazy: loading OpenSSL costs 2 ms; a remembered helper needs no hash

    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.hexdigest()


def _source_parts(sources: Mapping[str, bytes]) -> Iterator[bytes]:
    # Each file framed by its name and length: moving bytes between files
    # changes the digest.
    for name in sorted(sources):
        content = sources[name]
        yield f"{name}\0{len(content)}\0".encode()
        yield content


def source_digest(sources: Mapping[str, bytes]) -> str:
    """Hash of the helper's source files alone (what a shipped binary was built from)."""
    return sha256_hex([b"wendy-llm helper source v1\0", *_source_parts(sources)])


def cache_key(sources: Mapping[str, bytes], go_version: str) -> str:
    """Hash of the helper source files and the ``go version`` line."""
    header = b"wendy-llm helper v1\0"
    return sha256_hex([header, *_source_parts(sources), go_version.strip().encode()])[:32]
