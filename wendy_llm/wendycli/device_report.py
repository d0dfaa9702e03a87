"""What a WendyOS device reports to ``wendy run``, and the build args the CLI makes of it.

Section 6 of the facts, at :data:`~wendy_llm.wendycli.REVISION`:

- ``WENDY_PLATFORM`` is ``nvidia-jetson`` for the device types
  :data:`JETSON_DEVICE_TYPES`, ``generic`` for every other type (a
  Raspberry Pi, ``x86_64``, and a type the CLI does not list, such as a
  Jetson Thor or a DGX Spark), and for a device that reports none;
- ``WENDY_DEVICE_TYPE`` is the device's ``/etc/wendyos/device-type``;
- ``WENDY_HAS_GPU`` is ``true``/``false``; ``WENDY_GPU_VENDOR`` is
  ``nvidia`` (Tegra or a discrete NVIDIA GPU) or not passed (a DRM-only GPU,
  or none);
- ``WENDY_JETPACK_VERSION`` (NVIDIA only) is the L4T release's
  ``major.first-revision`` looked up in :data:`JETPACK_BY_L4T`, else the text
  ``L4T <release>`` (``L4T 38.2.1`` on a Thor);
- ``WENDY_CUDA_VERSION`` (NVIDIA only) is the CUDA version as installed.

:class:`DeviceReport` is what one device reports; :func:`wendy_build_args`
turns it into the build args every built image of ``wendy run`` gets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

#: The device types the CLI names.
KNOWN_DEVICE_TYPES: Final = (
    "raspberry-pi-3",
    "raspberry-pi-4",
    "raspberry-pi-5",
    "jetson-agx-orin",
    "jetson-orin-nano",
    "x86_64",
)
#: The device types whose ``WENDY_PLATFORM`` is ``nvidia-jetson``.
JETSON_DEVICE_TYPES: Final = ("jetson-agx-orin", "jetson-orin-nano")
PLATFORM_JETSON: Final = "nvidia-jetson"
PLATFORM_GENERIC: Final = "generic"
#: The only ``WENDY_GPU_VENDOR`` the CLI passes.
NVIDIA: Final = "nvidia"

#: L4T ``major.first-revision`` -> the JetPack release the CLI reports.
JETPACK_BY_L4T: Final[Mapping[str, str]] = {
    "36.4": "6.1",
    "36.3": "6.0",
    "36.2": "6.0",
    "35.5": "5.1.3",
    "35.4": "5.1.2",
    "35.3": "5.1.1",
    "35.2": "5.1",
    "35.1": "5.0.2",
    "34.1": "5.0.1",
    "32.7": "4.6",
    "32.6": "4.6",
    "32.5": "4.5",
    "32.4": "4.4",
    "32.3": "4.3",
    "32.2": "4.2",
    "32.1": "4.1",
}


def wendy_platform(device_type: str | None) -> str:
    """``WENDY_PLATFORM`` for a device type (None: the device reports none)."""
    return PLATFORM_JETSON if device_type in JETSON_DEVICE_TYPES else PLATFORM_GENERIC


def jetpack_version(l4t_release: str) -> str:
    """``WENDY_JETPACK_VERSION`` for an L4T release such as ``36.4.3`` or ``38.2.1``."""
    major, _, rest = l4t_release.partition(".")
    revision = rest.split(".", 1)[0]
    return JETPACK_BY_L4T.get(f"{major}.{revision}", f"L4T {l4t_release}")


@dataclass(frozen=True)
class DeviceReport:
    """What a device reports; None: not reported (the build arg is then not passed)."""

    device_type: str | None = None
    has_gpu: bool | None = None
    gpu_vendor: str | None = None  # ``nvidia`` or None
    l4t_release: str | None = None  # NVIDIA Jetson only, e.g. ``36.4.3``
    cuda_version: str | None = None  # NVIDIA only, e.g. ``12.6``


def wendy_build_args(report: DeviceReport, *, debug: bool | None = False) -> dict[str, str]:
    """The Wendy build args for ``report``, in the order the CLI names them.

    ``debug`` None leaves ``WENDY_DEBUG`` out (the multi-service path passes
    it only when debugging); else it is ``true``/``false``.
    """
    args = {"WENDY_PLATFORM": wendy_platform(report.device_type)}
    if debug is not None:
        args["WENDY_DEBUG"] = "true" if debug else "false"
    if report.device_type is not None:
        args["WENDY_DEVICE_TYPE"] = report.device_type
    if report.has_gpu is not None:
        args["WENDY_HAS_GPU"] = "true" if report.has_gpu else "false"
    if report.gpu_vendor == NVIDIA:
        args["WENDY_GPU_VENDOR"] = NVIDIA
        if report.l4t_release is not None:
            args["WENDY_JETPACK_VERSION"] = jetpack_version(report.l4t_release)
        if report.cuda_version is not None:
            args["WENDY_CUDA_VERSION"] = report.cuda_version
    return args
