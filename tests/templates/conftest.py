"""Fixtures the bundled template's tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from _llm_template_helpers import BASELINE_DIR, TEMPLATE_DIR
from _property_helpers import property_renderer

from wendy_llm import Renderer, Template, load_template


@pytest.fixture(scope="module")
def renderer() -> Iterator[Renderer]:
    """One helper per test module, as the property suites configure it."""
    with property_renderer() as shared:
        yield shared


@pytest.fixture(scope="module")
def template() -> Template:
    """The bundled python/llm template."""
    return load_template(TEMPLATE_DIR)


@pytest.fixture(scope="module")
def baseline() -> Template:
    """The stored baseline: python/llm before the Laguna/DFlash change."""
    return load_template(BASELINE_DIR)
