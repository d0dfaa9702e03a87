"""The dockerfile validator: stage references per build-arg combination, chmod of run scripts."""

from __future__ import annotations

import uuid

import pytest
from _check_helpers import OLLAMA_DOCKERFILE, good_tree

from wendy_llm.device.images import parse_dockerfile
from wendy_llm.device.profiles import profiles
from wendy_llm.docker.model import Dockerfile
from wendy_llm.validate.dockerfiles.args import INJECTED, injected_values
from wendy_llm.validate.dockerfiles.check import (
    is_dockerfile,
    validate_dockerfile,
    validate_dockerfiles,
)
from wendy_llm.validate.dockerfiles.exec import shell_commands
from wendy_llm.wendycli.compose import WENDY_BUILD_ARGS


def check(text: str, files: tuple[str, ...] = ("entrypoint.sh",)) -> list[tuple[int | None, str]]:
    tree = {"svc/Dockerfile": text.encode(), **{f"svc/{f}": b"x" for f in files}}
    return [(f.line, f.message) for f in validate_dockerfile("svc/Dockerfile", text, tree, "svc")]


def test_the_good_render_passes() -> None:
    assert validate_dockerfiles(good_tree()) == []


def test_a_script_run_without_chmod() -> None:
    text = 'FROM debian:12\nCOPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/entrypoint.sh"]\n'
    assert check(text) == [
        (
            3,
            "runs /entrypoint.sh, copied at line 2 without an execute bit (wendy init writes "
            "files 0644): add `RUN chmod +x /entrypoint.sh` or `COPY --chmod=755`",
        )
    ]


@pytest.mark.parametrize(
    "fix",
    [
        "RUN chmod +x /entrypoint.sh",
        "RUN chmod 0755 /entrypoint.sh",
        "RUN chmod u+x,go+rx /entrypoint.sh",
        "RUN set -e && chmod -v a+x /*.sh && echo done",
        'RUN ["chmod", "755", "/entrypoint.sh"]',
        "RUN <<EOF\nset -e\nchmod +x /entrypoint.sh\nEOF",
        "RUN chmod \\\n    +x \\\n    /entrypoint.sh",
    ],
)
def test_ways_of_setting_the_execute_bit(fix: str) -> None:
    text = (
        f'FROM debian:12\nCOPY entrypoint.sh /entrypoint.sh\n{fix}\nENTRYPOINT ["/entrypoint.sh"]\n'
    )
    assert check(text) == []


def test_copy_chmod_flag() -> None:
    text = 'FROM debian:12\nCOPY --chmod=755 entrypoint.sh /e.sh\nCMD ["/e.sh"]\n'
    assert check(text) == []


def test_recursive_chmod_of_a_directory() -> None:
    text = 'FROM debian:12\nCOPY . /app/\nRUN chmod -R 755 /app\nCMD ["/app/entrypoint.sh"]\n'
    assert check(text) == []


def test_chmod_before_a_later_copy_does_not_count() -> None:
    text = (
        "FROM debian:12\nCOPY entrypoint.sh /e.sh\nRUN chmod +x /e.sh\n"
        'COPY entrypoint.sh /e.sh\nENTRYPOINT ["/e.sh"]\n'
    )
    assert [line for line, _ in check(text)] == [5]


def test_chmod_minus_x_removes_the_bit() -> None:
    text = (
        'FROM debian:12\nCOPY --chmod=755 entrypoint.sh /e.sh\nRUN chmod -x /e.sh\nCMD ["/e.sh"]\n'
    )
    assert [line for line, _ in check(text)] == [4]


def test_a_script_handed_to_an_interpreter_needs_no_execute_bit() -> None:
    text = (
        'FROM debian:12\nCOPY entrypoint.sh /e.sh\nENTRYPOINT ["/bin/bash", "/e.sh"]\n'
        'CMD ["serve"]\n'
    )
    assert check(text) == []


def test_sh_dash_c_executes_its_command() -> None:
    text = 'FROM debian:12\nCOPY entrypoint.sh /e.sh\nENTRYPOINT ["sh", "-c", "exec /e.sh serve"]\n'
    assert [line for line, _ in check(text)] == [3]


def test_shell_form_and_path_lookup_and_workdir() -> None:
    text = (
        "FROM debian:12\nWORKDIR /opt/app\nCOPY entrypoint.sh ./run.sh\n"
        "COPY entrypoint.sh /usr/local/bin/start\nCMD ./run.sh && start\n"
    )
    found = check(text)
    assert [m.split(",")[0] for _, m in found] == [
        "runs /opt/app/run.sh",
        "runs /usr/local/bin/start",
    ]


def test_cmd_arguments_of_an_exec_entrypoint() -> None:
    text = 'FROM debian:12\nCOPY entrypoint.sh /e.sh\nENTRYPOINT ["tini", "--"]\nCMD ["/e.sh"]\n'
    assert [line for line, _ in check(text)] == [4]


