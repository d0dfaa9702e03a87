"""Output safety: how text from a template, a user file or a tool is written, per format.

The author of a pull request controls every byte of every template, so any
text that reaches an output from a template, a user's file or a tool's
output is data that must never act: not on a terminal (an escape sequence
or a carriage return that paints over a line), not on GitHub's runner (a
line that starts with ``::`` is a workflow command), not in a report file
(a newline that splits a Markdown table row, a control byte that makes the
JUnit file unreadable XML).  Each format has one function here, and every
report formatter passes user text through it (the CLI's writer,
:mod:`wendy_llm.cli.output`, guards each line once more):

- :func:`text`: terminal and plain text, one field of a line.  C0 controls
  (newline and tab included), DEL, C1 controls, the Unicode line and
  paragraph separators, the bidi controls (overrides, embeddings,
  isolates, marks) and lone surrogates (a byte of a name that is not
  UTF-8) are shown escaped, as git and Python show odd bytes:
  ``\\n``, ``\\r``, ``\\t``, ``\\x1b``, ``\\u202e``.  The runner's legacy
  command form, ``##[name]data``, which it reads anywhere in a line (not
  only at its start: ``ActionCommand.TryParse`` of actions/runner looks for
  ``##[`` with ``IndexOf``), is shown as ``#\\x23[``.  Backslashes are left
  as they are (messages quote shell and regex text); an escape is always
  printable ASCII, so nothing written this way can act.
- :func:`lines`: a multi-line text kept as lines (a diff, a tool's
  message that spans lines): each line as :func:`text`, with a leading
  ``::`` shown as ``\\x3a:`` (:func:`line_start`), so that no line can be read
  as a workflow command.
- :func:`markdown_cell`, :func:`markdown_code`: one Markdown table cell,
  which one finding never leaves (newlines become ``<br>``; pipes,
  backticks, Markdown punctuation and HTML are escaped).
- :func:`xml_text`: JUnit XML 1.0, valid whatever the input: characters
  XML 1.0 cannot carry (and other controls, and ``\\r``, which a parser
  would silently turn into a newline) are shown escaped, never dropped.
- :func:`workflow_data`, :func:`workflow_property`: a GitHub workflow
  command's message and its properties (``%25``, ``%0D``, ``%0A``; in
  properties also ``%3A``, ``%2C``), other controls shown escaped.
- :func:`cut`: every function above first cuts a text longer than
  :data:`~wendy_llm.options.REPORT_MAX_TEXT_CHARS` characters, with a
  marker saying how much is left out (``… [cut: 39,996,000 more
  characters]``), so no template makes a report line of megabytes.
- JSON (and SARIF, when it exists): the text is data and is written
  unchanged; :func:`wendy_llm.reports.json.dumps` writes ASCII with
  ``\\u`` escapes, so the document carries every character exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from wendy_llm import options

__all__ = [
    "BIDI_CONTROLS",
    "LEGACY_COMMAND",
    "cut",
    "escape_char",
    "line_start",
    "lines",
    "markdown_cell",
    "markdown_code",
    "text",
    "text_uncut",
    "workflow_data",
    "workflow_property",
    "xml_text",
]

#: Unicode's bidirectional controls (UAX #9): embeddings and overrides,
#: isolates, and the implicit marks.  Shown escaped: they reorder what a
#: reader sees ("Trojan Source").
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

#: Every character :func:`text` shows escaped: C0, DEL, C1, the line and
#: paragraph separators (``str.splitlines`` and many viewers break lines at
#: them), the bidi controls, and lone surrogates (a byte of a file name that
#: is not UTF-8, ``\\udcff`` for 0xff, as the terminal guard and JSON show
#: it: no report file can be written with one, as UTF-8 refuses it).
_UNSAFE = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029{BIDI_CONTROLS}\\ud800-\\udfff]")

#: What :func:`xml_text` escapes: what XML 1.0 cannot carry (C0 but tab
#: and newline, lone surrogates, U+FFFE, U+FFFF) and the rest of :data:`_UNSAFE`.
_XML_UNSAFE = re.compile(
    f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029{BIDI_CONTROLS}\\ud800-\\udfff\\ufffe\\uffff]"
)

#: A line whose first non-blank characters are ``::`` (the runner trims
#: leading whitespace before it looks).
_COMMAND_START = re.compile(r"^(\s*):")
_LINE_START_COMMAND = re.compile(r"^\s*::")


def escape_char(char: str) -> str:
    """One character as printable ASCII: ``\\n``, ``\\x1b``, ``\\u202e``, ``\\U0001f600``."""
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _escape(match: re.Match[str]) -> str:
    return escape_char(match.group())


#: GitHub's legacy workflow command prefix, read anywhere in a line.
LEGACY_COMMAND = "##["


def cut(value: str, limit: int = options.REPORT_MAX_TEXT_CHARS) -> str:
    """``value``, or its first ``limit`` characters and how many more there were."""
    if len(value) <= limit:
        return value
    return f"{value[:limit]}… [cut: {len(value) - limit:,} more characters]"


def text(value: str) -> str:
    """One field of a terminal or plain-text line: every control shown escaped,
    and no legacy ``##[`` command."""
    return text_uncut(cut(value))


