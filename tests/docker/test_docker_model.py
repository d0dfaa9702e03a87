"""The Dockerfile model: what BuildKit's parser reads, and stages, ARG and ENV by its rules."""

from __future__ import annotations

import pytest

from wendy_llm.docker.expand import ExpansionError
from wendy_llm.docker.model import Dockerfile, StageEnv
from wendy_llm.docker.syntax import DockerfileSyntaxError, parse

# --- syntax: what BuildKit's parser reads ----------------------------------------


def test_instructions_lines_flags_and_forms() -> None:
    text = (
        "# syntax=docker/dockerfile:1\n"
        "FROM --platform=$BUILDPLATFORM golang:1.23 AS build\n"
        "RUN echo one \\\n  # a comment inside a continuation\n  two\n"
        'COPY --from=build --chmod=755 ["/out/app", "/usr/local/bin/"]\n'
        "onbuild run make\n"
    )
    found = [
        (i.keyword, i.args, i.flags, i.exec_form, i.line, i.end_line, i.trigger)
        for i in parse(text).instructions
    ]
    assert found == [
        ("FROM", ("golang:1.23", "AS", "build"), ("--platform=$BUILDPLATFORM",), False, 2, 2, None),
        ("RUN", ("echo one   two",), (), False, 3, 5, None),
        (
            "COPY",
            ("/out/app", "/usr/local/bin/"),
            ("--from=build", "--chmod=755"),
            True,
            6,
            6,
            None,
        ),
        ("ONBUILD", ("make",), (), False, 7, 7, "RUN"),
    ]
    copy = parse(text).instructions[2]
    assert copy.flag("from") == "build"
    assert copy.flag("link") is None


def test_heredocs_and_the_comments_above_an_instruction() -> None:
    text = "FROM x\n# values: a|b\n# second\nRUN <<EOF bash\n# not a comment\nset -e\nEOF\nCMD y\n"
    run, cmd = parse(text).instructions[1:]
    assert run.comments == ("# values: a|b", "# second")
    assert [(h.name, h.content) for h in run.heredocs] == [("EOF", "# not a comment\nset -e\n")]
    assert (run.line, run.end_line) == (4, 7)
    assert cmd.comments == ()  # the heredoc body is not a comment above CMD


def test_the_escape_directive() -> None:
    parsed = parse("# escape=`\nFROM x\nRUN a `\n  b\n")
    assert parsed.escape == "`"
    assert [i.args for i in parsed.instructions] == [("x",), ("a   b",)]
    # A directive after anything else is a comment.
    assert parse("FROM x\n# escape=`\nRUN a\n").escape == "\\"


def test_a_parse_error_is_a_syntax_error() -> None:
    with pytest.raises(DockerfileSyntaxError, match="unterminated heredoc"):
        parse("FROM x\nRUN <<EOF\nnever ends\n")


# --- stages and base images ------------------------------------------------------------


def test_stages_names_platforms_and_the_final_base_image() -> None:
    dockerfile = Dockerfile(
        "ARG BASE=debian:12\n"
        "FROM --platform=$BUILDPLATFORM ${BASE} AS Build\nRUN make\n"
        "FROM build AS test\n"
        "FROM build\n"
    )
    stages = [(s.index, s.base, s.name, s.platform, s.line) for s in dockerfile.stages]
    assert stages == [
        (0, "${BASE}", "build", "$BUILDPLATFORM", 2),
        (1, "build", "test", None, 4),
        (2, "build", None, None, 5),
    ]
    assert dockerfile.final_base_image() == "debian:12"
    assert dockerfile.final_base_image({"BASE": "ubuntu:24.04"}) == "ubuntu:24.04"
    assert dockerfile.final_base_image(target="test") == "debian:12"
    assert dockerfile.built_stage().index == 2
    assert dockerfile.built_stage("TEST").index == 1
    with pytest.raises(KeyError):
        dockerfile.built_stage("nope")


def test_a_base_image_from_a_platform_argument_is_unknown() -> None:
    dockerfile = Dockerfile("FROM base-$TARGETARCH\n")
    assert dockerfile.final_base_image() is None
    assert dockerfile.final_base_image({"TARGETARCH": "arm64"}) == "base-arm64"


def test_a_build_arg_reaches_from_only_through_a_global_arg() -> None:
    dockerfile = Dockerfile("FROM python:${PY:-3.12}\n")
    assert dockerfile.final_base_image({"PY": "3.11"}) == "python:3.12"
    declared = Dockerfile("ARG PY\nFROM python:${PY:-3.12}\n")
    assert declared.final_base_image({"PY": "3.11"}) == "python:3.11"
    assert declared.final_base_image() == "python:3.12"


