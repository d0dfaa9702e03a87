"""ENV positions (device/images.py): where a Dockerfile's ENV sets each name, computed
once per Dockerfile and read by the device view (the instruction, along the built
stage's FROM chain) and by the rules' documents (the exact line, anywhere)."""

from __future__ import annotations

from wendy_llm.device import PROFILES
from wendy_llm.device.images import EnvSetting, built_image, env_positions
from wendy_llm.validate.rules.subject import dockerfiles_document

DOCKERFILE = """\
FROM python:3.12 AS tools
ENV TOOL=1 \\
    SHARED=tools
FROM ubuntu:24.04 AS unused
ENV UNUSED=1
FROM tools
ENV A=1 \\
    B=2 \\
    SHARED=final
"""


def test_each_setting_knows_its_stage_its_instruction_and_its_line() -> None:
    positions = env_positions(DOCKERFILE)
    assert positions.settings == (
        EnvSetting("TOOL", 0, 2, 2),
        EnvSetting("SHARED", 0, 2, 3),
        EnvSetting("UNUSED", 1, 5, 5),
        EnvSetting("A", 2, 7, 7),
        EnvSetting("B", 2, 7, 8),
        EnvSetting("SHARED", 2, 7, 9),
    )
    assert positions.chain == (2, 0)  # the built stage, then the stage it is FROM


def test_the_device_view_reads_instructions_along_the_chain_the_rules_exact_lines() -> None:
    positions = env_positions(DOCKERFILE)
    # The unused stage is not built: its ENV is not where the image's value comes from.
    assert positions.along_chain() == {"TOOL": 2, "SHARED": 7, "A": 7, "B": 7}
    assert positions.in_file() == {"TOOL": 2, "SHARED": 9, "UNUSED": 5, "A": 7, "B": 8}


def test_a_dockerfile_that_does_not_parse_has_no_positions() -> None:
    positions = env_positions("FROM\n")
    assert positions.settings == () and positions.along_chain() == {}


def test_both_users_read_the_one_computation() -> None:
    env_positions.cache_clear()
    built = built_image(DOCKERFILE, {}, PROFILES)
    document = dockerfiles_document({"Dockerfile": DOCKERFILE.encode()})
    assert env_positions.cache_info().misses == 1  # computed once, read twice
    assert built.env_lines == {"TOOL": 2, "SHARED": 7, "A": 7, "B": 7}
    assert document is not None
    assert document.locate(("Dockerfile", "environment", "values", "B")) == ("Dockerfile", 8)
