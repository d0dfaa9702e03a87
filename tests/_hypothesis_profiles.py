"""Hypothesis settings for the property suites (``tests/test_properties_*.py``).

Two profiles, chosen by the ``CI`` environment variable (set and not
``0``/``false``/``no``: CI):

- ``wendy-llm-ci``: 500 examples per property, the issue's floor;
- ``wendy-llm-dev``: 60 examples, for a quick local run.

``HYPOTHESIS_MAX_EXAMPLES`` overrides the count either way (a long soak:
``HYPOTHESIS_MAX_EXAMPLES=5000``).

The profiles are registered here and applied per test through
:func:`property_settings` rather than loaded globally, so importing this
module changes nothing for other Hypothesis users in the run.

Deadlines: a render of the template is one round trip to the Go helper,
well under a millisecond; :data:`RENDER_DEADLINE` (2 s) leaves room for a
loaded 2-core machine and the occasional helper start.  Properties that
restart the helper or use threads get :data:`RESTART_DEADLINE`.  The engine
robustness property has no deadline: examples that hit the renderer's
timeout take that long by design, and the test asserts its own bound.
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Final

from hypothesis import HealthCheck, settings

CI_PROFILE: Final = "wendy-llm-ci"
DEV_PROFILE: Final = "wendy-llm-dev"
CI_EXAMPLES: Final = 500
DEV_EXAMPLES: Final = 60

RENDER_DEADLINE: Final = timedelta(seconds=2)
RESTART_DEADLINE: Final = timedelta(seconds=10)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _examples(default: int) -> int:
    raw = os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "").strip()
    return int(raw) if raw else default


settings.register_profile(
    CI_PROFILE,
    max_examples=_examples(CI_EXAMPLES),
    deadline=RENDER_DEADLINE,
    # CI runs must not depend on a local example database; print the seed
    # blob so a failure can be reproduced with @reproduce_failure.
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    DEV_PROFILE,
    max_examples=_examples(DEV_EXAMPLES),
    deadline=RENDER_DEADLINE,
    suppress_health_check=[HealthCheck.too_slow],
)

ACTIVE_PROFILE: Final = CI_PROFILE if in_ci() else DEV_PROFILE


def property_settings(**overrides: object) -> settings:
    """The active profile, with per-test overrides (e.g. ``deadline=None``)."""
    return settings(settings.get_profile(ACTIVE_PROFILE), **overrides)  # type: ignore[arg-type]
