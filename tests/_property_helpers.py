"""What the property modules (``tests/test_properties_*.py``) share: the
renderer their properties run on, and Go's int64 range."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from wendy_llm.engine.client import Renderer

# The renderer every property shares: a short timeout so that engine
# examples which loop are cut off quickly, and an output cap far above any
# template render but low enough that runaway output stops fast.
RENDER_TIMEOUT_S = 2.0
MAX_OUTPUT_BYTES = 8 << 20

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


@contextlib.contextmanager
def property_renderer() -> Iterator[Renderer]:
    """A module's shared renderer, its helper already started."""
    with Renderer(timeout=RENDER_TIMEOUT_S, max_output_bytes=MAX_OUTPUT_BYTES) as shared:
        shared.render("warm-up", {})  # the helper's start is not an example's cost
        yield shared
