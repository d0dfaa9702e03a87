"""The dockerfile validator fails exactly where ``docker build`` (BuildKit) fails.

COPY/ADD sources by BuildKit's rules (wildcards, ``--from``, URLs, heredocs,
``.dockerignore``), what its parser reads (continuations, ``# escape=``),
what it refuses (unknown instructions, parse errors), and which stages a
build runs.  Only the validator's public entry points are used.
"""

from __future__ import annotations

import pytest

from wendy_llm.docker.context import is_dockerfile_name
from wendy_llm.validate.dockerfiles.check import validate_dockerfile, validate_dockerfiles

Found = list[tuple[int | None, str, str]]


def check(text: str, *files: str, ignore: str | None = None) -> Found:
    """Findings for ``svc/Dockerfile`` whose context ``svc/`` holds ``files``."""
    tree = {"svc/Dockerfile": text.encode(), **{f"svc/{f}": b"x" for f in files}}
    if ignore is not None:
        tree["svc/.dockerignore"] = ignore.encode()
    found = validate_dockerfile("svc/Dockerfile", text, tree, "svc")
    return [(f.line, f.severity, f.message) for f in found]


def lines(found: Found) -> list[int | None]:
    return [line for line, _, _ in found]


# --- COPY sources -------------------------------------------------------------


def test_the_npm_idiom_with_no_lock_file_passes() -> None:
    text = "FROM node:22\nWORKDIR /app\nCOPY package.json package-lock.json* ./\nRUN npm install\n"
    assert check(text, "package.json") == []
    # The COPY passes; `npm ci` itself needs the lock file (test_validate_lockfiles.py).
    ((line, severity, message),) = check(text.replace("npm install", "npm ci"), "package.json")
    assert (line, severity) == (4, "error") and "needs package-lock.json" in message


def test_a_wildcard_matching_nothing_is_accepted_even_as_the_only_source() -> None:
    assert check("FROM node:22\nCOPY *.lock ./\n", "package.json") == []
    assert check("FROM node:22\nCOPY src/*.py /app/\n", "src/main.js") == []


def test_a_wildcard_whose_directory_does_not_exist_fails() -> None:
    assert check("FROM node:22\nCOPY missing-dir/* ./\n", "package.json") == [
        (
            2,
            "error",
            'COPY source "missing-dir/*" is not in the build context '
            "(directory svc/missing-dir does not exist)",
        )
    ]


def test_a_plain_source_that_is_missing_fails_beside_a_wildcard() -> None:
    text = "FROM node:22\nCOPY package.json yarn.lock* ./\n"
    assert lines(check(text)) == [2]
    assert "svc/package.json does not exist" in check(text)[0][2]


def test_a_directory_source_and_the_context_root() -> None:
    assert check("FROM debian:12\nCOPY src /app/src\nCOPY . /app/\n", "src/a.py") == []


def test_sources_from_a_stage_an_image_a_url_or_a_heredoc_are_not_in_the_context() -> None:
    text = (
        "FROM golang:1.23 AS build\nRUN go build -o /out/app .\n"
        "FROM debian:12\n"
        "COPY --from=build /out/app /usr/local/bin/app\n"
        "COPY --from=busybox:1.36 /bin/busybox /bin/busybox\n"
        "ADD https://example.com/tool.tar.gz /opt/\n"
        "COPY <<EOF /etc/app.conf\nport=8080\nEOF\n"
        "COPY <<-A <<-B /etc/\n\tone\n\tA\n\ttwo\n\tB\n"
    )
    assert check(text) == []


def test_sources_spread_over_continuation_lines_with_comments_between() -> None:
    text = "FROM debian:12\nCOPY a.txt \\\n# a comment inside\n     b.txt \\\n\n     /app/\n"
    assert check(text, "a.txt", "b.txt") == []
    assert check(text, "a.txt") == [
        (
            2,
            "error",
            'COPY source "b.txt" is not in the build context (svc/b.txt does not exist)',
        )
    ]