def test_setting_entrypoint_resets_an_inherited_cmd() -> None:
    base = 'FROM debian:12 AS base\nCOPY entrypoint.sh /e.sh\nCMD ["/e.sh"]\nFROM base\n'
    # The built stage inherits the CMD that runs the script...
    assert [line for line, _ in check(base + "ENV A=1\n")] == [3]
    # ...unless it sets an ENTRYPOINT, which resets it.
    assert check(base + 'ENTRYPOINT ["/usr/bin/env"]\n') == []


def test_entrypoint_keeps_a_cmd_the_same_stage_set_before_it() -> None:
    # BuildKit clears only an inherited CMD: the exec ENTRYPOINT gets this one.
    text = 'FROM debian:12\nCOPY entrypoint.sh /e.sh\nCMD ["/e.sh"]\nENTRYPOINT ["tini", "--"]\n'
    assert [line for line, _ in check(text)] == [3]


def test_a_shell_form_cmd_runs_through_the_stages_shell() -> None:
    # CMD's text goes to SHELL's program, here bash -c, which runs /e.sh.
    text = (
        'FROM debian:12\nCOPY entrypoint.sh /e.sh\nSHELL ["/bin/bash", "-c"]\n'
        'ENTRYPOINT ["tini", "--"]\nCMD /e.sh serve\n'
    )
    assert [line for line, _ in check(text)] == [5]
    # A SHELL that is not a shell (here an interpreter reading a script) runs no command.
    text = text.replace('["/bin/bash", "-c"]', '["/usr/bin/python3"]')
    assert check(text) == []


def test_a_stage_that_is_not_built_runs_nothing() -> None:
    # Only the built (last) stage's command runs in a container.
    text = 'FROM debian:12 AS tool\nCOPY entrypoint.sh /e.sh\nCMD ["/e.sh"]\nFROM debian:12\n'
    assert check(text) == []


def test_copy_inherited_from_a_parent_stage() -> None:
    text = (
        "FROM debian:12 AS base\nCOPY entrypoint.sh /e.sh\n"
        'FROM base\nRUN chmod +x /e.sh\nENTRYPOINT ["/e.sh"]\n'
    )
    assert check(text) == []


def test_a_stage_missing_for_a_vendor_a_device_passes_fails() -> None:
    # The old matrix Dockerfile (the values comment adds "generic"), with the
    # nvidia stages gone: a device reporting WENDY_GPU_VENDOR=nvidia fails.
    text = OLLAMA_DOCKERFILE.replace("FROM ollama/ollama:0.32.5 AS base-nvidia-0\n", "")
    tree = {"ollama/Dockerfile": text.encode(), "ollama/entrypoint.sh": b"x"}
    found = validate_dockerfile("ollama/Dockerfile", text, tree, "ollama")
    assert [(f.check, f.line, f.message) for f in found] == [
        (
            "dockerfile",
            12,
            "FROM base-${WENDY_GPU_VENDOR}-${WENDY_JETPACK_MAJOR} does not resolve for "
            "WENDY_GPU_VENDOR=nvidia WENDY_JETPACK_MAJOR=0: no stage named base-nvidia-0",
        )
    ]


def test_a_made_up_wendy_arg_takes_its_default() -> None:
    # WENDY_JETPACK_MAJOR is no build arg the Wendy CLI passes (wendy-run.md
    # section 3): only its default is built, so its other stages are not needed.
    text = "ARG WENDY_JETPACK_MAJOR=0\nFROM debian:12 AS base-0\nFROM base-${WENDY_JETPACK_MAJOR}\n"
    assert check(text, files=()) == []


def test_every_value_the_cli_passes_and_not_passing_it_are_built() -> None:
    # The device profiles' assumed values, and the default of a plain build
    # (or of a device that does not report it).
    text = (
        "ARG WENDY_GPU_VENDOR=none\nARG WENDY_JETPACK_VERSION=none\n"
        "FROM debian:12 AS base-nvidia-6.1\nFROM debian:12 AS base-none-none\n"
        "FROM base-${WENDY_GPU_VENDOR}-${WENDY_JETPACK_VERSION}\n"
    )
    found = check(text, files=())
    assert [m.split("for ")[1].split(":")[0] for _, m in found] == [
        "WENDY_GPU_VENDOR=none WENDY_JETPACK_VERSION=6.1",
        "WENDY_GPU_VENDOR=none WENDY_JETPACK_VERSION=L4T 38.2.1",
        "WENDY_GPU_VENDOR=nvidia WENDY_JETPACK_VERSION=L4T 38.2.1",
        "WENDY_GPU_VENDOR=nvidia WENDY_JETPACK_VERSION=none",
    ]


