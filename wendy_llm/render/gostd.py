"""The few Go standard-library behaviours `wendy init` depends on, in Python.

The CLI is written in Go, so some of its observable behaviour is really the
behaviour of Go's standard library.  Each function here reproduces one of
them exactly, because Python's nearest equivalent differs:

- ``go_format_value``: ``fmt.Sprintf("%v", v)`` for the values a data map
  holds (``8080.0`` -> ``8080``, ``1e6`` -> ``1e+06``, ``-0.0`` -> ``-0``).
  Python's ``repr``/``str`` differ (``8080.0``, ``1000000.0``).
- ``go_quote``: ``strconv.Quote`` (what ``%q`` prints), used in error texts.
- ``go_trim_space``: ``strings.TrimSpace``.  Python's ``str.strip()`` also
  strips U+001C..U+001F, which Go keeps.
- ``go_atoi``: ``strconv.Atoi`` on a 64-bit platform.  Python's ``int()``
  accepts ``" 5"``, ``"1_000"`` and non-ASCII digits, which Go rejects.
- ``go_parse_bool``: ``strconv.ParseBool``'s exact accepted spellings.

Go's ``unicode.IsPrint`` and Python's ``str.isprintable`` use the same
definition (letters, marks, numbers, punctuation, symbols and the ASCII
space); they can only disagree on code points whose Unicode category
changed between the two runtimes' Unicode versions.
"""

from __future__ import annotations

import math
from decimal import Decimal

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1

# unicode.IsSpace: the Latin-1 spaces plus the White_Space property.
_GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)

_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
_FALSE = frozenset({"0", "f", "F", "FALSE", "false", "False"})

_QUOTE_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    '"': '\\"',
    "\\": "\\\\",
}


def go_trim_space(text: str) -> str:
    """``strings.TrimSpace``."""
    return text.strip(_GO_SPACE)


def go_atoi(text: str) -> int | None:
    """``strconv.Atoi`` (64-bit ``int``): the integer, or None where Go errors.

    Accepted: an optional ``+``/``-`` followed by one or more ASCII digits,
    within int64.  Nothing else (no spaces, underscores, prefixes).
    """
    body = text[1:] if text[:1] in ("+", "-") else text
    if not body or not all("0" <= ch <= "9" for ch in body):
        return None
    value = int(text)
    if not _INT64_MIN <= value <= _INT64_MAX:
        return None
    return value


def go_parse_bool(text: str) -> bool | None:
    """``strconv.ParseBool``: the bool, or None where Go errors."""
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None


def go_format_float(value: float) -> str:
    """``fmt.Sprintf("%v", float64)``: ``%g`` with the shortest round-trip digits.

    Go switches to exponent form when the decimal exponent is below -4 or at
    least 6 (the ``%g`` precision used for shortest formatting), and prints
    at least two exponent digits.
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + "0"
    # repr() gives the shortest digits that round-trip, as Go's shortest mode.
    digits_tuple = Decimal(repr(abs(value))).as_tuple()
    digits = "".join(str(d) for d in digits_tuple.digits)
    exponent = int(digits_tuple.exponent)
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits = stripped.lstrip("0")
    point = len(digits) + exponent  # the decimal point sits after this many digits
    exp10 = point - 1
    if exp10 < -4 or exp10 >= 6:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mantissa}e{'-' if exp10 < 0 else '+'}{abs(exp10):02d}"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    return f"{sign}{digits[:point]}.{digits[point:]}"


def go_format_value(value: object) -> str:
    """``fmt.Sprintf("%v", value)`` for the values a template data map holds.

    Strings print as themselves, bools as ``true``/``false``, Python ints as
    Go ints, Python floats as Go float64s.  Lists print as ``[a b]`` and
    mappings as ``map[k:v]`` with sorted keys, as Go prints
    ``[]interface{}`` and ``map[string]interface{}``; None prints ``<nil>``.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_format_float(value)
    if value is None:
        return "<nil>"
    if isinstance(value, list | tuple):
        return "[" + " ".join(go_format_value(item) for item in value) + "]"
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: str(kv[0]))
        return "map[" + " ".join(f"{k}:{go_format_value(v)}" for k, v in items) + "]"
    raise TypeError(f"no Go %v formatting for {type(value).__name__}")


def go_quote(text: str) -> str:
    """``strconv.Quote`` (what Go's ``%q`` prints for a string)."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _QUOTE_ESCAPES:
            out.append(_QUOTE_ESCAPES[ch])
        elif 0xDC80 <= code <= 0xDCFF:
            # A byte smuggled in by surrogateescape: Go sees invalid UTF-8.
            out.append(f"\\x{code - 0xDC00:02x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\ufffd")
        elif ch.isprintable():
            out.append(ch)
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)
