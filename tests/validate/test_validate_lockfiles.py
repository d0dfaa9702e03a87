"""The lockfile rules: one fixture per row of the table of facts, failing before, passing after.

Each row's fact (its docs link is in the row, and in the message) says the
command refuses to run without its lockfile; each fixture runs the command
once without the lockfile in the image (a failure naming the row) and once
with it copied first (no finding).
"""

from __future__ import annotations

import pytest

from wendy_llm.validate.dockerfiles.check import validate_dockerfile
from wendy_llm.validate.dockerfiles.lockfacts import LOCKFILE_FACTS, LockfileFact, matching_fact

HASHED = "flask==3.0.0 --hash=sha256:" + "a" * 64 + "\n"

#: tool -> (the install command, the lockfile it needs, that file's content, manifest files)
FIXTURES: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "uv": ("uv sync --locked --no-dev", "uv.lock", "version = 1\n", ("pyproject.toml",)),
    "npm": ("npm ci --omit=dev", "package-lock.json", "{}\n", ("package.json",)),
    "yarn (berry)": ("yarn install --immutable", "yarn.lock", "\n", ("package.json",)),
    "yarn (classic)": ("yarn --frozen-lockfile", "yarn.lock", "\n", ("package.json",)),
    "pnpm": ("pnpm install --frozen-lockfile", "pnpm-lock.yaml", "x: 1\n", ("package.json",)),
    "cargo": ("cargo build --release --locked", "Cargo.lock", "\n", ("Cargo.toml",)),
    "Poetry": ("poetry check --lock", "poetry.lock", "\n", ("pyproject.toml",)),
    "pip": ("pip install --require-hashes -r requirements.txt", "requirements.txt", HASHED, ()),
    "Bundler": ("bundle install --deployment", "Gemfile.lock", "\n", ("Gemfile",)),
    "Go": ("go build -mod=vendor -o /app ./...", "vendor/modules.txt", "\n", ("go.mod",)),
    "SwiftPM": (
        "swift build --force-resolved-versions",
        "Package.resolved",
        "{}\n",
        ("Package.swift",),
    ),
}


def findings(text: str, files: dict[str, str]) -> list[tuple[str, int | None, str]]:
    tree = {"svc/Dockerfile": text.encode(), **{f"svc/{k}": v.encode() for k, v in files.items()}}
    found = validate_dockerfile("svc/Dockerfile", text, tree, "svc")
    return [(f.severity, f.line, f.message) for f in found]


def test_every_row_has_a_fixture() -> None:
    assert sorted(FIXTURES) == sorted(fact.tool for fact in LOCKFILE_FACTS)


@pytest.mark.parametrize("fact", LOCKFILE_FACTS, ids=lambda f: f.tool)
def test_each_row_is_data_with_its_docs(fact: LockfileFact) -> None:
    assert fact.docs.startswith("https://") and fact.behaviour
    assert fact.lockfiles or fact.needs == "hashes"
    command = FIXTURES[fact.tool][0]
    assert matching_fact(command.split()) == fact


@pytest.mark.parametrize("fact", LOCKFILE_FACTS, ids=lambda f: f.tool)
def test_each_row_fails_without_its_lockfile_and_passes_with_it(fact: LockfileFact) -> None:
    command, lockfile, content, manifests = FIXTURES[fact.tool]
    files = {m: "\n" for m in manifests}
    if fact.needs == "hashes":
        files[lockfile] = "flask>=3\n"  # there, but not hashed
    before = (
        "FROM debian:12\nWORKDIR /app\n"
        + "".join(f"COPY {m} ./\n" for m in manifests)
        + ("COPY requirements.txt ./\n" if fact.needs == "hashes" else "")
        + f"RUN {command}\n"
    )
    line = before.count("\n")
    ((severity, at, message),) = findings(before, files)
    assert at == line
    assert severity == ("error" if fact.certain else "warning")
    assert message.startswith(f"RUN `{command}` ")
    assert f"({fact.tool}: {fact.behaviour}; {fact.docs})" in message
    # After: the lockfile is in the context and copied before the RUN.
    files[lockfile] = content
    after = before.replace(f"RUN {command}", f"COPY {lockfile} ./{lockfile}\nRUN {command}")
    assert findings(after, files) == []


def test_a_lockfile_copied_after_the_run_is_not_there_yet() -> None:
    text = "FROM node:22\nWORKDIR /app\nCOPY package.json ./\nRUN npm ci\nCOPY . .\n"
    ((_, line, message),) = findings(text, {"package.json": "{}", "package-lock.json": "{}"})
    assert line == 4
    assert "needs package-lock.json or npm-shrinkwrap.json, which no COPY before line 4" in message
    assert "(the build context has package-lock.json)" in message


