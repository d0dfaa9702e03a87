"""The property suite's Hypothesis settings: no property has a deadline."""

from __future__ import annotations

import pytest
from _hypothesis_profiles import CI_PROFILE, DEV_PROFILE, property_settings
from hypothesis import settings


@pytest.mark.parametrize("profile", [CI_PROFILE, DEV_PROFILE])
def test_no_property_has_a_deadline(profile: str) -> None:
    # A deadline fails an example that merely ran slowly on a loaded machine.
    assert settings.get_profile(profile).deadline is None
    assert property_settings().deadline is None
