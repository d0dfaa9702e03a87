"""Device profiles: the Wendy build args a kind of device gets, as data.

Each profile is a :class:`~wendy_llm.wendycli.device_report.DeviceReport`
(what the device reports: its type, GPU, L4T release, CUDA version) turned
into build args by the CLI's own rules (:func:`wendy_build_args`, section 6
of the facts): ``WENDY_PLATFORM`` follows the device type (``nvidia-jetson``
for the two Jetson Orin types the CLI names, ``generic`` for everything
else, a Thor and a Spark included), ``WENDY_JETPACK_VERSION`` is the CLI's
table value (``6.1``) or the ``L4T <release>`` text (``L4T 38.2.1``).  What
a profile *assumes* is the report: the type a Thor or a Spark writes in
``/etc/wendyos/device-type`` (the CLI does not name one), the L4T and CUDA
releases installed.  ``WENDY_DEBUG`` is ``false``: a ``wendy run`` without
its debug option (the compose and single-container paths pass it; the
multi-service path only when debugging, see :func:`without_debug`).

The device view is computed for several profiles at once (by default those
of :data:`PROFILES`): what is the same on every one is stated plainly, what
differs is shown per profile.  :data:`MORE_PROFILES` are the other device
types the CLI names, evaluated only when asked for with ``--device``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from wendy_llm.errors import WendyLlmError
from wendy_llm.wendycli.device_report import NVIDIA, DeviceReport, wendy_build_args


@dataclass(frozen=True)
class DeviceProfile:
    """A kind of device: its name (``--device``), a label, the Wendy build args it gets."""

    name: str
    label: str
    build_args: Mapping[str, str]
    report: DeviceReport | None = None  # what it reports (None: a hand-made set of args)


def profile(name: str, label: str, report: DeviceReport) -> DeviceProfile:
    """The profile of a device that reports ``report``, with the args the CLI makes of it."""
    return DeviceProfile(name, label, wendy_build_args(report), report)


def without_debug(device: DeviceProfile) -> DeviceProfile:
    """``device`` on the multi-service path, which passes ``WENDY_DEBUG`` only when
    debugging (a plain ``wendy run`` is not)."""
    if "WENDY_DEBUG" not in device.build_args:
        return device
    args = {k: v for k, v in device.build_args.items() if k != "WENDY_DEBUG"}
    return replace(device, build_args=args)


PROFILES: Final[tuple[DeviceProfile, ...]] = (
    profile(
        "thor",
        "Jetson AGX Thor, JetPack 7 (L4T 38.2.1); a type the CLI does not list: generic",
        DeviceReport("jetson-agx-thor", True, NVIDIA, "38.2.1", "13.0"),
    ),
    profile(
        "orin",
        "Jetson AGX Orin, JetPack 6.2 (L4T 36.4.3, which the CLI reports as 6.1)",
        DeviceReport("jetson-agx-orin", True, NVIDIA, "36.4.3", "12.6"),
    ),
    profile(
        "spark",
        "DGX Spark (a discrete NVIDIA GPU, no JetPack); a type the CLI does not list: generic",
        DeviceReport("dgx-spark", True, NVIDIA, None, "13.0"),
    ),
    profile(
        "pi5",
        "Raspberry Pi 5 (a DRM-only GPU: no vendor)",
        DeviceReport("raspberry-pi-5", True, None),
    ),
    profile("x86", "an x86_64 device without a GPU", DeviceReport("x86_64", False, None)),
    profile("bare", "a device that reports nothing", DeviceReport()),
)

#: The other device types the CLI names; evaluated only when named.
MORE_PROFILES: Final[tuple[DeviceProfile, ...]] = (
    profile(
        "orin-nano",
        "Jetson Orin Nano, a JetPack 6 newer than the CLI's table (L4T 36.5.0)",
        DeviceReport("jetson-orin-nano", True, NVIDIA, "36.5.0", "12.6.68"),
    ),
    profile("pi4", "Raspberry Pi 4", DeviceReport("raspberry-pi-4", True, None)),
    profile("pi3", "Raspberry Pi 3", DeviceReport("raspberry-pi-3", True, None)),
)


class UnknownDeviceError(WendyLlmError):
    """``--device NAME`` names no profile."""


def profiles(names: Sequence[str] = ()) -> tuple[DeviceProfile, ...]:
    """The profiles named, in :data:`PROFILES` then :data:`MORE_PROFILES` order
    (none named: :data:`PROFILES`)."""
    if not names:
        return PROFILES
    every = PROFILES + MORE_PROFILES
    known = {p.name: p for p in every}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UnknownDeviceError(
            f"no device profile {', '.join(map(repr, unknown))} (profiles: {', '.join(known)})"
        )
    return tuple(p for p in every if p.name in names)
