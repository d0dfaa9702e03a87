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

No deadlines, in either profile: a Hypothesis deadline fails an example
that merely ran slowly (a loaded machine, a helper restart) and stops no
hang, since it is checked only after the example returns.  Hangs are
guarded where they can happen: every render goes through a ``Renderer`` with
a timeout, and the engine robustness property asserts its own generous
bound on each call.
"""

from __future__ import annotations

import os
from typing import Final

from hypothesis import HealthCheck, settings

CI_PROFILE: Final = "wendy-llm-ci"
DEV_PROFILE: Final = "wendy-llm-dev"
CI_EXAMPLES: Final = 500
DEV_EXAMPLES: Final = 60


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _examples(default: int) -> int:
    raw = os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "").strip()
    return int(raw) if raw else default


settings.register_profile(
    CI_PROFILE,
    max_examples=_examples(CI_EXAMPLES),
    deadline=None,
    # CI runs must not depend on a local example database; print the seed
    # blob so a failure can be reproduced with @reproduce_failure.
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    DEV_PROFILE,
    max_examples=_examples(DEV_EXAMPLES),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

ACTIVE_PROFILE: Final = CI_PROFILE if in_ci() else DEV_PROFILE


def property_settings(**overrides: object) -> settings:
    """The active profile, with per-test overrides (e.g. ``max_examples=20``)."""
    return settings(settings.get_profile(ACTIVE_PROFILE), **overrides)  # type: ignore[arg-type]
