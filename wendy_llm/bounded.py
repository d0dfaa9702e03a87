"""A JSON reader that refuses hostile nesting with a parse error, never a crash.

Python's ``json`` decoder and every walker after it (JSON positions, JSON
Schema validation, the validators) recurse once or more per level of
nesting, so a few hundred levels ended in a ``RecursionError``. JSON nested
deeper than :data:`~wendy_llm.options.MAX_DOCUMENT_DEPTH` is refused with
:class:`JsonTooDeep`, a ``json.JSONDecodeError`` (line and column of the
first bracket too many), so callers word it as any other syntax error.
YAML's limits are in :mod:`wendy_llm.bounded_yaml`.
"""

from __future__ import annotations

import json
import re

from wendy_llm import options

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = options.MAX_DOCUMENT_DEPTH

# A string (escapes skipped; an unterminated one runs to the end) or a bracket;
# the string is the unrolled loop, which scans a run of plain characters at once.
_JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


class JsonTooDeep(json.JSONDecodeError):
    """JSON nested deeper than :data:`MAX_DEPTH`."""


def check_json_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Raise :class:`JsonTooDeep` at the first bracket nested deeper than ``limit``."""
    # No deeper than the opening brackets it holds (those in strings included):
    # every manifest and wendy.json is decided here, without the scan, which
    # costs more than parsing the JSON.
    if text.count("[") + text.count("{") <= limit:
        return
    depth = 0
    for token in _JSON_TOKENS.finditer(text):
        char = text[token.start()]
        if char in "[{":
            depth += 1
            if depth > limit:
                raise JsonTooDeep(f"nested deeper than {limit} levels", text, token.start())
        elif char in "]}":
            depth -= 1


def _int_or_float(text: str) -> int | float:
    # int() refuses more than 4300 digits (sys.set_int_max_str_digits);
    # such a number is far beyond float64, as Go reads every JSON number.
    try:
        return int(text)
    except ValueError:
        return float(text)


def json_loads(text: str, **kwargs: Any) -> Any:
    """``json.loads(text, **kwargs)``, refusing nesting deeper than :data:`MAX_DEPTH`;
    an integer too long for Python's ``int()`` reads as a float (``inf``)."""
    check_json_depth(text)
    kwargs.setdefault("parse_int", _int_or_float)
    return json.loads(text, **kwargs)