def text_uncut(value: str) -> str:
    """:func:`text` without the cut: for a text cut already, or a line of fields
    each cut (the terminal's last guard, :mod:`wendy_llm.cli.output`), or a
    line of a JSON document, which carries its data whole."""
    escaped = _UNSAFE.sub(_escape, value)
    return escaped.replace(LEGACY_COMMAND, "#" + escape_char("#") + "[")


def line_start(line: str) -> str:
    """``line`` unable to be a workflow command: a leading ``::`` (after blanks) as ``\\x3a:``."""
    if _LINE_START_COMMAND.match(line) is None:
        return line
    return _COMMAND_START.sub(lambda m: m.group(1) + escape_char(":"), line, count=1)


def lines(value: str | Iterable[str]) -> list[str]:
    """A text kept as lines (split at ``\\n`` only), each one escaped as :func:`text`
    and unable to start a workflow command."""
    items = value.split("\n") if isinstance(value, str) else list(value)
    return [line_start(text(item)) for item in items]


#: The Markdown punctuation that acts inside one table cell (emphasis, code,
#: links and images, strikethrough, the cell separator): a backslash before
#: it shows it as itself.  ``#``, ``-``, ``+`` act only at a line's start,
#: which a cell never is; ``(`` only after a ``]``, which is escaped; an
#: ``_`` inside a word never emphasises (GFM), so ``OLLAMA_MODEL`` stays as it is.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*\[\]|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
_MARKDOWN_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _lines_for_cell(value: str) -> list[str]:
    return [text_uncut(item) for item in cut(value).replace("\r\n", "\n").split("\n")]


def markdown_cell(value: str) -> str:
    """One table cell (or one line of Markdown prose): a single line that
    renders as the text itself. Lines are joined by ``<br>``; HTML and Markdown
    punctuation are escaped, so no link, image, tag or code span is made."""
    out = []
    for item in _lines_for_cell(value):
        item = "".join(_MARKDOWN_HTML.get(char, char) for char in item)
        out.append(_MARKDOWN_PUNCTUATION.sub(r"\\\1", item))
    return "<br>".join(out)


def markdown_code(value: str) -> str:
    """Inline code in a table cell: one line, fenced longer than any backtick run inside,
    pipes escaped (GFM splits cells at a pipe even in a code span)."""
    shown = " ⏎ ".join(_lines_for_cell(value)).replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") or not shown.strip() else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def xml_text(value: str) -> str:
    """Text for an XML 1.0 document (element text or attribute value, before the
    writer escapes ``&``, ``<``, ``>`` and quotes): well-formed whatever the input."""
    return _XML_UNSAFE.sub(_escape, cut(value).replace("\r", "\\r"))


def _visible_controls(value: str) -> str:
    """Every control of :func:`text` escaped but ``\\r`` and ``\\n``."""
    return _UNSAFE.sub(lambda m: m.group() if m.group() in "\r\n" else _escape(m), value)


def workflow_data(value: str) -> str:
    """A workflow command's message (``::error file=x::DATA``): the runner's escapes,
    and no legacy ``##[`` command (the runner looks for it anywhere in a line)."""
    escaped = _visible_controls(cut(value)).replace("%", "%25")
    escaped = escaped.replace(LEGACY_COMMAND, "#" + escape_char("#") + "[")
    return escaped.replace("\r", "%0D").replace("\n", "%0A")


def workflow_property(value: str) -> str:
    """A workflow command's property value (``file=``, ``title=``): as data, and ``:`` ``,``."""
    return workflow_data(value).replace(":", "%3A").replace(",", "%2C")
