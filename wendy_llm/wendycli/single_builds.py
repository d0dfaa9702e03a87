"""The images ``wendy run`` makes on the single-container path without a render's Dockerfile.

Section 5 of the facts (``docs/device-paths.md``):

- a **python** project without a ``Dockerfile`` gets a generated one, always
  the same (:func:`python_dockerfile`): ``FROM python:3.11-slim``,
  ``WORKDIR /app``, the requirements installed when ``requirements.txt``
  exists, ``COPY . .`` and ``CMD ["python", <entry>]`` where the entry is
  ``app.py`` when it exists, else ``main.py`` when it exists, else ``app.py``
  (:func:`python_entry`); it is built with the Wendy build args like any
  Dockerfile;
- a **swift** project without one is built by the swift container plugin,
  with no Wendy build args, and pushed as
  ``localhost:5000/<lowercased product name>:latest`` (:func:`swift_image`).
  The facts do not say how the CLI finds the product; :func:`swift_product`
  reads the one executable product ``Package.swift`` declares, else (no
  product declared) the one executable target, which SwiftPM exposes as an
  executable product of the same name, and gives None (unknown) otherwise;
- an **Xcode** project goes to the macOS path (:data:`XCODE_PATH`), not to
  a device; so does a **macOS** Swift package (``wendy.json`` platform
  ``darwin``, :data:`MACOS_SWIFTPM_PATH`): the facts name the macOS SwiftPM
  path (which reads ``run.args``) without saying what selects it, and a
  ``darwin`` app is not offered for WendyOS devices (section 7: its
  ``meta.json`` targets name no WendyOS target), so it is judged as a Mac app,
  like a ``wendy-lite`` app is judged a microcontroller's.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from wendy_llm.wendycli.project import DEVICE_REGISTRY

#: The base image of the generated Python Dockerfile.
PYTHON_BASE: Final = "python:3.11-slim"
#: Where an Xcode project goes instead of a device.
XCODE_PATH: Final = (
    "an Xcode project goes to the macOS path (wendy run builds and runs it on the Mac), "
    "not to a WendyOS device"
)
#: The ``wendy.json`` platform of a macOS app (``wendy init``'s ``darwin`` templates).
MACOS_PLATFORM: Final = "darwin"
#: Where a macOS SwiftPM app (``wendy.json`` platform ``darwin``) goes instead of a device.
MACOS_SWIFTPM_PATH: Final = (
    "a macOS app (wendy.json platform darwin) goes to the macOS SwiftPM path (wendy run "
    "builds and runs it on the Mac, with run.args), not to a WendyOS device"
)
#: ``.executable(name: "X"`` in ``Package.swift`` (a product declaration).
_EXECUTABLE_PRODUCT: Final = re.compile(r"\.executable\s*\(\s*name\s*:\s*\"([^\"\\]+)\"")
#: ``.executableTarget(name: "X"``: SwiftPM makes it a product when none is declared.
_EXECUTABLE_TARGET: Final = re.compile(r"\.executableTarget\s*\(\s*name\s*:\s*\"([^\"\\]+)\"")


def python_entry(top: Collection[str]) -> str:
    """The file the generated Dockerfile's ``CMD`` runs, given the project's top-level files."""
    for name in ("app.py", "main.py"):
        if name in top:
            return name
    return "app.py"


def python_dockerfile(top: Collection[str]) -> str:
    """The Dockerfile ``wendy run`` generates for a python project with these top-level files."""
    lines = [f"FROM {PYTHON_BASE}", "WORKDIR /app"]
    if "requirements.txt" in top:
        lines += ["COPY requirements.txt .", "RUN pip install --no-cache-dir -r requirements.txt"]
    lines += ["COPY . .", f'CMD ["python", "{python_entry(top)}"]']
    return "\n".join(lines) + "\n"


def swift_product(package_swift: str) -> str | None:
    """The executable product ``Package.swift`` declares, else its one executable
    target (None: none, or several)."""
    found = set(_EXECUTABLE_PRODUCT.findall(package_swift))
    if not found:
        found = set(_EXECUTABLE_TARGET.findall(package_swift))
    return next(iter(found)) if len(found) == 1 else None


def swift_image(product: str) -> str:
    """The image the swift container plugin's build is pushed as."""
    return f"{DEVICE_REGISTRY}/{product.lower()}:latest"