def test_the_escape_directive_changes_the_continuation_character() -> None:
    text = "# escape=`\nFROM debian:12\nCOPY a.txt `\n     b.txt `\n     C:\\app\\\n"
    assert check(text, "a.txt", "b.txt") == []
    assert lines(check(text, "a.txt")) == [3]


def test_sources_expand_args_and_env_of_their_stage() -> None:
    text = (
        "ARG APP=server\nFROM debian:12\nARG APP\nENV CONF=${APP}.conf\n"
        "COPY ${APP}/main.py $CONF /app/\n"
    )
    assert check(text, "server/main.py", "server.conf") == []
    assert lines(check(text, "server/main.py")) == [5]


def test_a_source_built_from_the_base_images_env_is_not_judged() -> None:
    # APP_HOME comes from the base image's ENV, which this check cannot see.
    assert check("FROM my/base:1\nCOPY $APP_HOME/x /x\n") == []


def test_a_missing_source_in_a_stage_that_is_not_built_does_not_fail() -> None:
    text = "FROM debian:12 AS docs\nCOPY docs/ /docs/\nFROM debian:12\nCOPY app.py /app/\n"
    assert check(text, "app.py") == []


def test_a_missing_source_in_a_stage_copied_from_fails() -> None:
    text = (
        "FROM debian:12 AS assets\nCOPY static/ /static/\n"
        "FROM debian:12\nCOPY --from=assets /static /srv\n"
    )
    assert lines(check(text)) == [2]


# --- .dockerignore ----------------------------------------------------------------


def test_a_plain_source_excluded_by_dockerignore_fails() -> None:
    text = "FROM python:3.12\nCOPY .env /app/.env\n"
    assert check(text, ".env") == []
    assert check(text, ".env", ignore="# secrets\n.env\n") == [
        (2, "error", 'COPY source ".env" is not in the build context (svc/.env does not exist)')
    ]


def test_dockerignore_exceptions_directories_and_double_stars() -> None:
    ignore = "docs\n**/*.pyc\n*.md\n!README.md\n"
    text = "FROM python:3.12\nCOPY README.md src/ /app/\n"
    assert check(text, "README.md", "src/a.py", "src/b.pyc", ignore=ignore) == []
    assert lines(check("FROM x\nCOPY docs/guide.txt /d/\n", "docs/guide.txt", ignore=ignore)) == [2]
    assert lines(check("FROM x\nCOPY NOTES.md /d/\n", "NOTES.md", ignore=ignore)) == [2]
    # A wildcard sees only what is sent: nothing, which BuildKit accepts.
    assert check("FROM x\nCOPY *.md /d/\n", "NOTES.md", ignore="*.md\n") == []


def test_a_dockerfile_specific_ignore_file_wins() -> None:
    text = "FROM x\nCOPY a.txt /a\n"
    tree = {
        "svc/Dockerfile": text.encode(),
        "svc/a.txt": b"x",
        "svc/.dockerignore": b"a.txt\n",
        "svc/Dockerfile.dockerignore": b"b.txt\n",
    }
    assert validate_dockerfile("svc/Dockerfile", text, tree, "svc") == []


def test_a_malformed_dockerignore_fails_the_build() -> None:
    found = check("FROM x\n", ignore="[abc\n")
    assert [(f[1], f[2]) for f in found] == [
        ("error", 'syntax error in pattern "[abc" (docker build fails)')
    ]


# --- the build context ------------------------------------------------------------


def test_a_root_dockerfile_builds_from_the_template_root() -> None:
    tree = {
        "Dockerfile": b'FROM python:3.12\nCOPY app/ /app/\nCMD ["python", "/app/main.py"]\n',
        "app/main.py": b"print()\n",
        "wendy.json": b'{"appId": "x"}',
    }
    assert validate_dockerfiles(tree) == []
    tree["Dockerfile"] += b"COPY requirements.txt /app/\n"
    assert [(f.file, f.line) for f in validate_dockerfiles(tree)] == [("Dockerfile", 4)]


