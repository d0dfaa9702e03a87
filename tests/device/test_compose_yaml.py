"""The compose file as go-yaml v3 reads it (wendy_llm/device/compose/goyaml.py):
nodes, not values."""

from __future__ import annotations

import pytest

from wendy_llm.device.compose.goyaml import ALIAS, SCALAR, LoadError, load, mapping_items, text


def test_an_alias_stays_an_alias_and_null_is_text_in_the_node() -> None:
    root = load("x: &c serve\nc: *c\nn: null\n")
    assert root is not None
    (_, x), (_, c), (_, n) = root.pairs()
    assert (c.kind, c.target) == (ALIAS, x)
    assert text(c) == "serve"  # decoding into a string follows the alias
    assert (n.kind, n.value, text(n)) == (SCALAR, "null", "")  # a raw node keeps the text


def test_only_the_first_document_is_read() -> None:
    root = load("a: 1\n---\n: [\n")
    assert root is not None and [k.value for k, _ in root.pairs()] == ["a"]


@pytest.mark.parametrize(
    ("text_", "message", "line"),
    [
        ("a: 1\nb: 2\na: 3\n", 'mapping key "a" already defined at line 1', 3),
        ("s:\n  '1': x\n  1: y\n", 'mapping key "1" already defined at line 2', 3),
        ("a: *nope\n", "unknown anchor 'nope'", 1),
        ("a: &x [*x]\n", "anchor 'x' value contains itself", 1),
    ],
)
def test_what_fails_the_load(text_: str, message: str, line: int) -> None:
    with pytest.raises(LoadError) as caught:
        load(text_)
    assert message in caught.value.message
    assert caught.value.line == line


def test_merge_keys_expand_once_each_and_written_keys_win() -> None:
    # Nine levels of nine merges: expanding each merge anew would take 9**9 steps.
    lines = ["l0: &l0 {k: v}"]
    for level in range(1, 10):
        lines.append(f"l{level}: &l{level} {{<<: [{', '.join([f'*l{level - 1}'] * 9)}]}}")
    lines.append("top: {<<: *l9, k: mine}")
    root = load("\n".join(lines) + "\n")
    assert root is not None
    top = root.content[-1]
    items = mapping_items(top)
    assert [(k, text(v)) for k, v, _ in items] == [("k", "mine")]
