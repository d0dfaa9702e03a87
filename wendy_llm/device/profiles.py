"""Device profiles: the Wendy build args a kind of device gets, as data.

The CLI passes ``WENDY_PLATFORM`` and ``WENDY_DEBUG`` to every build, and
``WENDY_DEVICE_TYPE``, ``WENDY_HAS_GPU``, ``WENDY_GPU_VENDOR``,
``WENDY_JETPACK_VERSION`` and ``WENDY_CUDA_VERSION`` when the device reports
them (:mod:`wendy_llm.wendycli.compose`).  The spec gives those names, not
their values: **every value below is an assumption** (``assumed`` in the
view), chosen to be plausible for the device, to show what a Dockerfile
does with such args.  ``WENDY_DEBUG`` is ``false``: a ``wendy run`` without
its debug option.

The device view is computed for several profiles at once (by default all
of them): what is the same on every one is stated plainly, what differs is
shown per profile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from wendy_llm.errors import WendyLlmError

_PLATFORM = "linux/arm64"  # assumed: every profile is an arm64 device
# The args every build gets (WENDY_BUILD_ARGS_ALWAYS), the same on every profile.
_ALWAYS = {"WENDY_PLATFORM": _PLATFORM, "WENDY_DEBUG": "false"}


@dataclass(frozen=True)
class DeviceProfile:
    """A kind of device: its name (``--device``), a label, the Wendy build args it gets."""

    name: str
    label: str
    build_args: Mapping[str, str]


PROFILES: Final[tuple[DeviceProfile, ...]] = (
    DeviceProfile(
        "thor",
        "Jetson Thor (JetPack 7)",
        {
            **_ALWAYS,
            "WENDY_DEVICE_TYPE": "jetson-thor",
            "WENDY_HAS_GPU": "true",
            "WENDY_GPU_VENDOR": "nvidia",
            "WENDY_JETPACK_VERSION": "7.2",
            "WENDY_CUDA_VERSION": "13.2",
        },
    ),
    DeviceProfile(
        "orin",
        "Jetson Orin (JetPack 6)",
        {
            **_ALWAYS,
            "WENDY_DEVICE_TYPE": "jetson-orin",
            "WENDY_HAS_GPU": "true",
            "WENDY_GPU_VENDOR": "nvidia",
            "WENDY_JETPACK_VERSION": "6.2",
            "WENDY_CUDA_VERSION": "12.6",
        },
    ),
    DeviceProfile(
        "spark",
        "DGX Spark",
        {
            **_ALWAYS,
            "WENDY_DEVICE_TYPE": "dgx-spark",
            "WENDY_HAS_GPU": "true",
            "WENDY_GPU_VENDOR": "nvidia",
            "WENDY_CUDA_VERSION": "13.0",
        },
    ),
    DeviceProfile(
        "pi5",
        "Raspberry Pi 5",
        {
            **_ALWAYS,
            "WENDY_DEVICE_TYPE": "raspberry-pi-5",
            "WENDY_HAS_GPU": "false",
        },
    ),
    DeviceProfile(
        "bare",
        "a device that reports nothing",
        {**_ALWAYS},
    ),
)


class UnknownDeviceError(WendyLlmError):
    """``--device NAME`` names no profile."""


def profiles(names: Sequence[str] = ()) -> tuple[DeviceProfile, ...]:
    """The profiles named (all of them for none), in :data:`PROFILES` order."""
    known = {p.name: p for p in PROFILES}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UnknownDeviceError(
            f"no device profile {', '.join(map(repr, unknown))} (profiles: {', '.join(known)})"
        )
    return tuple(p for p in PROFILES if not names or p.name in names)