def test_a_compose_context_and_its_dockerignore() -> None:
    tree = {
        "docker-compose.yml": b"services:\n  a:\n    build:\n      context: .\n"
        b"      dockerfile: docker/Dockerfile\n",
        "docker/Dockerfile": b"FROM debian:12\nCOPY scripts/ /opt/scripts/\nCOPY notes.txt /\n",
        "scripts/run.sh": b"#!/bin/sh\n",
        "notes.txt": b"x",
        ".dockerignore": b"notes.txt\n",
    }
    found = validate_dockerfiles(tree)
    assert [(f.file, f.line, f.message) for f in found] == [
        (
            "docker/Dockerfile",
            3,
            'COPY source "notes.txt" is not in the build context (notes.txt does not exist)',
        )
    ]


# --- what BuildKit refuses --------------------------------------------------------


def test_an_unknown_instruction_fails() -> None:
    assert check("FROM debian:12\nCOPPY a.txt /a\n", "a.txt") == [
        (2, "error", "unknown instruction: COPPY")
    ]


def test_lower_case_instructions_are_instructions() -> None:
    assert check("from debian:12 as base\ncopy a.txt /a\nfrom base\n", "a.txt") == []


def test_a_parse_error_fails_with_buildkits_message() -> None:
    assert check("FROM debian:12\nRUN <<EOF\necho never ends\n") == [
        (None, "error", "BuildKit cannot parse it: unterminated heredoc")
    ]
    assert check("FROM debian:12\nENV A=1 B\n")[0][2].startswith(
        'BuildKit cannot parse it: Syntax error - can\'t find = in "B"'
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "BuildKit cannot parse it: file with no instructions"),
        ("ARG A=1\n", "no FROM instruction"),
        ("RUN true\nFROM x\n", "RUN before the first FROM (only ARG may come before it)"),
        ("FROM a b\n", "FROM takes an image and optionally `AS name`"),
        ("FROM x\nCOPY a\n", "COPY requires at least 2 arguments"),
        ("FROM x\nENV =1\n", "ENV names can not be blank"),
        ("FROM x\nONBUILD FROM y\n", "FROM isn't allowed as an ONBUILD trigger"),
        (
            "FROM x AS 1st\n",
            'invalid stage name "1st": it must start with a letter '
            "and use only letters, digits, -, _ and .",
        ),
        (
            "FROM x\nARG B\nRUN echo ${A:?unset}\nCOPY ${B:?unset} /\n",
            'COPY source "${B:?unset}": B: unset',
        ),
        ("FROM x\nARG B\nCOPY ${B:?is not set} /\n", "syntax error: missing '}'"),
    ],
)
def test_what_buildkit_refuses(text: str, message: str) -> None:
    found = check(text, "a")
    assert any(m.endswith(message) for _, severity, m in found if severity == "error"), found


def test_stages_that_build_on_each_other_in_a_circle_fail() -> None:
    text = "FROM b AS a\nFROM a AS b\nFROM a\n"
    assert [(line, m) for line, _, m in check(text)] == [
        (1, "circular dependency: stage a builds FROM itself"),
        (2, "circular dependency: stage b builds FROM itself"),
    ]


def test_a_dockerfile_that_is_not_utf8_is_still_checked() -> None:
    tree = {"svc/Dockerfile": b"# caf\xe9\nFROM debian:12\nCOPY a.txt /\n"}
    found = validate_dockerfiles(tree)
    assert [(f.line, f.severity) for f in found] == [(None, "warning"), (3, "error")]


def test_a_stage_reference_that_resolves_to_nothing_fails() -> None:
    text = "FROM debian:12 AS run-cpu\nFROM run-${FLAVOUR}\n"
    # FLAVOUR is not a global ARG, so FROM sees it empty: ``run-`` is no stage.
    assert check(text) == [
        (2, "error", "FROM run-${FLAVOUR} does not resolve for FLAVOUR=: no stage named run-")
    ]


# --- running scripts ---------------------------------------------------------------


