"""Section 6 of the facts: what a device reports becomes the Wendy build args."""

from __future__ import annotations

import pytest

from wendy_llm.device import PROFILES, profiles
from wendy_llm.device.profiles import MORE_PROFILES, UnknownDeviceError
from wendy_llm.wendycli.device_report import (
    KNOWN_DEVICE_TYPES,
    DeviceReport,
    jetpack_version,
    wendy_build_args,
    wendy_platform,
)


@pytest.mark.parametrize(
    ("device_type", "platform"),
    [
        ("jetson-agx-orin", "nvidia-jetson"),
        ("jetson-orin-nano", "nvidia-jetson"),
        ("raspberry-pi-3", "generic"),
        ("raspberry-pi-4", "generic"),
        ("raspberry-pi-5", "generic"),
        ("x86_64", "generic"),
        ("jetson-agx-thor", "generic"),  # a type the CLI does not list
        ("dgx-spark", "generic"),
        (None, "generic"),
    ],
)
def test_wendy_platform_follows_the_device_type(device_type: str | None, platform: str) -> None:
    assert wendy_platform(device_type) == platform


@pytest.mark.parametrize(
    ("l4t", "reported"),
    [
        ("36.4.3", "6.1"),  # JetPack 6.2 reports 6.1
        ("36.4.0", "6.1"),
        ("36.3.0", "6.0"),
        ("36.2.0", "6.0"),
        ("35.5.0", "5.1.3"),
        ("35.4.1", "5.1.2"),
        ("35.3.1", "5.1.1"),
        ("35.2.1", "5.1"),
        ("35.1.0", "5.0.2"),
        ("34.1.1", "5.0.1"),
        ("32.7.4", "4.6"),
        ("32.6.1", "4.6"),
        ("32.5.0", "4.5"),
        ("32.4.4", "4.4"),
        ("32.3.1", "4.3"),
        ("32.2.0", "4.2"),
        ("32.1.0", "4.1"),
        ("38.2.1", "L4T 38.2.1"),  # a Thor, JetPack 7
        ("36.5.0", "L4T 36.5.0"),  # a JetPack 6 newer than the table
    ],
)
def test_the_jetpack_version_is_the_table_value_or_the_l4t_text(l4t: str, reported: str) -> None:
    assert jetpack_version(l4t) == reported


def test_only_an_nvidia_device_passes_jetpack_and_cuda() -> None:
    drm = DeviceReport("raspberry-pi-5", True, None, "36.4.3", "12.6")
    assert wendy_build_args(drm) == {
        "WENDY_PLATFORM": "generic",
        "WENDY_DEBUG": "false",
        "WENDY_DEVICE_TYPE": "raspberry-pi-5",
        "WENDY_HAS_GPU": "true",
    }
    assert wendy_build_args(DeviceReport(), debug=None) == {"WENDY_PLATFORM": "generic"}
    assert wendy_build_args(DeviceReport(), debug=True)["WENDY_DEBUG"] == "true"


def test_the_profiles_pass_what_the_cli_passes() -> None:
    by_name = {p.name: dict(p.build_args) for p in PROFILES + MORE_PROFILES}
    assert by_name["thor"]["WENDY_PLATFORM"] == "generic"
    assert by_name["thor"]["WENDY_JETPACK_VERSION"] == "L4T 38.2.1"
    assert by_name["spark"]["WENDY_PLATFORM"] == "generic"
    assert "WENDY_JETPACK_VERSION" not in by_name["spark"]  # no Tegra release
    assert by_name["orin"]["WENDY_PLATFORM"] == "nvidia-jetson"
    assert by_name["orin"]["WENDY_JETPACK_VERSION"] == "6.1"
    assert by_name["orin-nano"]["WENDY_JETPACK_VERSION"] == "L4T 36.5.0"
    assert by_name["pi5"].get("WENDY_GPU_VENDOR") is None
    assert by_name["bare"] == {"WENDY_PLATFORM": "generic", "WENDY_DEBUG": "false"}
    # Every device type the CLI names has a profile.
    reported = {p.report.device_type for p in PROFILES + MORE_PROFILES if p.report}
    assert set(KNOWN_DEVICE_TYPES) <= reported


def test_the_old_profile_names_still_select_and_more_can_be_named() -> None:
    assert [p.name for p in profiles(["bare", "thor", "orin", "spark", "pi5"])] == [
        "thor",
        "orin",
        "spark",
        "pi5",
        "bare",
    ]
    assert [p.name for p in profiles(["pi4"])] == ["pi4"]
    assert "pi4" not in [p.name for p in profiles()]
    with pytest.raises(UnknownDeviceError, match="'agx'"):
        profiles(["agx"])
