"""Whether a number is written in a template's text (the variant avoids those).

The variant (:mod:`wendy_llm.render.variants`) gives an integer variable a
value no rendered template file already holds; :meth:`Template.writes_number`
asks this, once per template and number.
"""

from __future__ import annotations

from collections.abc import Iterable

_ZERO, _MINUS = ord("0"), ord("-")


def is_written(files: Iterable[bytes], number: int) -> bool:
    """Whether ``number`` is written in ``files`` as a whole number.

    A run of ASCII digits (leading zeros allowed) whose value is ``abs(number)``;
    a negative ``number`` needs a ``-`` right before the run.  ``bytes.find``
    looks for the digits, so only the few candidates a variable can take
    cost a pass over the text, never every number of a large file.
    """
    digits = str(abs(number)).encode()
    for data in files:
        start = data.find(digits)
        while start >= 0:
            end = start + len(digits)
            first = start
            while first > 0 and data[first - 1] == _ZERO:
                first -= 1
            # data[-1:0] is empty: a run at the very start has nothing before it
            whole = not data[end : end + 1].isdigit() and not data[first - 1 : first].isdigit()
            if whole and (number >= 0 or (first > 0 and data[first - 1] == _MINUS)):
                return True
            start = data.find(digits, start + 1)
    return False
