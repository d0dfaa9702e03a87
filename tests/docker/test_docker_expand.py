"""BuildKit's word expansion (``shell/lex.go``) and ``.dockerignore`` matching (patternmatcher)."""

from __future__ import annotations

import pytest

from wendy_llm.docker.dockerignore import DockerIgnore, DockerIgnoreError, read_patterns
from wendy_llm.docker.expand import Expansion, ExpansionError, Variables, expand

VALUES = Variables({"A": "x", "E": "", "P": "/usr/local/bin/app.tar.gz"})


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("$A-${A}-${NOPE}", "x-x-"),
        ("${E:-d}|${E-d}|${NOPE-d}|${NOPE:-d}", "d||d|d"),
        ("${A:+y}|${E:+y}|${E+y}|${NOPE+y}", "y||y|"),
        ("${A:?unset}", "x"),
        ("${P#*/}|${P##*/}", "usr/local/bin/app.tar.gz|app.tar.gz"),
        ("${P%.*}|${P%%.*}", "/usr/local/bin/app.tar|/usr/local/bin/app"),
        ("${P/l/L}|${P//l/L}", "/usr/Local/bin/app.tar.gz|/usr/LocaL/bin/app.tar.gz"),
        ("${NOPE:-${A}y}", "xy"),
        ('"two words"', "two words"),
        ("'$A'", "$A"),
        ('"$A \\$A \\x \\""', 'x $A \\x "'),
        ("a\\ b\\$A", "a b$A"),
        ("$", "$"),
        ("cost: $5", "cost: "),
    ],
)
def test_expansion_forms(word: str, expected: str) -> None:
    assert expand(word, VALUES) == Expansion(expected)


def test_the_escape_character_can_be_a_backtick() -> None:
    assert expand("C:\\dir`$A", VALUES, escape="`").text == "C:\\dir$A"


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("${E:?}", "E: is not allowed to be empty"),
        ("${NOPE?}", "NOPE: is not allowed to be unset"),
        ("${NOPE:?give it}", "NOPE: give it"),
        ("${A", "syntax error: missing '}'"),
        ("${}", "syntax error: bad substitution"),
        ("${A:x}", "unsupported modifier (:x) in substitution"),
        ("'open", "unexpected end of statement while looking for matching single-quote"),
        ('"open', "unexpected end of statement while looking for matching double-quote"),
    ],
)
def test_expansion_errors(word: str, message: str) -> None:
    with pytest.raises(ExpansionError) as caught:
        expand(word, VALUES)
    assert str(caught.value) == message


def test_unknowable_variables_are_reported_not_guessed() -> None:
    image_env = Variables({"APP": "/app"}, open=True, unset=frozenset({"MODE"}))
    assert expand("$PATH:$APP", image_env) == Expansion(":/app", ("PATH",))
    assert expand("${MODE:-dev}", image_env) == Expansion("dev")
    assert expand("${HOME:?}", image_env) == Expansion("", ("HOME",))  # no error: may be set
    platform = Variables({}, unknown=frozenset({"TARGETARCH"}))
    assert expand("base-$TARGETARCH-$OTHER", platform) == Expansion("base--", ("TARGETARCH",))


def test_dockerignore_patterns_are_cleaned() -> None:
    text = "\ufeff# comment\n  ./build/  \n\n/dist\n! keep.txt\n #not a comment\n"
    assert read_patterns(text) == ["build", "dist", "!keep.txt", "#not a comment"]


@pytest.mark.parametrize(
    ("patterns", "path", "excluded"),
    [
        ("node_modules", "node_modules/a/b.js", True),
        ("node_modules", "web/node_modules/a.js", False),
        ("**/node_modules", "web/node_modules/a.js", True),
        ("*.md", "README.md", True),
        ("*.md", "docs/a.md", False),
        ("*/*.md", "docs/a.md", True),
        ("*.md\n!README.md", "README.md", False),
        ("!README.md\n*.md", "README.md", True),
        ("docs\n!docs/keep.txt", "docs/keep.txt", False),
        ("docs\n!docs/keep.txt", "docs/other.txt", True),
        ("**", "anything/at/all", True),
        ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b", True),
        ("file?.txt", "file1.txt", True),
        ("file?.txt", "file10.txt", False),
        ("[a-c].txt", "b.txt", True),
        ("[^a-c].txt", "b.txt", False),
        ("\\*.txt", "*.txt", True),
        ("\\*.txt", "a.txt", False),
        ("a.b", "axb", False),
    ],
)
def test_dockerignore_matching(patterns: str, path: str, excluded: bool) -> None:
    assert DockerIgnore(patterns).excludes(path) is excluded


@pytest.mark.parametrize("text", ["!\n", "[abc\n"])
def test_a_malformed_dockerignore_is_an_error(text: str) -> None:
    with pytest.raises(DockerIgnoreError):
        DockerIgnore(text)