def test_the_from_chain_stops_at_an_image_a_cycle_or_a_from_that_cannot_expand() -> None:
    dockerfile = Dockerfile("FROM debian:12 AS base\nFROM base AS mid\nFROM scratch\nFROM mid\n")
    build = dockerfile.build()
    assert list(build.chain(3)) == [3, 1, 0]
    assert list(build.chain(2)) == [2]
    looped = Dockerfile("FROM b AS a\nFROM a AS b\nFROM b\n").build()
    assert list(looped.chain(2)) == [2, 1, 0]
    assert looped.final_base_image(2) is None
    broken = Dockerfile("FROM ${X:?unset} AS a\nFROM a\n").build()
    walked: list[int] = []
    with pytest.raises(ExpansionError, match="FROM at line 1"):
        for index in broken.chain(1):
            walked.append(index)
    assert walked == [1, 0]  # stage 0 is reached; its own FROM is what fails


def test_reachable_stages() -> None:
    dockerfile = Dockerfile(
        "FROM a AS one\nFROM b AS two\nFROM c AS three\n"
        "FROM one\nCOPY --from=two /x /x\nRUN --mount=type=bind,from=0,target=/y true\n"
    )
    build = dockerfile.build()
    assert build.reachable(build.target()) == [0, 1, 3]
    assert build.reachable(build.target("three")) == [2]


def test_a_chain_of_600_stages_is_walked_without_recursion() -> None:
    # Each stage FROM the one before: the recursive walk ran out of stack (issue 38).
    lines = ["FROM debian:12 AS s0", "ENV DEPTH=0"]
    lines += [f"FROM s{i - 1} AS s{i}" for i in range(1, 600)]
    build = Dockerfile("\n".join([*lines, "ENV LAST=yes"]) + "\n").build()
    assert build.env(599).values == {"DEPTH": "0", "LAST": "yes"}
    assert build.env(599).base_image == "debian:12"
    assert build.reachable(599) == list(range(600))
    looped = Dockerfile("FROM b AS a\nENV A=1\nFROM a AS b\nENV B=2\nFROM b\n").build()
    assert looped.env(2).values == {"A": "1", "B": "2"}  # the cycle's walk stops, as before


# --- ARG and ENV ------------------------------------------------------------------------


def env(text: str, build_args: dict[str, str] | None = None, stage: int = -1) -> StageEnv:
    dockerfile = Dockerfile(text)
    return dockerfile.effective_env(dockerfile.stages[stage], build_args)


def test_a_global_arg_must_be_redeclared_to_be_seen_in_a_stage() -> None:
    text = "ARG VERSION=1.0\nFROM scratch\nENV A=v$VERSION\nARG VERSION\nENV B=v$VERSION\n"
    assert env(text).values == {"A": "v", "B": "v1.0"}
    assert env(text, {"VERSION": "2.0"}).values == {"A": "v", "B": "v2.0"}


def test_arg_defaults_build_args_and_undeclared_build_args() -> None:
    text = 'FROM scratch\nARG A=one B="two words" C\nENV X="$A/$B/${C:-none}/$D"\n'
    assert env(text).values == {"X": "one/two words/none/"}
    assert env(text, {"A": "1", "C": "3", "D": "ignored"}).values == {"X": "1/two words/3/"}


def test_env_sees_what_came_before_the_instruction() -> None:
    text = "FROM scratch\nENV A=1\nENV A=2 B=$A\nENV C=${A}${B}\n"
    assert env(text).values == {"A": "2", "B": "1", "C": "21"}


def test_env_wins_over_an_arg_of_the_same_name() -> None:
    text = "FROM scratch\nENV V=env\nARG V=arg\nENV W=$V\n"
    assert env(text, {"V": "build-arg"}).values == {"V": "env", "W": "env"}


def test_env_is_inherited_from_a_stage_not_args() -> None:
    text = "FROM scratch AS base\nARG A=1\nENV E=$A\nFROM base\nENV F=${A:-unset}\n"
    assert env(text).values == {"E": "1", "F": "unset"}


def test_the_env_of_an_external_image_is_unknown() -> None:
    text = "FROM python:3.12\nARG MODE\nENV PATH=/opt/bin:$PATH APP=/app M=${MODE:-dev}\n"
    result = env(text)
    assert result.values == {"APP": "/app", "M": "dev"}
    assert result.unknown == {"PATH"}
    assert result.base_image == "python:3.12"


def test_wendy_injected_build_args_reach_a_stage_that_declares_them() -> None:
    text = (
        "FROM debian:12\nARG WENDY_PLATFORM WENDY_DEBUG=false WENDY_GPU_VENDOR\n"
        "ENV PLATFORM=$WENDY_PLATFORM DEBUG=$WENDY_DEBUG GPU=${WENDY_GPU_VENDOR:-none}\n"
    )
    injected = {"WENDY_PLATFORM": "wendyos", "WENDY_DEBUG": "true", "WENDY_CUDA_VERSION": "12.6"}
    assert env(text, injected).values == {"PLATFORM": "wendyos", "DEBUG": "true", "GPU": "none"}


def test_an_expansion_error_names_the_instruction_and_line() -> None:
    with pytest.raises(ExpansionError, match=r"^ENV at line 3: X: required$") as caught:
        env("FROM scratch\nARG X\nENV A=${X:?required}\n")
    assert caught.value.line == 3
