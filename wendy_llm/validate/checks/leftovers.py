"""Template actions left in a render: ``{{.NAME}}`` where NAME is one of the pick's values.

A rendered file keeps a literal ``{{.PORT}}`` when its author escaped the
action (``{{"{{"}}.PORT}}``) or when ``wendy init`` copies the file instead of
rendering it (an extension it does not render, such as ``.tsx``): either way
every project made from the template gets the text, not the value.  Only
actions naming one of the template's own values count, so a Go web app's
``{{.Title}}`` in its own HTML templates (escaped on purpose) is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from wendy_llm.codes import Check
from wendy_llm.codes.tools import RENDER_LEFTOVER
from wendy_llm.errors import quoted
from wendy_llm.validate.findings import Finding, error

CHECK = Check.RENDER
_ACTION = re.compile(rb"\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)")


def unrendered_actions(tree: Mapping[str, bytes], names: Collection[str]) -> list[Finding]:
    """A failure per output line holding ``{{.NAME}}`` for a NAME in ``names``."""
    found: list[Finding] = []
    for path, data in sorted(tree.items()):
        if b"{{" not in data:
            continue
        for match in _ACTION.finditer(data):
            name = match.group(1).decode("ascii")
            if name not in names:
                continue
            line = data.count(b"\n", 0, match.start()) + 1
            end = data.find(b"}}", match.end())
            action = data[match.start() : match.end() if end < 0 else end + 2]
            text = action.decode("utf-8", errors="replace")
            message = (
                f"{quoted(text)} is left in the output: {name} is one of the template's values, "
                "so every project made from it gets the literal text (an escaped action, or a "
                "file wendy init copies without rendering)"
            )
            found.append(error(RENDER_LEFTOVER, message, path, line))
    return found