def test_a_lockfile_excluded_by_dockerignore_is_not_in_the_context() -> None:
    text = "FROM node:22\nWORKDIR /app\nCOPY . .\nRUN npm ci\n"
    files = {
        "package.json": "{}",
        "package-lock.json": "{}",
        ".dockerignore": "*.json\n!package.json\n",
    }
    ((_, line, message),) = findings(text, files)
    assert line == 4
    assert "the build context lacks: .dockerignore excludes svc/package-lock.json" in message
    del files[".dockerignore"]
    assert findings(text, files) == []


def test_either_npm_lockfile_will_do() -> None:
    text = "FROM node:22\nWORKDIR /app\nCOPY . .\nRUN npm ci\n"
    assert findings(text, {"package.json": "{}", "npm-shrinkwrap.json": "{}"}) == []


def test_a_bind_mount_of_the_context_brings_the_lockfile() -> None:
    text = (
        "FROM python:3.12\nWORKDIR /app\n"
        "RUN --mount=type=bind,source=uv.lock,target=uv.lock "
        "--mount=type=bind,source=pyproject.toml,target=pyproject.toml uv sync --frozen\n"
    )
    assert findings(text, {"uv.lock": "x", "pyproject.toml": "x"}) == []
    ((_, _, message),) = findings(
        text.replace("source=uv.lock,target=uv.lock ", "source=pyproject.toml,target=x "),
        {"uv.lock": "x", "pyproject.toml": "x"},
    )
    assert "uv sync --frozen" in message


def test_a_script_the_run_starts_is_read() -> None:
    script = "#!/bin/sh\nset -e\ncargo build --locked\n"
    text = "FROM rust:1\nWORKDIR /src\nCOPY Cargo.toml build.sh ./\nRUN sh ./build.sh\n"
    ((_, line, message),) = findings(text, {"Cargo.toml": "", "build.sh": script})
    assert line == 4
    assert message.startswith(
        "script svc/build.sh (run at line 4) `cargo build --locked` needs Cargo.lock"
    )


def test_a_copy_from_another_stage_into_the_workdir_is_not_judged() -> None:
    text = (
        "FROM node:22 AS deps\nRUN true\nFROM node:22\nWORKDIR /app\n"
        "COPY --from=deps /app /app\nRUN npm ci\n"
    )
    assert findings(text, {}) == []


def test_pip_hashes_every_requirement() -> None:
    text = (
        "FROM python:3.12\nWORKDIR /app\nCOPY requirements.txt .\n"
        "RUN pip install --require-hashes -r requirements.txt\n"
    )
    good = HASHED + "jinja2==3.1.4 \\\n    --hash=sha256:" + "b" * 64 + "\n"
    assert findings(text, {"requirements.txt": good}) == []
    ((_, _, message),) = findings(text, {"requirements.txt": good + "markupsafe==2.1.5\n"})
    assert "reads svc/requirements.txt, whose line 4 (markupsafe==2.1.5) has no --hash" in message
    unpinned = "flask>=3 --hash=sha256:" + "a" * 64 + "\n"
    ((_, _, message),) = findings(text, {"requirements.txt": unpinned})
    assert "is not pinned with ==" in message


def test_only_the_build_arg_combination_that_runs_it_fails() -> None:
    text = (
        "# values: locked|loose\nARG MODE=loose\n"
        "FROM node:22 AS base-locked\nWORKDIR /app\nCOPY package.json ./\nRUN npm ci\n"
        "FROM node:22 AS base-loose\nWORKDIR /app\nCOPY package.json ./\nRUN npm install\n"
        "FROM base-${MODE}\n"
    )
    ((_, line, message),) = findings(text, {"package.json": "{}"})
    assert line == 6 and "needs package-lock.json" in message
    assert message.endswith("(with MODE=locked)")


@pytest.mark.parametrize(
    "command",
    [
        "npm install",
        "uv sync",
        "yarn install",
        "cargo build --release",
        "pip install -r r.txt",
        "poetry install",
        "go build ./...",
    ],
)
def test_unlocked_installs_need_no_lockfile(command: str) -> None:
    assert matching_fact(command.split()) is None


def test_a_run_that_tests_for_the_lockfile_first_is_not_judged() -> None:
    # tests/_realrepo's node apps: `npm ci` only when the lock file is there.
    text = (
        "FROM node:22\nWORKDIR /app\nCOPY package.json ./\n"
        "RUN if [ -f package-lock.json ]; then npm ci; else npm install; fi\n"
    )
    assert findings(text, {"package.json": "{}"}) == []