def test_a_mode_change_this_check_cannot_follow_is_a_warning() -> None:
    text = (
        "FROM debian:12\nCOPY entrypoint.sh /app/e.sh\n"
        "RUN find /app -name '*.sh' -exec chmod +x {} +\n"
        'ENTRYPOINT ["/app/e.sh"]\n'
    )
    found = check(text, "entrypoint.sh")
    assert [(line, severity) for line, severity, _ in found] == [(4, "warning")]
    assert found[0][2].endswith("; line 3 may set it in a way this check cannot follow")


def test_apt_get_install_is_not_a_mode_change() -> None:
    text = (
        "FROM debian:12\nCOPY entrypoint.sh /e.sh\n"
        "RUN apt-get install -y curl\n"
        'ENTRYPOINT ["/e.sh"]\n'
    )
    assert [(line, severity) for line, severity, _ in check(text, "entrypoint.sh")] == [
        (4, "error")
    ]


def test_a_script_copied_into_an_existing_directory_without_a_slash() -> None:
    text = "FROM debian:12\nCOPY start /usr/local/bin\nCMD start\n"
    found = check(text, "start")
    assert [m.split(",")[0] for _, _, m in found] == ["runs /usr/local/bin/start"]


def test_a_file_handed_to_the_program_is_read_not_run() -> None:
    # The census's false failure: redis-server runs, its config is only read.
    text = (
        "FROM redis:7.4-alpine\nCOPY redis.conf /usr/local/etc/redis/redis.conf\n"
        'CMD ["redis-server", "/usr/local/etc/redis/redis.conf"]\n'
    )
    assert check(text, "redis.conf") == []


def test_an_entrypoints_arguments_from_cmd_are_not_run() -> None:
    text = (
        "FROM debian:12\nCOPY e.sh /e.sh\nCOPY app.yml /app.yml\nRUN chmod +x /e.sh\n"
        'ENTRYPOINT ["/e.sh"]\nCMD ["/app.yml"]\n'
    )
    assert check(text, "e.sh", "app.yml") == []


@pytest.mark.parametrize(
    "command",
    [
        '["tini", "--", "/e.sh"]',
        '["/usr/bin/env", "MODE=prod", "/e.sh"]',
        '["gosu", "app", "/e.sh", "serve"]',
        '["timeout", "--preserve-status", "60", "/e.sh"]',
        "exec /e.sh serve",
    ],
)
def test_a_wrapper_runs_the_script_after_it(command: str) -> None:
    text = f"FROM debian:12\nCOPY e.sh /e.sh\nENTRYPOINT {command}\n"
    assert [(line, severity) for line, severity, _ in check(text, "e.sh")] == [(3, "error")]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Dockerfile", True),
        ("Dockerfile.cuda", True),
        ("app.Dockerfile", True),
        ("app.dockerfile", True),
        ("dockerfile", False),
        ("Dockerfile-notes.md", False),
        (".dockerignore", False),
    ],
)
def test_one_rule_says_which_files_are_dockerfiles(name: str, expected: bool) -> None:
    # The dockerfile check and the rules' `dockerfiles` document read the same files.
    assert is_dockerfile_name(name) is expected


def test_a_script_linked_or_copied_by_a_run_keeps_its_missing_execute_bit() -> None:
    # The image model follows `ln -s` and `cp` (issue 35): the CMD's program is the
    # 0644 script the COPY put at line 2, wherever a RUN made it reachable.
    for run in (
        "ln -s /app/start.sh /usr/local/bin/start",
        "cp /app/start.sh /usr/local/bin/start",
    ):
        text = f'FROM alpine:3.20\nCOPY start.sh /app/start.sh\nRUN {run}\nCMD ["start"]\n'
        found = check(text, "start.sh")
        assert [(line, severity) for line, severity, _ in found] == [(4, "error")], run
        made = "copied at line 2" if run.startswith("ln") else "written (RUN cp) at line 3"
        assert f"{made} without an execute bit" in found[0][2]
        fixed = text.replace("COPY start.sh", "COPY --chmod=755 start.sh")
        assert check(fixed, "start.sh") == [], run
