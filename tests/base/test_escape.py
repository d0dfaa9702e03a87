"""The output-safety functions, one per format (issue 29, item 1)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from _hypothesis_profiles import property_settings
from hypothesis import given
from hypothesis import strategies as st

import wendy_llm.escape as escape
from wendy_llm import options

HOSTILE = "a\nb\rc\x1b[2Kok\x00\x7f\x85\x9b\u202egnp.exe\u2066x\u2028y\t|`<b>&::error::z"


def is_safe_text(value: str) -> bool:
    """Printable and free of every character :func:`escape.text` escapes."""
    return all(
        not (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or c in "\u2028\u2029" + escape.BIDI_CONTROLS)
        for c in value
    )


def test_text_shows_every_control_escaped() -> None:
    assert escape.text(HOSTILE) == (
        "a\\nb\\rc\\x1b[2Kok\\x00\\x7f\\x85\\x9b\\u202egnp.exe\\u2066x\\u2028y\\t|`<b>&::error::z"
    )
    assert escape.text("plain ü 日本 \\x1b") == "plain ü 日本 \\x1b"  # backslashes stay


def test_the_legacy_command_form_is_shown_escaped_anywhere_in_a_line() -> None:
    # actions/runner reads `##[name]data` wherever it is in a line.
    assert escape.text("key ##[error]fake") == "key #\\x23[error]fake"
    assert escape.text("###[x] ##[[") == "##\\x23[x] #\\x23[["
    assert escape.text("# [ ## [") == "# [ ## ["


def test_a_line_cannot_start_a_workflow_command() -> None:
    assert escape.line_start("::error file=a::boom") == "\\x3a:error file=a::boom"
    assert escape.line_start("   \t::stop-commands::x") == "   \t\\x3a:stop-commands::x"
    assert escape.line_start("a ::error::x") == "a ::error::x"
    assert escape.line_start(":single") == ":single"
    assert escape.lines("ok\n::warning::x\r\n  ::set-output") == [
        "ok",
        "\\x3a:warning::x\\r",
        "  \\x3a:set-output",
    ]
    assert escape.lines(["::a", "b"]) == ["\\x3a:a", "b"]


def test_a_markdown_cell_is_one_line_that_renders_as_itself() -> None:
    cell = escape.markdown_cell("a | b\n`c` <img src=x> & [l](u) *e* ~s~\r\n\x1b")
    assert "\n" not in cell and "\r" not in cell
    assert cell == (
        "a \\| b<br>\\`c\\` &lt;img src=x&gt; &amp; \\[l\\](u) \\*e\\* \\~s\\~<br>\\\\x1b"
    )  # the escape's backslash is escaped too: it renders as \x1b
    assert escape.markdown_code("a`|b\nc") == "``a`\\|b ⏎ c``"
    assert escape.markdown_code("`x`") == "`` `x` ``"


def test_xml_text_is_valid_xml_and_drops_nothing() -> None:
    value = escape.xml_text("a\x00b\x1bc\rd\ne\tf\ud800g\uffffh\u202e")
    assert value == "a\\x00b\\x1bc\\rd\ne\tf\\ud800g\\uffffh\\u202e"
    root = ET.Element("t", message=value)
    root.text = value
    parsed = ET.fromstring(ET.tostring(root, encoding="unicode"))
    assert parsed.text == value and parsed.get("message") == value


def test_workflow_command_escapes() -> None:
    assert escape.workflow_data("100%\r\nnext\x1b") == "100%25%0D%0Anext\\x1b"
    assert escape.workflow_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    # An annotation's message is a line of the log too: no legacy command in it.
    assert escape.workflow_data("ok ##[error]x") == "ok #\\x23[error]x"


@property_settings()
@given(st.text())
def test_no_escape_lets_a_control_through(value: str) -> None:
    assert is_safe_text(escape.text(value)) and "##[" not in escape.text(value)
    shown = escape.lines(value)
    assert len(shown) == value.count("\n") + 1
    assert all(is_safe_text(line) and not line.lstrip().startswith("::") for line in shown)
    cell = escape.markdown_cell(value)
    assert is_safe_text(cell) and "|" not in cell.replace("\\|", "")
    code = escape.markdown_code(value)
    assert is_safe_text(code) and "|" not in code.replace("\\|", "")
    xml = escape.xml_text(value)
    assert ET.fromstring(ET.tostring(ET.Element("t", a=xml), encoding="unicode")).get("a") == xml
    data = escape.workflow_data(value)
    assert "\n" not in data and "\r" not in data
    assert not set(escape.workflow_property(value)) & set(":,\r\n")


@pytest.mark.parametrize("char", ["\x1b", "\u202e", "\x85", "\U0001f600"])
def test_escape_char_is_printable_ascii(char: str) -> None:
    assert escape.escape_char(char).isascii() and escape.escape_char(char).isprintable()


def test_a_text_past_the_report_limit_is_cut_with_a_marker_in_every_format() -> None:
    """A 40 MB rendered line once reached the job log whole (issue 38)."""
    limit = options.REPORT_MAX_TEXT_CHARS
    wide = "x" * (limit + 39_999)
    marker = "… [cut: 39,999 more characters]"
    assert escape.cut(wide) == "x" * limit + marker
    assert escape.cut("short") == "short"
    for shown in (
        escape.text(wide),
        escape.xml_text(wide),
        escape.workflow_data(wide),
        escape.lines(wide)[0],
    ):
        assert len(shown) == limit + len(marker), shown[-60:]
    assert escape.markdown_cell(wide).endswith("… \\[cut: 39,999 more characters\\]")


def test_a_byte_of_a_name_that_is_not_utf8_is_shown_escaped_in_every_text_format() -> None:
    name = b"py/mini\xff".decode("utf-8", "surrogateescape")
    for shown in (escape.text(name), escape.markdown_cell(name), escape.workflow_data(name)):
        assert "\\udcff" in shown
        shown.encode("utf-8")  # a report file can be written with it
