"""The device view: what ``wendy run`` deploys on a WendyOS device, for one render.

Computed from the Wendy CLI's behaviour at a named revision
(:mod:`wendy_llm.wendycli`), never by running it: the path taken, each app
with its image or build (build args for each device profile), argv, restart
policy, creation order, ports, persist volumes, network mode, synthesised
entitlements and effective environment; what the device drops or ignores;
and findings (what makes ``wendy run`` fail, and a container's ``ENV`` the
view proves wrong: errors; what the device silently drops: warnings, with
file and line).

- :mod:`model`: the view, frozen dataclasses with stable field names;
- :mod:`profiles`: the device profiles (assumed build-arg values);
- :mod:`view`: :func:`device_view`, the entry point;
- :mod:`compose_read`, :mod:`compose_keys`, :mod:`compose_view`: the compose path;
- :mod:`images`: what a built image holds, per profile;
- :mod:`env_checks`: what the view proves wrong about a container's environment;
- :mod:`other_paths`: which other path ``wendy run`` takes, and why;
  :mod:`multi_service` (``wendy.json`` services) and :mod:`single_container`
  (one root image), with :mod:`app_image` building their images;
  ``wendy.json`` is read by :mod:`wendy_llm.wendycli.wendy_json`, as the CLI
  reads it.
"""

from __future__ import annotations

from wendy_llm.device.model import (
    Build,
    BuildArg,
    Command,
    DeviceFinding,
    DeviceView,
    DroppedVariable,
    Entitlement,
    Environment,
    Ignored,
    Port,
    Restart,
    Service,
    Volume,
)
from wendy_llm.device.profiles import PROFILES, DeviceProfile, profiles
from wendy_llm.device.view import compose_file, device_view

__all__ = [
    "PROFILES",
    "Build",
    "BuildArg",
    "Command",
    "DeviceFinding",
    "DeviceProfile",
    "DeviceView",
    "DroppedVariable",
    "Entitlement",
    "Environment",
    "Ignored",
    "Port",
    "Restart",
    "Service",
    "Volume",
    "compose_file",
    "device_view",
    "profiles",
]
