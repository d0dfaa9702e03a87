"""Hand-made pick renders of a small template ``py/t`` for the golden
fixture tests (layout, manifest, checks)."""

from __future__ import annotations

from _golden_helpers import render

from wendy_llm.render.canonical import PickRender

PNG = b"\x89PNG{{ raw }}"


def renders() -> list[PickRender]:
    return [
        render(
            "alpha",
            {"Dockerfile": "FROM x\n", "compose.yml": "model: a\n", "logo.png": PNG},
            MODEL="a:1",
        ),
        render(
            "beta",
            {"Dockerfile": "FROM x\n", "compose.yml": "model: b\n", "logo.png": PNG},
            MODEL="b:1",
        ),
        render(
            "gamma",
            {"Dockerfile": "FROM x\n", "compose.yml": "model: c\n", "logo.png": PNG, "x.md": "c"},
            MODEL="special",
        ),
    ]
