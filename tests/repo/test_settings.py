"""``wendy-llm.toml`` (``wendy_llm.repo.config``): what it holds and how a mistake reads.

Every error names the file, the line and the key; the schema is
``wendy_llm/schemas/settings.schema.json``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wendy_llm.errors import SettingsError
from wendy_llm.repo.config import key_lines, key_text, parse_settings

EXAMPLE = """\
# the settings of a templates repository
templates-dir = "."
golden-dir = "golden"
ignore = ["swift/*", "python/old"]

[sample-values."python/openai-chat"]
OPENAI_API_KEY = "sk-sample"
PORT = 8080
DEBUG = true

[rules-files]
"python/llm" = "ci/llm.rules.yaml"
"""


def parse(text: str, tmp_path: Path) -> object:
    return parse_settings(text, path=tmp_path / "wendy-llm.toml", shown="wendy-llm.toml")


def error_of(text: str, tmp_path: Path) -> str:
    with pytest.raises(SettingsError) as info:
        parse(text, tmp_path)
    return str(info.value)


def test_every_setting(tmp_path: Path) -> None:
    settings = parse_settings(EXAMPLE, path=tmp_path / "wendy-llm.toml", shown="wendy-llm.toml")
    assert (settings.templates_dir, settings.golden_dir) == (".", "golden")
    assert settings.ignores("swift/app") and settings.ignores("python/old")
    assert not settings.ignores("python/new")
    # Values are what --var would carry: TOML's 8080 and true are "8080" and "true".
    assert settings.values_for("python/openai-chat") == {
        "OPENAI_API_KEY": "sk-sample",
        "PORT": "8080",
        "DEBUG": "true",
    }
    assert settings.values_for("python/other") == {}
    assert settings.rules_files == {"python/llm": "ci/llm.rules.yaml"}
    assert settings.line("sample-values", "python/openai-chat", "PORT") == 8
    assert settings.missing_value_hint("python/openai-chat", "TOKEN") == (
        "TOKEN has no default and no sample value, so no pick can be rendered: add the line "
        'TOKEN = "..." under [sample-values."python/openai-chat"] (line 6) in wendy-llm.toml'
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'templates-dir = "."\ngolden = "x"\n',
            "wendy-llm.toml:2: golden: unknown key (known: templates-dir, golden-dir, ignore, "
            "sample-values, rules-files, golden-fixtures, findings)",
        ),
        ("golden-dir = 3\n", "wendy-llm.toml:1: golden-dir: expected a string, got 3"),
        (
            'ignore = [\n  "python/ok",\n  "nope",\n]\n',
            'wendy-llm.toml:1: ignore[1]: the string "nope" does not match the pattern',
        ),
        (
            'templates-dir = "."\nignore = ["python/ok", "swift/[abc"]\n',
            "wendy-llm.toml:2: ignore[1]: the pattern 'swift/[abc' opens a [set] it never closes",
        ),
        (
            '[sample-values."python/chat"]\nKEY = "a"\nOTHER = 1.5\n',
            'wendy-llm.toml:3: sample-values."python/chat".OTHER: expected a string, an integer '
            "or a boolean, got 1.5",
        ),
        (
            '[sample-values.chat]\nKEY = "a"\n',
            'wendy-llm.toml:1: sample-values.chat: the key "chat" does not match the pattern',
        ),
        ("[sample-values]\nx = 1\n[[\n", "wendy-llm.toml:3: not valid TOML: "),
        ("a = 1\na = 2\n", "wendy-llm.toml:2: not valid TOML: Cannot overwrite a value"),
        (
            '[rules-files]\n"python/llm" = "/etc/llm.rules.yaml"\n',
            'wendy-llm.toml:2: rules-files."python/llm": "/etc/llm.rules.yaml" is outside the '
            "repository",
        ),
    ],
)
def test_mistakes_are_located(text: str, message: str, tmp_path: Path) -> None:
    assert error_of(text, tmp_path).startswith(message)


def test_key_lines_follow_tables_dotted_and_quoted_keys() -> None:
    text = (
        'a = """\nnot = "a key"\n"""\n'
        "b.c = 1\n"
        "[t.'lit eral']\n"
        "d = { e = 1 }\n"
        '[[arr]]\n"quoted \\" key" = 2\n'
    )
    lines = key_lines(text)
    assert lines[("a",)] == 1 and ("not",) not in lines
    assert lines[("b",)] == lines[("b", "c")] == 4
    assert lines[("t", "lit eral")] == 5 and lines[("t", "lit eral", "d")] == 6
    assert lines[("arr", 'quoted " key')] == 8
    assert key_text(["sample-values", "python/llm", "PORT"]) == 'sample-values."python/llm".PORT'
    assert key_text(["ignore", 2]) == "ignore[2]"
    assert key_text([]) == "(top level)"


def test_settings_nested_past_python_s_recursion_are_an_error_naming_the_file(
    tmp_path: Path,
) -> None:
    text = "x = " + "[" * 5000 + "]" * 5000 + "\n"  # tomllib recursed to a RecursionError
    with pytest.raises(SettingsError) as caught:
        parse_settings(text, path=tmp_path / "wendy-llm.toml", shown="wendy-llm.toml")
    assert str(caught.value) == "wendy-llm.toml: not valid TOML: nested too deep"
    assert caught.value.file == "wendy-llm.toml"
