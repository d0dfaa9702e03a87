"""The one glob dialect (wendy_llm/repo/globs.py): what each pattern matches, and
the reason an invalid one is refused."""

from __future__ import annotations

import pytest

from wendy_llm.repo.globs import GlobError, parse_glob


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        # a pattern matches the whole text: no / means the top level only
        ("wendy.json", "wendy.json", True),
        ("wendy.json", "x/wendy.json", False),
        # * stays within one segment
        ("vllm/*", "vllm/entrypoint.sh", True),
        ("vllm/*", "vllm/conf/a.yaml", False),
        ("*.sh", "run.sh", True),
        ("*.sh", "vllm/run.sh", False),
        ("OLLAMA_*", "OLLAMA_MODEL", True),
        ("ollama/ollama*", "ollama/ollama:0.32.5", True),
        ("*ollama*", "docker.io/ollama/ollama:0.32.5", False),
        # ? is one character, never /
        ("a?c", "abc", True),
        ("a?c", "a/c", False),
        ("a?c", "ac", False),
        # ** as a whole segment: any number of segments, none included
        ("**/Dockerfile", "Dockerfile", True),
        ("**/Dockerfile", "vllm/Dockerfile", True),
        ("**/Dockerfile", "a/b/Dockerfile", True),
        ("**/Dockerfile", "vllm/Dockerfile.dev", False),
        ("vllm/**", "vllm/a/b.sh", True),
        ("vllm/**", "ollama/a", False),
        ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b", True),
        ("a/**/b", "a/x/c", False),
        ("**", "any/thing/at/all", True),
        # character classes: sets, ranges, negation (! or ^), ] first, - first or last
        ("[abc].txt", "b.txt", True),
        ("[abc].txt", "d.txt", False),
        ("v[0-9]", "v7", True),
        ("v[0-9]", "vx", False),
        ("[!a-c]x", "dx", True),
        ("[!a-c]x", "bx", False),
        ("[^a-c]x", "dx", True),
        ("a[!b]c", "a/c", False),
        ("[]]", "]", True),
        ("a[+-0]b", "a/b", False),  # a range spanning / still stays in its segment
        ("a[+-0]b", "a.b", True),
        ("[-a]", "-", True),
        ("[a-]", "-", True),
        # escaping: \ makes the next character literal
        (r"a\*", "a*", True),
        (r"a\*", "ab", False),
        (r"\[x]", "[x]", True),
        (r"\?", "?", True),
        (r"\?", "a", False),
        # regex characters are plain text
        ("a.b", "a.b", True),
        ("a.b", "axb", False),
        ("(x)+", "(x)+", True),
    ],
)
def test_a_pattern_matches_what_the_dialect_says(pattern: str, text: str, matches: bool) -> None:
    assert parse_glob(pattern).matches(text) is matches


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        ("", "an empty pattern matches nothing"),
        ("a**", "in the pattern 'a**', ** must be a whole segment (a/**/b, **/x, x/**)"),
        ("**.py", "** must be a whole segment"),
        ("[abc", "the pattern '[abc' opens a [set] it never closes"),
        ("a\\", "the pattern 'a\\\\' ends with a lone \\"),
        ("[z-a]", "the pattern '[z-a]' has a bad [set]: bad character range z-a"),
        ("a\\/b", "in the pattern 'a\\\\/b', a / cannot be escaped: it separates segments"),
    ],
)
def test_an_invalid_pattern_says_why(pattern: str, reason: str) -> None:
    with pytest.raises(GlobError) as raised:
        parse_glob(pattern)
    assert reason in str(raised.value)


def test_a_glob_is_its_text_and_compares_by_it() -> None:
    glob = parse_glob("vllm/**")
    assert str(glob) == "vllm/**"
    assert glob == parse_glob("vllm/**")
    assert hash(glob) == hash(parse_glob("vllm/**"))
    assert glob != parse_glob("vllm/*")
