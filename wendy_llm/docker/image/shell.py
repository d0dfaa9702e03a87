"""A ``RUN`` snippet's simple commands, as word lists (what the image model reads).

Only the structure the model needs: words split like the shell does,
commands split at ``;``, ``&``, ``&&``, ``|``, ``||``, parentheses and line
ends.  A line with unbalanced quotes gives no commands rather than an
exception.  Split once per distinct snippet: every pick renders the same
Dockerfiles, and several checks read them.
"""

from __future__ import annotations

import functools
import shlex

_OPERATORS = ";&|()"


def shell_commands(text: str) -> list[list[str]]:
    """The simple commands of a shell snippet (a caller gets its own lists)."""
    return [list(words) for words in _split_commands(text)]


@functools.lru_cache(maxsize=512)
def _split_commands(text: str) -> tuple[tuple[str, ...], ...]:
    commands: list[tuple[str, ...]] = []
    for line in text.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=_OPERATORS)
        lexer.whitespace_split = True
        current: list[str] = []
        try:
            for token in lexer:
                if all(c in _OPERATORS for c in token):
                    if current:
                        commands.append(tuple(current))
                    current = []
                else:
                    current.append(token)
        except ValueError:
            continue
        if current:
            commands.append(tuple(current))
    return tuple(commands)
