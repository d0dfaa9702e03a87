"""What a toolchain build links against at run time, from each toolchain's documented defaults.

- ``swift build`` on Linux links the Swift runtime (``libswiftCore.so`` and
  Foundation) dynamically unless ``--static-swift-stdlib`` (or a static
  Linux SDK, ``--swift-sdk ...musl``) is given: the binaries under
  ``.build/`` need an image with the Swift runtime (swift.org, "Swift on
  Linux: static linking"; the ``swift:*-slim`` images carry it);
- ``go build`` with ``CGO_ENABLED=1`` links the builder's C library
  (``cmd/cgo`` docs); without it set, what the toolchain chose is not known
  here, and nothing is said;
- ``cargo build`` links the builder's C library for its default target
  (glibc on Debian, musl statically on Alpine: the Rust platform-support
  page); an explicit ``--target`` names its own;
- ``dotnet publish`` without ``--self-contained``/``--sc``/``PublishAot`` is
  framework-dependent: the image must carry the .NET runtime (Microsoft's
  "publish overview");
- ``gcc``/``cc``/``g++``/``clang`` without ``-static`` link the builder's C library.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from wendy_llm.docker.image.bases import BaseFacts
from wendy_llm.docker.image.facts import Linkage, Output
from wendy_llm.docker.image.runwrites import Word

_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_SELF_CONTAINED = re.compile(
    r"--self-contained(?!\s+false)|--sc\b|selfcontained=true|publishaot=true"
)
_COMPILERS = re.compile(r"^(?:gcc|cc|g\+\+|c\+\+|clang|clang\+\+)(?:-[0-9.]+)?$")


def _libc(base: BaseFacts | None) -> Linkage | None:
    if base is None or base.libc is None:
        return None
    return "musl" if base.libc == "musl" else "glibc"


def _value(args: Sequence[str], *flags: str) -> str | None:
    for index, arg in enumerate(args):
        if arg in flags and index + 1 < len(args):
            return args[index + 1]
        for flag in flags:
            if flag.startswith("--") and arg.startswith(flag + "="):
                return arg.partition("=")[2]
    return None


def toolchain_outputs(
    words: Sequence[str],
    cwd: str,
    line: int,
    word: Word,
    builder: BaseFacts | None,
    cgo_env: str | None,
) -> list[Output]:
    """The outputs of one simple command that need something at run time."""
    env = {m[1]: m[2] for w in words if (m := _ASSIGNMENT.match(w))}
    command = [w for w in words if not _ASSIGNMENT.match(w) and w not in ("sudo", "exec")]
    if not command:
        return []
    name = posixpath.basename(command[0])
    args = command[1:]

    def at(path: str) -> str:
        expanded = word(path)
        return posixpath.normpath(posixpath.join(cwd, expanded if expanded else path))

    text = " ".join(words)
    if name == "swift" and args[:1] == ["build"]:
        sdk = _value(args, "--swift-sdk") or ""
        static = "--static-swift-stdlib" in args or "-static-stdlib" in args or "musl" in sdk
        if static:
            return []
        place = _value(args, "--scratch-path", "--build-path") or ".build"
        how = (
            f"line {line}: `{text}` (no --static-swift-stdlib: the Swift runtime is "
            "linked dynamically)"
        )
        return [Output(at(place), "swift-runtime", line, how)]
    if name == "go" and args[:1] == ["build"]:
        cgo = env.get("CGO_ENABLED", cgo_env)
        libc = _libc(builder)
        if cgo != "1" or libc is None:
            return []
        out = _value(args, "-o")
        how = f"line {line}: `{text}` (CGO_ENABLED=1 links the builder's {libc})"
        return [Output(at(out or "."), libc, line, how)] if out else []
    if name == "cargo" and args[:1] == ["build"]:
        libc = _libc(builder)
        if _value(args, "--target") is not None or libc != "glibc":
            return []  # musl targets link statically; another target: not modelled
        how = f"line {line}: `{text}` (links the builder's glibc)"
        return [Output(at("target"), "glibc", line, how)]
    if name == "dotnet" and args[:1] == ["publish"]:
        joined = " ".join(args).lower()
        if _SELF_CONTAINED.search(joined):
            return []
        out = _value(args, "-o", "--output")
        how = f"line {line}: `{text}` (framework-dependent: needs the .NET runtime)"
        return [Output(at(out), "dotnet-runtime", line, how)] if out else []
    if _COMPILERS.match(name) and "-static" not in args:
        libc = _libc(builder)
        out = _value(args, "-o")
        if libc is None or out is None or "-c" in args:
            return []
        how = f"line {line}: `{text}` (links the builder's {libc})"
        return [Output(at(out), libc, line, how)]
    return []
