"""The shell validator: `bash -n` and ShellCheck on rendered scripts."""

from __future__ import annotations

import pytest
from _check_helpers import SCRIPT, good_tree

from wendy_llm.validate.checks.shell import ShellValidator, is_shell_script


def test_valid_scripts_pass() -> None:
    assert ShellValidator().validate(good_tree()) == []


EOF_SAID = (
    "bash -n: syntax error: unexpected end of file "
    "(at the end of the file: bash says line 4, the file has 3)"
)


def test_syntax_error_is_reported_once_with_its_line() -> None:
    """At the end of the file bash says line 4 of a 3-line script: no line is past a
    file's end, so it is the last line, said so (issue 37)."""
    tree = {"svc/entrypoint.sh": b'#!/bin/bash\nif [ -n "$1" ]; then\n  echo hi\n'}
    findings = ShellValidator().validate(tree)
    assert [(f.check, f.file, f.line, f.message) for f in findings] == [
        ("shell", "svc/entrypoint.sh", 3, EOF_SAID)
    ]


def test_a_syntax_error_inside_the_file_keeps_its_line() -> None:
    tree = {"run.sh": b"#!/bin/bash\necho (\necho ok\n"}
    ((line, message),) = [(f.line, f.message) for f in ShellValidator().validate(tree)]
    assert line == 2 and "end of the file" not in message


def test_shellcheck_warning_fails_with_code_and_line() -> None:
    tree = {"run.sh": b'#!/bin/bash\necho start\ncd /models\nunused=1\necho "$HOME"\n'}
    findings = ShellValidator().validate(tree)
    assert [(f.line, f.message.split(":")[0]) for f in findings] == [
        (3, "ShellCheck SC2164 (warning)"),
        (4, "ShellCheck SC2034 (warning)"),
    ]
    assert all(f.severity == "error" for f in findings)
    assert "unused appears unused" in findings[1].message


def test_info_level_notes_are_below_the_threshold() -> None:
    # SC2086 (unquoted expansion) is an info-level note: not reported.
    tree = {"run.sh": b"#!/bin/bash\necho $HOME\n"}
    assert ShellValidator().validate(tree) == []


def test_in_script_directives_still_apply() -> None:
    tree = {"run.sh": b"#!/bin/bash\n# shellcheck disable=SC2034\nunused=1\n"}
    assert ShellValidator().validate(tree) == []


@pytest.mark.parametrize(
    ("path", "first_line", "expected"),
    [
        ("a.sh", b"echo", True),
        ("a.bash", b"echo", True),
        ("bin/start", b"#!/bin/sh", True),
        ("bin/start", b"#!/usr/bin/env bash", True),
        ("bin/start", b"#! /bin/bash -e", True),
        ("bin/start", b"#!/usr/bin/env -S bash -eu", True),
        ("bin/start", b"#!/usr/bin/env python3", False),
        ("bin/shellish", b"#!/bin/shellcheck", False),
        ("README.md", b"# A readme", False),
    ],
)
def test_which_files_are_scripts(path: str, first_line: bytes, expected: bool) -> None:
    assert is_shell_script(path, first_line + b"\nmore\n") is expected


def test_a_script_without_extension_but_with_a_shebang_is_checked() -> None:
    tree = {"bin/start": b"#!/bin/sh\nif true; then\n"}
    findings = ShellValidator().validate(tree)
    assert [f.file for f in findings] == ["bin/start"]


def test_identical_scripts_are_checked_once_across_renders() -> None:
    validator = ShellValidator()
    trees = [good_tree() for _ in range(5)]
    assert validator.validate_many(trees) == [[] for _ in trees]
    assert validator.scripts_checked == 1
    other = {"x.sh": SCRIPT.encode() + b"echo again\n"}
    assert validator.validate_many([good_tree(), other]) == [[], []]
    assert validator.scripts_checked == 2


def test_cached_findings_carry_each_renders_own_path() -> None:
    broken = b"#!/bin/bash\nfi\n"
    validator = ShellValidator()
    results = validator.validate_many([{"a/run.sh": broken}, {"b/run.sh": broken}])
    assert [[(f.file, f.line, f.message) for f in r] for r in results] == [
        [(path, 2, "bash -n: syntax error near unexpected token `fi'")]
        for path in ("a/run.sh", "b/run.sh")
    ]


def test_a_script_name_with_a_newline_is_one_finding_without_the_host_path() -> None:
    tree = {"svc/a\n::error::x.sh": b'#!/bin/bash\nif [ -n "$1" ]; then\n  echo hi\n'}
    findings = ShellValidator().validate(tree)
    assert [(f.file, f.line, f.message) for f in findings] == [
        ("svc/a\n::error::x.sh", 3, EOF_SAID)
    ]
