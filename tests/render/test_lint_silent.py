"""What wendy init accepts without a word: unknown question types, unnamed keys, binary files.

A question of a type the CLI does not list is an input (spec: wendy-run.md
section 5): rendered, picked and answered as one, with a warning.  A
rendered file holding binary content is rendered anyway, with a warning.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _cli_helpers import run_module
from _template_helpers import make_template, phase, radio, render_text

from wendy_llm.render.lints.silent import BinaryContent, binary_content
from wendy_llm.render.lints.warning import LintWarning
from wendy_llm.render.template import Template


def warnings(template: Template, code: str) -> list[LintWarning]:
    return [w for w in template.lint() if w.code == code]


def text_question(tmp_path: Path, **extra: object) -> Template:
    question = {"id": "GREETING", "type": "text", "default": "hello", **extra}
    return make_template(
        tmp_path,
        phases=[phase(radio("SIZE", ["s", "m"]), question)],
        files={"hello.txt": "{{.GREETING}} {{.SIZE}}\n"},
    )


# --- unknown question types ------------------------------------------------------


def test_an_unknown_question_type_renders_as_an_input(tmp_path: Path) -> None:
    template = text_question(tmp_path)
    assert render_text(template, "hello.txt") == "hello s\n"
    assert render_text(template, "hello.txt", overrides={"GREETING": "hi"}) == "hi s\n"


def test_an_unknown_question_type_without_default_is_an_empty_input(tmp_path: Path) -> None:
    template = text_question(tmp_path, default=None)
    assert render_text(template, "hello.txt") == " s\n"


def test_an_unknown_question_type_warns_with_its_line(tmp_path: Path) -> None:
    (warning,) = warnings(text_question(tmp_path), "unknown-question-type")
    lines = (tmp_path / "demo" / "template.schema.json").read_text().splitlines()
    assert warning.file == "template.schema.json"
    assert warning.line is not None and '"type": "text"' in lines[warning.line - 1]
    assert warning.message == (
        'question GREETING has type "text", which wendy init does not list (radio, checkbox, '
        'input): it is collected as an input (free text; unanswered: its default "hello")'
    )


def test_a_question_without_type_is_an_input_too(tmp_path: Path) -> None:
    template = make_template(
        tmp_path, phases=[phase({"id": "NOTE"})], files={"a.txt": "[{{.NOTE}}]"}
    )
    assert render_text(template, "a.txt") == "[]"
    (warning,) = warnings(template, "unknown-question-type")
    assert "question NOTE has no type" in warning.message


def test_picks_treat_an_unknown_type_as_one_choice_its_default(tmp_path: Path) -> None:
    template = text_question(tmp_path)
    assert [(p.slug, dict(p.answers)) for p in template.picks()] == [
        ("s", {"SIZE": "s"}),
        ("m", {"SIZE": "m"}),
    ]


def test_the_picks_and_render_commands_accept_an_unknown_type(tmp_path: Path) -> None:
    text_question(tmp_path)
    root = tmp_path / "demo"
    picks = run_module("picks", str(root), "--json")
    assert picks.code == 0, picks.err
    assert [p["slug"] for p in json.loads(picks.out)["picks"]] == ["s", "m"]
    out = tmp_path / "out"
    render = run_module("render", str(root), "--app-id", "my-app", "--out", str(out))
    assert render.code == 0, render.err
    assert "unknown-question-type" in render.err
    assert (out / "hello.txt").read_text() == "hello s\n"


# --- unnamed variables and questions ------------------------------------------------


def test_a_variable_or_question_without_a_name_warns(tmp_path: Path) -> None:
    template = make_template(
        tmp_path,
        variables=[{"type": "string", "default": "x"}],
        phases=[phase({"type": "input", "default": "y"})],
        files={"a.txt": "a"},
    )
    found = [(w.file, w.message.split(":")[0]) for w in warnings(template, "unnamed")]
    assert found == [
        ("template.json", "variables[0] has no name"),
        ("template.schema.json", "a question has no id"),
    ]
    # As in the CLI: the variable fills "", so the id-less question is never asked.
    assert template.values("app")[""] == "x"


# --- binary content --------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "found"),
    [
        (b"plain text\n", None),
        ("caf\u00e9\n".encode(), None),
        (b"line\n\x00\x01", BinaryContent("a NUL byte", 5, 2)),
        (b"a\nb\n\xff", BinaryContent("invalid UTF-8", 4, 3)),
        (b"\xc3\x00", BinaryContent("invalid UTF-8", 0, 1)),
        (b"ok\x00\xff", BinaryContent("a NUL byte", 2, 1)),
    ],
)
def test_binary_content_finds_the_first_nul_or_invalid_utf8(
    data: bytes, found: BinaryContent | None
) -> None:
    assert binary_content(data) == found


def test_a_rendered_binary_file_warns_naming_the_file(tmp_path: Path) -> None:
    blob = b'{"k": 1}\n' + bytes(range(0, 40))  # NUL bytes, and no "{{"
    template = make_template(
        tmp_path,
        files={"calibration/intrinsics.json": blob, "logo.png": b"\x89PNG\x00", "a.txt": "a"},
    )
    (warning,) = warnings(template, "binary-content")
    assert (warning.file, warning.line) == ("calibration/intrinsics.json", 2)
    assert warning.message.startswith("a NUL byte at byte 9: wendy init still renders it")
    assert template.render("app")["calibration/intrinsics.json"] == blob


def test_a_manifest_with_invalid_utf8_in_a_string_warns(tmp_path: Path) -> None:
    template = make_template(tmp_path, variables=[{"name": "A", "default": "x"}])
    manifest = tmp_path / "demo" / "template.json"
    manifest.write_bytes(manifest.read_bytes().replace(b'"x"', b'"\xff"'))
    template = Template(
        id="t/demo", name="demo", root=None, files={"template.json": manifest.read_bytes()}
    )
    (warning,) = warnings(template, "binary-content")
    assert warning.file == "template.json"
    assert "U+FFFD" in warning.message