def test_injected_values_come_from_the_device_profiles() -> None:
    values = injected_values(profiles(["thor", "x86"]))
    assert set(values) == set(WENDY_BUILD_ARGS)
    assert values["WENDY_GPU_VENDOR"] == ("nvidia", None)
    assert values["WENDY_JETPACK_VERSION"] == ("L4T 38.2.1", None)
    assert values["WENDY_HAS_GPU"] == ("true", "false", None)
    assert "WENDY_JETPACK_MAJOR" not in INJECTED


def test_values_comment_declares_an_args_combinations() -> None:
    text = (
        "# values: cpu|cuda|rocm\nARG FLAVOUR=cpu\n"
        "FROM debian:12 AS run-cpu\nFROM debian:12 AS run-cuda\n"
        "FROM run-${FLAVOUR}\n"
    )
    assert check(text, files=()) == [
        (5, "FROM run-${FLAVOUR} does not resolve for FLAVOUR=rocm: no stage named run-rocm")
    ]


def test_a_plain_arg_takes_its_default() -> None:
    text = "ARG FLAVOUR=cpu\nFROM debian:12 AS run-cpu\nFROM run-${FLAVOUR}\n"
    assert check(text, files=()) == []


def test_a_values_comment_separated_by_a_blank_line_does_not_apply() -> None:
    text = "# values: cpu|gpu\n\nARG FLAVOUR=cpu\nFROM debian:12 AS run-cpu\nFROM run-${FLAVOUR}\n"
    assert check(text, files=()) == []


def test_an_image_from_an_arg_is_not_a_stage_reference() -> None:
    text = "ARG BASE=python:3.11\nFROM debian:12 AS x\nFROM ${BASE}\n"
    assert check(text, files=()) == []


def test_an_image_arg_without_a_value_is_empty() -> None:
    text = "ARG BASE\nFROM ${BASE}\n"
    assert check(text, files=()) == [(2, "FROM ${BASE} expands to an empty image name for BASE=")]


def test_copy_source_missing_from_the_build_context() -> None:
    text = 'FROM debian:12\nCOPY start.sh /start.sh\nRUN chmod +x /start.sh\nCMD ["/start.sh"]\n'
    assert check(text) == [
        (
            2,
            'COPY source "start.sh" is not in the build context (svc/start.sh does not exist)',
        )
    ]


def test_copy_from_another_stage_is_not_looked_up() -> None:
    text = "FROM debian:12 AS b\nFROM debian:12\nCOPY --from=b /uv /usr/local/bin/\n"
    assert check(text) == []


def test_duplicate_stage_names() -> None:
    text = "FROM debian:12 AS x\nFROM debian:13 AS X\n"
    assert check(text, files=()) == [(2, 'stage name "x" is already used at line 1')]


def test_build_context_comes_from_compose() -> None:
    tree = {
        "docker-compose.yml": b"services:\n  a:\n    build:\n      context: .\n"
        b"      dockerfile: docker/Dockerfile\n",
        "docker/Dockerfile": b'FROM debian:12\nCOPY scripts/run.sh /run.sh\nCMD ["/run.sh"]\n',
        "scripts/run.sh": b"#!/bin/sh\n",
    }
    found = validate_dockerfiles(tree)
    assert [(f.file, f.line) for f in found] == [("docker/Dockerfile", 3)]
    assert found[0].message.startswith("runs /run.sh, copied at line 2")


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("Dockerfile", True),
        ("svc/Dockerfile", True),
        ("svc/Dockerfile.cuda", True),
        ("svc/app.dockerfile", True),
        ("svc/Dockerfile-notes.md", False),
        ("svc/entrypoint.sh", False),
    ],
)
def test_which_files_are_dockerfiles(path: str, expected: bool) -> None:
    assert is_dockerfile(path) is expected


def test_shell_commands_split_on_operators() -> None:
    assert shell_commands("a 1 && b '2 3'; c | d\ne # note") == [
        ["a", "1"],
        ["b", "2 3"],
        ["c"],
        ["d"],
        ["e"],
    ]


def test_the_validator_and_the_device_view_share_one_parse_per_dockerfile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every pick's device view parses its Dockerfiles too: the validator
    # reads the same cached parse instead of making its own.
    text = f'FROM alpine:3.20\n# {uuid.uuid4()}\nCMD ["true"]\n'
    parsed: list[str] = []
    real_init = Dockerfile.__init__

    def counting_init(self: Dockerfile, source: str) -> None:
        parsed.append(source)
        real_init(self, source)

    monkeypatch.setattr(Dockerfile, "__init__", counting_init)
    assert validate_dockerfile("Dockerfile", text, {"Dockerfile": text.encode()}, ".") == []
    assert not isinstance(parse_dockerfile(text), str)
    assert parsed == [text]
