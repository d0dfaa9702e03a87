"""Fixtures the engine's tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wendy_llm import Renderer


@pytest.fixture(scope="module")
def renderer() -> Iterator[Renderer]:
    """One helper process per test module, closed after it."""
    with Renderer() as shared:
        yield shared
