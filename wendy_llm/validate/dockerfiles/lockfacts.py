"""The lockfile facts: which install commands refuse to run without a lockfile.

One row per tool and way of asking for a locked install, as its own
documentation states it (``docs``, ``behaviour``).  The ``dockerfile``
check (:mod:`lockcheck`) reads this table and nothing else: a command
matches a row when its program is ``program`` (``python -m pip`` counts as
``pip``), its first positional words are one of ``subcommands`` (``""``:
none, as ``yarn --frozen-lockfile``), and it has one of ``flags`` (none
listed: the subcommand alone needs the lockfile).

``lockfiles`` are the names of which one must be in the image when the
command runs (a path with ``/`` names a file below a directory, as
``vendor/modules.txt`` for Go's ``vendor/``).  ``needs`` is ``"file"``, or
``"hashes"`` for pip's hash-checking mode, where every requirement of each
``-r`` file needs a ``--hash`` (and an ``==`` pin).  ``certain`` is false
where the docs leave the missing-lockfile case open: the finding is then a
warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Needs = Literal["file", "hashes"]


@dataclass(frozen=True)
class LockfileFact:
    """One tool's locked install, as its documentation states it."""

    tool: str
    program: str
    subcommands: tuple[str, ...]
    flags: tuple[str, ...]
    lockfiles: tuple[str, ...]
    behaviour: str
    docs: str
    needs: Needs = "file"
    certain: bool = True


_CARGO_BUILDS = ("build", "b", "check", "c", "test", "t", "run", "r", "fetch", "doc", "bench")
_GO_BUILDS = ("build", "install", "run", "test", "vet", "list", "generate")

LOCKFILE_FACTS: tuple[LockfileFact, ...] = (
    LockfileFact(
        tool="uv",
        program="uv",
        subcommands=("sync", "run", "export"),
        flags=("--locked", "--frozen"),
        lockfiles=("uv.lock",),
        behaviour="--locked asserts uv.lock is up to date and --frozen installs from it "
        "as is; uv exits with an error when it is missing",
        docs="https://docs.astral.sh/uv/concepts/projects/sync/",
    ),
    LockfileFact(
        tool="npm",
        program="npm",
        subcommands=("ci", "clean-install", "ic", "install-clean", "isntall-clean"),
        flags=(),
        lockfiles=("package-lock.json", "npm-shrinkwrap.json"),
        behaviour="the project must have an existing package-lock.json or npm-shrinkwrap.json",
        docs="https://docs.npmjs.com/cli/commands/npm-ci",
    ),
    LockfileFact(
        tool="yarn (berry)",
        program="yarn",
        subcommands=("install", ""),
        flags=("--immutable",),
        lockfiles=("yarn.lock",),
        behaviour="--immutable aborts with an error if the lockfile was to be modified "
        "(a missing one would be created)",
        docs="https://yarnpkg.com/cli/install",
    ),
    LockfileFact(
        tool="yarn (classic)",
        program="yarn",
        subcommands=("install", ""),
        flags=("--frozen-lockfile",),
        lockfiles=("yarn.lock",),
        behaviour="--frozen-lockfile does not generate a lockfile and fails if an update "
        "is needed (the docs do not say what happens when there is none)",
        docs="https://classic.yarnpkg.com/en/docs/cli/install",
        certain=False,
    ),
    LockfileFact(
        tool="pnpm",
        program="pnpm",
        subcommands=("install", "i"),
        flags=("--frozen-lockfile",),
        lockfiles=("pnpm-lock.yaml",),
        behaviour="--frozen-lockfile does not generate a lockfile and fails when "
        "pnpm-lock.yaml is absent or needs an update",
        docs="https://pnpm.io/cli/install#--frozen-lockfile",
    ),
    LockfileFact(
        tool="cargo",
        program="cargo",
        subcommands=_CARGO_BUILDS,
        flags=("--locked", "--frozen"),
        lockfiles=("Cargo.lock",),
        behaviour="either flag requires Cargo.lock to be up to date; if it is missing "
        "or needs an update, cargo exits with an error",
        docs="https://doc.rust-lang.org/cargo/commands/cargo-build.html#manifest-options",
    ),
    LockfileFact(
        tool="Poetry",
        program="poetry",
        subcommands=("check",),
        flags=("--lock",),
        lockfiles=("poetry.lock",),
        behaviour="`poetry check --lock` verifies that poetry.lock exists and matches "
        "pyproject.toml (`poetry install` alone needs none: it resolves and writes one)",
        docs="https://python-poetry.org/docs/cli/#check",
    ),
    LockfileFact(
        tool="pip",
        program="pip",
        subcommands=("install",),
        flags=("--require-hashes",),
        lockfiles=(),
        behaviour="hash-checking mode requires a --hash for every requirement, each pinned with ==",
        docs="https://pip.pypa.io/en/stable/topics/secure-installs/#hash-checking-mode",
        needs="hashes",
    ),
    LockfileFact(
        tool="Bundler",
        program="bundle",
        subcommands=("install", ""),
        flags=("--deployment", "--frozen"),
        lockfiles=("Gemfile.lock",),
        behaviour="the --deployment and --frozen flags require a Gemfile.lock",
        docs="https://bundler.io/man/bundle-install.1.html#DEPLOYMENT-MODE",
    ),
    LockfileFact(
        tool="Go",
        program="go",
        subcommands=_GO_BUILDS,
        flags=("-mod=vendor",),
        lockfiles=("vendor/modules.txt",),
        behaviour="-mod=vendor builds from the vendor directory (vendor/modules.txt) "
        "and never downloads; a module with no dependencies needs none",
        docs="https://go.dev/ref/mod#vendoring",
        certain=False,
    ),
    LockfileFact(
        tool="SwiftPM",
        program="swift",
        subcommands=("build", "test", "run", "package resolve"),
        flags=(
            "--force-resolved-versions",
            "--only-use-versions-from-resolved-file",
            "--disable-automatic-resolution",
        ),
        lockfiles=("Package.resolved",),
        behaviour="these flags resolve only to the versions in Package.resolved; "
        "without the file the resolution fails",
        docs="https://docs.swift.org/swiftpm/documentation/packagemanagerdocs/"
        "resolvingpackageversions/",
    ),
)


def matching_fact(words: list[str]) -> LockfileFact | None:
    """The row a command (as words, from its command word) matches, if any."""
    words = _as_program(words)
    if not words:
        return None
    program = words[0].rsplit("/", 1)[-1]
    program = "pip" if program in ("pip3", "pip") or program.startswith("pip3.") else program
    args = words[1:]
    positional = [w for w in args if not w.startswith("-")]
    for fact in LOCKFILE_FACTS:
        if fact.program != program or not _subcommand(fact, positional):
            continue
        if not fact.flags or any(_has_flag(args, flag) for flag in fact.flags):
            return fact
    return None


def _as_program(words: list[str]) -> list[str]:
    """``python -m pip ...`` as ``pip ...``."""
    name = words[0].rsplit("/", 1)[-1] if words else ""
    if name.startswith("python") and len(words) > 2 and words[1] == "-m":
        return words[2:]
    return words


def _subcommand(fact: LockfileFact, positional: list[str]) -> bool:
    for sub in fact.subcommands:
        parts = sub.split()
        if not parts and not positional:
            return True
        # The subcommand first, or after one option's value (``npm --prefix /app ci``).
        for start in (0, 1):
            if parts and positional[start : start + len(parts)] == parts:
                return True
    return False


def _has_flag(args: list[str], flag: str) -> bool:
    return any(a == flag or a.startswith(f"{flag}=") for a in args)
