"""Property 6: rendering the python/llm template is deterministic across
calls, helper restarts and threads.  Beside the module's shared renderer, a
second one whose helper the property kills.

Strategies come from the template's own files (``tests/_strategies.py``);
example counts from ``tests/_hypothesis_profiles.py`` (500 examples per
property with ``CI`` set; no deadlines).  The properties of a module share
one ``Renderer`` (``tests/_property_helpers.py``).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor

import pytest
from _hypothesis_profiles import property_settings
from _property_helpers import MAX_OUTPUT_BYTES, RENDER_TIMEOUT_S
from _strategies import Inputs, Port, all_picks, default_port, inputs, template
from hypothesis import given

from wendy_llm.engine.client import Renderer
from wendy_llm.render.picks import CANONICAL_APP_ID

# --- 6. determinism ------------------------------------------------------------------


@pytest.fixture(scope="module")
def restarted() -> Iterator[Renderer]:
    """A second renderer, whose helper the property kills before each use."""
    with Renderer(timeout=RENDER_TIMEOUT_S, max_output_bytes=MAX_OUTPUT_BYTES) as other:
        yield other


@pytest.fixture(scope="module")
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=4) as executor:
        yield executor


def tree_bytes(values: Mapping[str, object], engine: Renderer) -> dict[str, bytes]:
    tree = template().render_values(values, renderer=engine)
    return {path: item.data for path, item in tree.files.items()}


@property_settings()
@given(case=inputs(all_picks()))
def test_rendering_is_deterministic_across_calls_restarts_and_threads(
    renderer: Renderer, restarted: Renderer, pool: ThreadPoolExecutor, case: Inputs
) -> None:
    values = case.values(template())
    first = tree_bytes(values, renderer)
    assert tree_bytes(values, renderer) == first
    old = restarted.pid
    if old is not None:
        os.kill(old, signal.SIGKILL)
    assert tree_bytes(values, restarted) == first
    assert restarted.pid not in (None, old)
    together = list(pool.map(lambda _: tree_bytes(values, renderer), range(8)))
    assert all(result == first for result in together)


def test_a_closed_and_reopened_renderer_renders_every_pick_the_same(renderer: Renderer) -> None:
    inputs_ = [
        Inputs(app_id, pick, port)
        for pick in template().picks()
        for app_id, port in (
            (CANONICAL_APP_ID, default_port()),
            ("x_1.y", Port(3000, "var", "3000")),
        )
    ]
    before = [tree_bytes(case.values(template()), renderer) for case in inputs_]
    for _ in range(2):
        with Renderer(timeout=RENDER_TIMEOUT_S) as fresh:
            assert [tree_bytes(case.values(template()), fresh) for case in inputs_] == before
